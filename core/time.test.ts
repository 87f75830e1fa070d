/** Times in people's zones: formatting with the zone named, and parsing typed wall-clock times, across daylight-saving changes. */
import { describe, expect, test } from 'bun:test'
import {
	currentTimeZone,
	dayKey,
	formatDateTime,
	inTimeZone,
	isTimeZone,
	localInputValue,
	nextDay,
	offsetMinutes,
	parseLocal,
	parseLocalInput,
	startOfDay,
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
		expect(parseLocalInput('2026-05-04T08:15', 'Asia/Kolkata')?.toISOString()).toBe('2026-05-04T02:45:00.000Z')
		expect(startOfDay('2026-12-02', 'Asia/Kolkata')?.toISOString()).toBe('2026-12-01T18:30:00.000Z')
		expect(offsetMinutes(instant, 'America/Chicago')).toBe(-360)
		expect(nextDay('2026-12-31')).toBe('2027-01-01')
	})

	test('zones are IANA names the runtime knows', () => {
		expect(isTimeZone('America/Chicago')).toBe(true)
		expect(isTimeZone('UTC')).toBe(true)
		expect(isTimeZone('Mars/Olympus')).toBe(false)
		expect(isTimeZone('America/Chicago; drop table')).toBe(false)
	})
})
