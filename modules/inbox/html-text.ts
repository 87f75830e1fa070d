/**
 * The text of an inbound mail that came as HTML only. `htmlToText` (sanitize-html over htmlparser2)
 * is synchronous and slow on hostile markup: a 9 MB body held the event loop 30 s, and 1 MB of
 * unclosed `<div>` takes 12 s. So the HTML is cut to `MAX_HTML` (before a tag, never inside one)
 * and read in a child process (`html-reader.ts`), bounded by `FILE_PARSE_TIMEOUT` and
 * `HTML_READER_MAX_RSS`, two at once. When the child cannot read it in time (or every reader is
 * busy), the text is its markup taken out in one linear pass (`roughText`): the mail is filed
 * either way, never lost.
 */
import { fileURLToPath } from 'node:url'
import { runChild, SlotsBusy, TaskSlots } from '../../core/child-task.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PoolDef } from '../../core/metrics.ts'
import { MAX_TEXT_OUT } from './html-reader.ts'

/** HTML read at most (characters); the inbox keeps 100,000 characters of text. */
export const MAX_HTML = 1024 * 1024
/** A reader whose memory passes this is killed (it starts at about 60 MB). */
const HTML_READER_MAX_RSS = 256 * 1024 * 1024
const readers = new TaskSlots(2, 16)
/** The readers on `/metrics` (`benchline_pool_workers{pool="mail_html_readers"}`). */
export const mailHtmlReaders: PoolDef = {
	name: 'mail_html_readers',
	description: 'Child processes reading the HTML of inbound mail',
	measure: () => ({ busy: readers.busy, queued: readers.queued }),
}
const READER = fileURLToPath(new URL('./html-reader.ts', import.meta.url))

/** The HTML cut to `max` characters before the last tag that starts within them (a cut inside a tag would leave half of it as text). */
export function cutHtml(html: string, max = MAX_HTML): string {
	if (html.length <= max) return html
	const lastTag = html.lastIndexOf('<', max)
	return html.slice(0, lastTag > 0 ? lastTag : max)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }
const isNameCharacter = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const BREAKS = new Set(['br', 'p', 'li', 'div', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'])

/**
 * The text between the tags, in one pass: `<style>` and `<script>` content, comments and tags left
 * out, line breaks where `<br>`, `</p>`, `</li>`, rows and headings end, the common entities decoded.
 */
export function roughText(html: string): string {
	const parts: string[] = []
	// Where each closing `</style` or `</script` was last found (-1: none after that point), so no stretch is searched twice.
	const closers = new Map<string, number>()
	const closer = (tag: string, from: number) => {
		const known = closers.get(tag)
		if (known !== undefined && (known < 0 || known >= from)) return known
		const find = new RegExp(`</${tag}`, 'gi')
		find.lastIndex = from
		const at = find.exec(html)?.index ?? -1
		closers.set(tag, at)
		return at
	}
	let i = 0
	let line = true
	while (i < html.length) {
		const open = html.indexOf('<', i)
		if (open !== i) {
			parts.push(html.slice(i, open < 0 ? html.length : open))
			line = false
		}
		if (open < 0) break
		if (html.charCodeAt(open + 1) === 33 && html.startsWith('<!--', open)) {
			const end = html.indexOf('-->', open + 4)
			if (end < 0) break
			i = end + 3
			continue
		}
		const end = html.indexOf('>', open + 1)
		if (end < 0) break
		const closing = html.charCodeAt(open + 1) === 47 // '/'
		let nameEnd = open + (closing ? 2 : 1)
		while (nameEnd < end && nameEnd - open < 12 && isNameCharacter(html.charCodeAt(nameEnd))) nameEnd++
		const name = html.slice(open + (closing ? 2 : 1), nameEnd).toLowerCase()
		i = end + 1
		if ((name === 'style' || name === 'script') && !closing) {
			const at = closer(name, i)
			i = at < 0 ? html.length : at
		} else if (!line && BREAKS.has(name)) {
			// One break for a run of them: a blank line at most, as below.
			parts.push('\n')
			line = true
		}
	}
	return parts
		.join('')
		.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, (entity, name: string) => {
			if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity
			const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
			return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
		})
		.split('\n')
		.map((line) => line.trimEnd())
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim()
}

/** The text of an HTML body (cut to `MAX_HTML`), read in a child process; `roughText` when that cannot be done in time. */
export async function inboundHtmlText(deps: Pick<AppDeps, 'config' | 'log'>, html: string): Promise<string> {
	const cut = cutHtml(html)
	const seconds = deps.config.fileParseTimeout
	// Each character at most 6 bytes in JSON (`\u0000`).
	const limits = { timeoutMs: seconds * 1000, maxRssBytes: HTML_READER_MAX_RSS, maxOutputBytes: 6 * MAX_TEXT_OUT + 64 }
	try {
		const outcome = await readers.run(seconds * 1000, () => runChild(READER, [], new TextEncoder().encode(cut), limits))
		if (outcome.kind === 'done') {
			const answer = JSON.parse(outcome.output) as { text?: unknown }
			if (typeof answer.text === 'string') return answer.text
		}
		deps.log.warn('an inbound mail’s HTML was not read in time: its text is the markup taken out', {
			outcome: outcome.kind,
			detail: outcome.kind === 'failed' ? outcome.detail : undefined,
		})
	} catch (error) {
		if (!(error instanceof SlotsBusy) && !(error instanceof SyntaxError)) throw error
		deps.log.warn('an inbound mail’s HTML was not read: its text is the markup taken out', { reason: error.message })
	}
	return roughText(cut)
}
