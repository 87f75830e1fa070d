/**
 * Invisible formatting characters in the text vendors publish.
 *
 * Bidirectional controls (embeddings, overrides, isolates and the direction marks) make a title
 * read differently from what it says ("Trojan Source" spoofing), and Unicode tag characters carry
 * text that people cannot see but language models read ("ASCII smuggling"). Neither belongs in a
 * job ad, so they are removed from the display fields, with a warning naming the fields, rather
 * than refused: a feed that carries a stray direction mark still publishes. (The one visible loss:
 * a regional flag such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿 is spelled with tag characters and becomes a plain black flag.)
 * Zero-width joiners stay: emoji sequences and Persian or Indic words need them.
 */

import { LINE_BREAK_CHARS, ONE_LINE_MESSAGE } from '../../core/untrusted.ts'
import type { FieldError } from '../../core/errors.ts'
import type { EditableField } from './model.ts'

/** The free-text fields candidates (and models, through MCP) read; enums and numbers cannot carry these characters. */
export const DISPLAY_TEXT_FIELDS: readonly EditableField[] = [
	'title',
	'location',
	'employment',
	'summary',
	'description',
	'mustHave',
	'niceToHave',
	'interview',
	'department',
]

/** U+061C, U+200E/F, U+202A–202E, U+2066–2069 and the tag block U+E0000–E007F. */
const HIDDEN_FORMATTING = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu

const hasHiddenFormatting = (text: string) => text.search(HIDDEN_FORMATTING) !== -1

/** The text without bidirectional controls and tag characters. */
export const withoutHiddenFormatting = (text: string) => text.replace(HIDDEN_FORMATTING, '')

/**
 * A copy of a request body whose string fields (and string items of array fields) among `fields`
 * have the hidden formatting removed; `cleaned` names the fields that changed. Values of other
 * types are left for the schema check to refuse.
 */
export function stripHiddenFormatting(body: Record<string, unknown>, fields: readonly string[]): { body: Record<string, unknown>; cleaned: string[] } {
	const copy = { ...body }
	const cleaned: string[] = []
	const clean = (v: unknown) => (typeof v === 'string' && hasHiddenFormatting(v) ? withoutHiddenFormatting(v) : v)
	for (const field of fields) {
		if (!Object.hasOwn(body, field)) continue
		const value = body[field]
		const next = Array.isArray(value) ? value.map(clean) : clean(value)
		if (Array.isArray(value) ? (next as unknown[]).some((v, i) => v !== value[i]) : next !== value) {
			copy[field] = next
			cleaned.push(field)
		}
	}
	return { body: copy, cleaned }
}

export const hiddenFormattingWarning = (fields: string[]) => `Invisible direction-control and tag characters were removed from ${fields.join(', ')}`

/**
 * The fields that are one line: a title, a place, an id, each must-have. They end up in one-line
 * places (a mail's subject, a list's row, a header), so a line break or a tab in them is refused
 * (422 naming the field, or the item), as the portal refuses one in a name; the schema check already
 * refuses every other control character. `summary` and `description` are paragraphs and keep theirs.
 */
export const ONE_LINE_FIELDS = ['vendorJobId', 'title', 'location', 'employment', 'interview', 'department', 'mustHave', 'niceToHave'] as const

/** Line feed, carriage return, tab, next line (U+0085) and the Unicode line and paragraph separators (`LINE_BREAK_CHARS`). */
const LINE_BREAK = new RegExp(`[${LINE_BREAK_CHARS}]`)

/** A field error for each string (or string item, named by its position) of `fields` that is not one line. */
export function lineBreakErrors(body: Record<string, unknown>, fields: readonly string[] = ONE_LINE_FIELDS): FieldError[] {
	const errors: FieldError[] = []
	for (const field of fields) {
		if (!Object.hasOwn(body, field)) continue
		const value = body[field]
		if (typeof value === 'string' && LINE_BREAK.test(value)) errors.push({ field, message: ONE_LINE_MESSAGE })
		if (Array.isArray(value))
			value.forEach((item, i) => {
				if (typeof item === 'string' && LINE_BREAK.test(item)) errors.push({ field: `${field}[${i}]`, message: ONE_LINE_MESSAGE })
			})
	}
	return errors
}
