/**
 * Reading busy times from iCalendar text (`busyBlocks`): a feed's work is bounded as a whole. The
 * child process that runs it for the server: `feed-read.test.ts`.
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

describe('a feed’s work is bounded', () => {
	test(`1,000 events repeating every minute since 2000 are refused as a whole past ${MAX_STEPS.toLocaleString('en-US')} steps, in seconds`, () => {
		const started = performance.now()
		const events = Array.from({ length: 1000 }, (_, i) => event(`m${i}`, 'DTSTART:20000101T000000Z', 'RRULE:FREQ=MINUTELY'))
		expect(refusal(calendar(...events))).toBe('The feed has more than 50,000 events and repetitions of events to read: it was not read')
		expect(performance.now() - started).toBeLessThan(20_000)
	})

	test('4,000 plain events take time in proportion to their number (each event alone related every other one: quadratic)', () => {
		const started = performance.now()
		const events = Array.from({ length: 4000 }, (_, i) => event(`e${i}`, 'DTSTART:20260302T090000Z', 'DTEND:20260302T093000Z', 'SUMMARY:Meeting'))
		expect(starts(calendar(...events))).toEqual(['2026-03-02T09:00:00.000Z'])
		expect(performance.now() - started).toBeLessThan(6_000)
	})
})
