/**
 * Merging lists contributed by several modules (review queue, calendar) into one keyset-paged
 * list ordered by `(at, type, id)`. The cursor holds the last entry's position; each source gets
 * the equivalent position in its own `(at, id)` order, so every source pages with a plain
 * `(at, id collate "C") > (…)` condition and nothing is skipped or repeated at equal times.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { SourcePosition } from './module.ts'
import { afterKeys, TEXT, TIME } from './paging.ts'

export interface MergedPosition {
	at: Date
	type: string
	id: string
}

/** Ids are lower-case letters, digits and `_`; `~` sorts after all of them byte-wise. */
const AFTER_EVERY_ID = '~'

/** The position in one source's own order that corresponds to the merged position. */
export function sourcePosition(after: MergedPosition | undefined, type: string): SourcePosition | undefined {
	if (!after) return undefined
	if (type === after.type) return { at: after.at, id: after.id }
	// Entries of an earlier type at the same instant were already shown; of a later type, not yet.
	return type < after.type ? { at: after.at, id: AFTER_EVERY_ID } : { at: after.at, id: '' }
}

/** Orders merged entries by `(at, type, id)`, byte-wise for strings. */
export function compareMerged(a: MergedPosition, b: MergedPosition): number {
	const t = a.at.getTime() - b.at.getTime()
	if (t !== 0) return t
	if (a.type !== b.type) return a.type < b.type ? -1 : 1
	return a.id === b.id ? 0 : a.id < b.id ? -1 : 1
}

/** SQL condition for a source: the row `(at, id)` comes after `after` (true when there is none). */
export function afterPosition(at: SQLWrapper, id: SQLWrapper, after: SourcePosition | undefined): SQL {
	if (!after) return sql`true`
	return afterKeys([{ expr: at }, { expr: id, bytewise: true }], [TIME.param(after.at), TEXT.param(after.id)])
}
