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
 * A person's name as text holds it: as written, and as a file name made from it (an attachment's
 * `Quillon_Erasewell-Resume.pdf`: accents and punctuation dropped, spaces as underscores, at most
 * 60 characters — the same steps as documents' `attachmentName`).
 */
export function nameForms(name: string): string[] {
	const file = name
		.normalize('NFKD')
		.replace(/[^\w\s-]/g, '')
		.trim()
		.replace(/\s+/g, '_')
		.slice(0, 60)
	return file && file !== name ? [name, file] : [name]
}

/** True (SQL) when `text` holds one of `needles`, in any case. */
export function mentionsAny(text: SQL, needles: readonly string[]): SQL {
	if (!needles.length) return sql`false`
	return sql`${text} ~* any(${sql.param(needles.map(escapeRegExp))}::text[])`
}

/** `text` (SQL) with every one of `needles` replaced by `ERASED`, in any case. */
export function withoutMentions(text: SQL, needles: readonly string[]): SQL {
	return needles.reduce<SQL>((inner, needle) => sql`regexp_replace(${inner}, ${escapeRegExp(needle)}, ${ERASED}, 'gi')`, text)
}

/** A jsonb `value` (SQL) with every one of `needles` replaced by `ERASED` in its texts (needles hold no quote or backslash to match inside JSON). */
export function jsonWithoutMentions(value: SQL, needles: readonly string[]): SQL {
	return sql`(${withoutMentions(sql`${value}::text`, needles)})::jsonb`
}
