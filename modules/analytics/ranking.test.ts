/**
 * The jobs ranking read from its cache of whole-hour window totals (`ranking.ts`) equals ranking the
 * events themselves (recounted here, the rules written out again): after a rebuild, from the cache,
 * with events in the minutes at the period's ends, after late inserts, updates and deletes in a
 * cached day or hour (which stale-tag it), when the window moves hours or days, and (PostgreSQL) when
 * a late write races a rebuild. A cached ranking does not read the per-day counters, and reads the
 * events of the minutes at the period's ends only.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newWorkspace, testDeps, usingPostgres, type TestWorkspace } from '../../tests/helpers.ts'
import { rowsReadFrom, statementsOf } from '../../tests/perf/statements.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { partsOf, type Counted } from './counted.ts'
import { MIN_VIEWS } from './insights.ts'
import { rankJobs, windowOf } from './ranking.ts'
import { careersEvents } from './table.ts'

setDefaultTimeout(60_000)
const DAY = 86_400_000
const HOUR = 3_600_000
const MINUTE = 60_000
const TOP = 5

let deps: AppDeps
beforeAll(async () => {
	deps = await testDeps()
})

/** A workspace of 24 jobs with ~35 days of traffic (ties in every list) and the period ending at `to`. */
async function trafficked(to: Date): Promise<{ ws: TestWorkspace; jobs: string[] }> {
	const ws = await newWorkspace(deps)
	const jobs: string[] = []
	for (let i = 0; i < 24; i++) jobs.push(await newVendorJob(ws, { title: `Job ${String.fromCharCode(65 + ((i * 7) % 24))}` }, deps))
	const rows: (typeof careersEvents.$inferInsert)[] = []
	for (let d = 0; d < 35; d++)
		for (const h of [1, 13, 23])
			jobs.forEach((jobId, i) => {
				const at = new Date(Math.floor(to.getTime() / DAY) * DAY - d * DAY + h * 3_600_000 + 60_000)
				for (let v = 0; v < i % 4; v++) rows.push({ id: newId('cev'), workspaceId: ws.id, jobId, kind: 'view', source: 'linkedin', at })
				if (i % 3 && (d + i + h) % 9 === 0) rows.push({ id: newId('cev'), workspaceId: ws.id, jobId, kind: 'application', source: 'linkedin', at })
			})
	for (let i = 0; i < rows.length; i += 1000) await deps.db.insert(careersEvents).values(rows.slice(i, i + 1000))
	return { ws, jobs }
}

type Ranked = { top: unknown[]; best: unknown; silent: unknown[]; silentCount: number }

/** The ranking by the rules, from the events of `[from, to)`. */
async function truth(c: Counted): Promise<Ranked> {
	const rows = await deps.database.rows<{ jobId: string; title: string; views: number; applications: number }>(
		sql`select e.job_id as "jobId", j.title, count(*) filter (where kind = 'view')::int as views, count(*) filter (where kind = 'application')::int as applications
		from careers_events e join jobs j on j.id = e.job_id where e.workspace_id = ${c.workspaceId} and at >= ${c.from.toISOString()}::timestamptz and at < ${c.to.toISOString()}::timestamptz group by 1, 2`,
	)
	const byName = (a: (typeof rows)[number], b: (typeof rows)[number]) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.jobId < b.jobId ? -1 : 1)
	const row = (r: (typeof rows)[number]) => [r.jobId, r.views, r.applications]
	const top = [...rows].sort((a, b) => b.applications - a.applications || b.views - a.views || byName(a, b)).slice(0, TOP)
	const best = rows
		.filter((r) => r.views >= MIN_VIEWS && r.applications > 0)
		.sort(
			(a, b) =>
				Math.round((b.applications * 1000) / b.views) - Math.round((a.applications * 1000) / a.views) ||
				b.applications - a.applications ||
				b.views - a.views ||
				byName(a, b),
		)[0]
	const silent = rows.filter((r) => r.views >= MIN_VIEWS && r.applications === 0).sort((a, b) => b.views - a.views || byName(a, b))
	return { top: top.map(row), best: best ? row(best) : null, silent: silent.slice(0, 3).map(row), silentCount: silent.length }
}

async function ranked(c: Counted): Promise<Ranked> {
	const rows = await rankJobs(deps, c, TOP)
	const row = (r: (typeof rows)[number]) => [r.jobId, r.views, r.applications]
	const best = rows.find((r) => r.part === 'best')
	return {
		top: rows.filter((r) => r.part === 'top').map(row),
		best: best ? row(best) : null,
		silent: rows.filter((r) => r.part === 'silent').map(row),
		silentCount: rows.find((r) => r.part === 'silentCount')!.views,
	}
}

/** The cache's header of the period's window: whether it is good (built at its version). */
async function cacheOf(c: Counted): Promise<{ good: boolean } | undefined> {
	const { window: w } = windowOf(c)!
	const [h] = await deps.database.rows<{ good: boolean }>(
		sql`select coalesce(built = version, false) as good from careers_window_cache where workspace_id = ${w.workspaceId} and span = ${w.span} and first_at = ${w.firstAt}::timestamptz and end_at = ${w.endAt}::timestamptz`,
	)
	return h
}

const periodTo = (to: Date, range: number): Counted & { reach: 'all' } => ({ workspaceId: '', reach: 'all', from: new Date(to.getTime() - range * DAY), to })

describe('the jobs ranking from its cache', () => {
	const to = new Date(Date.UTC(2026, 5, 17, 15, 20))
	let ws: TestWorkspace
	let jobs: string[]
	let c: Counted
	beforeAll(async () => {
		;({ ws, jobs } = await trafficked(to))
		c = { ...periodTo(to, 30), workspaceId: ws.id }
	})

	test('equals the events’ ranking when built, when read from the cache, and with events in the partial days', async () => {
		const expected = await truth(c)
		expect(expected.top.length).toBe(TOP)
		expect(expected.silentCount).toBeGreaterThan(1)
		expect(expected.best).not.toBeNull()
		expect(await cacheOf(c)).toBeUndefined()
		expect(await ranked(c)).toEqual(expected)
		expect(await cacheOf(c)).toEqual({ good: true })
		expect(await ranked(c)).toEqual(expected)
		// Partial days: the period's first (after `from`) and last (before `to`); no cached day changes.
		const late = (jobId: string, at: Date, kind: string, n: number) =>
			deps.db.insert(careersEvents).values(Array.from({ length: n }, () => ({ id: newId('cev'), workspaceId: ws.id, jobId, kind, source: 'google', at })))
		await late(jobs[0]!, new Date(to.getTime() - 60_000), 'application', 9)
		await late(jobs[3]!, new Date(to.getTime() - 30 * DAY + 60_000), 'view', 40)
		await late(jobs[6]!, new Date(to.getTime() - 60_000), 'view', 30)
		expect(await cacheOf(c)).toEqual({ good: true })
		const withPartial = await truth(c)
		expect(withPartial).not.toEqual(expected)
		expect(await ranked(c)).toEqual(withPartial)
	})

	test('late inserts, updates and deletes in a cached day stale-tag it, and the ranking follows them', async () => {
		await ranked(c)
		const pastDay = new Date(to.getTime() - 10 * DAY)
		await deps.db
			.insert(careersEvents)
			.values(Array.from({ length: 60 }, () => ({ id: newId('cev'), workspaceId: ws.id, jobId: jobs[4]!, kind: 'application', source: 'google', at: pastDay })))
		expect(await cacheOf(c)).toEqual({ good: false })
		expect(await ranked(c)).toEqual(await truth(c))
		expect(await cacheOf(c)).toEqual({ good: true })
		await deps.database.rows(
			sql`update careers_events set job_id = ${jobs[8]!} where workspace_id = ${ws.id} and job_id = ${jobs[4]!} and at = ${pastDay.toISOString()}::timestamptz`,
		)
		expect(await cacheOf(c)).toEqual({ good: false })
		expect(await ranked(c)).toEqual(await truth(c))
		await deps.database.rows(
			sql`delete from careers_events where workspace_id = ${ws.id} and job_id = ${jobs[3]!} and at < ${new Date(to.getTime() - 3 * DAY).toISOString()}::timestamptz`,
		)
		expect(await cacheOf(c)).toEqual({ good: false })
		expect(await ranked(c)).toEqual(await truth(c))
	})

	test('the window moves with the clock, for both ranges', async () => {
		for (const days of [1, 2, 9])
			for (const range of [7, 30]) {
				const moved = { ...periodTo(new Date(to.getTime() + days * DAY + 3_600_000), range), workspaceId: ws.id }
				expect(await ranked(moved)).toEqual(await truth(moved))
				expect(await cacheOf(moved)).toEqual({ good: true })
			}
	})

	test('the window moves with the clock by the hour, and by minutes inside one', async () => {
		for (const ms of [30 * MINUTE, HOUR, HOUR + 1, 2 * HOUR - 1, 5 * HOUR, 26 * HOUR])
			for (const range of [7, 30]) {
				const moved = { ...periodTo(new Date(to.getTime() + ms), range), workspaceId: ws.id }
				expect(await ranked(moved)).toEqual(await truth(moved))
				expect(await cacheOf(moved)).toEqual({ good: true })
			}
	})

	test('a late write in a whole hour of a partial day stale-tags the cache; one in the minutes at the ends does not', async () => {
		await ranked(c)
		const hour = Math.floor(to.getTime() / HOUR) * HOUR
		const late = (jobId: string, at: number, n: number) =>
			deps.db
				.insert(careersEvents)
				.values(Array.from({ length: n }, () => ({ id: newId('cev'), workspaceId: ws.id, jobId, kind: 'application', source: 'dice', at: new Date(at) })))
		// Two hours before the last whole hour: in the window (not a whole day of it).
		await late(jobs[10]!, hour - 2 * HOUR + MINUTE, 30)
		expect(await cacheOf(c)).toEqual({ good: false })
		expect(await ranked(c)).toEqual(await truth(c))
		expect(await cacheOf(c)).toEqual({ good: true })
		// In the minutes after the last whole hour, and before the first: read from the events.
		await late(jobs[11]!, hour + MINUTE, 40)
		await late(jobs[12]!, c.from.getTime() + MINUTE, 50)
		expect(await cacheOf(c)).toEqual({ good: true })
		expect(await ranked(c)).toEqual(await truth(c))
	})

	test('plan: the ranking reads the events of the minutes at the period’s ends only, not of its partial days', async () => {
		await ranked(c)
		const statements = await statementsOf(deps, () => ranked(c))
		const read = await rowsReadFrom(
			deps,
			statements.filter((s) => /careers_events/.test(s.text)),
			'careers_events',
		)
		const count = async (ranges: [Date, Date][]) => {
			let n = 0
			for (const [a, b] of ranges) {
				const [r] = await deps.database.rows<{ n: number }>(
					sql`select count(*)::int as n from careers_events where workspace_id = ${ws.id} and at >= ${a.toISOString()}::timestamptz and at < ${b.toISOString()}::timestamptz`,
				)
				n += r!.n
			}
			return n
		}
		const minutes = await count(windowOf(c)!.ranges)
		expect(read).toBe(minutes)
		expect(await count(partsOf(c.from, c.to).ranges)).toBeGreaterThan(minutes)
	})

	test('plan: a cached ranking is two statements (the version, the ranking), and they do not read the per-day counters', async () => {
		await ranked(c)
		const statements = await statementsOf(deps, () => ranked(c))
		expect(statements.length).toBe(2)
		for (const s of statements) expect(s.text).not.toContain('careers_daily_jobs')
		expect(statements[1]!.text).toContain('careers_window_totals')
	})
})

describe.if(usingPostgres())('the jobs ranking under concurrent writes (PostgreSQL)', () => {
	/** Waits until a session of this database waits for a lock (`kind`: advisory or transactionid). */
	async function someoneWaits(kind: string) {
		for (;;) {
			const [r] = await deps.database.rows<{ n: number }>(
				sql`select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid) where a.datname = current_database() and not l.granted and l.locktype = ${kind}`,
			)
			if (r!.n > 0) return
			await Bun.sleep(20)
		}
	}
	/** A transaction kept open until `release` is called. */
	function heldOpen(run: (tx: Parameters<Parameters<AppDeps['db']['transaction']>[0]>[0]) => Promise<unknown>) {
		let release!: () => void
		const released = new Promise<void>((r) => (release = r))
		let ready!: () => void
		const started = new Promise<void>((r) => (ready = r))
		const done = deps.db.transaction(async (tx) => {
			await run(tx)
			ready()
			await released
		})
		return { started, release, done }
	}

	// A late write to a whole day of the window (summed from the day counters), and to a whole hour of
	// its last, partial day (summed from the events).
	const cases = [
		{ what: 'a day', to: new Date(Date.UTC(2026, 7, 3, 9, 0)), before: 4 * DAY },
		{ what: 'an hour of the partial day', to: new Date(Date.UTC(2026, 7, 13, 9, 20)), before: 3 * HOUR },
	]
	test.each(cases)('a rebuild waits for a late write in flight to $what, and counts it', async ({ to: at, before }) => {
		const to = at
		const { ws, jobs } = await trafficked(to)
		const c = { ...periodTo(to, 30), workspaceId: ws.id }
		const writer = heldOpen((tx) =>
			tx.insert(careersEvents).values(
				Array.from({ length: 50 }, () => ({
					id: newId('cev'),
					workspaceId: ws.id,
					jobId: jobs[5]!,
					kind: 'application',
					source: 'google',
					at: new Date(to.getTime() - before),
				})),
			),
		)
		await writer.started
		const ranking = ranked(c)
		await someoneWaits('advisory')
		writer.release()
		await writer.done
		expect(await ranking).toEqual(await truth(c))
		expect(await cacheOf(c)).toEqual({ good: true })
	})

	test.each(cases)('a late write to $what between a rebuild’s hours and its publishing leaves the cache stale, never wrong', async ({ to: at, before }) => {
		const to = new Date(at.getTime() + 31 * DAY)
		const { ws, jobs } = await trafficked(to)
		const c = { ...periodTo(to, 30), workspaceId: ws.id }
		const { window: w } = windowOf(c)!
		// The rebuild sets the window's days, then waits here before summing.
		const builds = heldOpen((tx) =>
			deps.database.rows(sql`select pg_advisory_xact_lock(hashtextextended(${`careers_window_build:${w.workspaceId}:${w.span}`}, 0))`, tx),
		)
		await builds.started
		const ranking = ranked(c)
		await someoneWaits('advisory')
		// The write bumps the version (its day is in the window) and holds the header row until it commits.
		const writer = heldOpen((tx) =>
			tx.insert(careersEvents).values(
				Array.from({ length: 50 }, () => ({
					id: newId('cev'),
					workspaceId: ws.id,
					jobId: jobs[5]!,
					kind: 'application',
					source: 'google',
					at: new Date(to.getTime() - before),
				})),
			),
		)
		await writer.started
		builds.release()
		await builds.done
		// The rebuild summed without the write and now waits to publish.
		await someoneWaits('transactionid')
		writer.release()
		await writer.done
		expect(await ranking).toEqual(await truth(c))
		expect(await cacheOf(c)).toEqual({ good: false })
		expect(await ranked(c)).toEqual(await truth(c))
		expect(await cacheOf(c)).toEqual({ good: true })
	})
})
