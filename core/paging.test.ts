/**
 * The keyset-paging helper on the real test database: pages of any size, followed by their cursors,
 * give exactly the list one big page gives (none twice, none missing, ties broken by id), in each
 * kind of order the lists use; cursors keep the encoding of core/cursor.ts (cursors handed out
 * before keep working); a cursor of another list, altered, or carrying a bad value is refused; and
 * the condition is a row comparison when every key runs the same way (what composite indexes serve).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, gt, sql, type SQL } from 'drizzle-orm'
import { integer, PgDialect, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { encodeCursor, encodePosition } from './cursor.ts'
import type { AppDeps } from './deps.ts'
import { AppError } from './errors.ts'
import { afterKeys, idKey, integerKey, keysetPage, newestFirst, oneOf, orderBy, readCursor, TEXT, TIME, timeKey, type Order } from './paging.ts'
import { testDeps, unique } from '../tests/helpers.ts'

interface Row {
	id: string
	at: Date | string
	score: number | null
	name: string
}

let deps: AppDeps
const table = unique('paging_probe_')
const t = sql.raw(table)
const T0 = Date.parse('2026-01-01T00:00:00Z')
// Ties everywhere: three rows at one instant, ids that differ only in case, equal scores, a missing score, names in mixed case.
const ROWS: Row[] = [
	{ id: 'a1', at: new Date(T0), score: 5, name: 'beta' },
	{ id: 'B2', at: new Date(T0), score: 5, name: 'Alpha' },
	{ id: 'b2', at: new Date(T0), score: null, name: 'alpha' },
	{ id: 'c3', at: new Date(T0 + 1000), score: 7, name: 'Gamma' },
	{ id: 'd4', at: new Date(T0 + 2000), score: null, name: 'delta' },
	{ id: 'e5', at: new Date(T0 + 2000), score: 5, name: 'Beta' },
	{ id: 'f6', at: new Date(T0 + 3000), score: 1, name: 'epsilon' },
]

beforeAll(async () => {
	deps = await testDeps()
	await deps.database.rows(sql`create table ${t} (id text primary key, at timestamptz not null, score int, name text not null)`)
	await deps.database.rows(
		sql`insert into ${t} (id, at, score, name) values ${sql.join(
			ROWS.map((r) => sql`(${r.id}, ${(r.at as Date).toISOString()}::timestamptz, ${r.score}, ${r.name})`),
			sql`, `,
		)}`,
	)
	// The first test file to open the test database pays for creating it: up to a minute on a loaded 2-core machine.
}, 120_000)
afterAll(async () => {
	await deps.database.rows(sql`drop table if exists ${t}`)
})

const FROM = sql`select p.id, p.at, p.score, p.name from ${t} p`
const bytes = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1)
const ms = (r: Row) => new Date(r.at).getTime()

/** The whole list in pages of `limit`, following each nextCursor; the pages' sizes and `before` counts too. */
async function pageThrough(order: Order<Row>, limit: number, options: { scope?: string; counted?: boolean; where?: SQL[] } = {}) {
	const scope = options.scope ?? 'probe'
	const ids: string[] = []
	const sizes: number[] = []
	const before: number[] = []
	let cursor: string | undefined
	do {
		const page = await keysetPage<Row>(deps, { scope, cursor, limit, order, from: FROM, where: options.where ?? [sql`true`], counted: options.counted })
		ids.push(...page.rows.map((r) => r.id))
		sizes.push(page.rows.length)
		before.push(page.before)
		cursor = page.nextCursor ?? undefined
		if (cursor) expect(cursor.length).toBeLessThanOrEqual(64)
	} while (cursor && sizes.length < 50)
	return { ids, sizes, before }
}

const compiled = (q: SQL) => new PgDialect().sqlToQuery(q).sql

describe('keysetPage', () => {
	const NEWEST = newestFirst<Row>(sql`p.at`, sql`p.id`, (r) => r.at)
	const newest = [...ROWS].sort((a, b) => ms(b) - ms(a) || -bytes(a.id, b.id)).map((r) => r.id)

	test('newest first: every page size gives the whole list once, ties at one instant broken by id', async () => {
		for (const limit of [1, 2, 3, 7, 50]) {
			const { ids, sizes } = await pageThrough(NEWEST, limit)
			expect(ids).toEqual(newest)
			// limit + 1 is read, so a last page that is exactly full has no cursor after it.
			expect(sizes).toEqual(Array.from({ length: Math.max(1, Math.ceil(ROWS.length / limit)) }, (_, i) => Math.min(limit, ROWS.length - i * limit)))
		}
	})

	test('a cursor made by the encoding lists used before (encodePosition) continues after that row', async () => {
		const third = ROWS.find((r) => r.id === newest[2])!
		const cursor = encodePosition(deps.secret, 'probe', { at: new Date(third.at), id: third.id })
		const page = await keysetPage<Row>(deps, { scope: 'probe', cursor, limit: 2, order: NEWEST, from: FROM, where: [sql`true`] })
		expect(page.rows.map((r) => r.id)).toEqual(newest.slice(3, 5))
		// And the helper's own cursor is that encoding.
		const first = await keysetPage<Row>(deps, { scope: 'probe', limit: 3, order: NEWEST, from: FROM, where: [sql`true`] })
		expect(first.nextCursor).toBe(cursor)
	})

	test('ascending on several keys, ids compared byte-wise (B before a before b)', async () => {
		const order: Order<Row> = {
			keys: [integerKey<Row>(sql`coalesce(p.score, 0)`, (r) => r.score ?? 0), timeKey<Row>(sql`p.at`, (r) => r.at), idKey<Row>(sql`p.id`, { bytewise: true })],
		}
		const expected = [...ROWS].sort((a, b) => (a.score ?? 0) - (b.score ?? 0) || ms(a) - ms(b) || bytes(a.id, b.id)).map((r) => r.id)
		for (const limit of [1, 2, 4]) expect((await pageThrough(order, limit)).ids).toEqual(expected)
	})

	test('mixed directions (best score first, missing scores last, then ids ascending), with rows counted across pages', async () => {
		const order: Order<Row> = {
			keys: [integerKey<Row>(sql`coalesce(p.score, -1)`, (r) => r.score ?? -1, { desc: true }), idKey<Row>(sql`p.id`, { bytewise: true })],
		}
		const expected = [...ROWS].sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || bytes(a.id, b.id)).map((r) => r.id)
		const { ids, before } = await pageThrough(order, 2, { counted: true })
		expect(ids).toEqual(expected)
		expect(before).toEqual([0, 2, 4, 6])
	})

	test('nulls placed where the order says (a nullable key is paged through its coalesced form)', async () => {
		const order: Order<Row> = {
			keys: [{ ...integerKey<Row>(sql`coalesce(p.score, 1000)`, (r) => r.score ?? 1000), nulls: 'last' }, idKey<Row>(sql`p.id`, { bytewise: true })],
		}
		const { ids } = await pageThrough(order, 2)
		expect(ids.slice(-2)).toEqual(['b2', 'd4'])
		expect(compiled(orderBy(order.keys))).toBe('coalesce(p.score, 1000) nulls last, p.id collate "C"')
	})

	test('by name: the cursor holds only the id, the keys are read back with it', async () => {
		const order: Order<Row> = {
			keys: [{ expr: sql`lower(p.name)` }, { expr: sql`p.id` }],
			lookup: (id) => sql`select lower(x.name), x.id from ${t} x where x.id = ${id}`,
		}
		const expected = [...ROWS].sort((a, b) => bytes(a.name.toLowerCase(), b.name.toLowerCase()) || bytes(a.id, b.id)).map((r) => r.id)
		const first = await keysetPage<Row>(deps, { scope: 'names', limit: 2, order, from: FROM, where: [sql`true`] })
		expect(first.nextCursor).toBe(encodeCursor(deps.secret, 'names', [first.rows[1]!.id]))
		// Names compare in the database's collation, as the lists always did: compare sets and the pages' union.
		const { ids } = await pageThrough(order, 2, { scope: 'names' })
		expect([...ids].sort()).toEqual([...expected].sort())
		expect(new Set(ids).size).toBe(ROWS.length)
	})

	test("a drizzle query built from the cursor's condition, the order and the size gives the same pages", async () => {
		const probe = pgTable(table, {
			id: text('id').primaryKey(),
			at: timestamp('at', { withTimezone: true }).notNull(),
			score: integer('score'),
			name: text('name').notNull(),
		})
		const order = newestFirst<Row>(probe.at, probe.id, (r) => r.at)
		for (const limit of [2, 3]) {
			const ids: string[] = []
			let cursor: string | undefined
			do {
				const page = await keysetPage<Row>(deps, {
					scope: 'drizzle',
					cursor,
					limit,
					order,
					read: (after, orderBy, size) =>
						deps.db
							.select()
							.from(probe)
							.where(and(gt(probe.score, 0), after))
							.orderBy(orderBy)
							.limit(size),
				})
				expect(page.rows.every((r) => r.at instanceof Date)).toBe(true)
				ids.push(...page.rows.map((r) => r.id))
				cursor = page.nextCursor ?? undefined
			} while (cursor)
			expect(ids).toEqual(newest.filter((id) => (ROWS.find((r) => r.id === id)!.score ?? 0) > 0))
		}
	})

	test("the list's own conditions still apply on every page", async () => {
		const { ids } = await pageThrough(NEWEST, 1, { where: [sql`p.score = 5`] })
		expect(ids).toEqual(newest.filter((id) => ROWS.find((r) => r.id === id)!.score === 5))
	})

	test('a cursor of another list, altered, or with a value that is not one is refused', async () => {
		const first = await keysetPage<Row>(deps, { scope: 'probe', limit: 2, order: NEWEST, from: FROM, where: [sql`true`] })
		const refused = async (scope: string, cursor: string, counted = false) => {
			const error = await keysetPage<Row>(deps, { scope, cursor, limit: 2, order: NEWEST, from: FROM, where: [sql`true`], counted }).catch((e) => e)
			expect(error).toBeInstanceOf(AppError)
			expect((error as AppError).code).toBe('VALIDATION')
		}
		await refused('another list', first.nextCursor!)
		await refused(
			'probe',
			first.nextCursor!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
		)
		await refused('probe', encodeCursor(deps.secret, 'probe', ['-', 'a1']))
		await refused('probe', first.nextCursor!, true)
		await refused('probe', encodeCursor(deps.secret, 'probe', [first.nextCursor!.split('.')[0]!.split('~')[0]!, 'a1', 'x']), true)
	})
})

describe('the SQL', () => {
	test('keys running the same way give one row comparison (a composite index serves it); mixed ones the expanded form', () => {
		const newest = newestFirst<Row>(sql`j.created_at`, sql`j.id`, (r) => r.at)
		expect(compiled(orderBy(newest.keys))).toBe('j.created_at desc nulls last, j.id desc nulls last')
		expect(compiled(afterKeys(newest.keys, [TIME.param(new Date(0)), TEXT.param('x')]))).toBe('(j.created_at, j.id) < ($1::timestamptz, $2)')
		const mixed = [{ expr: sql`coalesce(a.resume_score, -1)`, desc: true }, { expr: sql`a.id` }]
		expect(compiled(afterKeys(mixed, [sql`${5}`, sql`${'x'}`]))).toBe(
			'(coalesce(a.resume_score, -1) < $1 or (coalesce(a.resume_score, -1) = $2 and a.id > $3))',
		)
	})
})

describe('readCursor', () => {
	test('reads each value with its codec and refuses one outside its list', () => {
		const types = ['interview', 'followup'] as const
		const at = new Date(T0)
		const cursor = encodeCursor(deps.secret, 'merged', [TIME.write(at), oneOf(types).write('followup'), 'x1'])
		expect(readCursor(deps.secret, 'merged', cursor, [TIME, oneOf(types), TEXT] as const)).toEqual([at, 'followup', 'x1'])
		expect(() =>
			readCursor(deps.secret, 'merged', encodeCursor(deps.secret, 'merged', [TIME.write(at), '2', 'x1']), [TIME, oneOf(types), TEXT] as const),
		).toThrow(AppError)
	})
})
