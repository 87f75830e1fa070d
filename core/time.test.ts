/** Times in people's zones: formatting with the zone named, and parsing typed wall-clock times, across daylight-saving changes. */
import { describe, expect, test } from 'bun:test'
import { seededRandom } from './seed-random.ts'
import {
	currentTimeZone,
	dayKey,
	formatDateTime,
	formatEndAfter,
	inTimeZone,
	isTimeZone,
	localInputValue,
	monthsBefore,
	nextDay,
	offsetMinutes,
	parseLocal,
	parseLocalInput,
	startOfDay,
	TIME_ZONES,
	isoInstant,
	isoInstantOrNull,
} from './time.ts'

describe('core/time', () => {
	const instant = new Date('2026-12-01T20:16:00Z')

	test('formats in the zone, naming it', () => {
		expect(formatDateTime(instant, 'UTC')).toBe('Dec 1, 2026, 20:16 UTC')
		expect(formatDateTime(instant, 'America/Chicago')).toBe('Dec 1, 2026, 14:16 CST')
		expect(formatDateTime(instant, 'Asia/Kolkata')).toBe('Dec 2, 2026, 01:46 GMT+5:30')
		expect(dayKey(instant, 'Asia/Kolkata')).toBe('2026-12-02')
		expect(localInputValue(instant, 'America/Los_Angeles')).toBe('2026-12-01T12:16')
	})

	test('the end of a range: its time; its date on another day; its zone when the clocks changed in between', () => {
		const end = (start: string, minutes: number, zone: string) => {
			const from = new Date(start)
			return `${formatDateTime(from, zone)}–${formatEndAfter(from, new Date(from.getTime() + minutes * 60_000), zone)}`
		}
		expect(end('2027-01-10T15:00:00Z', 45, 'America/New_York')).toBe('Jan 10, 2027, 10:00 EST–10:45')
		expect(end('2027-01-11T04:30:00Z', 60, 'America/New_York')).toBe('Jan 10, 2027, 23:30 EST–Jan 11, 2027, 00:30')
		// New York goes back at 02:00 on 7 November 2027, forward at 02:00 on 14 March 2027.
		expect(end('2027-11-07T05:30:00Z', 60, 'America/New_York')).toBe('Nov 7, 2027, 01:30 EDT–01:30 EST')
		expect(end('2027-03-14T06:30:00Z', 60, 'America/New_York')).toBe('Mar 14, 2027, 01:30 EST–03:30 EDT')
		expect(end('2027-11-07T03:30:00Z', 240, 'America/New_York')).toBe('Nov 6, 2027, 23:30 EDT–Nov 7, 2027, 02:30 EST')
		expect(end('2027-11-07T05:30:00Z', 60, 'UTC')).toBe('Nov 7, 2027, 05:30 UTC–06:30')
	})

	test('the zone of the request: UTC outside one, the person’s inside', () => {
		expect(currentTimeZone()).toBe('UTC')
		expect(inTimeZone('Europe/Berlin', () => formatDateTime(instant))).toBe('Dec 1, 2026, 21:16 GMT+1')
		expect(inTimeZone('Not/AZone', () => currentTimeZone())).toBe('UTC')
	})

	test('typed times are read in the zone, across daylight-saving changes', () => {
		expect(parseLocal('2026-07-01', '09:30', 'America/New_York')?.toISOString()).toBe('2026-07-01T13:30:00.000Z')
		expect(parseLocal('2026-12-01', '09:30', 'America/New_York')?.toISOString()).toBe('2026-12-01T14:30:00.000Z')
		// 02:30 does not exist on 8 March 2026 in New York (clocks go from 02:00 to 03:00): the moment after the gap.
		expect(parseLocal('2026-03-08', '02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z')
		// 01:30 happens twice on 1 November 2026: the first (still EDT).
		expect(parseLocal('2026-11-01', '01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z')
		expect(parseLocal('2026-02-30', '09:00', 'UTC')).toBeNull()
		expect(parseLocal('2026-02-10', '24:00', 'UTC')).toBeNull()
		// Years whose next day or window would not be written alike by JavaScript and PostgreSQL, or that Date.UTC misreads.
		expect(parseLocal('9999-12-31', '09:00', 'UTC')).toBeNull()
		expect(parseLocal('0099-01-01', '09:00', 'UTC')).toBeNull()
		expect(parseLocal('9998-12-31', '23:59', 'UTC')?.toISOString()).toBe('9998-12-31T23:59:00.000Z')
		expect(parseLocalInput('2026-05-04T08:15', 'Asia/Kolkata')?.toISOString()).toBe('2026-05-04T02:45:00.000Z')
		expect(startOfDay('2026-12-02', 'Asia/Kolkata')?.toISOString()).toBe('2026-12-01T18:30:00.000Z')
		expect(offsetMinutes(instant, 'America/Chicago')).toBe(-360)
		expect(nextDay('2026-12-31')).toBe('2027-01-01')
	})

	// Zones east and west of UTC, and ones whose clocks move by half an hour or not at all. A time that happens
	// twice is the first of the two; a skipped one is the moment after the gap (read with the offset before it).
	test.each([
		// zone, day, typed, the instant it stands for, why
		['Australia/Sydney', '2026-04-05', '02:30', '2026-04-04T15:30:00.000Z', 'twice: the first (AEDT)'],
		['Australia/Sydney', '2026-04-05', '03:00', '2026-04-04T17:00:00.000Z', 'after the change'],
		['Australia/Sydney', '2026-10-04', '02:30', '2026-10-03T16:30:00.000Z', 'skipped: 03:30 AEDT'],
		['Europe/Berlin', '2026-10-25', '02:30', '2026-10-25T00:30:00.000Z', 'twice: the first (CEST)'],
		['Europe/Berlin', '2026-03-29', '02:30', '2026-03-29T01:30:00.000Z', 'skipped: 03:30 CEST'],
		['Pacific/Auckland', '2026-04-05', '02:30', '2026-04-04T13:30:00.000Z', 'twice: the first (NZDT)'],
		['Pacific/Auckland', '2026-09-27', '02:30', '2026-09-26T14:30:00.000Z', 'skipped: 03:30 NZDT'],
		['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z', 'twice: the first (EDT)'],
		['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z', 'skipped: 03:30 EDT'],
		['America/Los_Angeles', '2026-11-01', '01:00', '2026-11-01T08:00:00.000Z', 'twice: the first (PDT)'],
		['Australia/Lord_Howe', '2026-04-05', '01:45', '2026-04-04T14:45:00.000Z', 'twice, half an hour back: the first'],
		['Australia/Lord_Howe', '2026-10-04', '02:15', '2026-10-03T15:45:00.000Z', 'skipped half hour: 02:45'],
		['Asia/Kolkata', '2026-04-05', '02:30', '2026-04-04T21:00:00.000Z', 'no daylight saving'],
	])('%s %s %s is %s (%s)', (zone, day, typed, instant) => {
		expect(parseLocal(day, typed, zone)?.toISOString()).toBe(instant)
	})

	test('in every zone, around every change of offset in 2026, a typed time is the first instant showing it', () => {
		const QUARTER = 15 * 60_000
		const HOUR = 3_600_000
		const WEEK = 7 * 24 * HOUR
		const wall = (ms: number, zone: string) => localInputValue(new Date(ms), zone)
		const from = Date.UTC(2026, 0, 1)
		const zonesChanging = new Set<string>()
		for (const zone of TIME_ZONES) {
			for (let week = from; week < from + 53 * WEEK; week += WEEK) {
				const before = offsetMinutes(new Date(week), zone)
				if (offsetMinutes(new Date(week + WEEK), zone) === before) continue
				// The first quarter hour of the new offset, by halving the week.
				let [lo, hi] = [week, week + WEEK]
				while (hi - lo > QUARTER) {
					const mid = lo + Math.floor((hi - lo) / 2 / QUARTER) * QUARTER
					if (offsetMinutes(new Date(mid), zone) === before) lo = mid
					else hi = mid
				}
				zonesChanging.add(zone)
				// What each quarter-hour instant within 4 hours of the change shows there.
				const shown: [number, string][] = []
				for (let at = hi - 4 * HOUR; at <= hi + 4 * HOUR; at += QUARTER) shown.push([at, wall(at, zone)])
				// Every quarter-hour wall time within 2 hours of the change, whether it happens once, twice or never.
				const first = Date.parse(`${wall(hi - 2 * HOUR, zone)}:00Z`)
				for (let t = first; t <= first + 4 * HOUR; t += QUARTER) {
					const typed = new Date(t).toISOString().slice(0, 16)
					const showing = shown.filter(([, w]) => w === typed).map(([at]) => at)
					// Never shown (skipped): the typed time read with the offset before the gap, the moment after it.
					const expected = showing[0] ?? t - before * 60_000
					expect([zone, typed, parseLocalInput(typed, zone)?.toISOString()]).toEqual([zone, typed, new Date(expected).toISOString()])
				}
			}
		}
		expect(zonesChanging.size).toBeGreaterThan(50)
		expect(zonesChanging).toContain('Australia/Sydney')
	})

	test('zones are IANA names the runtime knows', () => {
		expect(isTimeZone('America/Chicago')).toBe(true)
		expect(isTimeZone('UTC')).toBe(true)
		expect(isTimeZone('Mars/Olympus')).toBe(false)
		expect(isTimeZone('America/Chicago; drop table')).toBe(false)
	})
})

describe('isoInstant', () => {
	test('the database text of a UTC instant reads as Date reads it, to the millisecond, for any precision', () => {
		const random = seededRandom('isoInstant').next
		for (let i = 0; i < 20_000; i++) {
			const ms = Math.floor(random() * 8_000_000_000_000) - 1_000_000_000_000
			const micros = String(Math.floor(random() * 1000)).padStart(3, '0')
			const base = new Date(ms).toISOString().replace('T', ' ').replace('Z', '')
			const digits = Math.floor(random() * 7) // PostgreSQL drops trailing zeros: 0 to 6 digits
			const [whole, fraction] = base.split('.')
			const text = `${whole}${digits ? `.${`${fraction}${micros}`.slice(0, digits)}` : ''}+00`
			expect(isoInstant(text)).toBe(new Date(text).toISOString())
		}
	})

	test('a Date, and text in any other form, go through Date', () => {
		const d = new Date('2026-12-03T12:34:56.789Z')
		expect(isoInstant(d)).toBe('2026-12-03T12:34:56.789Z')
		expect(isoInstant('2026-12-03 06:34:56.789-06')).toBe('2026-12-03T12:34:56.789Z')
		expect(isoInstant('2026-12-03 18:04:56.7891+05:30')).toBe('2026-12-03T12:34:56.789Z')
		expect(isoInstant('2026-12-03T12:34:56.789Z')).toBe('2026-12-03T12:34:56.789Z')
	})

	test('isoInstantOrNull: an empty column stays null, anything else reads as isoInstant reads it', () => {
		expect(isoInstantOrNull(null)).toBeNull()
		expect(isoInstantOrNull('2026-12-03 12:34:56.7+00')).toBe('2026-12-03T12:34:56.700Z')
		expect(isoInstantOrNull(new Date('2026-12-03T12:34:56.789Z'))).toBe('2026-12-03T12:34:56.789Z')
	})
})

describe('monthsBefore', () => {
	test('lands on the last day of a shorter month, never in the month after', () => {
		const at = (s: string) => new Date(s).toISOString()
		expect(monthsBefore(new Date('2026-08-31T12:00:00Z'), 6).toISOString()).toBe(at('2026-02-28T12:00:00Z'))
		expect(monthsBefore(new Date('2028-08-31T12:00:00Z'), 6).toISOString()).toBe(at('2028-02-29T12:00:00Z'))
		expect(monthsBefore(new Date('2026-03-31T00:00:00Z'), 1).toISOString()).toBe(at('2026-02-28T00:00:00Z'))
		expect(monthsBefore(new Date('2028-02-29T08:30:00Z'), 24).toISOString()).toBe(at('2026-02-28T08:30:00Z'))
		expect(monthsBefore(new Date('2026-01-15T00:00:00Z'), 13).toISOString()).toBe(at('2024-12-15T00:00:00Z'))
		expect(monthsBefore(new Date('2026-07-31T00:00:00Z'), 120).toISOString()).toBe(at('2016-07-31T00:00:00Z'))
	})
})
