/**
 * Reading busy times from iCalendar text (`busyBlocks`): long-lived recurring series still give
 * their occurrences in the window, a feed's work is bounded as a whole, and one event ical.js
 * refuses hides no other. The child process that runs it for the server: `feed-read.test.ts`.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { busyBlocks, FeedFormatError, MAX_STEPS } from './ical.ts'

setDefaultTimeout(60_000)

const calendar = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR', ''].join('\r\n')
const event = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'].join('\r\n')
const from = new Date('2026-03-01T00:00:00Z')
const to = new Date('2026-07-01T00:00:00Z')
const starts = (text: string) => busyBlocks(text, from, to).map((b) => b.start.toISOString())
const refusal = (text: string) => {
	try {
		busyBlocks(text, from, to)
		return null
	} catch (error) {
		expect(error).toBeInstanceOf(FeedFormatError)
		return (error as Error).message
	}
}

describe('long-lived recurring series', () => {
	test('a daily stand-up since 2021 is busy every day of the window (its earlier occurrences are skipped, not counted)', () => {
		const got = starts(calendar(event('standup', 'DTSTART:20210104T150000Z', 'DTEND:20210104T151500Z', 'RRULE:FREQ=DAILY')))
		expect(got).toHaveLength(122)
		expect([got[0], got.at(-1)]).toEqual(['2026-03-01T15:00:00.000Z', '2026-06-30T15:00:00.000Z'])
	})

	test('a weekly series since 2021 in a zone the feed does not define keeps its wall clock across daylight saving', () => {
		const got = starts(
			calendar(
				event('sync', 'DTSTART;TZID=America/New_York:20210104T090000', 'DTEND;TZID=America/New_York:20210104T093000', 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR'),
			),
		)
		expect(got).toHaveLength(52)
		// 09:00 in New York: 14:00 UTC before 8 March 2026, 13:00 UTC after.
		expect(got.slice(0, 4)).toEqual(['2026-03-02T14:00:00.000Z', '2026-03-04T14:00:00.000Z', '2026-03-06T14:00:00.000Z', '2026-03-09T13:00:00.000Z'])
	})

	test('monthly on the 31st since 1990, and a series of 9,600 days (COUNT) since 2000, end where they should', () => {
		expect(starts(calendar(event('m', 'DTSTART:19900131T150000Z', 'DTEND:19900131T160000Z', 'RRULE:FREQ=MONTHLY')))).toEqual([
			'2026-03-31T15:00:00.000Z',
			'2026-05-31T15:00:00.000Z',
		])
		// The 9,600th day from 1 January 2000 is 13 April 2026.
		const counted = starts(calendar(event('c', 'DTSTART:20000101T150000Z', 'DTEND:20000101T160000Z', 'RRULE:FREQ=DAILY;COUNT=9600')))
		expect([counted.length, counted.at(-1)]).toEqual([44, '2026-04-13T15:00:00.000Z'])
	})

	test('an occurrence from 2021 moved into the window still counts, at its new time; one taken out (EXDATE) does not', () => {
		const got = starts(
			calendar(
				event('standup', 'DTSTART:20210104T150000Z', 'DTEND:20210104T151500Z', 'RRULE:FREQ=DAILY', 'EXDATE:20260302T150000Z'),
				event('standup', 'RECURRENCE-ID:20210105T150000Z', 'DTSTART:20260415T100000Z', 'DTEND:20260415T110000Z'),
			),
		)
		expect(got).toContain('2026-04-15T10:00:00.000Z')
		expect(got).not.toContain('2026-03-02T15:00:00.000Z')
		expect(got).toHaveLength(122)
	})
})

describe('a feed’s work is bounded', () => {
	test(`1,000 events repeating every minute since 2000 are refused as a whole past ${MAX_STEPS.toLocaleString('en-US')} steps`, () => {
		const events = Array.from({ length: 1000 }, (_, i) => event(`m${i}`, 'DTSTART:20000101T000000Z', 'RRULE:FREQ=MINUTELY'))
		expect(refusal(calendar(...events))).toBe('The feed has more than 50,000 events and repetitions of events to read: it was not read')
	})

	test('4,000 plain events take time in proportion to their number (each event alone related every other one: quadratic)', () => {
		const events = Array.from({ length: 4000 }, (_, i) => event(`e${i}`, 'DTSTART:20260302T090000Z', 'DTEND:20260302T093000Z', 'SUMMARY:Meeting'))
		expect(starts(calendar(...events))).toEqual(['2026-03-02T09:00:00.000Z'])
	})
})

describe('one broken event', () => {
	test('an RRULE or a date ical.js refuses hides no other event’s busy time', () => {
		const got = starts(
			calendar(
				event('bad-rule', 'DTSTART:20260301T150000Z', 'DTEND:20260301T160000Z', 'RRULE:FREQ=YEARLY;BYMONTH=13'),
				event('bad-date', 'DTSTART:20261345T150000Z', 'DTEND:20261345T160000Z'),
				event('good', 'DTSTART:20260302T090000Z', 'DTEND:20260302T100000Z'),
			),
		)
		expect(got).toEqual(['2026-03-02T09:00:00.000Z'])
	})

	test('text that is not iCalendar, or a calendar that does not end, is still refused whole', () => {
		expect(refusal('<html>')).toBe('The address did not return an iCalendar feed (no BEGIN:VCALENDAR)')
		expect(refusal('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toStartWith('The feed is not valid iCalendar')
	})
})
