/**
 * Running the consumers. Each consumer has one position row; a round claims it with
 * `FOR UPDATE SKIP LOCKED` (so one instance at a time moves a consumer, and the others skip it), reads
 * the next events after the position, hands the consumer those of its types, and moves the position
 * in the same transaction.
 *
 * Why `(txid, seq)` and `pg_snapshot_xmin`: sequence numbers are drawn when a row is inserted, not
 * when its transaction commits, so a position on `seq` alone would step past an event whose
 * transaction commits late. A round reads only events of transactions older than every transaction
 * still running (`txid < pg_snapshot_xmin(pg_current_snapshot())`): all of those have ended, so
 * nothing can appear behind the position afterwards. A long transaction elsewhere delays the
 * consumers (never loses an event).
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { contributionsTo } from '../../core/registry.ts'
import type { Db } from '../../db/client.ts'
import { eventConsumers, eventProblems, eventTypes, type EventConsumer, type StoredEvent } from './define.ts'
import { eventConsumers as positions, events } from './table.ts'

export const BATCH_SIZE = 500

/** The consumers and event types of the registry; throws listing every problem. */
export function registeredConsumers(deps: AppDeps): readonly EventConsumer[] {
	const consumers = contributionsTo(deps.registry, eventConsumers)
	const problems = eventProblems(contributionsTo(deps.registry, eventTypes), consumers)
	if (problems.length) throw new Error(`Events are not declared right:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
	return consumers
}

/**
 * Gives every consumer without a position one at the newest event: a consumer added to a running
 * installation starts from now, not from the history it was not there for.
 */
export async function registerConsumers(deps: AppDeps, consumers: readonly EventConsumer[]): Promise<void> {
	for (const c of consumers)
		await deps.database.rows(sql`insert into ${positions} (name, txid, seq)
select ${c.name}, coalesce(max(txid), '0'::xid8), coalesce(max(seq), 0) from ${events}
on conflict (name) do nothing`)
}

const EVENT_COLUMNS = sql`seq, id, txid::text as txid, workspace_id as "workspaceId", type, data, actor_kind as "actorKind", actor_user_id as "actorUserId", actor_vendor_id as "actorVendorId", at`

/**
 * One round for one consumer: up to `batchSize` events after its position. Returns how many events it
 * read (0: nothing new, or another instance holds the consumer). A handler's failure rolls back and
 * is recorded on the position row, then rethrown.
 */
export async function consumeOnce(deps: AppDeps, consumer: EventConsumer, batchSize = BATCH_SIZE): Promise<number> {
	try {
		return await deps.db.transaction(async (tx) => {
			const [position] = await deps.database.rows<{ txid: string; seq: number }>(
				sql`select txid::text as txid, seq from ${positions} where name = ${consumer.name} for update skip locked`,
				tx,
			)
			if (!position) return 0
			const batch = await readAfter(deps, tx, position, batchSize)
			if (!batch.length) return 0
			const wanted = new Set(consumer.types)
			const mine = batch.filter((e) => wanted.has(e.type))
			if (mine.length) await consumer.handle(deps, tx, mine)
			const last = batch.at(-1)!
			await deps.database.rows(
				sql`update ${positions} set txid = ${last.txid}::xid8, seq = ${last.seq}, last_error = null, failing_since = null, updated_at = now() where name = ${consumer.name}`,
				tx,
			)
			return batch.length
		})
	} catch (error) {
		const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
		await deps.database
			.rows(sql`update ${positions} set last_error = ${message}, failing_since = coalesce(failing_since, now()) where name = ${consumer.name}`)
			.catch(() => {})
		throw error
	}
}

/*
 * `order by` names the table's columns: a bare `txid` there is the output column `txid::text`, and
 * ordered as text transaction 100 comes before 99. A batch then ended on the wrong event: the
 * events after it were handled twice, and past a full batch some were skipped for good.
 */
async function readAfter(deps: AppDeps, tx: Db, position: { txid: string; seq: number }, limit: number): Promise<StoredEvent[]> {
	const rows = await deps.database.rows<StoredEvent & { seq: number | string }>(
		sql`select ${EVENT_COLUMNS} from ${events}
where (txid, seq) > (${position.txid}::xid8, ${position.seq}::bigint) and txid < pg_snapshot_xmin(pg_current_snapshot())
order by ${events}.txid, ${events}.seq limit ${limit}`,
		tx,
	)
	return rows.map((r) => ({ ...r, seq: Number(r.seq), at: new Date(r.at) }))
}

/**
 * Runs consumers until each has read every event committed before the call (tests, the CLI); `which`
 * names registered consumers, or gives consumers of its own. Waits while a writing transaction
 * elsewhere holds the horizon back (at most `timeoutMs`).
 */
export async function drainEvents(deps: AppDeps, which?: readonly (string | EventConsumer)[], timeoutMs = 30_000): Promise<number> {
	const registered = registeredConsumers(deps)
	const consumers = which ? which.map((c) => (typeof c === 'string' ? registered.find((r) => r.name === c) : c)).filter((c) => c !== undefined) : registered
	await registerConsumers(deps, consumers)
	const [{ newest } = { newest: 0 }] = await deps.database.rows<{ newest: number | string }>(sql`select coalesce(max(seq), 0) as newest from ${events}`)
	const deadline = Date.now() + timeoutMs
	let total = 0
	for (const c of consumers) {
		for (;;) {
			const n = await consumeOnce(deps, c)
			total += n
			if (n > 0) continue
			if (!(await hasUnread(deps, c.name, Number(newest)))) break
			if (Date.now() > deadline) throw new Error(`event consumer ${c.name} did not catch up within ${timeoutMs} ms (a long writing transaction?)`)
			await new Promise((resolve) => setTimeout(resolve, 20))
		}
	}
	return total
}

/** Whether an event up to `newest` (by seq) lies after the consumer's position. */
async function hasUnread(deps: AppDeps, name: string, newest: number): Promise<boolean> {
	const rows = await deps.database.rows(sql`select 1 from ${positions} c join ${events} e on (e.txid, e.seq) > (c.txid, c.seq)
where c.name = ${name} and e.seq <= ${newest} limit 1`)
	return rows.length > 0
}

/** The consumers with events waiting after their position (one cheap statement per poll). */
async function consumersWithWork(deps: AppDeps): Promise<Set<string>> {
	const rows = await deps.database.rows<{ name: string }>(sql`select c.name from ${positions} c where exists (
	select 1 from ${events} e where (e.txid, e.seq) > (c.txid, c.seq) and e.txid < pg_snapshot_xmin(pg_current_snapshot()))`)
	return new Set(rows.map((r) => r.name))
}

export interface ConsumerLoopOptions {
	/** How often to look for new events (ms). */
	pollMs: number
	/** Longest pause after a failing round (ms); pauses double from `pollMs`. */
	maxBackoffMs: number
}

export const DEFAULT_LOOP: ConsumerLoopOptions = { pollMs: 250, maxBackoffMs: 60_000 }

/** Starts the consumers of the registry on this instance; returns a stop function that waits for the round in progress. */
export function startConsumers(deps: AppDeps, options: Partial<ConsumerLoopOptions> = {}): () => Promise<void> {
	const o = { ...DEFAULT_LOOP, ...options }
	const consumers = registeredConsumers(deps)
	const failures = new Map<string, { count: number; until: number }>()
	let stopped = false
	let registered = false
	let timer: ReturnType<typeof setTimeout> | undefined
	let round: Promise<void> | null = null

	const runConsumer = async (c: EventConsumer) => {
		const failing = failures.get(c.name)
		if (failing && Date.now() < failing.until) return false
		try {
			const n = await consumeOnce(deps, c)
			failures.delete(c.name)
			return n >= BATCH_SIZE
		} catch (error) {
			const count = (failing?.count ?? 0) + 1
			failures.set(c.name, { count, until: Date.now() + Math.min(o.pollMs * 2 ** count, o.maxBackoffMs) })
			deps.log.warn('event consumer failed; its events wait and are tried again', { consumer: c.name, attempt: count, error })
			return false
		}
	}

	const tick = async () => {
		try {
			if (!registered) {
				await registerConsumers(deps, consumers)
				registered = true
			}
			const waiting = await consumersWithWork(deps)
			const more = await Promise.all(consumers.filter((c) => waiting.has(c.name)).map(runConsumer))
			return more.some(Boolean)
		} catch (error) {
			// The database may be restarting: try again next poll.
			deps.log.warn('event consumers could not poll', { error })
			return false
		}
	}

	const schedule = (ms: number) => {
		if (stopped) return
		timer = setTimeout(() => {
			round = tick().then((more) => {
				round = null
				schedule(more ? 0 : o.pollMs)
			})
		}, ms)
	}
	if (consumers.length) schedule(0)
	return async () => {
		stopped = true
		if (timer) clearTimeout(timer)
		await round
	}
}

/** Deletes events older than `days` that every consumer has passed, a batch at a time (no long lock). */
export async function pruneEvents(deps: AppDeps, days = 30, batch = 5_000): Promise<number> {
	let total = 0
	for (;;) {
		const rows = await deps.database.rows<{ n: number }>(sql`with old as (
	select seq from ${events} e
	where e.at < now() - make_interval(days => ${days})
	  and not exists (select 1 from ${positions} c where (c.txid, c.seq) < (e.txid, e.seq))
	order by seq limit ${batch}
), gone as (delete from ${events} where seq in (select seq from old) returning 1)
select count(*)::int as n from gone`)
		const n = Number(rows[0]?.n ?? 0)
		total += n
		if (n < batch) return total
	}
}
