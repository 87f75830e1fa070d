/**
 * The per-day counters of careers events (kept by triggers) and the counts read from them: the
 * counters always equal a count of the events, whatever writes them (the careers pages, the demo
 * seed, deletes, updates) and the migration fills them from the events already there; the summary
 * and the traffic per day equal counting the events, with the period's ends inside a day; and the
 * statements read events only for those ends, not the days in between (plan test).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { modules } from '../../core/main.ts'
import { clock, emptyDatabase, migrationsBefore, newWorkspace, testDeps, usingPostgres, type TestWorkspace } from '../../tests/helpers.ts'
import { rowsReadFrom, statementsOf } from '../../tests/perf/statements.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { operatorActor } from '../auth/index.ts'
import { hourPartsOf, partsOf } from './counted.ts'
import { seedCareersEvents } from './seed.ts'
import { careersPerDay, careersSummary, periodOf, recordCareersEvent } from './service.ts'
import analytics from './index.ts'
import { careersEvents } from './table.ts'

setDefaultTimeout(60_000)
const MINUTE = 60_000
const DAY = 86_400_000

let deps: AppDeps
beforeAll(async () => {
	deps = await testDeps()
})

type Rows = Record<string, unknown>[]
const rowsOf = (database: Pick<AppDeps['database'], 'rows'>, query: ReturnType<typeof sql>) => database.rows<Record<string, unknown>>(query)

/** The counters of a workspace, per day and per hour (shards summed, rows that count something), and the same counted from its events. */
async function countersAndTruth(workspaceId: string, database: Pick<AppDeps['database'], 'rows'> = deps.database): Promise<{ counters: Rows; truth: Rows }> {
	const [sources, jobs, sourceTruth, jobTruth, hours, hourTruth] = await Promise.all([
		rowsOf(
			database,
			sql`select day::text as day, source, kind, sum(n)::int as n from careers_daily_sources where workspace_id = ${workspaceId} group by 1, 2, 3 having sum(n) <> 0 order by 1, 2, 3`,
		),
		rowsOf(
			database,
			sql`select day::text as day, job_id, sum(views)::int as views, sum(applications)::int as applications from careers_daily_jobs where workspace_id = ${workspaceId} group by 1, 2 having sum(views) <> 0 or sum(applications) <> 0 order by 1, 2`,
		),
		rowsOf(
			database,
			sql`select (at at time zone 'UTC')::date::text as day, source, kind, count(*)::int as n from careers_events where workspace_id = ${workspaceId} group by 1, 2, 3 order by 1, 2, 3`,
		),
		rowsOf(
			database,
			sql`select (at at time zone 'UTC')::date::text as day, job_id, count(*) filter (where kind = 'view')::int as views, count(*) filter (where kind = 'application')::int as applications from careers_events where workspace_id = ${workspaceId} group by 1, 2 order by 1, 2`,
		),
		rowsOf(
			database,
			sql`select to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24') as hour, source, kind, sum(n)::int as n from careers_hourly_sources where workspace_id = ${workspaceId} group by 1, 2, 3 having sum(n) <> 0 order by 1, 2, 3`,
		),
		rowsOf(
			database,
			sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24') as hour, source, kind, count(*)::int as n from careers_events where workspace_id = ${workspaceId} group by 1, 2, 3 order by 1, 2, 3`,
		),
	])
	return { counters: [...sources, ...jobs, ...hours], truth: [...sourceTruth, ...jobTruth, ...hourTruth] }
}

describe('the per-day counters', () => {
	test('equal the events after recording (one by one and in a burst), a seed (twice), deletes and updates', async () => {
		const ws = await newWorkspace(deps)
		const [a, b] = [await newVendorJob(ws, {}, deps), await newVendorJob(ws, {}, deps)]
		try {
			// Recorded as the careers pages do, at times around midnight UTC.
			for (const [minutes, jobId, kind, source] of [
				[-3, a, 'view', 'linkedin'],
				[-1, a, 'application', 'linkedin'],
				[1, a, 'view', 'linkedin'],
				[2, b, 'view', 'indeed'],
				[2, b, 'view', 'indeed'],
				[3, b, 'application', 'dice'],
			] as const) {
				clock.offsetMs = Math.ceil(Date.now() / DAY) * DAY + minutes * MINUTE - Date.now()
				await recordCareersEvent(deps, { workspaceId: ws.id, jobId, kind, source })
			}
			clock.reset()
			// A burst: concurrent views on the pool's connections (PostgreSQL), each counted once.
			await Promise.all(
				Array.from({ length: 40 }, (_, i) => recordCareersEvent(deps, { workspaceId: ws.id, jobId: i % 2 ? a : b, kind: 'view', source: 'linkedin' })),
			)
			await seedCareersEvents(deps, ws)
			await seedCareersEvents(deps, ws) // the same rows again: none inserted, none counted
			const first = await countersAndTruth(ws.id)
			expect(first.truth.length).toBeGreaterThan(10)
			expect(first.counters).toEqual(first.truth)
			// Deletes and changes (none happen in the app; the counters follow them all the same).
			await deps.database.rows(sql`delete from careers_events where id in (select id from careers_events where workspace_id = ${ws.id} order by id limit 25)`)
			await deps.database.rows(
				sql`update careers_events set at = at - interval '3 days', source = 'google' where id in (select id from careers_events where workspace_id = ${ws.id} and job_id = ${a} order by id limit 5)`,
			)
			await deps.database.rows(
				sql`update careers_events set job_id = ${b}, kind = 'application' where id in (select id from careers_events where workspace_id = ${ws.id} and job_id = ${a} order by id desc limit 5)`,
			)
			const after = await countersAndTruth(ws.id)
			expect(after.counters).toEqual(after.truth)
		} finally {
			clock.reset()
		}
	})

	test('the migration fills them from the events already there, and the triggers count the next ones', async () => {
		// Every module migrated as before the counters: analytics up to the migration that adds them,
		// declaring only the table it had then (start-up checks that declared tables exist).
		const before = migrationsBefore(fileURLToPath(analytics.migrations!), 'careers_daily_counts')
		const earlier = modules.map((m) => (m === analytics ? { ...m, migrations: pathToFileURL(`${before.folder}/`), tables: { careersEvents } } : m))
		const scratch = await emptyDatabase()
		try {
			await scratch.database.migrate(earlier)
			const db = scratch.database
			expect(await db.rows(sql`select to_regclass('careers_daily_sources') as t`)).toEqual([{ t: null }])
			await db.rows(sql`insert into workspaces (id, slug, name) values ('ws_old', 'old', 'Old data')`)
			await db.rows(
				sql`insert into jobs (id, workspace_id, slug, title, status) values ('job_1', 'ws_old', 'one', 'One', 'Draft'), ('job_2', 'ws_old', 'two', 'Two', 'Draft')`,
			)
			await db.rows(sql`insert into careers_events (id, workspace_id, job_id, kind, source, at)
				select 'cev_' || g, 'ws_old', case when g % 3 = 0 then 'job_2' else 'job_1' end, case when g % 7 = 0 then 'application' else 'view' end,
					(array['linkedin', 'indeed', 'direct'])[1 + g % 3], '2026-03-01T00:00:00Z'::timestamptz + g * interval '37 minutes'
				from generate_series(1, 400) g`)
			// The next start-up: the rest of the module's migrations (the counters, then their triggers and fill).
			await db.migrate(modules)
			const filled = await countersAndTruth('ws_old', db)
			expect(filled.truth.length).toBeGreaterThan(20)
			expect(filled.counters).toEqual(filled.truth)
			await db.rows(
				sql`insert into careers_events (id, workspace_id, job_id, kind, source, at) values ('cev_new', 'ws_old', 'job_2', 'view', 'linkedin', '2026-03-02T10:00:00Z')`,
			)
			const next = await countersAndTruth('ws_old', db)
			expect(next.counters).toEqual(next.truth)
		} finally {
			await scratch.close()
			before.remove()
		}
	})
})

describe('counts read from the counters', () => {
	let ws: TestWorkspace
	let actor: Actor
	let jobs: string[]
	const now = new Date(Date.UTC(2026, 5, 17, 15, 20))
	const period = () => periodOf(deps, 30)

	beforeAll(async () => {
		ws = await newWorkspace(deps)
		actor = operatorActor(ws)
		jobs = [await newVendorJob(ws, {}, deps), await newVendorJob(ws, {}, deps), await newVendorJob(ws, {}, deps)]
		// Events on every day of the 60 days, and a minute either side of each end of both periods.
		const at: number[] = []
		for (let d = 0; d < 62; d++) for (const h of [1, 9, 17, 23]) at.push(Date.UTC(2026, 5, 17 - d, h, 30))
		for (const edge of [now.getTime(), now.getTime() - 30 * DAY, now.getTime() - 60 * DAY]) at.push(edge - MINUTE, edge, edge + MINUTE)
		const sources = ['linkedin', 'indeed', 'direct', 'google']
		const rows = at.map((t, i) => ({
			id: newId('cev'),
			workspaceId: ws.id,
			jobId: jobs[i % 3]!,
			kind: i % 5 === 0 ? 'application' : 'view',
			source: sources[i % 4]!,
			at: new Date(t),
		}))
		await deps.db.insert(careersEvents).values(rows)
	})

	const atNow = async <T>(run: () => Promise<T>, at = now) => {
		clock.offsetMs = at.getTime() - Date.now()
		try {
			return await run()
		} finally {
			clock.reset()
		}
	}

	/** Views and applications counted from the events of `[from, to)`, in total, by source and by job. */
	async function truth(from: Date, to: Date) {
		const rows = await deps.database.rows<{ source: string; job: string; kind: string; n: number }>(
			sql`select source, job_id as job, kind, count(*)::int as n from careers_events where workspace_id = ${ws.id} and at >= ${from.toISOString()}::timestamptz and at < ${to.toISOString()}::timestamptz group by 1, 2, 3`,
		)
		const sum = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).reduce((s, r) => s + r.n, 0)
		return { views: sum((r) => r.kind === 'view'), applications: sum((r) => r.kind === 'application'), rows, sum }
	}

	/** The summary, its rankings and the traffic per day of the period ending at `at` equal counting the events. */
	async function expectCounted(at: Date) {
		// One period for the pages and the truth: the clock moves between two readings, and the events at
		// the period's ends would fall on either side.
		const p = await atNow(async () => period(), at)
		const { summary, jobs: ranked, sources } = await atNow(() => careersSummary(deps, actor, p, 10), at)
		const current = await truth(p.from, p.to)
		const previous = await truth(p.before, p.from)
		expect(current.views).toBeGreaterThan(80)
		expect({ views: summary.totals.views, applications: summary.totals.applications }).toEqual({ views: current.views, applications: current.applications })
		expect({ views: summary.previous.views, applications: summary.previous.applications }).toEqual({
			views: previous.views,
			applications: previous.applications,
		})
		for (const job of ranked)
			expect({ job: job.jobId, views: job.views, applications: job.applications }).toEqual({
				job: job.jobId,
				views: current.sum((r) => r.job === job.jobId && r.kind === 'view'),
				applications: current.sum((r) => r.job === job.jobId && r.kind === 'application'),
			})
		expect(ranked.length).toBe(3)
		for (const s of sources)
			expect({ source: s.source.text, views: s.views }).toEqual({
				source: s.source.text,
				views: current.sum((r) => r.source === s.source.text && r.kind === 'view'),
			})
		expect(sources.length).toBe(new Set(current.rows.map((r) => r.source)).size)
		const days = await atNow(() => careersPerDay(deps, actor, p), at)
		expect(days.length).toBe(p.from.getTime() % DAY ? 31 : 30)
		// Whole UTC days: the first from its midnight, though the period starts later in it.
		for (const d of days) {
			const from = new Date(Date.parse(`${d.day}T00:00:00Z`))
			const to = new Date(Math.min(Date.parse(`${d.day}T00:00:00Z`) + DAY, p.to.getTime()))
			const t = await truth(from, to)
			expect({ day: d.day, views: d.views, applications: d.applications }).toEqual({ day: d.day, views: t.views, applications: t.applications })
		}
	}

	test('the summary and the traffic per day equal counting the events, the ends inside a day', async () => {
		await expectCounted(now)
	})

	test('… and with the clock moved across hours and days: on the hour, at midnight, a millisecond before, an event’s own time', async () => {
		const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000
		for (const at of [hour, hour - 1, hour + 1, Date.UTC(2026, 5, 17), Date.UTC(2026, 5, 17) - 1, Date.UTC(2026, 5, 16, 17, 30), now.getTime() + 2 * DAY])
			await expectCounted(new Date(at))
		// A late event in an hour the cached window and the hourly counters hold, and one moved out of it.
		await deps.db
			.insert(careersEvents)
			.values({ id: newId('cev'), workspaceId: ws.id, jobId: jobs[2]!, kind: 'application', source: 'dice', at: new Date(hour - 2 * 3_600_000 + 7) })
		await deps.database.rows(
			sql`update careers_events set at = at - interval '40 days' where id in (select id from careers_events where workspace_id = ${ws.id} and at >= ${new Date(hour - 5 * 3_600_000).toISOString()}::timestamptz order by id limit 2)`,
		)
		await expectCounted(now)
		await expectCounted(new Date(hour))
	})

	test('a period is split into whole UTC days, whole UTC hours and the minutes left at its ends', () => {
		const at = (iso: string) => new Date(iso)
		expect(hourPartsOf(at('2026-06-10T15:20:00Z'), at('2026-06-13T08:05:00Z'))).toEqual({
			days: ['2026-06-11', '2026-06-13'],
			hours: [
				[at('2026-06-10T16:00:00Z'), at('2026-06-11T00:00:00Z')],
				[at('2026-06-13T00:00:00Z'), at('2026-06-13T08:00:00Z')],
			],
			ranges: [
				[at('2026-06-10T15:20:00Z'), at('2026-06-10T16:00:00Z')],
				[at('2026-06-13T08:00:00Z'), at('2026-06-13T08:05:00Z')],
			],
		})
		expect(hourPartsOf(at('2026-06-10T00:00:00Z'), at('2026-06-12T00:00:00Z'))).toEqual({ days: ['2026-06-10', '2026-06-12'], hours: [], ranges: [] })
		expect(hourPartsOf(at('2026-06-10T15:20:00Z'), at('2026-06-10T17:10:00Z'))).toEqual({
			days: null,
			hours: [[at('2026-06-10T16:00:00Z'), at('2026-06-10T17:00:00Z')]],
			ranges: [
				[at('2026-06-10T15:20:00Z'), at('2026-06-10T16:00:00Z')],
				[at('2026-06-10T17:00:00Z'), at('2026-06-10T17:10:00Z')],
			],
		})
		expect(hourPartsOf(at('2026-06-10T15:20:00Z'), at('2026-06-10T15:50:00Z'))).toEqual({
			days: null,
			hours: [],
			ranges: [[at('2026-06-10T15:20:00Z'), at('2026-06-10T15:50:00Z')]],
		})
	})

	test('a period is split into whole UTC days and the time left at its ends', () => {
		const at = (iso: string) => new Date(iso)
		expect(partsOf(at('2026-06-10T15:00:00Z'), at('2026-06-13T08:00:00Z'))).toEqual({
			days: ['2026-06-11', '2026-06-13'],
			ranges: [
				[at('2026-06-10T15:00:00Z'), at('2026-06-11T00:00:00Z')],
				[at('2026-06-13T00:00:00Z'), at('2026-06-13T08:00:00Z')],
			],
		})
		expect(partsOf(at('2026-06-10T00:00:00Z'), at('2026-06-12T00:00:00Z'))).toEqual({ days: ['2026-06-10', '2026-06-12'], ranges: [] })
		expect(partsOf(at('2026-06-10T15:00:00Z'), at('2026-06-11T08:00:00Z'))).toEqual({
			days: null,
			ranges: [[at('2026-06-10T15:00:00Z'), at('2026-06-11T08:00:00Z')]],
		})
		expect(partsOf(at('2026-06-10T15:00:00Z'), at('2026-06-10T15:00:00Z'))).toEqual({ days: null, ranges: [] })
	})

	test('plan: the events read are those of the period’s ends only, not the days between', async () => {
		const p = await atNow(async () => period())
		await atNow(() => careersSummary(deps, actor, p, 10)) // the ranking's cache built
		const statements = await atNow(() => statementsOf(deps, () => Promise.all([careersSummary(deps, actor, p, 10), careersPerDay(deps, actor, p)])))
		const counted = statements.filter((s) => /careers_events/.test(s.text))
		// The summary's sources, one statement per period (no two periods for PostgreSQL to spread over
		// parallel workers), the ranking (its cache warm: no rebuild) and the chart.
		expect(counted.length).toBe(4)
		expect(counted.filter((q) => q.text.startsWith('select source, kind, sum(n)')).length).toBe(2)
		// On PostgreSQL none is JIT-compiled (db/client.ts): at scale the ranking's estimates crossed
		// jit_above_cost, and compiling took 300–350 ms of a 24 ms statement.
		if (usingPostgres()) expect(await deps.database.rows(sql`show jit`)).toEqual([{ jit: 'off' }])
		// Rows the statements took from careers_events (other workspaces' events not counted).
		const read = await rowsReadFrom(deps, counted, 'careers_events')
		// The summary reads the ends of both periods (before, from and to), the ranking those of the
		// current one: the minutes before the first whole hour and after the last; the chart, of whole
		// UTC days, only the minutes after the last whole hour.
		const ends = (from: Date, to: Date, split: typeof partsOf = hourPartsOf) => {
			const { ranges } = split(from, to)
			return Promise.all(ranges.map(async ([a, b]) => (await truth(a, b)).rows.reduce((s, r) => s + r.n, 0))).then((n) => n.reduce((s, x) => s + x, 0))
		}
		const midnight = new Date(Math.floor(p.from.getTime() / DAY) * DAY)
		const expected = (await ends(p.from, p.to)) * 2 + (await ends(midnight, p.to)) + (await ends(p.before, p.from))
		const all = (await truth(p.before, p.to)).rows.reduce((s, r) => s + r.n, 0)
		// The partial days hold more events, counted by the hourly counters: those are not read.
		expect(await ends(p.from, p.to, partsOf)).toBeGreaterThan(await ends(p.from, p.to))
		expect(read).toBe(expected)
		expect(read).toBeLessThan(all / 20)
	})
})

describe('the ranking of jobs', () => {
	test('ties at the last place of each list are broken by title, as when every job was named', async () => {
		const ws = await newWorkspace(deps)
		// 14 jobs: six tied at 4 applications and 100 views for five places, five silent ones tied at
		// 25 views for three, two tied for the best conversion, one quiet job.
		const plan: [title: string, views: number, applications: number][] = [
			...['Kilo', 'Echo', 'Alpha', 'Juliet', 'Delta', 'Hotel'].map((t) => [t, 100, 4] as [string, number, number]),
			...['Silent C', 'Silent A', 'Silent E', 'Silent B', 'Silent D'].map((t) => [t, 25, 0] as [string, number, number]),
			['Best B', 20, 2],
			['Best A', 20, 2],
			['Quiet', 3, 0],
		]
		const rows: (typeof careersEvents.$inferInsert)[] = []
		const titles = new Map<string, string>()
		for (const [title, views, applications] of plan) {
			const jobId = await newVendorJob(ws, { title }, deps)
			titles.set(jobId, title)
			for (let i = 0; i < views + applications; i++)
				rows.push({
					id: newId('cev'),
					workspaceId: ws.id,
					jobId,
					kind: i < views ? 'view' : 'application',
					source: 'linkedin',
					at: new Date(Date.now() - (2 + (i % 20)) * DAY),
				})
		}
		await deps.db.insert(careersEvents).values(rows)
		const { summary, jobs: ranked } = await careersSummary(deps, operatorActor(ws), periodOf(deps, 30), 5)
		const names = (list: { jobId: string }[]) => list.map((j) => titles.get(j.jobId))
		expect(names(ranked)).toEqual(['Alpha', 'Delta', 'Echo', 'Hotel', 'Juliet'])
		const said = summary.insights.map((i) => (typeof i === 'string' ? i : i.text)).join(' ')
		expect(said).toContain('Best A')
		expect(said).not.toContain('Best B')
		expect(said).toMatch(/5 jobs?[^.]*no application|no application[^.]*5 jobs?/i)
		for (const t of ['Silent A', 'Silent B', 'Silent C']) expect(said).toContain(t)
		for (const t of ['Silent D', 'Silent E']) expect(said).not.toContain(t)
	})
})
