/**
 * Copies of an erased person's name, e-mail address and phone number in free text written about
 * them (mail sent, a search typed, a to-do's title in the activity log): found case-insensitively
 * and replaced by `ERASED`, so nothing kept elsewhere still names them. Used by the modules whose
 * rows are not the person's but may mention them.
 */
import { type SQL, sql } from 'drizzle-orm'

/** What an erased person's name and details become wherever they stay mentioned. */
export const ERASED = 'Erased candidate'

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Between two words of a needle: any run of spaces, tabs or line breaks (as typed, or escaped in
 * JSON text: `\t`), or a comma ("Wilson, Fatima"). A search typed "fatima   wilson" found the
 * person and kept their name after the erasure, which matched the name only as stored.
 */
const BETWEEN_WORDS = String.raw`(?:\s|\\[tnr]|,)+`

/** The pattern (PostgreSQL's regular expressions) that finds `needle`: its words in order, whatever separates them. */
const needlePattern = (needle: string) => needle.trim().split(/\s+/).map(escapeRegExp).join(BETWEEN_WORDS)

/**
 * A person's name as text holds it: as written, with the last word first ("Wilson Fatima", and with
 * a comma "Wilson, Fatima", as lists and searches put it), and as a file name made from it (an
 * attachment's `Quillon_Erasewell-Resume.pdf`: accents and punctuation dropped, spaces as
 * underscores, at most 60 characters — the same steps as documents' `attachmentName`).
 */
export function nameForms(name: string): string[] {
	const words = name.trim().split(/\s+/)
	const lastFirst = words.length > 1 ? [words.at(-1)!, ...words.slice(0, -1)].join(' ') : ''
	const file = name
		.normalize('NFKD')
		.replace(/[^\w\s-]/g, '')
		.trim()
		.replace(/\s+/g, '_')
		.slice(0, 60)
	return [...new Set([name, lastFirst, file].filter(Boolean))]
}

/** True (SQL) when `text` holds one of `needles`, in any case. */
export function mentionsAny(text: SQL, needles: readonly string[]): SQL {
	if (!needles.length) return sql`false`
	return sql`${text} ~* any(${sql.param(needles.map(needlePattern))}::text[])`
}

/** `text` (SQL) with every one of `needles` replaced by `ERASED`, in any case. */
export function withoutMentions(text: SQL, needles: readonly string[]): SQL {
	return needles.reduce<SQL>((inner, needle) => sql`regexp_replace(${inner}, ${needlePattern(needle)}, ${ERASED}, 'gi')`, text)
}

/** A jsonb `value` (SQL) with every one of `needles` replaced by `ERASED` in its texts (needles hold no quote or backslash to match inside JSON). */
export function jsonWithoutMentions(value: SQL, needles: readonly string[]): SQL {
	return sql`(${withoutMentions(sql`${value}::text`, needles)})::jsonb`
}
