/**
 * The invitation calendar apps read (RFC 5546 iTIP over RFC 5545), written with ical-generator:
 * METHOD:REQUEST for a new or moved interview, METHOD:CANCEL for a cancelled one; the UID stays
 * the interview's and SEQUENCE rises with each change, so a calendar updates the event it has
 * instead of adding another. Times are the scheduler's wall clock with its TZID and a VTIMEZONE
 * (`zoneFor`); when no VTIMEZONE reads them back as the right instants, they are written in UTC
 * (`Z`) instead, never as a TZID the file does not define. DTSTAMP is always UTC.
 */
import { TZDate } from '@date-fns/tz'
import { getVtimezoneComponent } from '@touch4it/ical-timezones'
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import ICAL from 'ical.js'

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
 * Names the VTIMEZONE source may know a zone by: its own, the older name of a renamed zone (the
 * source's data predates the rename), the runtime's canonical name for an alias.
 */
const OLDER_NAMES: Readonly<Record<string, string>> = {
	'Europe/Kyiv': 'Europe/Kiev',
	'America/Nuuk': 'America/Godthab',
	'Pacific/Kanton': 'Pacific/Enderbury',
	EST5EDT: 'America/New_York',
	CST6CDT: 'America/Chicago',
	MST7MDT: 'America/Denver',
	PST8PDT: 'America/Los_Angeles',
}

function wallClock(seconds: number, zone: string) {
	const w = new TZDate(seconds * 1000, zone)
	return { year: w.getFullYear(), month: w.getMonth() + 1, day: w.getDate(), hour: w.getHours(), minute: w.getMinutes(), second: w.getSeconds() }
}

function namesFor(zone: string): string[] {
	let canonical = zone
	try {
		canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
	} catch {}
	return [...new Set([zone, OLDER_NAMES[zone], canonical, OLDER_NAMES[canonical]].filter((n): n is string => Boolean(n)))]
}

/**
 * The TZID and VTIMEZONE to write `instants` of `zone` with: the first the source has under one of
 * the zone's names whose rules turn each instant's wall clock in `zone` back into that instant, as a
 * calendar app does. Null when there is none (a zone newer than the source's data, rules changed
 * since, a time that happens twice read as the second): the invitation is then written in UTC.
 */
export function zoneFor(zone: string, instants: Date[]): { tzid: string; vtimezone: string } | null {
	if (zone === 'UTC') return null
	for (const name of namesFor(zone)) {
		const vtimezone = getVtimezoneComponent(name)
		if (!vtimezone) continue
		try {
			const component = ICAL.Component.fromString(vtimezone)
			const tzid = String(component.getFirstPropertyValue('tzid') ?? '')
			if (!tzid) continue
			const rules = new ICAL.Timezone(component)
			const readsBack = instants.every((instant) => {
				const seconds = Math.floor(instant.getTime() / 1000)
				// The wall clock written under the TZID (the runtime's, as ical-generator writes it) is the scheduler's.
				const [written, own] = [wallClock(seconds, tzid), wallClock(seconds, zone)]
				if (JSON.stringify(written) !== JSON.stringify(own)) return false
				return new ICAL.Time({ ...written, isDate: false }, rules).toUnixTime() === seconds
			})
			if (readsBack) return { tzid, vtimezone }
		} catch {}
	}
	return null
}

export function invitationIcs(i: Invitation): string {
	const calendar = ical({
		prodId: { company: 'Benchline', product: 'Benchline', language: 'EN' },
		method: i.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
	})
	const start = i.start.getTime()
	const end = start + i.minutes * 60_000
	// UTC, or a zone no VTIMEZONE can be written for: times with Z, no TZID.
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
		summary: i.summary,
		description: i.description,
		location: i.videoUrl,
		url: i.videoUrl,
		status: i.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
		organizer: i.organizer,
	})
	for (const a of i.attendees)
		event.createAttendee({ name: a.name, email: a.email, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.NEEDSACTION, rsvp: i.method === 'REQUEST' })
	return calendar.toString()
}
