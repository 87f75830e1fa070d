/**
 * A job's description as it is stored: sanitised HTML (core/sanitize.ts), through every door (the
 * Job Publish API, create_job, the portal's New job form).
 *
 * Rules:
 * - The 20,000-character limit applies to the stored form, which is what every read returns: text
 *   grows as it is sanitised (`&` is written `&amp;`, `<` `&lt;`, open tags are closed), and a
 *   limit checked only on what was sent let "R&D " × 5000 be stored as 40,000 characters that a
 *   change sending it back was refused. A stored description can always be sent back as it is.
 * - `&`, `<` and `>` that were text are kept as text (escaped); the caller may say so, since a
 *   vendor reading the job back gets `&amp;` where it sent `&`.
 * - Line breaks are stored as LF: CRLF (what a form or a Windows client sends) and a lone CR are one
 *   line break, so plain text keeps its paragraphs on the page, in JSON-LD and in the feeds (a CR
 *   was shown as a stray character and lost its break). The summary too (`lineFeeds`).
 * - The sanitiser decodes character references, so `&#27;` is stored as ESC itself. A reference to
 *   what no field may hold (a control character, a noncharacter: `notTextProblem`) is refused as
 *   the character itself is, with a 422 naming the field: dropping it would change the text without
 *   a word, and storing it made a read that could not be sent back. A reference the decoder would
 *   turn into U+FFFD (`&#0;`, a surrogate, past U+10FFFF) is refused as what it names (NUL, a lone
 *   surrogate): stored as U+FFFD it changed the text without a word.
 * - A door that removes hidden formatting from display text (the Job Publish API, rest-text.ts) removes it
 *   from the description as decoded (`removeHiddenFormatting`): `&#x202E;` is U+202E as much as the character sent raw.
 * - A description with no text once sanitised (`<p></p>`, markup that was all removed, spaces) is
 *   none: stored null, so every reader's fallback applies (the summary or title in JSON-LD and the
 *   feeds, no empty "About the role" on the page).
 */
import type { FieldError } from '../../core/errors.ts'
import { sanitizeDescription } from '../../core/sanitize.ts'
import { codePoints, notTextProblem } from '../../core/schema-check.ts'
import { isBlank } from '../../core/untrusted.ts'
import { withoutHiddenFormatting } from './rest-text.ts'

export const MAX_DESCRIPTION = 20000

export interface StoredDescription {
	/** Null when nothing of it is text (`hasText`). */
	html: string | null
	/** Markup other than the allowlist (or an attribute) was removed. */
	removedMarkup: boolean
	/** `&`, `<` or `>` written as text were escaped (`&amp;`, `&lt;`, `&gt;`). */
	escapedText: boolean
	/** Hidden formatting (rest-text.ts) was removed, when asked (`removeHiddenFormatting`). */
	removedHiddenFormatting: boolean
}

const ESCAPES = /&(?:amp|lt|gt|quot);/g
const escapesIn = (html: string) => html.match(ESCAPES)?.length ?? 0

/** Whether sanitised HTML shows any text: its tags (allowlisted, without attributes) removed, something visible is left. */
const hasText = (html: string) => !isBlank(html.replace(/<\/?[a-z][a-z0-9]*\s*\/?>/gi, ''))

/** Multi-line text of a job (description, summary) as stored: every line break (CRLF, CR) a line feed. */
export const lineFeeds = (text: string) => text.replace(/\r\n?/g, '\n')

const NUMERIC_REFERENCE = /&#(?:[xX]([0-9a-fA-F]+)|([0-9]+))/g

/**
 * Why a numeric character reference in `input` names no text, or null. Only those the HTML decoder
 * replaces with U+FFFD (NUL, a surrogate, past U+10FFFF): the others are checked once decoded.
 */
function replacedReferenceProblem(input: string): string | null {
	for (const [, hex, decimal] of input.matchAll(NUMERIC_REFERENCE)) {
		const value = hex ? Number.parseInt(hex, 16) : Number(decimal)
		if (value > 0x10ffff) return 'contains a character reference to no Unicode character'
		if (value === 0 || (value >= 0xd800 && value <= 0xdfff)) return notTextProblem(String.fromCharCode(value))
	}
	return null
}

/**
 * The description to store for `input`; `problem` names `field` when its stored form cannot be
 * stored (the caller refuses it, with its other problems): a character no field may hold, written
 * as a reference, or over the limit.
 */
export function storedDescription(
	input: string,
	field = 'description',
	{ removeHiddenFormatting = false } = {},
): StoredDescription & { problem: FieldError | null } {
	const sanitised = sanitizeDescription(lineFeeds(input))
	// A reference (&#13;) is decoded by the sanitiser: a line break too.
	const decoded = lineFeeds(sanitised.html)
	const html = removeHiddenFormatting ? withoutHiddenFormatting(decoded) : decoded
	const { removedMarkup } = sanitised
	// The sanitiser decodes every entity it reads and escapes these again: more of them means text was escaped.
	const stored = { html, removedMarkup, escapedText: escapesIn(html) > escapesIn(input), removedHiddenFormatting: html !== decoded }
	const notText = notTextProblem(html) ?? replacedReferenceProblem(input)
	if (notText)
		return { ...stored, problem: { field, message: `${notText}${notTextProblem(input) ? '' : ', written as a character reference (such as &#27;)'}` } }
	const length = codePoints(html)
	if (length > MAX_DESCRIPTION)
		return {
			...stored,
			problem: {
				field,
				message: `must be at most ${MAX_DESCRIPTION} characters as stored (got ${length}): it is stored as HTML, where & is written &amp;, < &lt; and > &gt;, and open tags are closed`,
			},
		}
	return { ...stored, html: hasText(html) ? html : null, problem: null }
}

export const noTextWarning = (field = 'description') => `${field} has no text once its markup is removed, so the job has no ${field}`

export const escapedTextWarning = (field = 'description') =>
	`${field} is stored as HTML: the characters & < > in its text were written &amp; &lt; &gt; (what a read returns; send it back as it is)`
