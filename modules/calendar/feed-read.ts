/**
 * A feed's busy times are read in a child process of its own (`feed-reader.ts`, through
 * `core/child-task.ts`), never on the server's event loop: ical.js is synchronous, and slow on
 * hostile text (a 2 MB feed of one property with 300,000 parameters takes it 15 s to parse; 1,000
 * events repeating every minute took minutes). The child is killed past `FEED_READER_MAX_RSS`, or
 * when the feed's time is up: fetching and reading a feed share `CALENDAR_FEED_TIMEOUT` (the
 * settings page waits for both). Two readers run at once; more feeds wait, within their time.
 */
import { fileURLToPath } from 'node:url'
import { type ChildOutcome, runChild, SlotsBusy, TaskSlots } from '../../core/child-task.ts'
import type { AppDeps } from '../../core/deps.ts'
import { plural } from '../../core/ui.ts'
import type { PoolDef } from '../../core/metrics.ts'
import { type BusyBlock, FeedFormatError } from './ical.ts'

/**
 * A reader whose memory passes this is killed. Measured (Bun 1.4.5): a reader starts at about 60 MB
 * and reads a 2 MB feed of 7,800 events at about 150 MB.
 */
export const FEED_READER_MAX_RSS = 256 * 1024 * 1024
/** Readers running at once; the sweep reads four feeds at once, and people set theirs meanwhile. */
export const FEED_READERS = 2
/** Feeds waiting for a reader at most; more are refused at once (and read again at the next sweep). */
export const FEED_READERS_QUEUE = 16
/** The reader's answer at most: 5,000 blocks of three numbers. */
const READER_ANSWER_BYTES = 1024 * 1024
const readers = new TaskSlots(FEED_READERS, FEED_READERS_QUEUE)
/** The readers on `/metrics` (`benchline_pool_workers{pool="calendar_feed_readers"}`). */
export const feedReaders: PoolDef = {
	name: 'calendar_feed_readers',
	description: 'Child processes reading calendar feeds',
	measure: () => ({ busy: readers.busy, queued: readers.queued }),
}
const READER = fileURLToPath(new URL('./feed-reader.ts', import.meta.url))

type ReaderAnswer = { blocks: [number, number, number][] } | { refused: string }

function parseAnswer(output: string): ReaderAnswer | null {
	try {
		const answer = JSON.parse(output) as Partial<{ blocks: unknown; refused: unknown }>
		if (typeof answer.refused === 'string') return { refused: answer.refused }
		if (Array.isArray(answer.blocks) && answer.blocks.every((b) => Array.isArray(b) && b.length === 3 && b.every(Number.isFinite)))
			return { blocks: answer.blocks as [number, number, number][] }
	} catch {}
	return null
}

/**
 * The feed's busy blocks overlapping `[from, to)`, read by a child before `deadline` (a `Date.now()`
 * instant). Throws `FeedFormatError` with the message for the person: not iCalendar, too many
 * repetitions, over the time or memory a read may take, or every reader busy.
 */
export async function readBusyBlocks(
	deps: Pick<AppDeps, 'log'>,
	text: string,
	window: { from: Date; to: Date },
	deadline: { at: number; seconds: number },
): Promise<BusyBlock[]> {
	const tooSlow = new FeedFormatError(`The feed could not be fetched and read within ${plural(deadline.seconds, 'second')}`)
	const left = () => deadline.at - Date.now()
	if (left() <= 0) throw tooSlow
	const args = [String(window.from.getTime()), String(window.to.getTime())]
	let outcome: ChildOutcome
	try {
		outcome = await readers.run(left(), () =>
			runChild(READER, args, new TextEncoder().encode(text), {
				timeoutMs: Math.max(1, left()),
				maxRssBytes: FEED_READER_MAX_RSS,
				maxOutputBytes: READER_ANSWER_BYTES,
			}),
		)
	} catch (error) {
		if (!(error instanceof SlotsBusy)) throw error
		deps.log.warn('calendar feed readers busy: a feed was put off', { reason: error.message })
		throw left() <= 0 ? tooSlow : new FeedFormatError('Too many calendar feeds are being read at once: this one is read again at the next refresh')
	}
	if (outcome.kind === 'timeout') throw tooSlow
	if (outcome.kind === 'memory') throw new FeedFormatError(`The feed needs more than ${FEED_READER_MAX_RSS / 1024 / 1024} MB of memory to read`)
	const answer = outcome.kind === 'done' ? parseAnswer(outcome.output) : null
	if (!answer) {
		deps.log.warn('the calendar feed reader failed', {
			detail: outcome.kind === 'failed' ? outcome.logged : `an answer that is not the reader's JSON (${outcome.output.length} characters)`,
		})
		throw new FeedFormatError('The feed could not be read')
	}
	if ('refused' in answer) throw new FeedFormatError(answer.refused)
	return answer.blocks.map(([start, end, allDay]) => ({ start: new Date(start), end: new Date(end), allDay: allDay === 1 }))
}
