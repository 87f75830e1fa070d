/**
 * A feed is read in a child process (`feed-read.ts`): text ical.js takes seconds or forever on is
 * given up when the feed's time is up, while the server's event loop stays free; what the reader
 * refuses or finds comes back as it said.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createLogger } from '../../core/log.ts'
import { readBusyBlocks } from './feed-read.ts'

setDefaultTimeout(60_000)

const calendar = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events, 'END:VCALENDAR', ''].join('\r\n')
const event = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'].join('\r\n')
const window = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-07-01T00:00:00Z') }

/** Reads `text` within `seconds`: the blocks' starts, or the message. */
async function read(text: string, seconds: number) {
	const deps = { log: createLogger('silent') }
	const answer = await readBusyBlocks(deps, text, window, { at: Date.now() + seconds * 1000, seconds }).then(
		(blocks) => blocks.map((b) => b.start.toISOString()),
		(error: Error) => error.message,
	)
	return { answer }
}

describe('feeds are read in a child process', () => {
	test("hostile feeds (300,000 parameters on one line; a rule that never matches) are given up when the time is up (read in the server's thread, neither lets the time limit fire)", async () => {
		for (const text of [
			calendar(event('a', 'DTSTART:20260301T090000Z', `ATTENDEE${';X-A=b'.repeat(300_000)}:mailto:a@example.test`)),
			calendar(event('b', 'DTSTART:20260301T090000Z', 'RRULE:FREQ=SECONDLY;BYMONTH=2')),
		]) {
			// One second: each takes ical.js several (the first 5 to 15 s, the second longer), so the limit fires whatever the machine's load.
			const got = await read(text, 1)
			expect(got.answer).toBe('The feed could not be fetched and read within 1 second')
		}
	})

	test('a feed the reader refuses says why; a good one gives its busy times', async () => {
		const minutely = Array.from({ length: 1000 }, (_, i) => event(`m${i}`, 'DTSTART:20000101T000000Z', 'RRULE:FREQ=MINUTELY'))
		expect((await read(calendar(...minutely), 20)).answer).toBe('The feed has more than 50,000 events and repetitions of events to read: it was not read')
		expect((await read('BEGIN:VCALENDAR\r\n', 20)).answer).toStartWith('The feed is not valid iCalendar')
		expect((await read(calendar(event('ok', 'DTSTART:20260302T090000Z', 'DTEND:20260302T100000Z')), 20)).answer).toEqual(['2026-03-02T09:00:00.000Z'])
		// No time left after fetching: not read at all.
		expect((await read(calendar(), 0)).answer).toBe('The feed could not be fetched and read within 0 seconds')
	})
})
