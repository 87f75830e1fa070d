/**
 * What the analytics page should show for a period and some jobs, counted straight from the tables
 * (careers events, applications, the activity log) with the page's stated rules, independently of
 * the services that draw it. Shared by the in-process page test and the browser test.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../core/deps.ts'

const HOUR = 3_600_000
const STAGES = ['applied', 'screening', 'submitted', 'client_interview', 'offer', 'hired']
export const SOURCE_LABELS: Record<string, string> = {
	linkedin: 'LinkedIn',
	indeed: 'Indeed',
	google: 'Google',
	dice: 'Dice',
	direct: 'Direct visits',
	careers_site: 'Your careers site',
	glassdoor: 'Glassdoor',
}

/** Counts for the jobs given (every job of the workspace when `jobIds` is omitted). */
export async function analyticsCounts(deps: AppDeps, workspaceId: string, period: { from: Date; to: Date }, jobIds?: string[]) {
	const jobs = jobIds
		? sql` and job_id in (${sql.join(
				jobIds.map((j) => sql`${j}`),
				sql`, `,
			)})`
		: sql``
	const inPeriod = (column: string) =>
		sql`${sql.raw(column)} >= ${period.from.toISOString()}::timestamptz and ${sql.raw(column)} < ${period.to.toISOString()}::timestamptz`
	const [perDay, bySource, byJob, apps] = await Promise.all([
		deps.database.rows<{ day: string; kind: string; n: number }>(
			sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, count(*)::int as n from careers_events where workspace_id = ${workspaceId}${jobs} and ${inPeriod('at')} group by 1, 2`,
		),
		deps.database.rows<{ source: string; n: number }>(
			sql`select source, count(*)::int as n from careers_events where workspace_id = ${workspaceId}${jobs} and kind = 'application' and ${inPeriod('at')} group by 1`,
		),
		deps.database.rows<{ jobId: string; title: string; n: number }>(
			sql`select e.job_id as "jobId", j.title, count(*)::int as n from careers_events e join jobs j on j.id = e.job_id where e.workspace_id = ${workspaceId}${jobs} and e.kind = 'application' and ${inPeriod('e.at')} group by 1, 2`,
		),
		deps.database.rows<{ stage: string; outcome: string | null; created: Date; changed: Date; firstMove: Date | null }>(
			sql`select a.stage_key as stage, a.outcome, a.created_at as created, a.stage_changed_at as changed, (select min(x.at) from activity x where x.target_type = 'application' and x.target_id = a.id and x.action = 'application.stage_changed') as "firstMove"
			from applications a where a.workspace_id = ${workspaceId}${jobs} and a.kind = 'applicant' and ${inPeriod('a.created_at')}`,
		),
	])
	const reached = STAGES.map((_, i) => apps.filter((a) => a.outcome === 'hired' || STAGES.indexOf(a.stage) >= i).length)
	const hours = apps.flatMap((a) => {
		const moves = [a.firstMove ? new Date(a.firstMove).getTime() : null, a.stage !== 'applied' ? new Date(a.changed).getTime() : null].filter(
			(x): x is number => x !== null,
		)
		return moves.length ? [Math.max(0, (Math.min(...moves) - new Date(a.created).getTime()) / HOUR)] : []
	})
	const band = (lo: number, hi: number) => hours.filter((h) => h >= lo && h < hi).length
	const total = (kind: string) => perDay.filter((d) => d.kind === kind).reduce((s, d) => s + d.n, 0)
	return {
		perDay,
		views: total('view'),
		applications: total('application'),
		bySource,
		byJob,
		received: apps.length,
		/** Applicants at or past each stage (pipeline order), hired ones at every stage. */
		reached,
		/** Answered within a day, 1–3 days, 3–7 days, 1–2 weeks, over 2 weeks; then still waiting in the first stage. */
		bands: [
			band(0, 24),
			band(24, 72),
			band(72, 168),
			band(168, 336),
			band(336, Infinity),
			apps.filter((a) => a.stage === 'applied' && a.outcome === null && !a.firstMove).length,
		],
		/** Every day of the period had at most this many applicants (the page measures at most 20 a day). */
		busiestDay: Math.max(0, ...Object.values(Object.groupBy(apps, (a) => new Date(a.created).toISOString().slice(0, 10))).map((list) => list?.length ?? 0)),
	}
}
