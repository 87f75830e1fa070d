/**
 * The text of the Job Publish API's docs page, this module's and the lines other modules contribute
 * (`jobs:api-operations`), as HTML through one rendering: inline code as CommonMark writes it
 * (`` `vendorJobId` ``), the same Markdown the OpenAPI description's texts are read as. Everything
 * else stays text, escaped.
 */
import { html, type SafeHtml } from '../../core/html.ts'

/** CommonMark §2.4: a backslash before ASCII punctuation writes that character as itself (a literal backtick). */
const ESCAPABLE = /[!-/:-@[-`{-~]/

/** The length of the run of backticks at `at`. */
function runLength(text: string, at: number): number {
	let end = at
	while (text[end] === '`') end++
	return end - at
}

/** Where the run of exactly `length` backticks closing a code span starts, from `from` on; -1 when none does. */
function closingRun(text: string, from: number, length: number): number {
	const runs = /`+/g
	runs.lastIndex = from
	for (let run = runs.exec(text); run; run = runs.exec(text)) if (run[0].length === length) return run.index
	return -1
}

/**
 * A code span's content as CommonMark §6.1 reads it: line endings are spaces, and one space is
 * stripped from each end when both have one (so `` ` `` `` shows a backtick).
 */
function codeContent(content: string): string {
	const line = content.replace(/\r\n|\r|\n/g, ' ')
	return line.length > 1 && line.startsWith(' ') && line.endsWith(' ') && !/^ +$/.test(line) ? line.slice(1, -1) : line
}

/** `text` as HTML: its code spans as `<code>`, a backtick that opens none as itself, the rest escaped. */
export function docText(text: string): SafeHtml {
	const parts: (string | SafeHtml)[] = []
	let plain = ''
	let i = 0
	while (i < text.length) {
		const c = text[i]!
		if (c === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) {
			plain += text[i + 1]
			i += 2
		} else if (c === '`') {
			const length = runLength(text, i)
			const close = closingRun(text, i + length, length)
			if (close === -1) plain += '`'.repeat(length)
			else {
				parts.push(plain, html`<code>${codeContent(text.slice(i + length, close))}</code>`)
				plain = ''
			}
			i = close === -1 ? i + length : close + length
		} else {
			plain += c
			i++
		}
	}
	parts.push(plain)
	return html`${parts}`
}

/**
 * One operation's line (`POST /webhooks adds…`): its method and path set as code, then its text.
 * A line that starts otherwise is text alone.
 */
export function operationLine(line: string): SafeHtml {
	const [, operation = '', rest = line] = /^([A-Z]+ \/\S*)(.*)$/s.exec(line) ?? []
	return html`<li>${operation ? html`<code>${operation}</code>` : ''}${docText(rest)}</li>`
}
