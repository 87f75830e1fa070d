/**
 * The invitation calendar apps read (RFC 5546 iTIP over RFC 5545), written with ical-generator:
 * METHOD:REQUEST for a new or moved interview, METHOD:CANCEL for a cancelled one; the UID stays
 * the interview's and SEQUENCE rises with each change, so a calendar updates the event it has
 * instead of adding another. Times are the scheduler's wall clock with its TZID and a VTIMEZONE.
 */
import { TZDate } from '@date-fns/tz'
import { getVtimezoneComponent } from '@touch4it/ical-timezones'
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator'

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

export function invitationIcs(i: Invitation): string {
	const calendar = ical({
		prodId: { company: 'Benchline', product: 'Benchline', language: 'EN' },
		method: i.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
	})
	// UTC needs no VTIMEZONE: its times are written with Z.
	const zoned = i.timeZone !== 'UTC'
	if (zoned) calendar.timezone({ name: i.timeZone, generator: getVtimezoneComponent })
	const at = (ms: number) => (zoned ? new TZDate(ms, i.timeZone) : new Date(ms))
	const event = calendar.createEvent({
		id: i.uid,
		sequence: i.sequence,
		stamp: i.stamp,
		start: at(i.start.getTime()),
		end: at(i.start.getTime() + i.minutes * 60_000),
		timezone: zoned ? i.timeZone : null,
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
