/**
 * Careers events counted over a period `[from, to)`, by source, by UTC day or by job: SQL for the
 * summary, the traffic chart and the ranking of jobs.
 *
 * Rules:
 * - A whole workspace's counts come from the per-day counters (`careers_daily_sources`,
 *   `careers_daily_jobs`, kept by triggers) for the UTC days wholly inside the period; by source,
 *   from the hourly counters (`careers_hourly_sources`) for the whole UTC hours of the partial days
 *   at its ends; and from the events themselves only for what is left (by source, the minutes of
 *   the hour at each end; by job, the partial days). The sums are the same as counting the events,
 *   and the cost no longer grows with the month's traffic.
 * - A hiring manager's few jobs are counted from their events (the job index), as before: the
 *   counters by source have no job.
 */
import { sql, type SQL } from 'drizzle-orm'
import { careersDailyJobs, careersDailySources, careersEvents, careersHourlySources } from './table.ts'

const DAY = 86_400_000
const HOUR = 3_600_000

/** The jobs counted: every job of the workspace, or the listed ones (none: nothing). */
export type JobReach = 'all' | string[]

export interface Counted {
	workspaceId: string
	reach: JobReach
	from: Date
	to: Date
}

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10)

/** `[from, to)` as the whole UTC days inside it (null when none) and the ranges of time left at its ends. */
export function partsOf(from: Date, to: Date): { days: [string, string] | null; ranges: [Date, Date][] } {
	const firstWhole = Math.ceil(from.getTime() / DAY) * DAY
	const lastDay = Math.floor(to.getTime() / DAY) * DAY
	if (firstWhole >= lastDay) return { days: null, ranges: from < to ? [[from, to]] : [] }
	const ranges: [Date, Date][] = []
	if (from.getTime() < firstWhole) ranges.push([from, new Date(firstWhole)])
	if (lastDay < to.getTime()) ranges.push([new Date(lastDay), to])
	return { days: [isoDay(firstWhole), isoDay(lastDay)], ranges }
}

/**
 * `[from, to)` as the whole UTC days inside it, the whole UTC hours left (ranges of them, in the
 * partial days) and the ranges of time left at its ends (each shorter than an hour).
 */
export function hourPartsOf(from: Date, to: Date): { days: [string, string] | null; hours: [Date, Date][]; ranges: [Date, Date][] } {
	const firstHour = Math.ceil(from.getTime() / HOUR) * HOUR
	const lastHour = Math.floor(to.getTime() / HOUR) * HOUR
	if (firstHour >= lastHour) return { days: null, hours: [], ranges: from < to ? [[from, to]] : [] }
	const ranges: [Date, Date][] = []
	if (from.getTime() < firstHour) ranges.push([from, new Date(firstHour)])
	if (lastHour < to.getTime()) ranges.push([new Date(lastHour), to])
	const { days, ranges: hours } = partsOf(new Date(firstHour), new Date(lastHour))
	return { days, hours, ranges }
}

const iso = (t: Date) => sql`${t.toISOString()}::timestamptz`

/**
 * The counters for the whole days, and one statement per range of events (each a short index read);
 * with `hourly`, the whole hours of the partial days from the hourly counters.
 */
function pieces(c: Counted, events: (where: SQL) => SQL, counters: (where: SQL) => SQL, hourly?: (where: SQL) => SQL): SQL {
	const whole = c.reach === 'all'
	const split = whole && hourly ? hourPartsOf(c.from, c.to) : whole ? { ...partsOf(c.from, c.to), hours: [] } : null
	const { days, hours, ranges } = split ?? { days: null, hours: [], ranges: c.from < c.to ? [[c.from, c.to] as [Date, Date]] : [] }
	const jobs =
		c.reach === 'all'
			? sql``
			: c.reach.length
				? sql` and job_id in (${sql.join(
						c.reach.map((id) => sql`${id}`),
						sql`, `,
					)})`
				: sql` and false`
	const parts = ranges.map(([a, b]) => sql`(${events(sql`workspace_id = ${c.workspaceId} and at >= ${iso(a)} and at < ${iso(b)}${jobs}`)})`)
	if (hourly) for (const [a, b] of hours) parts.push(sql`(${hourly(sql`workspace_id = ${c.workspaceId} and hour >= ${iso(a)} and hour < ${iso(b)}`)})`)
	if (days) parts.push(sql`(${counters(sql`workspace_id = ${c.workspaceId} and day >= ${days[0]}::date and day < ${days[1]}::date`)})`)
	// An empty period still answers the right columns (no rows).
	if (!parts.length) parts.push(sql`(${events(sql`false`)})`)
	return sql.join(parts, sql` union all `)
}

/** Rows `source, kind, n`. */
export function countsBySource(c: Counted): SQL {
	return sql`select source, kind, sum(n)::int as n from (${pieces(
		c,
		(where) => sql`select source, kind, count(*)::int as n from ${careersEvents} where ${where} group by 1, 2`,
		(where) => sql`select source, kind, n from ${careersDailySources} where ${where}`,
		(where) => sql`select source, kind, n from ${careersHourlySources} where ${where}`,
	)}) x group by 1, 2`
}

/** Rows `day` (YYYY-MM-DD, UTC), `kind`, `n`. */
export function countsByDay(c: Counted): SQL {
	return sql`select day, kind, sum(n)::int as n from (${pieces(
		c,
		(where) => sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, count(*)::int as n from ${careersEvents} where ${where} group by 1, 2`,
		(where) => sql`select to_char(day, 'YYYY-MM-DD') as day, kind, n from ${careersDailySources} where ${where}`,
		(where) => sql`select to_char(hour at time zone 'UTC', 'YYYY-MM-DD') as day, kind, n from ${careersHourlySources} where ${where}`,
	)}) x group by 1, 2`
}

/** Rows `job_id, views, applications`: the jobs with any event in the period. */
export function countsByJob(c: Counted): SQL {
	return sql`select job_id, sum(views)::int as views, sum(applications)::int as applications from (${pieces(
		c,
		(where) =>
			sql`select job_id, count(*) filter (where kind = 'view')::int as views, count(*) filter (where kind = 'application')::int as applications from ${careersEvents} where ${where} group by 1`,
		(where) => sql`select job_id, views, applications from ${careersDailyJobs} where ${where}`,
	)}) x group by 1 having sum(views) > 0 or sum(applications) > 0`
}
