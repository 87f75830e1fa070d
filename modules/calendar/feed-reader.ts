/**
 * The feed reader, run as a child process of its own (`feed-read.ts` starts it through
 * `core/child-task.ts`, which bounds its memory and time and kills it past either): a hostile feed
 * can exhaust this process, never the server. It reads the feed's text from stdin and writes one
 * JSON object to stdout: `{"blocks":[[start ms, end ms, 1 when all day], …]}`, or `{"refused"}` with
 * the message for the person (not iCalendar, too many repetitions: `FeedFormatError`), or
 * `{"failed"}` with what else went wrong (for the log).
 *
 * Usage: `bun feed-reader.ts <from ms> <to ms> < feed.ics`
 */
import { busyBlocks, FeedFormatError } from './ical.ts'

type Answer = { blocks: [number, number, 0 | 1][] } | { refused: string } | { failed: string }

function read(text: string, from: number, to: number): Answer {
	try {
		return { blocks: busyBlocks(text, new Date(from), new Date(to)).map((b) => [b.start.getTime(), b.end.getTime(), b.allDay ? 1 : 0]) }
	} catch (error) {
		if (error instanceof FeedFormatError) return { refused: error.message }
		return { failed: error instanceof Error ? error.message.slice(0, 300) : 'unknown error' }
	}
}

if (import.meta.main) {
	const [from, to] = process.argv.slice(2).map(Number)
	process.stdout.write(JSON.stringify(read(await Bun.stdin.text(), from!, to!)))
}
