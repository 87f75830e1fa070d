/**
 * The HTML reader of inbound mail, run as a child process of its own (`html-text.ts` starts it
 * through `core/child-task.ts`, which bounds its memory and time): HTML the parser takes seconds on
 * (200,000 unclosed `<div>` in 1 MB: 12 s) costs this process, never the server. It reads the HTML
 * from stdin and writes `{"text"}`: its text (`htmlToText`), at most `MAX_TEXT_OUT` characters.
 *
 * Usage: `bun html-reader.ts < body.html`
 */
import { htmlToText } from '../../core/sanitize.ts'

/** Characters handed back at most (the inbox keeps 100,000 of the reply's new part). */
export const MAX_TEXT_OUT = 200_000

if (import.meta.main) process.stdout.write(JSON.stringify({ text: htmlToText(await Bun.stdin.text()).slice(0, MAX_TEXT_OUT) }))
