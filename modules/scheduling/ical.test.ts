/**
 * Invitations for every zone a person can choose (and aliases the profile accepts), read with ical.js
 * as a calendar app would: each TZID used has its VTIMEZONE in the file, a time without one is UTC
 * (never floating), the start and end are the right instants, DTSTAMP is UTC.
 */
import { describe, expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { isTimeZone, TIME_ZONES } from '../../core/time.ts'
import { invitationIcs } from './ical.ts'

const ALIASES = ['US/Eastern', 'US/Pacific', 'Asia/Calcutta', 'Europe/Kiev', 'America/Godthab', 'EST5EDT', 'CST6CDT', 'Etc/GMT+5', 'GMT', 'Etc/UTC']
// Winter and summer in both hemispheres, and the first 01:30 of New York's night of 1 November (EDT).
const STARTS = ['2026-01-15T15:00:00Z', '2026-07-15T15:00:00Z', '2026-11-01T05:30:00Z'].map((s) => new Date(s))
const stamp = new Date('2026-01-02T03:04:05Z')

function read(timeZone: string, start: Date) {
	const ics = invitationIcs({
		method: 'REQUEST',
		uid: 'i1@bench.example',
		sequence: 0,
		start,
		minutes: 45,
		timeZone,
		summary: 'Interview',
		description: 'd',
		videoUrl: null,
		organizer: { name: 'Dana', email: 'dana@example.com' },
		attendees: [{ name: 'Ann', email: 'ann@example.com' }],
		stamp,
	})
	const root = new ICAL.Component(ICAL.parse(ics))
	const vevent = root.getFirstSubcomponent('vevent')!
	const defined = root.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'))
	const times = ['dtstart', 'dtend'].map((name) => vevent.getFirstProperty(name)!)
	const event = new ICAL.Event(vevent)
	return {
		ics,
		defined,
		tzids: times.map((p) => p.getParameter('tzid') ?? null),
		// A time without TZID must be UTC: a floating one is read in the reader's own zone.
		floating: times.filter((p) => !p.getParameter('tzid') && !String(p.toICALString()).endsWith('Z')).length,
		start: event.startDate.toJSDate().toISOString(),
		end: event.endDate.toJSDate().toISOString(),
		stamp: ics.split('\r\n').find((l) => l.startsWith('DTSTAMP'))!,
	}
}

describe('scheduling invitations in every zone', () => {
	test.each([...TIME_ZONES, ...ALIASES])('%s', (zone) => {
		expect(isTimeZone(zone)).toBe(true)
		for (const start of STARTS) {
			const r = read(zone, start)
			for (const tzid of r.tzids) if (tzid) expect({ zone, tzid, defined: r.defined.includes(tzid) }).toEqual({ zone, tzid, defined: true })
			expect({ zone, floating: r.floating }).toEqual({ zone, floating: 0 })
			expect({ zone, start: r.start, end: r.end }).toEqual({
				zone,
				start: start.toISOString(),
				end: new Date(start.getTime() + 45 * 60_000).toISOString(),
			})
			expect(r.stamp).toBe('DTSTAMP:20260102T030405Z')
		}
	})

	test('a zone the VTIMEZONE source knows keeps its TZID, under its older name or the alias’s zone if need be', () => {
		const tzid = (zone: string) => read(zone, STARTS[0]!).tzids[0]
		expect(tzid('America/Chicago')).toBe('America/Chicago')
		expect(tzid('Asia/Kolkata')).toBe('Asia/Kolkata')
		expect(tzid('Europe/Kyiv')).toBe('Europe/Kiev')
		expect(tzid('Pacific/Kanton')).toBe('Pacific/Enderbury')
		expect(tzid('EST5EDT')).toBe('America/New_York')
		expect(tzid('UTC')).toBeNull()
	})
})
