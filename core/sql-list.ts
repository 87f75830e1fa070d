/**
 * `in (…)` lists of values for raw SQL: `x in ${inList(ids)}`. One parameter per value; an empty list
 * is `(null)`, which matches nothing (`x in (null)` is never true), so callers need no special case.
 */
import { sql, type SQL } from 'drizzle-orm'

export const inList = (values: readonly string[]): SQL =>
	values.length
		? sql`(${sql.join(
				values.map((v) => sql`${v}`),
				sql`, `,
			)})`
		: sql`(null)`
