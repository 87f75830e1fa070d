/**
 * Invitations for every zone a person can choose (and aliases the profile accepts), read with ical.js
 * as a calendar app would: the times carry the scheduler's TZID, defined by a VTIMEZONE in the file,
 * and the local time under it stands for the exact instant scheduled, in winter, in summer, on the
 * days clocks change, in 2026 and in 2028. Only UTC, and a start or end whose wall clock shows twice
 * (the hour clocks go back over), are written in UTC (`Z`); never floating. DTSTAMP is UTC.
 *
 * What the zone's clock shows is read here with core/time (Intl), independently of vtimezone.ts, and
 * the changes of offset are found by halving weeks as core/time.test.ts does.
 */
import { describe, expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { isTimeZone, localInputValue, offsetMinutes, TIME_ZONES, UTC } from '../../core/time.ts'
import { invitationIcs } from './ical.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const LENGTH = 45
const ALIASES = ['US/Eastern', 'US/Pacific', 'Asia/Calcutta', 'Europe/Kiev', 'America/Godthab', 'EST5EDT', 'CST6CDT', 'Etc/GMT+5', 'GMT', 'Etc/UTC']
const ZONES = [...TIME_ZONES, ...ALIASES]
const WINTER = new Date('2026-01-15T15:00:00Z')
const SUMMER = new Date('2026-07-15T15:00:00Z')
// Another window of years (a leap day), so the VTIMEZONE is not one year's only.
const LEAP_DAY = new Date('2028-02-29T12:00:00Z')
const stamp = new Date('2026-01-02T03:04:05Z')

function invite(timeZone: string, start: Date): string {
	return invitationIcs({
		method: 'REQUEST',
		uid: 'i1@bench.example',
		sequence: 0,
		start,
		minutes: LENGTH,
		timeZone,
		summary: 'Interview',
		description: 'd',
		videoUrl: null,
		organizer: { name: 'Dana', email: 'dana@example.com' },
		attendees: [{ name: 'Ann', email: 'ann@example.com' }],
		stamp,
	})
}

/** The instant a local time stands for under a VTIMEZONE, as ical.js reads it. */
const underZone = (zone: ICAL.Timezone, fields: { year: number; month: number; day: number; hour: number; minute: number; second: number }) =>
	new Date(new ICAL.Time({ ...fields, isDate: false }, zone).toUnixTime() * 1000).toISOString()

/** What a calendar app reads in an invitation: the TZIDs, the zones the file defines, the start and end instants. */
function read(ics: string) {
	const root = new ICAL.Component(ICAL.parse(ics))
	const vevent = root.getFirstSubcomponent('vevent')!
	const zones = new Map(root.getAllSubcomponents('vtimezone').map((z) => [String(z.getFirstPropertyValue('tzid')), z]))
	const times = ['dtstart', 'dtend'].map((name) => vevent.getFirstProperty(name)!)
	const tzids = times.map((p) => (p.getParameter('tzid') as string | undefined) ?? null)
	// Each time as the local time under its TZID's VTIMEZONE (UTC when it has none).
	const instants = times.map((p, i) => {
		const value = p.getFirstValue() as ICAL.Time
		const zone = tzids[i] ? zones.get(tzids[i]!) : undefined
		if (tzids[i]) return zone ? underZone(new ICAL.Timezone(zone), value) : 'TZID not defined in the file'
		return p.toICALString().endsWith('Z') ? value.toJSDate().toISOString() : 'floating'
	})
	const event = new ICAL.Event(vevent)
	return {
		tzids,
		vtimezone: tzids[0] ? zones.get(tzids[0]) : undefined,
		instants,
		// ical.js's own reading of the event agrees.
		event: [event.startDate.toJSDate().toISOString(), event.endDate.toJSDate().toISOString()],
		stamp: ics.split('\r\n').find((l) => l.startsWith('DTSTAMP')),
	}
}

/** The zone's changes of offset in [from, to), to the minute. */
function changesOf(zone: string, from: number, to: number) {
	const changes: { at: number; from: number; to: number }[] = []
	for (let week = from; week < to; week += WEEK) {
		const before = offsetMinutes(new Date(week), zone)
		const after = offsetMinutes(new Date(week + WEEK), zone)
		if (after === before) continue
		let [lo, hi] = [week, week + WEEK]
		while (hi - lo > MINUTE) {
			const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE
			if (offsetMinutes(new Date(mid), zone) === before) lo = mid
			else hi = mid
		}
		changes.push({ at: hi, from: before, to: offsetMinutes(new Date(hi), zone) })
	}
	return changes
}

/** Whether the wall clock of an instant in the zone is also shown at another instant. */
function showsTwice(zone: string, at: number): boolean {
	const own = offsetMinutes(new Date(at), zone)
	const nearby = new Set([-DAY, DAY].map((shift) => offsetMinutes(new Date(at + shift), zone)))
	return [...nearby].some((offset) => offset !== own && offsetMinutes(new Date(at + (own - offset) * MINUTE), zone) === offset)
}

/** Winter, summer, a leap day; around each change of 2026 (3 hours before and after, just before, both of a time shown twice). */
function instantsFor(zone: string): Date[] {
	const around = changesOf(zone, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)).flatMap((c) => {
		const back = Math.max(c.from - c.to, 0) * MINUTE
		return [c.at - 3 * HOUR, c.at + 3 * HOUR, c.at - 15 * MINUTE, ...(back ? [c.at - back / 2, c.at + back / 2] : [])]
	})
	return [WINTER, SUMMER, LEAP_DAY, ...around.map((at) => new Date(at))]
}

/** The wall clock of an instant in the zone, as ical.js time fields. */
function wallFields(at: number, zone: string) {
	const [, year, month, day, hour, minute] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(localInputValue(new Date(at), zone))!.map(Number) as number[]
	return { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: 0 }
}

/**
 * Where the VTIMEZONE of a 2026 event gets an instant from mid-2025 to the end of 2027 wrong: the
 * zone's wall clock at it, read back under the VTIMEZONE, must be it (times shown twice left out: no
 * local time can say which).
 */
function misreadings(vtimezone: ICAL.Component, zone: string): string[] {
	const tz = new ICAL.Timezone(vtimezone)
	const [from, to] = [Date.UTC(2025, 6, 1), Date.UTC(2027, 11, 31)]
	const samples: number[] = []
	// Every 61 hours, so every hour of the day comes up, and each side of every change.
	for (let at = from; at < to; at += 61 * HOUR) samples.push(at)
	for (const c of changesOf(zone, from, to)) samples.push(c.at - MINUTE, c.at, c.at + MINUTE, c.at + 2 * HOUR + MINUTE)
	return samples
		.filter((at) => !showsTwice(zone, at))
		.map((at) => [new Date(at).toISOString(), underZone(tz, wallFields(at, zone))])
		.filter(([expected, read]) => read !== expected)
		.map(([expected, read]) => `${localInputValue(new Date(expected!), zone)} is ${expected}, read as ${read}`)
		.slice(0, 5)
}

describe('scheduling invitations in every zone', () => {
	test.each(ZONES)('%s', (zone) => {
		expect(isTimeZone(zone)).toBe(true)
		for (const start of instantsFor(zone)) {
			const end = new Date(start.getTime() + LENGTH * MINUTE)
			const r = read(invite(zone, start))
			// The scheduler's own zone, except UTC and a time shown twice.
			const twice = showsTwice(zone, start.getTime()) || showsTwice(zone, end.getTime())
			const tzid = zone === UTC || twice ? null : zone
			const expected = [start.toISOString(), end.toISOString()]
			expect({ zone, start, tzids: r.tzids, instants: r.instants, event: r.event }).toEqual({
				zone,
				start,
				tzids: [tzid, tzid],
				instants: expected,
				event: expected,
			})
			expect(r.stamp).toBe('DTSTAMP:20260102T030405Z')
		}
		const summer = read(invite(zone, SUMMER)).vtimezone
		if (zone === UTC) return expect(summer).toBeUndefined()
		expect({ zone, misread: misreadings(summer!, zone) }).toEqual({ zone, misread: [] })
		// Every observance is a STANDARD or DAYLIGHT with its onset and both offsets; without a change, one STANDARD.
		const observances = summer!.getAllSubcomponents()
		for (const o of observances) {
			expect(['standard', 'daylight']).toContain(o.name)
			for (const property of ['dtstart', 'tzoffsetfrom', 'tzoffsetto'])
				expect({ zone, [property]: o.hasProperty(property) }).toEqual({ zone, [property]: true })
		}
		if (changesOf(zone, Date.UTC(2025, 0, 1), Date.UTC(2028, 0, 1)).length === 0) expect(observances.map((o) => o.name)).toEqual(['standard'])
	})
})

describe('the VTIMEZONE an invitation carries', () => {
	const vtimezoneOf = (zone: string, at = SUMMER) =>
		invite(zone, at)
			.match(/BEGIN:VTIMEZONE[\s\S]*END:VTIMEZONE/)?.[0]
			.split('\r\n')

	test('zones the 2018 VTIMEZONE data lacked or had wrong keep their own name as TZID', () => {
		// Mexico without DST since 2022, Brazil since 2019, Etc/GMT±N, renamed zones, new zones, aliases.
		const zones = [
			'America/Mexico_City',
			'America/Sao_Paulo',
			'Etc/GMT-14',
			'Etc/GMT+5',
			'Europe/Kyiv',
			'Pacific/Kanton',
			'America/Ciudad_Juarez',
			'America/Nuuk',
		]
		for (const zone of [...zones, 'US/Eastern', 'EST5EDT', 'Europe/Kiev'])
			for (const at of [WINTER, SUMMER]) expect({ zone, at, tzids: read(invite(zone, at)).tzids }).toEqual({ zone, at, tzids: [zone, zone] })
		expect(invite('America/Mexico_City', SUMMER)).toContain('DTSTART;TZID=America/Mexico_City:20260715T090000')
	})

	test('a zone with daylight saving every year on a weekday rule: one yearly rule each way (what Outlook keeps)', () => {
		expect(vtimezoneOf('America/New_York')).toEqual([
			'BEGIN:VTIMEZONE',
			'TZID:America/New_York',
			'BEGIN:DAYLIGHT',
			'DTSTART:20250309T020000',
			'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
			'TZOFFSETFROM:-0500',
			'TZOFFSETTO:-0400',
			'TZNAME:EDT',
			'END:DAYLIGHT',
			'BEGIN:STANDARD',
			'DTSTART:20251102T020000',
			'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
			'TZOFFSETFROM:-0400',
			'TZOFFSETTO:-0500',
			'TZNAME:EST',
			'END:STANDARD',
			'END:VTIMEZONE',
		])
		// The last Sunday, east of UTC and south of the equator, half-hour offsets.
		expect(vtimezoneOf('Europe/Berlin')).toContain('RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU')
		expect(vtimezoneOf('Europe/Berlin')).toContain('TZNAME:CEST')
		expect(vtimezoneOf('Australia/Sydney')).toContain('RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU')
		expect(vtimezoneOf('Australia/Lord_Howe')).toContain('TZOFFSETTO:+1030')
		expect(vtimezoneOf('America/St_Johns')).toContain('TZOFFSETFROM:-0330')
	})

	test('a zone whose changes follow no weekday rule gets each change of the window, without RRULE', () => {
		// Morocco leaves +01 for Ramadan, on dates that move every year.
		const lines = vtimezoneOf('Africa/Casablanca')!
		expect(lines.filter((l) => l.startsWith('RRULE'))).toEqual([])
		const changes = changesOf('Africa/Casablanca', Date.UTC(2025, 0, 1), Date.UTC(2028, 0, 1))
		expect(changes.length).toBeGreaterThanOrEqual(6)
		// The offset at the start of 2025, then one observance per change.
		expect(lines.filter((l) => l.startsWith('DTSTART'))).toHaveLength(changes.length + 1)
		expect(lines.slice(2, 5)).toEqual(['BEGIN:DAYLIGHT', 'DTSTART:20250101T000000', 'TZOFFSETFROM:+0100'])
	})

	test('a zone without daylight saving gets one STANDARD', () => {
		expect(vtimezoneOf('Asia/Kolkata')).toEqual([
			'BEGIN:VTIMEZONE',
			'TZID:Asia/Kolkata',
			'BEGIN:STANDARD',
			'DTSTART:20250101T000000',
			'TZOFFSETFROM:+0530',
			'TZOFFSETTO:+0530',
			'TZNAME:IST',
			'END:STANDARD',
			'END:VTIMEZONE',
		])
		// No TZNAME where Intl has only "GMT+14".
		expect(vtimezoneOf('Etc/GMT-14')).toEqual([
			'BEGIN:VTIMEZONE',
			'TZID:Etc/GMT-14',
			'BEGIN:STANDARD',
			'DTSTART:20250101T000000',
			'TZOFFSETFROM:+1400',
			'TZOFFSETTO:+1400',
			'END:STANDARD',
			'END:VTIMEZONE',
		])
	})

	test('the hour clocks go back over, east of UTC: written in UTC, the hours around it with the TZID', () => {
		// Berlin, 25 October 2026: 02:30 is 00:30Z (CEST), then again 01:30Z (CET). Sydney, 5 April: 02:30 is 15:30Z, then 16:30Z.
		const cases: [string, string, string | null][] = [
			['Europe/Berlin', '2026-10-24T23:00:00.000Z', 'Europe/Berlin'],
			['Europe/Berlin', '2026-10-25T00:30:00.000Z', null],
			['Europe/Berlin', '2026-10-25T01:30:00.000Z', null],
			['Europe/Berlin', '2026-10-25T02:00:00.000Z', 'Europe/Berlin'],
			['Australia/Sydney', '2026-04-04T15:30:00.000Z', null],
			['Australia/Sydney', '2026-04-04T16:30:00.000Z', null],
			['Australia/Sydney', '2026-04-04T17:00:00.000Z', 'Australia/Sydney'],
		]
		for (const [zone, start, tzid] of cases) {
			const r = read(invite(zone, new Date(start)))
			expect({ zone, start, tzid: r.tzids[0], instant: r.instants[0] }).toEqual({ zone, start, tzid, instant: start })
		}
		expect(invite('Europe/Berlin', new Date('2026-10-24T23:00:00.000Z'))).toContain('DTSTART;TZID=Europe/Berlin:20261025T010000')
	})

	test('UTC, and a zone the runtime does not know, are written in UTC', () => {
		for (const zone of [UTC, 'Mars/Base']) {
			const ics = invite(zone, SUMMER)
			expect(ics).toContain('DTSTART:20260715T150000Z')
			expect(ics).not.toContain('VTIMEZONE')
		}
	})
})

describe('the video link', () => {
	test('a link with commas and semicolons (a meeting password) is read back as the same address: URL percent-encodes them, LOCATION keeps it as typed', () => {
		const videoUrl = 'https://zoom.us/j/123?pwd=a,b;c&x=1'
		const ics = invitationIcs({
			method: 'REQUEST',
			uid: 'i2@bench.example',
			sequence: 0,
			start: WINTER,
			minutes: LENGTH,
			timeZone: UTC,
			summary: 'Interview',
			description: `Video link: ${videoUrl}`,
			videoUrl,
			organizer: { name: 'Dana', email: 'dana@example.com' },
			attendees: [{ name: 'Ann', email: 'ann@example.com' }],
			stamp,
		})
		const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!
		expect(vevent.getFirstPropertyValue('url')).toBe('https://zoom.us/j/123?pwd=a%2Cb%3Bc&x=1')
		expect(new URL(String(vevent.getFirstPropertyValue('url'))).searchParams.get('pwd')).toBe('a,b;c')
		expect(vevent.getFirstPropertyValue('location')).toBe(videoUrl)
		expect(vevent.getFirstPropertyValue('description')).toBe(`Video link: ${videoUrl}`)
	})
})

describe("people's names", () => {
	// A quote ends a quoted parameter value (RFC 5545 has no `\"`): names that added parameters, changed the
	// address, or started a line. Each with the name a calendar app reads back: as typed, on one line, without control characters.
	const HOSTILE = [
		['a";PARTSTAT=ACCEPTED;ROLE=CHAIR;X="', 'a";PARTSTAT=ACCEPTED;ROLE=CHAIR;X="'],
		['a":mailto:attacker@evil.test;X="', 'a":mailto:attacker@evil.test;X="'],
		["Ev\"il O'Neil; X, Y: Z ^n ^' ^^", "Ev\"il O'Neil; X, Y: Z ^n ^' ^^"],
		['a\r\nATTENDEE:mailto:attacker@evil.test', 'a ATTENDEE:mailto:attacker@evil.test'],
		['a\u0000b\u001bc\u0085d', 'abcd'],
	]

	test.each(HOSTILE)('%p as organizer and attendee stays a name: no parameter added, no address changed', (name, shown) => {
		const ics = invitationIcs({
			method: 'REQUEST',
			uid: 'i3@bench.example',
			sequence: 0,
			start: WINTER,
			minutes: LENGTH,
			timeZone: UTC,
			summary: 'Interview',
			description: 'd',
			videoUrl: null,
			organizer: { name, email: 'dana@example.com' },
			attendees: [
				{ name, email: 'victim@example.com' },
				{ name: 'Ann', email: 'ann@example.com' },
			],
			stamp,
		})
		const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!
		const person = (p: ICAL.Property) => ({ params: p.toJSON()[1], value: String(p.getFirstValue()).toLowerCase() })
		expect(vevent.getAllProperties('organizer').map(person)).toEqual([{ params: { cn: shown }, value: 'mailto:dana@example.com' }])
		const attendee = { role: 'REQ-PARTICIPANT', partstat: 'NEEDS-ACTION', rsvp: 'TRUE' }
		expect(vevent.getAllProperties('attendee').map(person)).toEqual([
			{ params: { ...attendee, cn: shown }, value: 'mailto:victim@example.com' },
			{ params: { ...attendee, cn: 'Ann' }, value: 'mailto:ann@example.com' },
		])
	})
})

describe('backslashes and the other characters a text field escapes', () => {
	const HOSTILE = 'Zoë \\ O"Brien; Jr., ^x\\n\nnext'
	const ics = invitationIcs({
		method: 'REQUEST',
		uid: 'i4@bench.example',
		sequence: 0,
		start: WINTER,
		minutes: LENGTH,
		timeZone: UTC,
		summary: `Interview: ${HOSTILE}`,
		description: `About ${HOSTILE}\nVideo link: https://meet.example/j?a=1,2;b=\\3`,
		videoUrl: 'https://meet.example/j?a=1,2;b=\\3',
		organizer: { name: HOSTILE, email: 'dana@example.com' },
		attendees: [{ name: 'O\\Neil \\\\ "Q" ^', email: 'ann@example.com' }],
		stamp,
	})
	const unfolded = ics.replaceAll('\r\n ', '').split('\r\n')

	test('a name’s backslash is written once in its CN: RFC 5545 has no escapes in a quoted parameter (ical-generator wrote it twice)', () => {
		// As ical.js's own writer writes these names: the backslash as it is, `"` and `^` as RFC 6868 says, on one line.
		expect(unfolded.filter((l) => /^(ORGANIZER|ATTENDEE)/.test(l))).toEqual([
			`ORGANIZER;CN="Zoë \\ O^'Brien; Jr., ^^x\\n next":mailto:dana@example.com`,
			`ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN="O\\Neil \\\\ ^'Q^' ^^":MAILTO:ann@example.com`,
		])
	})

	test('SUMMARY, DESCRIPTION and LOCATION are escaped once, and ical.js reads back what was written', () => {
		expect(unfolded.filter((l) => /^(SUMMARY|DESCRIPTION|LOCATION)/.test(l))).toEqual([
			'SUMMARY:Interview: Zoë \\\\ O"Brien\\; Jr.\\, ^x\\\\n\\nnext',
			'LOCATION:https://meet.example/j?a=1\\,2\\;b=\\\\3',
			'DESCRIPTION:About Zoë \\\\ O"Brien\\; Jr.\\, ^x\\\\n\\nnext\\nVideo link: https://meet.example/j?a=1\\,2\\;b=\\\\3',
		])
		const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!
		expect(vevent.getFirstPropertyValue('summary')).toBe(`Interview: ${HOSTILE}`)
		expect(vevent.getFirstPropertyValue('description')).toBe(`About ${HOSTILE}\nVideo link: https://meet.example/j?a=1,2;b=\\3`)
		expect(vevent.getFirstPropertyValue('location')).toBe('https://meet.example/j?a=1,2;b=\\3')
	})

	test('SUMMARY, DESCRIPTION and LOCATION hold no control character: a stored title’s NUL or ESC goes, a U+2028 is a line break', () => {
		// A job title saved before the Job Publish API refused control characters, and a candidate's name.
		const title = 'Dev\u0000ops\u001b[31m\u007f\u009b lead\u202e'
		const ics = invitationIcs({
			method: 'REQUEST',
			uid: 'i6@bench.example',
			sequence: 0,
			start: WINTER,
			minutes: LENGTH,
			timeZone: UTC,
			summary: `Interview: Ann for ${title}`,
			description: `Interview of Ann for ${title}.\u2028Bring\u0085ID\u2029and \u0001badge`,
			videoUrl: 'https://meet.example/j\u0007',
			organizer: { name: 'Dana', email: 'dana@example.com' },
			attendees: [{ name: 'Ann', email: 'ann@example.com' }],
			stamp,
		})
		// RFC 5545 3.1 and 3.3.11: no control character but HTAB in a content line (CRLF ends one).
		expect(ics.replaceAll('\r\n', '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202e]/)
		const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!
		expect(vevent.getFirstPropertyValue('summary')).toBe('Interview: Ann for Devops[31m lead')
		expect(vevent.getFirstPropertyValue('description')).toBe('Interview of Ann for Devops[31m lead.\nBring\nID\nand badge')
		expect(vevent.getFirstPropertyValue('location')).toBe('https://meet.example/j')
	})

	test('the character that stands in for a backslash while the file is written never reaches it', () => {
		const marked = invitationIcs({
			method: 'REQUEST',
			uid: 'i5@bench.example',
			sequence: 0,
			start: WINTER,
			minutes: LENGTH,
			timeZone: UTC,
			summary: 'a\uFDD0b',
			description: 'c\uFDD0d',
			videoUrl: null,
			organizer: { name: 'e\uFDD0f', email: 'dana@example.com' },
			attendees: [{ name: 'g\uFDD0h', email: 'ann@example.com' }],
			stamp,
		})
		expect(marked).not.toContain('\\')
		expect(marked).not.toContain('\uFDD0')
		expect(marked).toContain('SUMMARY:ab\r\n')
		expect(marked).toContain('CN="ef"')
	})
})
