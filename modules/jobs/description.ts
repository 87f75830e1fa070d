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
 */
import type { FieldError } from '../../core/errors.ts'
import { sanitizeDescription } from '../../core/sanitize.ts'
import { codePoints } from '../../core/schema-check.ts'

export const MAX_DESCRIPTION = 20000

export interface StoredDescription {
	html: string
	/** Markup other than the allowlist (or an attribute) was removed. */
	removedMarkup: boolean
	/** `&`, `<` or `>` written as text were escaped (`&amp;`, `&lt;`, `&gt;`). */
	escapedText: boolean
}

const ESCAPES = /&(?:amp|lt|gt|quot);/g
const escapesIn = (html: string) => html.match(ESCAPES)?.length ?? 0

/** The description to store for `input`; `tooLong` names `field` when its stored form is over the limit (the caller refuses it, with its other problems). */
export function storedDescription(input: string, field = 'description'): StoredDescription & { tooLong: FieldError | null } {
	const { html, removedMarkup } = sanitizeDescription(input)
	const length = codePoints(html)
	const tooLong =
		length > MAX_DESCRIPTION
			? {
					field,
					message: `must be at most ${MAX_DESCRIPTION} characters as stored (got ${length}): it is stored as HTML, where & is written &amp;, < &lt; and > &gt;, and open tags are closed`,
				}
			: null
	// The sanitiser decodes every entity it reads and escapes these again: more of them means text was escaped.
	return { html, removedMarkup, escapedText: escapesIn(html) > escapesIn(input), tooLong }
}

export const escapedTextWarning = (field = 'description') =>
	`${field} is stored as HTML: the characters & < > in its text were written &amp; &lt; &gt; (what a read returns; send it back as it is)`
