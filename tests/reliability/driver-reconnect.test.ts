/**
 * PostgreSQL ends pooled connections while they wait inside a transaction (pg_terminate_backend,
 * as a session timeout or an administrator would): the pool must serve the next queries at once.
 *
 * postgres.js 3.4.9 did not (patches/postgres+3.4.9.patch, applied by `npm install`): a write queued
 * for the closed socket threw outside any promise, the connection kept a stale write timer and never
 * wrote again (every query failed with CONNECT_TIMEOUT for about 70 s), and the closed session's error
 * was handed to the next query (porsager/postgres #1154, #1208, #1215). PostgreSQL pass only: the
 * embedded database has no connections to end.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { loadConfig } from '../../core/config.ts'
import { openDatabase, type Database } from '../../db/client.ts'
import { unique, usingPostgres } from '../helpers.ts'

describe.skipIf(!usingPostgres())('pooled connections ended by PostgreSQL inside a transaction (PostgreSQL pass only)', () => {
	const table = unique('driver_lock_').toLowerCase()
	let database: Database
	let admin: postgres.Sql

	beforeAll(async () => {
		// The app's own pool, as production opens it, with two connections so both can be cut.
		database = await openDatabase({ ...loadConfig(), databasePoolSize: 2 })
		admin = postgres(process.env.DATABASE_URL!, { max: 3, onnotice: () => {} })
		await admin.unsafe(`create table ${table} (id int)`)
	})

	afterAll(async () => {
		await admin.unsafe(`drop table if exists ${table}`)
		await admin.end({ timeout: 5 })
		await database.close()
	})

	test('the next queries are served at once, none gets the ended session’s error, nothing is thrown outside a promise', async () => {
		for (let round = 0; round < 3; round++) {
			const holder = await admin.reserve()
			await holder`begin`
			await holder.unsafe(`lock table ${table} in access exclusive mode`)
			const blocked = [1, 2].map((n) =>
				database.db
					.transaction(async (tx) => {
						await tx.execute(sql`select ${n}::int`)
						await tx.execute(sql.raw(`select * from ${table}`))
					})
					.then(
						() => 'committed',
						(error: { code?: string }) => error.code ?? 'error',
					),
			)
			let waiting: { pid: number }[] = []
			for (let i = 0; i < 100 && waiting.length < 2; i++) {
				await Bun.sleep(50)
				waiting = await admin<{ pid: number }[]>`select pid from pg_locks where relation = ${table}::regclass and not granted`
			}
			expect(waiting).toHaveLength(2)
			for (const { pid } of waiting) await admin`select pg_terminate_backend(${pid})`
			expect(await Promise.all(blocked)).not.toContain('committed')
			await holder`rollback`
			holder.release()

			// Each query gets an answer, fast: no CONNECT_TIMEOUT (3 s), no replayed 57P01.
			const answers: string[] = []
			for (let i = 0; i < 6; i++) {
				const started = performance.now()
				const answer = await database.rows<{ n: number }>(sql`select ${i}::int as n`).then(
					(rows) => `ok ${rows[0]?.n}`,
					(error: { code?: string }) => `failed ${error.code}`,
				)
				answers.push(performance.now() - started < 2000 ? answer : `${answer} after ${Math.round(performance.now() - started)} ms`)
			}
			expect(answers).toEqual([0, 1, 2, 3, 4, 5].map((n) => `ok ${n}`))
		}
	}, 60_000)
})
