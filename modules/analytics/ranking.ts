/**
 * The ranking of jobs by careers traffic over a period: the top jobs (most applications, then
 * views), the best-converting job and the silent jobs (`MIN_VIEWS` views, no application) with
 * their count. Ties are broken by title, then id; titles are joined only for the jobs that can
 * still be named (those at or above each list's last place, ties included).
 *
 * A whole workspace's ranking reads a cache of each job's totals over the period's whole UTC hours
 * (`careers_window_cache`, `careers_window_totals`), summed once from `careers_daily_jobs` for the
 * whole days (~600,000 rows a month at ~80,000 jobs with traffic: 1.5 s) and from the events for the
 * whole hours of the partial days, and then reused for the hour, plus the events of the minutes
 * left at the period's ends (before the first whole hour, after the last). On whole days, those
 * ends were two partial days: ~28,000 events over ~18,000 jobs at the issue's traffic, each job's
 * cached row looked up per view. Rules that keep it right:
 * - A job without events in the period's ends keeps its cached totals, so each list's places can
 *   only go to the jobs with events at the ends or to the other jobs at or above that list's last
 *   place among them (ties included, read by index): the ranking over those few is the ranking
 *   over all. The silent count is the cached one corrected for the jobs with events at the ends.
 * - The cache is good while `built = version`. The counters' trigger bumps `version` on any change
 *   to an hour of a cached window (late events, updates, deletes: analytics migrations 0004, 0006),
 *   whatever the app's clock says; a rebuild first sets its window's hours under the lock the
 *   trigger shares, then sums in a later snapshot, and publishes only if the version did not move.
 * - A hiring manager's few jobs are counted from their events (`countsByJob`), uncached.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { jobLabelOf } from '../jobs/index.ts'
import { countsByJob, partsOf, type Counted } from './counted.ts'
import { MIN_VIEWS } from './insights.ts'
import { lockUntilCommit } from '../../db/client.ts'

export interface RankedRow {
	part: 'top' | 'best' | 'silent' | 'silentCount' | 'cached'
	jobId: string | null
	title: string | null
	views: number
	applications: number
}

/** The lists over `per` (rows `job_id, views, applications`), the top `top` (at least 5). */
function rankingOf(per: SQL, top: number, silentCount: SQL): SQL {
	const n = Math.max(top, 5)
	return sql`${per}, top_cut as (select applications, views from per order by applications desc, views desc offset ${n - 1} limit 1),
best_cut as (select round(applications * 1000.0 / views) as rate, applications, views from per where views >= ${MIN_VIEWS} and applications > 0 order by 1 desc, 2 desc, 3 desc limit 1),
silent_cut as (select views from per where views >= ${MIN_VIEWS} and applications = 0 order by views desc offset 2 limit 1),
named as (
	select * from (select per.*, ${jobLabelOf(sql`per.job_id`)} as title from per
	where not exists (select 1 from top_cut) or (per.applications, per.views) >= (select applications, views from top_cut)
		or (per.views >= ${MIN_VIEWS} and per.applications > 0 and (round(per.applications * 1000.0 / per.views), per.applications, per.views) = (select rate, applications, views from best_cut))
		or (per.views >= ${MIN_VIEWS} and per.applications = 0 and per.views >= coalesce((select views from silent_cut), 0))
	) candidates where title is not null
)
(select 'top' as part, job_id as "jobId", title, views, applications from named order by applications desc, views desc, title collate "C", job_id limit ${n})
union all
(select 'best', job_id, title, views, applications from named where views >= ${MIN_VIEWS} and applications > 0 order by round(applications * 1000.0 / views) desc, applications desc, views desc, title collate "C", job_id limit 1)
union all
(select 'silent', job_id, title, views, applications from named where views >= ${MIN_VIEWS} and applications = 0 order by views desc, title collate "C", job_id limit 3)
union all
${silentCount}`
}

/** Every job with events in the period, summed: the reference the cache must equal (and a hiring manager's ranking). */
const uncached = (c: Counted, top: number) =>
	rankingOf(
		sql`with per as materialized (${countsByJob(c)})`,
		top,
		sql`(select 'silentCount', null, null, count(*)::int, 0 from per where views >= ${MIN_VIEWS} and applications = 0)`,
	)

/** A window of whole UTC hours, `[firstAt, endAt)`, `span` hours long (ISO times). */
interface Window {
	workspaceId: string
	span: number
	firstAt: string
	endAt: string
}

/** The ranking from the cache of `w` and the events of `ranges` (the minutes at the ends); a row `cached` with views 0 when the cache is not good (the rest then means nothing). */
function cached(w: Window, version: number, ranges: [Date, Date][], top: number): SQL {
	const n = Math.max(top, 5)
	// One index read per range (an `or` of the two would read the whole workspace's events).
	const events = (ranges.length ? ranges : [[new Date(0), new Date(0)] as [Date, Date]]).map(
		([a, b]) =>
			sql`(select job_id, kind from careers_events where workspace_id = ${w.workspaceId} and at >= ${a.toISOString()}::timestamptz and at < ${b.toISOString()}::timestamptz)`,
	)
	// A hashed subplan: the planner cannot know how many jobs \`part\` holds (thousands at scale) and
	// would loop over it for every window row read.
	const others = sql`w.job_id not in (select job_id from part)`
	return rankingOf(
		sql`with part as materialized (
	select job_id, count(*) filter (where kind = 'view')::int as views, count(*) filter (where kind = 'application')::int as applications
	from (${sql.join(events, sql` union all `)}) e group by 1
), hdr as materialized (
	select silent_count from careers_window_cache where workspace_id = ${w.workspaceId} and span = ${w.span} and first_at = ${w.firstAt}::timestamptz and end_at = ${w.endAt}::timestamptz and built = version and version = ${version}
), win as not materialized (
	select job_id, views, applications, rate from careers_window_totals where workspace_id = ${w.workspaceId} and span = ${w.span} and version = ${version}
), merged as materialized (
	select p.job_id, p.views + coalesce(w.views, 0) as views, p.applications + coalesce(w.applications, 0) as applications, w.views >= ${MIN_VIEWS} and w.applications = 0 as was_silent
	from part p left join lateral (
		select views, applications from careers_window_totals t
		where t.workspace_id = ${w.workspaceId} and t.span = ${w.span} and t.version = ${version} and t.job_id = p.job_id
		offset 0 -- kept a lookup by key per job: flattened, it became a hash of the whole window
	) w on true
), top_in as (select applications, views from win w where ${others} order by applications desc, views desc offset ${n - 1} limit 1),
best_in as (select rate, applications, views from win w where rate is not null and ${others} order by rate desc, applications desc, views desc limit 1),
silent_in as (select views from win w where applications = 0 and views >= ${MIN_VIEWS} and ${others} order by applications desc, views desc offset 2 limit 1),
per as (
	-- \`union\` of the window's candidates: a job may be one of several lists (\`merged\` holds other jobs).
	select job_id, views, applications from merged
	union all
	((select job_id, views, applications from win w where (applications, views) >= (coalesce((select applications from top_in), 0), coalesce((select views from top_in), 0)) and ${others})
	union
	(select job_id, views, applications from win w where rate is not null and (rate, applications, views) = (select rate, applications, views from best_in) and ${others})
	union
	(select job_id, views, applications from win w where applications = 0 and views >= greatest(${MIN_VIEWS}, coalesce((select views from silent_in), 0)) and ${others}))
)`,
		top,
		sql`(select 'silentCount', null, null, ((select silent_count from hdr) - (select count(*) from merged where was_silent) + (select count(*) from merged where views >= ${MIN_VIEWS} and applications = 0))::int, 0)
union all
(select 'cached', null, null, count(*)::int, 0 from hdr)`,
	)
}

const HOUR = 3_600_000

/**
 * Sums the window's whole hours into the cache: first its hours are set (and its version bumped when
 * they change) under the writers' lock, so every later write to those hours bumps the version; then,
 * in a later snapshot, the sums are taken and published under the version read, only if unmoved.
 * Rebuilds of one window wait for each other, and the next one finds the cache good.
 */
export async function rebuildWindow(deps: AppDeps, w: Window): Promise<void> {
	await deps.db.transaction(async (tx) => {
		await lockUntilCommit(tx, `careers_window:${w.workspaceId}`)
		await deps.database.rows(
			sql`insert into careers_window_cache (workspace_id, span, first_at, end_at, version) values (${w.workspaceId}, ${w.span}, ${w.firstAt}::timestamptz, ${w.endAt}::timestamptz, 1)
			on conflict (workspace_id, span) do update set first_at = excluded.first_at, end_at = excluded.end_at,
				version = careers_window_cache.version + case when (careers_window_cache.first_at, careers_window_cache.end_at) = (excluded.first_at, excluded.end_at) then 0 else 1 end`,
			tx,
		)
	})
	await deps.db.transaction(async (tx) => {
		await lockUntilCommit(tx, `careers_window_build:${w.workspaceId}:${w.span}`)
		const [header] = await deps.database.rows<{ version: number; good: boolean }>(
			sql`select version, built = version as good from careers_window_cache where workspace_id = ${w.workspaceId} and span = ${w.span} and first_at = ${w.firstAt}::timestamptz and end_at = ${w.endAt}::timestamptz`,
			tx,
		)
		// Another rebuild moved the window meanwhile, or already built this one.
		if (!header || header.good) return
		await deps.database.rows(sql`delete from careers_window_totals where workspace_id = ${w.workspaceId} and span = ${w.span}`, tx)
		// The whole days from their counters, the whole hours of the partial days from the events.
		const { days, ranges } = partsOf(new Date(w.firstAt), new Date(w.endAt))
		const parts = ranges.map(
			([a, b]) =>
				sql`(select job_id, (kind = 'view')::int as views, (kind = 'application')::int as applications from careers_events where workspace_id = ${w.workspaceId} and at >= ${a.toISOString()}::timestamptz and at < ${b.toISOString()}::timestamptz)`,
		)
		if (days)
			parts.push(
				sql`(select job_id, views, applications from careers_daily_jobs where workspace_id = ${w.workspaceId} and day >= ${days[0]}::date and day < ${days[1]}::date)`,
			)
		await deps.database.rows(
			sql`insert into careers_window_totals (workspace_id, span, version, job_id, views, applications, rate)
			select ${w.workspaceId}, ${w.span}, ${header.version}, job_id, sum(views), sum(applications),
				case when sum(views) >= ${MIN_VIEWS} and sum(applications) > 0 then round(sum(applications) * 1000.0 / sum(views))::int end
			from (${sql.join(parts, sql` union all `)}) x
			group by job_id having sum(views) > 0 or sum(applications) > 0`,
			tx,
		)
		await deps.database.rows(
			sql`update careers_window_cache set built = version,
				silent_count = (select count(*) from careers_window_totals where workspace_id = ${w.workspaceId} and span = ${w.span} and version = ${header.version} and applications = 0 and views >= ${MIN_VIEWS})
			where workspace_id = ${w.workspaceId} and span = ${w.span} and version = ${header.version} and first_at = ${w.firstAt}::timestamptz and end_at = ${w.endAt}::timestamptz`,
			tx,
		)
	})
	// Fresh statistics: with the counts of a table just refilled unknown, the ranking read each
	// partial-day job's row through the wide index instead of its key (measured: minutes at scale).
	await deps.database.rows(sql`analyze careers_window_totals`)
}

/** The window of whole hours a whole workspace's period is cached over, and the minutes left at its ends; null for a hiring manager's jobs, or without a whole hour. */
export function windowOf(c: Counted): { window: Window; ranges: [Date, Date][] } | null {
	if (c.reach !== 'all') return null
	const first = Math.ceil(c.from.getTime() / HOUR) * HOUR
	const end = Math.floor(c.to.getTime() / HOUR) * HOUR
	if (first >= end) return null
	const ranges = [...(c.from.getTime() < first ? [[c.from, new Date(first)]] : []), ...(end < c.to.getTime() ? [[new Date(end), c.to]] : [])] as [Date, Date][]
	const window = { workspaceId: c.workspaceId, span: (end - first) / HOUR, firstAt: new Date(first).toISOString(), endAt: new Date(end).toISOString() }
	return { window, ranges }
}

/** The ranked rows of the period: from the cache (rebuilt when not good), else from the counts. */
export async function rankJobs(deps: AppDeps, c: Counted, top: number): Promise<RankedRow[]> {
	const at = windowOf(c)
	if (!at) return deps.database.rows<RankedRow>(uncached(c, top))
	for (let attempt = 0; attempt < 2; attempt++) {
		// The version first, so the planner knows which rows of the window it reads (as a parameter
		// of the ranking it chose the wrong index); the ranking checks again that it is still good.
		const w = at.window
		const [good] = await deps.database.rows<{ version: number }>(
			sql`select version from careers_window_cache where workspace_id = ${w.workspaceId} and span = ${w.span} and first_at = ${w.firstAt}::timestamptz and end_at = ${w.endAt}::timestamptz and built = version`,
		)
		if (good) {
			const rows = await deps.database.rows<RankedRow>(cached(w, good.version, at.ranges, top))
			if (rows.find((r) => r.part === 'cached')?.views) return rows.filter((r) => r.part !== 'cached')
		}
		if (attempt === 0) await rebuildWindow(deps, w)
	}
	// Writes kept moving the window's days: counted as without a cache.
	return deps.database.rows<RankedRow>(uncached(c, top))
}
