/**
 * Keyset paging, the one way every list pages. A list names its order as keys (the last one unique,
 * so ties are broken: the id, or for histories the insertion order `seq`, since ids are random), and `keysetPage` reads `limit + 1` rows after the cursor's position:
 * the extra row only says whether another page follows. The cursor (core/cursor.ts) carries the
 * last row's key values, signed and bound to the scope (the list, the person and the filters).
 *
 * The SQL is the one the lists wrote by hand before: a row comparison `(a, b) < (…)` when every key
 * runs the same way (PostgreSQL reads it straight from a composite index), the expanded `or` form
 * when directions differ. `nulls` only places nulls in the order (to match the list's index): a
 * nullable key must be wrapped (`coalesce`) so the comparison never meets a null.
 */
import { SQL, sql, type SQLWrapper } from 'drizzle-orm'
import { decodeCursor, encodeCursor } from './cursor.ts'
import type { AppDeps } from './deps.ts'
import { AppError } from './errors.ts'

/** How one value is written in a cursor, read back (undefined: not a value of this kind) and bound in SQL. */
export interface Codec<T> {
	write(value: T): string
	read(text: string): T | undefined
	param(value: T): SQL
}

/** Instants, as base-36 milliseconds (the `Position` encoding of core/cursor.ts). */
export const TIME: Codec<Date> = {
	write: (d) => d.getTime().toString(36),
	read: (text) => {
		const ms = parseInt(text, 36)
		return Number.isFinite(ms) ? new Date(ms) : undefined
	},
	param: (d) => sql`${d.toISOString()}::timestamptz`,
}

/** Whole numbers, in decimal. */
export const INTEGER: Codec<number> = {
	write: (n) => String(n),
	read: (text) => (/^-?\d+$/.test(text) ? Number(text) : undefined),
	param: (n) => sql`${n}`,
}

/** Whole numbers computed as `bigint` (sort keys in milliseconds, below 2^53), in base 36. */
export const BIGINT: Codec<number | string | bigint> = {
	write: (n) => BigInt(n).toString(36),
	read: (text) => (/^-?[0-9a-z]+$/.test(text) ? parseInt(text, 36) : undefined),
	param: (n) => sql`${Number(n)}::bigint`,
}

/** Ids and other cursor-safe text, as they are. */
export const TEXT: Codec<string> = { write: (s) => s, read: (s) => s, param: (s) => sql`${s}` }

/** One of a fixed list of names, by its place in the list (keeps cursors short). */
export const oneOf = <T extends string>(values: readonly T[]): Codec<T> => ({
	write: (v) => String(values.indexOf(v)),
	read: (text) => (/^\d+$/.test(text) ? values[Number(text)] : undefined),
	param: (v) => sql`${v}`,
})

/** One column of a list's order. */
export interface OrderKey {
	/** The sort expression over the list's alias (`sql\`j.created_at\``) or a drizzle column. */
	readonly expr: SQLWrapper
	readonly desc?: boolean
	/** Where nulls go in `order by` (it must match the index the list reads). */
	readonly nulls?: 'first' | 'last'
	/** Ordered and compared byte-wise (`collate "C"`), whatever the database's collation. */
	readonly bytewise?: boolean
}

/** An order key whose value a cursor carries. */
export interface Key<Row> extends OrderKey {
	write(row: Row): string
	bound(text: string): SQL | undefined
}

type KeyOptions = Omit<OrderKey, 'expr'>

export function key<Row, T>(codec: Codec<T>, expr: SQLWrapper, of: (row: Row) => T, options: KeyOptions = {}): Key<Row> {
	return {
		expr,
		...options,
		write: (row) => {
			const value = of(row)
			if (value === null || value === undefined) throw new Error('a keyset key is null: wrap the expression so it never is')
			return codec.write(value)
		},
		bound: (text) => {
			const value = codec.read(text)
			return value === undefined ? undefined : codec.param(value)
		},
	}
}

export const timeKey = <Row>(expr: SQLWrapper, of: (row: Row) => Date | string, options?: KeyOptions) =>
	key<Row, Date>(TIME, expr, (r) => new Date(of(r)), options)
export const integerKey = <Row>(expr: SQLWrapper, of: (row: Row) => number, options?: KeyOptions) => key(INTEGER, expr, of, options)
export const bigintKey = <Row>(expr: SQLWrapper, of: (row: Row) => string | bigint, options?: KeyOptions) => key(BIGINT, expr, of, options)
/** The row's id: the last key of every order, which makes it total. */
export const idKey = <Row extends { id: string }>(expr: SQLWrapper, options?: KeyOptions) => key<Row, string>(TEXT, expr, (r) => r.id, options)

/**
 * A list's order. `lookup`: the cursor holds only the last row's id and the keys' values are read
 * back with it (`select lower(x.name), x.id from … where x.id = $1`), for keys that are not
 * cursor-safe text, such as names.
 */
export type Order<Row> = { readonly keys: readonly Key<Row>[] } | { readonly keys: readonly OrderKey[]; lookup(id: string): SQL }

const collated = (s: SQLWrapper, k: OrderKey) => (k.bytewise ? sql`${s} collate "C"` : sql`${s}`)

/** `order by` of the keys (without the words `order by`). */
export function orderBy(keys: readonly OrderKey[]): SQL {
	return sql.join(
		keys.map((k) => sql`${collated(k.expr, k)}${k.desc ? sql` desc` : sql``}${k.nulls ? sql.raw(` nulls ${k.nulls}`) : sql``}`),
		sql`, `,
	)
}

/** The condition "the row comes after these key values" (one value, or a row subquery, per key). */
export function afterKeys(keys: readonly OrderKey[], bounds: readonly SQL[] | SQL): SQL {
	const op = (k: OrderKey) => sql.raw(k.desc ? '<' : '>')
	const perKey = bounds instanceof SQL ? undefined : bounds
	if (keys.every((k) => Boolean(k.desc) === Boolean(keys[0]!.desc))) {
		const right = perKey
			? sql.join(
					perKey.map((b, i) => collated(b, keys[i]!)),
					sql`, `,
				)
			: bounds
		return sql`(${sql.join(
			keys.map((k) => collated(k.expr, k)),
			sql`, `,
		)}) ${op(keys[0]!)} (${right})`
	}
	if (!perKey) throw new Error('keys of mixed directions need one bound per key')
	// Mixed directions have no row comparison: (a < x or (a = x and (b > y …))).
	const after = (i: number): SQL => {
		const [k, b] = [keys[i]!, collated(perKey[i]!, keys[i]!)]
		const beyond = sql`${collated(k.expr, k)} ${op(k)} ${b}`
		return i === keys.length - 1 ? beyond : sql`(${beyond} or (${collated(k.expr, k)} = ${b} and ${after(i + 1)}))`
	}
	return after(0)
}

const notValid = () => new AppError('VALIDATION', 'cursor is not valid')

/** A cursor's values read with their codecs; a cursor of another scope or shape is refused. */
export function readCursor<C extends readonly Codec<any>[]>(
	secret: Uint8Array,
	scope: string,
	cursor: string,
	codecs: C,
): { [K in keyof C]: C[K] extends Codec<infer T> ? T : never } {
	const texts = decodeCursor(secret, scope, cursor, codecs.length)
	return codecs.map((c, i) => {
		const value = c.read(texts[i]!)
		if (value === undefined) throw notValid()
		return value
	}) as { [K in keyof C]: C[K] extends Codec<infer T> ? T : never }
}

/** Rows to fetch for a page of `limit`: one more says whether another page follows. */
export const fetchSize = (limit: number) => limit + 1

/** The page out of at most `fetchSize(limit)` rows, and the cursor after its last row when more follow. */
export function pageOf<Row>(
	secret: Uint8Array,
	scope: string,
	rows: readonly Row[],
	limit: number,
	values: (last: Row) => string[],
): { page: Row[]; nextCursor: string | null } {
	const page = rows.slice(0, limit)
	const last = page[page.length - 1]
	return { page, nextCursor: rows.length > limit && last ? encodeCursor(secret, scope, values(last)) : null }
}

/**
 * Where a page is read from: raw SQL (`select … from …` and the list's conditions, the cursor's
 * added after them), or a drizzle query the list builds from the cursor's condition (none on the
 * first page), the order and the number of rows to fetch.
 */
export type PageSource<Row> = { from: SQL; where: readonly SQL[] } | { read(after: SQL | undefined, order: SQL, size: number): Promise<Row[]> }

export type PageQuery<Row> = PageSource<Row> & {
	/** What the cursor is bound to: the list, the person and the filters. */
	scope: string
	cursor?: string
	limit: number
	order: Order<Row>
	/** The cursor also carries how many rows came before the page (a ranked list numbers its rows). */
	counted?: boolean
}

export interface Page<Row> {
	rows: Row[]
	nextCursor: string | null
	/** How many rows the earlier pages held (0 unless `counted`). */
	before: number
}

/** One page of a list, in its order, after the cursor's position. */
export async function keysetPage<Row extends { id: string }>(deps: AppDeps, q: PageQuery<Row>): Promise<Page<Row>> {
	const { keys } = q.order
	const lookup = 'lookup' in q.order ? q.order.lookup : undefined
	let after: SQL | undefined
	let before = 0
	if (q.cursor) {
		const texts = decodeCursor(deps.secret, q.scope, q.cursor, (lookup ? 1 : keys.length) + (q.counted ? 1 : 0))
		if (q.counted) {
			const count = texts.pop()!
			if (!/^\d+$/.test(count)) throw notValid()
			before = Number(count)
		}
		if (lookup) after = afterKeys(keys, lookup(texts[0]!))
		else {
			const bounds = (keys as readonly Key<Row>[]).map((k, i) => k.bound(texts[i]!))
			if (bounds.some((b) => !b)) throw notValid()
			after = afterKeys(keys, bounds as SQL[])
		}
	}
	const rows =
		'read' in q
			? await q.read(after, orderBy(keys), fetchSize(q.limit))
			: await deps.database.rows<Row>(
					sql`${q.from} where ${sql.join([...q.where, ...(after ? [after] : [])], sql` and `)} order by ${orderBy(keys)} limit ${fetchSize(q.limit)}`,
				)
	const { page, nextCursor } = pageOf(deps.secret, q.scope, rows, q.limit, (last) => [
		...(lookup ? [last.id] : (keys as readonly Key<Row>[]).map((k) => k.write(last))),
		...(q.counted ? [String(before + Math.min(rows.length, q.limit))] : []),
	])
	return { rows: page, nextCursor, before }
}

/** Newest first on `(at, id)`: the order of most lists. `nulls last` matches their indexes unless told otherwise. */
export function newestFirst<Row extends { id: string }>(
	at: SQLWrapper,
	id: SQLWrapper,
	of: (row: Row) => Date | string,
	options: Pick<OrderKey, 'nulls'> = { nulls: 'last' },
): Order<Row> {
	return { keys: [timeKey(at, of, { desc: true, ...options }), idKey<Row>(id, { desc: true, ...options })] }
}

/**
 * Newest first on `(at, seq)`: histories (the activity log, the outbox), whose rows of one millisecond
 * come in the reverse of the order they were written in (`seq`, a bigint identity: ids are random).
 */
export function newestWrittenFirst<Row extends { id: string; seq: number }>(at: SQLWrapper, seq: SQLWrapper, of: (row: Row) => Date | string): Order<Row> {
	return {
		keys: [timeKey(at, of, { desc: true, nulls: 'last' }), integerKey<Row>(seq, (r) => r.seq, { desc: true, nulls: 'last' })],
	}
}
