/**
 * The applications received in a period, followed through the pipeline (the analytics funnel), and
 * how long they waited for a first answer.
 *
 * Rules:
 * - Counted: applicants (not leads) received in `[from, to)`, archived ones too (they got as far as
 *   they got), limited to what the person may see (hiring managers: their jobs' applications).
 * - An application has reached a stage when its current stage is that one or a later one, or when
 *   it was hired (the cohort view: how far each application of the period has come so far); a
 *   rejected or withdrawn one in the Hired stage reached the stages before it, not Hired
 *   (`furthestPosition`, progress.ts).
 * - First answer: the application leaving the workspace's first stage, which is when the review
 *   queue stops showing it as new. Its time is the first logged stage move
 *   (`application.stage_changed`); an application that left the first stage without one (imported,
 *   demo data) counts its latest stage change. Still in the first stage, never moved and not closed
 *   (as the review queue shows it): waiting. Closed in the first stage without a move (rejected or
 *   withdrawn there): no time to measure, counted apart.
 * - Speed at scale: a whole workspace's counts come from the per-day counters
 *   (`application_daily_counts`) for the days wholly inside the period, and from the applications
 *   themselves for the two partial days at its ends. Waiting times are measured on at most
 *   `PER_DAY` applications of each day (the first ones), so the cost does not grow with volume;
 *   the result says how many were measured.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { furthestPosition } from './progress.ts'
import { applicationReach, reachOf, type Reach } from './reach.ts'
import { stagesOf, type Stage } from './stages.ts'

const DAY = 86_400_000
/** Applications measured per day for the waiting times. */
export const PER_DAY = 20

export interface FunnelStage extends Stage {
	/** Applications of the period now in this stage or a later one (or hired). */
	reached: number
}

export interface ResponseTimes {
	/** Applications looked at: all of the period's when each day had at most `PER_DAY`, else the first `PER_DAY` of each day. */
	measured: number
	/** True when some days had more applications than were looked at. */
	sampled: boolean
	answered: number
	waiting: number
	/** Closed (rejected, withdrawn) in the first stage without being moved: no response time. */
	closedUnmoved: number
	/** Hours to the first answer, among those answered; null when none was. */
	medianHours: number | null
	/** How many answered within each band, in order; the last band has no upper bound. */
	bands: { label: string; upToHours: number | null; count: number }[]
}

export interface ApplicationFunnel {
	/** Applicants received in the period. */
	received: number
	/** The workspace's stages in pipeline order, each with how many reached it. */
	stages: FunnelStage[]
	responses: ResponseTimes
}

const BANDS: readonly { label: string; upToHours: number | null }[] = [
	{ label: 'Within a day', upToHours: 24 },
	{ label: '1 to 3 days', upToHours: 72 },
	{ label: '3 to 7 days', upToHours: 168 },
	{ label: '1 to 2 weeks', upToHours: 336 },
	{ label: 'Over 2 weeks', upToHours: null },
]

const utcDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY)
const isoDay = (d: Date) => d.toISOString().slice(0, 10)

export async function applicationFunnel(deps: AppDeps, actor: Actor, period: { from: Date; to: Date }): Promise<ApplicationFunnel> {
	const [reach, stages] = await Promise.all([reachOf(deps, actor), stagesOf(deps, actor.workspaceId)])
	const [counts, sample] = await Promise.all([stageCounts(deps, reach, period), waitingSample(deps, reach, period)])
	const position = new Map(stages.map((s) => [s.key, s.position]))
	let received = 0
	const reached = new Map(stages.map((s) => [s.key, 0]))
	for (const c of counts) {
		received += c.n
		const at = furthestPosition(c, position)
		for (const s of stages) if (at >= s.position) reached.set(s.key, reached.get(s.key)! + c.n)
	}
	return {
		received,
		stages: stages.map((s) => ({ ...s, reached: reached.get(s.key)! })),
		responses: { ...responseTimes(sample, stages[0]?.key), sampled: sample.length < received },
	}
}

interface StageCount {
	stageKey: string
	outcome: string
	n: number
}

/** Applicants of the period by current stage and outcome. */
async function stageCounts(deps: AppDeps, reach: Reach, period: { from: Date; to: Date }): Promise<StageCount[]> {
	const live = (from: Date, to: Date): SQL =>
		sql`select a.stage_key as "stageKey", coalesce(a.outcome, '') as outcome, count(*)::int as n from applications a
		where ${applicationReach(reach)} and a.kind = 'applicant' and a.created_at >= ${from.toISOString()}::timestamptz and a.created_at < ${to.toISOString()}::timestamptz group by 1, 2`
	// A hiring manager's few jobs are counted directly (the counters have no job).
	if (reach.jobIds !== 'all') return deps.database.rows<StageCount>(live(period.from, period.to))
	const firstWhole = new Date(utcDay(period.from).getTime() + DAY)
	const lastDay = utcDay(period.to)
	if (firstWhole >= lastDay) return deps.database.rows<StageCount>(live(period.from, period.to))
	return deps.database.rows<StageCount>(sql`select "stageKey", outcome, sum(n)::int as n from (
		${live(period.from, firstWhole)}
		union all
		select c.stage_key, c.outcome, c.n from application_daily_counts c
		where c.workspace_id = ${reach.actor.workspaceId} and c.kind = 'applicant' and c.day >= ${isoDay(firstWhole)}::date and c.day < ${isoDay(lastDay)}::date
		union all
		${live(lastDay, period.to)}
	) x group by 1, 2`)
}

interface Sampled {
	stageKey: string
	outcome: string | null
	createdAt: Date | string
	stageChangedAt: Date | string
	firstMoveAt: Date | string | null
}

/**
 * The first `PER_DAY` applicants of each day of the period, with their first logged stage move.
 * The days are listed (not generated in SQL) so the planner knows how few they are and plans a
 * short query (a `generate_series` is guessed at 1,000 rows, which made it compile the query with
 * JIT: 15 to 100 ms more on every call). `nulls first` is the order the index
 * `applications_workspace_created` gives when read backwards, so each day is a short index read.
 */
async function waitingSample(deps: AppDeps, reach: Reach, period: { from: Date; to: Date }): Promise<Sampled[]> {
	const days: SQL[] = []
	for (let start = utcDay(period.from).getTime(); start < period.to.getTime(); start += DAY) {
		const from = new Date(Math.max(start, period.from.getTime()))
		const to = new Date(Math.min(start + DAY, period.to.getTime()))
		days.push(sql`(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)`)
	}
	if (!days.length) return []
	return deps.database.rows<Sampled>(sql`select a.stage_key as "stageKey", a.outcome, a.created_at as "createdAt", a.stage_changed_at as "stageChangedAt",
		(select min(x.at) from activity x where x.target_type = 'application' and x.target_id = a.id and x.action = 'application.stage_changed') as "firstMoveAt"
	from (values ${sql.join(days, sql`, `)}) d(day_from, day_to)
	cross join lateral (
		select a.id, a.stage_key, a.outcome, a.created_at, a.stage_changed_at from applications a
		where ${applicationReach(reach)} and a.kind = 'applicant' and a.created_at >= d.day_from and a.created_at < d.day_to
		order by a.created_at nulls first, a.id nulls first limit ${PER_DAY}
	) a`)
}

function responseTimes(sample: Sampled[], firstStage: string | undefined): Omit<ResponseTimes, 'sampled'> {
	const hours: number[] = []
	let waiting = 0
	for (const s of sample) {
		const created = new Date(s.createdAt).getTime()
		const moves = [s.firstMoveAt ? new Date(s.firstMoveAt).getTime() : null, s.stageKey !== firstStage ? new Date(s.stageChangedAt).getTime() : null].filter(
			(x): x is number => x !== null,
		)
		if (moves.length) hours.push(Math.max(0, (Math.min(...moves) - created) / 3_600_000))
		else if (s.outcome === null) waiting++
	}
	hours.sort((a, b) => a - b)
	const mid = hours.length >> 1
	const medianHours = hours.length ? (hours.length % 2 ? hours[mid]! : (hours[mid - 1]! + hours[mid]!) / 2) : null
	let lower = 0
	const bands = BANDS.map((b) => {
		const count = hours.filter((h) => h >= lower && (b.upToHours === null || h < b.upToHours)).length
		lower = b.upToHours ?? Infinity
		return { ...b, count }
	})
	return { measured: sample.length, answered: hours.length, waiting, closedUnmoved: sample.length - hours.length - waiting, medianHours, bands }
}
