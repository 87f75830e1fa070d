/**
 * The event mechanism: a consumer reads each event once and in order, a late-committing transaction's
 * event is never stepped over, a failing handler loses nothing, one instance at a time moves a
 * consumer, a new consumer starts from now, and pruning keeps what a consumer has not read.
 */
import { describe, expect, test } from 'bun:test'
import { Type as T } from '@sinclair/typebox'
import { sql } from 'drizzle-orm'
import { operatorActor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { createLogger } from '../../core/log.ts'
import { closeDeps, createDeps, modules } from '../../core/main.ts'
import { emptyDatabase, newWorkspace, testDeps, unique, usingPostgres } from '../../tests/helpers.ts'
import {
	consumeOnce,
	defineEvent,
	drainEvents,
	eventProblems,
	pruneEvents,
	recordEvent,
	registerConsumers,
	type EventConsumer,
	type StoredEvent,
} from './index.ts'
import { eventConsumers, events } from './table.ts'

const pinged = defineEvent({ type: 'test.pinged', description: 'a test event', data: T.Object({ n: T.Number() }) })
const other = defineEvent({ type: 'test.other', description: 'another test event', data: T.Object({ n: T.Number() }) })

/** A consumer that keeps what it saw of one workspace (the shared test database holds every file's events). */
function collector(workspaceId: string, handle?: (tx: Db, events: readonly StoredEvent[]) => Promise<void>) {
	const seen: StoredEvent[] = []
	const consumer: EventConsumer = {
		name: unique('test-consumer-'),
		description: 'test',
		types: [pinged.type],
		async handle(_deps, tx, batch) {
			await handle?.(tx, batch)
			seen.push(...batch.filter((e) => e.workspaceId === workspaceId))
		},
	}
	return { consumer, seen }
}

const drain = (deps: AppDeps, consumer: EventConsumer) => drainEvents(deps, [consumer])

async function record(deps: AppDeps, ws: { id: string; slug: string }, n: number, event = pinged) {
	await deps.db.transaction((tx) => recordEvent(tx, event, operatorActor(ws), { n }))
}

describe('consumers', () => {
	test('each event of its types once, in the order written; a new consumer starts from now', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		await record(deps, ws, 0)
		const { consumer, seen } = collector(ws.id)
		await registerConsumers(deps, [consumer])
		for (let n = 1; n <= 5; n++) await record(deps, ws, n, n === 3 ? other : pinged)
		await drain(deps, consumer)
		await drain(deps, consumer)
		expect(seen.map((e) => e.data.n)).toEqual([1, 2, 4, 5])
		expect(seen.every((e) => e.type === 'test.pinged' && e.actorKind === 'cli' && e.id.startsWith('evt_'))).toBe(true)
	})

	test('events are read in transaction order, not in the order of its text (99 before 100): in small batches, each once and none skipped', async () => {
		// A database of its own: the events below carry transaction numbers of one and two digits, far
		// below any real one, so they must be the only events a consumer starting at 0 reads.
		const scratch = await emptyDatabase()
		let deps: AppDeps | undefined
		try {
			await scratch.database.migrate(modules)
			deps = await createDeps({ config: (await testDeps()).config, database: scratch.database, log: createLogger('silent') })
			const ws = await newWorkspace(deps)
			const { consumer, seen } = collector(ws.id)
			await registerConsumers(deps, [consumer])
			await deps.database.rows(sql`update ${eventConsumers} set txid = '0'::xid8, seq = 0 where name = ${consumer.name}`)
			await deps.database.rows(sql`delete from ${events}`)
			// Written in this order; as text the transactions would sort 10, 100, 11, 8, 9, 99.
			const txids = [8, 9, 10, 11, 99, 100]
			for (const [n, txid] of txids.entries())
				await deps.database.rows(sql`insert into ${events} (id, txid, workspace_id, type, data, actor_kind)
values (${unique('evt_')}, ${String(txid)}::xid8, ${ws.id}, ${pinged.type}, ${JSON.stringify({ n })}::jsonb, 'operator')`)
			let rounds = 0
			while ((await consumeOnce(deps, consumer, 2)) > 0) rounds++
			expect(seen.map((e) => e.txid)).toEqual(txids.map(String))
			expect(rounds).toBe(3)
		} finally {
			// Its availability probe goes first: left running, it reported the dropped database as down.
			if (deps) await closeDeps(deps)
			await scratch.close()
		}
	})

	test('data that does not fit the declared schema is refused before anything is written', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		await expect(deps.db.transaction((tx) => recordEvent(tx, pinged, operatorActor(ws), { n: 'one' } as never))).rejects.toThrow(
			/test.pinged: data does not fit/,
		)
		const rows = await deps.database.rows(sql`select 1 from ${events} where workspace_id = ${ws.id}`)
		expect(rows).toHaveLength(0)
	})

	test('a failing handler rolls back what it wrote, keeps its position and is tried again', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		let failures = 1
		const marker = unique('mark')
		const { consumer, seen } = collector(ws.id, async (tx) => {
			await tx.execute(sql`insert into ${eventConsumers} (name) values (${marker})`)
			if (failures-- > 0) throw new Error('receiver store is down')
		})
		await registerConsumers(deps, [consumer])
		await record(deps, ws, 1)
		await expect(drain(deps, consumer)).rejects.toThrow('receiver store is down')
		const [failed] = await deps.database.rows<{ lastError: string }>(sql`select last_error as "lastError" from ${eventConsumers} where name = ${consumer.name}`)
		expect(failed!.lastError).toBe('receiver store is down')
		expect(await deps.database.rows(sql`select 1 from ${eventConsumers} where name = ${marker}`)).toHaveLength(0)
		await drain(deps, consumer)
		expect(seen.map((e) => e.data.n)).toEqual([1])
		const [ok] = await deps.database.rows<{ lastError: string | null }>(
			sql`select last_error as "lastError" from ${eventConsumers} where name = ${consumer.name}`,
		)
		expect(ok!.lastError).toBeNull()
		await deps.database.rows(sql`delete from ${eventConsumers} where name = ${marker}`)
	})

	test('declared types and consumers are checked: unknown types, duplicates and bad names', () => {
		const problems = eventProblems(
			[pinged, pinged, defineEvent({ type: 'Bad Name', description: 'x', data: T.Object({}) })],
			[{ name: 'c', description: 'x', types: ['test.pinged', 'nobody.declares'], handle: async () => {} }],
		)
		expect(problems).toEqual([
			'event type "test.pinged" is declared twice',
			'event type "Bad Name" must be <record>.<what happened> in lowercase words (e.g. job.published)',
			'event consumer "c" reads "nobody.declares", which no module declares',
		])
	})

	test('pruning deletes old events every consumer has passed, and keeps those one has not', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		await record(deps, ws, 1)
		await deps.database.rows(sql`update ${events} set at = now() - interval '40 days' where workspace_id = ${ws.id}`)
		// A consumer still before it holds it back.
		const behind = unique('behind-')
		await deps.database.rows(sql`insert into ${eventConsumers} (name) values (${behind})`)
		await pruneEvents(deps, 30)
		expect(await deps.database.rows(sql`select 1 from ${events} where workspace_id = ${ws.id}`)).toHaveLength(1)
		// Once every consumer is past it, it goes; a newer event stays whatever the positions.
		await record(deps, ws, 2)
		await deps.database.rows(sql`update ${eventConsumers} set txid = (select max(txid) from ${events}), seq = (select max(seq) from ${events})`)
		await pruneEvents(deps, 30)
		const left = await deps.database.rows<{ data: { n: number } }>(sql`select data from ${events} where workspace_id = ${ws.id}`)
		expect(left.map((r) => r.data.n)).toEqual([2])
		await deps.database.rows(sql`delete from ${eventConsumers} where name = ${behind}`)
	})
})

describe.skipIf(!usingPostgres())('consumers beside concurrent transactions (PostgreSQL)', () => {
	test('an event of a transaction that commits after a later one is read, in its place, once it commits', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		const { consumer, seen } = collector(ws.id)
		await registerConsumers(deps, [consumer])
		let commitSlow!: () => void
		const slowMayCommit = new Promise<void>((resolve) => (commitSlow = resolve))
		let slowRecorded!: () => void
		const slowHasRecorded = new Promise<void>((resolve) => (slowRecorded = resolve))
		const slow = deps.db.transaction(async (tx) => {
			await recordEvent(tx, pinged, operatorActor(ws), { n: 1 })
			slowRecorded()
			await slowMayCommit
		})
		await slowHasRecorded
		await record(deps, ws, 2)
		for (let i = 0; i < 3; i++) await consumeOnce(deps, consumer)
		// The later transaction committed first, but its event waits behind the one still open.
		expect(seen.map((e) => e.data.n)).toEqual([])
		commitSlow()
		await slow
		// A writing transaction of another database of the cluster (another test run) may hold the horizon a moment.
		await drain(deps, consumer)
		expect(seen.map((e) => e.data.n)).toEqual([1, 2])
	})

	test('rounds of several instances at once hand each event to one of them', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		const { consumer, seen } = collector(ws.id, async (tx) => {
			// Hold the claim a little, so the rounds really overlap.
			await tx.execute(sql`select pg_sleep(0.05)`)
		})
		await registerConsumers(deps, [consumer])
		for (let n = 1; n <= 40; n++) await record(deps, ws, n)
		const round = async () => {
			for (let i = 0; i < 40; i++) await consumeOnce(deps, consumer, 3)
		}
		await Promise.all([round(), round(), round()])
		await drain(deps, consumer)
		expect(seen.map((e) => e.data.n)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
	})
})
