/**
 * Addresses stored before they had one normal form (email.ts): a row whose address was typed with a
 * Unicode domain (`ann@bücher.example`) or a trailing dot is rewritten in the normal form
 * (`ann@xn--bcher-kva.example`), so the look-ups, which compare normal forms only, find it.
 *
 * The one migration of such rows, for every module's address columns (each module names its own and
 * runs this from its `start`): SQL cannot do IDNA, so it runs here, at each start (once none is left,
 * one scan of the column that finds nothing: no index serves a regular expression). Rewriting rather
 * than looking up every spelling keeps each look-up one equality an index serves, with no list of
 * spellings to get wrong (case, composed or not, a trailing dot, `xn--` labels beside Unicode ones:
 * only IDNA knows them all) in every module that compares addresses.
 *
 * A row whose normal address another row already holds under a unique index (one person stored twice,
 * in two spellings, before) is left as it is and named in the log by table and id: only an operator
 * can merge the two. Nothing here stops start-up: a failure is logged.
 */
import { and, getTableName, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { AppDeps } from './deps.ts'
import { normalEmail } from './email.ts'

/** A column of a module's table that holds addresses. */
export interface AddressColumn {
	readonly table: PgTable
	readonly id: PgColumn
	readonly address: PgColumn
	/** Only these rows (e.g. pending invitations). */
	readonly where?: SQL
	/** The value in normal form, for a column that holds more than an address (a key `address:<address>`); `normalEmail` unless said. */
	readonly normal?: (stored: string) => string
}

/** Not plain ASCII, or ending in a dot: the values that may not be in normal form. */
const mayNeedRewrite = (column: PgColumn) => or(sql`${column} ~ '[^\\x01-\\x7f]'`, sql`${column} like '%.'`)

/** A database's unique violation, as the driver raises it or drizzle wraps it. */
function isUniqueViolation(error: unknown): boolean {
	const x = error as { code?: unknown; cause?: unknown } | null
	return x?.code === '23505' || (x?.cause !== undefined && isUniqueViolation(x.cause))
}

/** Rewrites one row (only if its value is still the one read); 1 when it changed. */
async function rewriteRow(deps: AppDeps, c: AddressColumn, row: { id: string; value: string }): Promise<number> {
	const value = (c.normal ?? normalEmail)(row.value)
	if (value === row.value) return 0
	try {
		const changed = await deps.database.rows<{ id: string }>(
			sql`update ${c.table} set ${sql.identifier(c.address.name)} = ${value} where ${c.id} = ${row.id} and ${c.address} = ${row.value} returning ${c.id} as id`,
		)
		return changed.length
	} catch (error) {
		const table = getTableName(c.table)
		if (isUniqueViolation(error))
			deps.log.warn('a row holds, in another spelling, an address another row already has: left as it is for an operator to merge', { table, id: row.id })
		else deps.log.warn('a stored address could not be rewritten in its normal form', { table, id: row.id, error })
		return 0
	}
}

/** Rewrites one column's values that are not in normal form; returns how many rows changed. */
async function rewriteColumn(deps: AppDeps, c: AddressColumn): Promise<number> {
	try {
		const rows = await deps.database.rows<{ id: string; value: string }>(
			sql`select ${c.id} as id, ${c.address} as value from ${c.table} where ${and(mayNeedRewrite(c.address), c.where)}`,
		)
		let changed = 0
		for (const row of rows) changed += await rewriteRow(deps, c, row)
		return changed
	} catch (error) {
		deps.log.warn('rewriting stored addresses in their normal form failed', { table: getTableName(c.table), error })
		return 0
	}
}

/** Rewrites the columns' values that are not in normal form, one column after the other; returns how many rows changed (never throws: a failure is logged). */
export async function rewriteStoredAddresses(deps: AppDeps, ...columns: readonly AddressColumn[]): Promise<number> {
	let changed = 0
	for (const c of columns) changed += await rewriteColumn(deps, c)
	return changed
}
