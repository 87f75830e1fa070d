/**
 * The invitation calendar apps read (RFC 5546 iTIP over RFC 5545), written with ical-generator:
 * METHOD:REQUEST for a new or moved interview, METHOD:CANCEL for a cancelled one; the UID stays
 * the interview's and SEQUENCE rises with each change, so a calendar updates the event it has
 * instead of adding another. Times are the scheduler's wall clock with its TZID and a VTIMEZONE built
 * from the runtime's own time-zone data (`zoneFor`, `vtimezone.ts`); in UTC (`Z`) for a UTC scheduler
 * and for a start or end in the hour clocks go back over, never as a TZID the file does not define.
 * DTSTAMP is always UTC.
 */
import { TZDate } from '@date-fns/tz'
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import { UTC } from '../../core/time.ts'
import { cleanLine, cleanText } from '../../core/untrusted.ts'
import { showsTwice, vtimezone, zoneWindow } from './vtimezone.ts'

export interface Invitation {
	method: 'REQUEST' | 'CANCEL'
	uid: string
	sequence: number
	start: Date
	minutes: number
	timeZone: string
	summary: string
	description: string
	videoUrl: string | null
	organizer: { name: string; email: string }
	attendees: { name: string; email: string }[]
	/** When it was written (DTSTAMP). */
	stamp: Date
}

/**
 * The TZID and VTIMEZONE to write `instants` of `zone` with: the zone's own name, defined from the
 * runtime's time-zone data (`vtimezone.ts`). Null, for times in UTC instead, when the zone is UTC, or
 * unknown to the runtime, or when an instant's wall clock there shows twice (clocks going back): a TZID
 * time cannot tell calendar apps which of the two it is.
 */
export function zoneFor(zone: string, instants: Date[]): { tzid: string; vtimezone: string } | null {
	if (zone === UTC) return null
	const w = zoneWindow(zone, instants)
	if (!w || instants.some((at) => showsTwice(w, at))) return null
	return { tzid: zone, vtimezone: vtimezone(w) }
}

/**
 * A URL as the value of a URI property: ical-generator escapes it as text (`,` as `\,`, `;` as `\;`),
 * which RFC 5545 does not do for URIs, so calendar apps opened `…pwd=a\,b\;c`. Percent-encoded, the
 * two never need escaping, and the address means the same (LOCATION, text, keeps it as typed).
 */
const uriValue = (url: string) => url.replaceAll(',', '%2C').replaceAll(';', '%3B')

/**
 * A person's name as a parameter value (the CN of the organizer and of each attendee, the only
 * parameters people's text reaches; addresses are property values): one line, without control
 * characters (`cleanLine`), and `^` and `"` written as RFC 6868 says (`^^`, `^'`), which calendar
 * apps read back as the name. ical-generator quotes the value but writes a `"` in it as `\"`, which
 * RFC 5545 does not have: the quote ended the value, so a name such as `a";ROLE=CHAIR;X="` added
 * parameters and `a":mailto:x@evil.test;X="` changed the attendee's address. It also writes a `\` as
 * `\\`, which RFC 5545 does not have either (a quoted value is taken as written): calendar apps showed
 * `O\\Neil` for `O\Neil`. So a `\` goes to the generator as `BACKSLASH` and is put back in the
 * finished file (`withBackslashes`).
 */
const paramText = (text: string) =>
	cleanLine(withoutBackslashMark(text), Number.MAX_SAFE_INTEGER).replaceAll('^', '^^').replaceAll('"', "^'").replaceAll('\\', BACKSLASH)

/**
 * Stands for a `\` of a name while ical-generator writes the file: U+FDD0, a noncharacter (Unicode
 * keeps it for a program's own use, never for text), taken out of every text the file holds first,
 * so each one in the generator's output is a name's `\`.
 */
const BACKSLASH = '\uFDD0'
const withoutBackslashMark = (text: string) => text.replaceAll(BACKSLASH, '')
const withBackslashes = (ics: string) => ics.replaceAll(BACKSLASH, '\\')

/**
 * Text of a TEXT property (SUMMARY, DESCRIPTION, LOCATION): RFC 5545 (3.3.11) has no control
 * character in it but the line breaks ical-generator writes as `\n`, and ical-generator writes the
 * others as they are (a NUL, an ESC of a job title stored before the API refused them; a `\u2028`
 * made two lines of one in apps that split on it). Next line and the Unicode line and paragraph
 * separators are line breaks; the rest goes with the invisible characters `cleanText` removes.
 */
const textValue = (text: string) => cleanText(withoutBackslashMark(text).replace(/[\u0085\u2028\u2029]/g, '\n'))

export function invitationIcs(i: Invitation): string {
	const calendar = ical({
		prodId: { company: 'Benchline', product: 'Benchline', language: 'EN' },
		method: i.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
	})
	const start = i.start.getTime()
	const end = start + i.minutes * 60_000
	// UTC, a zone the runtime does not know, a wall clock that shows twice: times with Z, no TZID.
	const zone = zoneFor(i.timeZone, [new Date(start), new Date(end)])
	// The calendar's own zone stays unnamed: ical-generator would write DTSTAMP as that zone's wall
	// clock without Z. The generator still writes the VTIMEZONE of the event's TZID.
	if (zone) calendar.timezone({ name: null, generator: (tzid) => (tzid === zone.tzid ? zone.vtimezone : null) })
	const at = (ms: number) => (zone ? new TZDate(ms, zone.tzid) : new Date(ms))
	const event = calendar.createEvent({
		id: i.uid,
		sequence: i.sequence,
		stamp: i.stamp,
		start: at(start),
		end: at(end),
		timezone: zone?.tzid ?? null,
		summary: textValue(i.summary),
		description: textValue(i.description),
		location: i.videoUrl && textValue(i.videoUrl),
		url: i.videoUrl && uriValue(cleanText(withoutBackslashMark(i.videoUrl))),
		status: i.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
		organizer: { name: paramText(i.organizer.name), email: i.organizer.email },
	})
	for (const a of i.attendees)
		event.createAttendee({
			name: paramText(a.name),
			email: a.email,
			role: ICalAttendeeRole.REQ,
			status: ICalAttendeeStatus.NEEDSACTION,
			rsvp: i.method === 'REQUEST',
		})
	return withBackslashes(calendar.toString())
}
