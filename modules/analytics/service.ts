/**
 * Careers-site analytics: job page views and applications, by job and by source.
 *
 * Rules: the careers pages record events (`recordCareersEvent`), never failing the page when the
 * database is unhappy; a summary covers the last 7 or 30 days against the 30 (or 7) days before;
 * conversion is applications per view in percent; hiring managers see only their jobs.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { jobTitles, reachableJobIds } from '../jobs/index.ts'
import { insightsOf } from './insights.ts'
import { normalizeSource, sourceLabel } from './sources.ts'
import { careersEvents } from './table.ts'

export interface CareersEvent {
	workspaceId: string
	jobId: string
	kind: 'view' | 'application'
	/** From `careersSource(request)`; null means "do not count" (a crawler). */
	source: string | null
}

/** Records one careers-site event. Errors are logged, never thrown: analytics must not break a page. */
export async function recordCareersEvent(deps: AppDeps, event: CareersEvent): Promise<void> {
	if (event.source === null) return
	try {
		await deps.db.insert(careersEvents).values({ id: newId('cev'), workspaceId: event.workspaceId, jobId: event.jobId, kind: event.kind, source: normalizeSource(event.source), at: deps.now() })
	} catch (error) {
		deps.log.warn('careers event not recorded', { kind: event.kind, jobId: event.jobId, error })
	}
}

export interface Counts {
	views: number
	applications: number
	/** Applications per view, in percent (one decimal); null without views. */
	conversionRate: number | null
}

export interface AnalyticsSummary {
	range: 7 | 30
	from: string
	to: string
	totals: Counts
	previous: Counts
	change: { views: number | null; applications: number | null; conversionRate: number | null }
	topJobs: (Counts & { jobId: string; title: UntrustedText })[]
	/** A source is what a visitor's link said (its utm_source), or the referring site: labelled as from outside. */
	topSources: (Counts & { source: UntrustedText; label: UntrustedText })[]
	/** Our sentences; one that quotes a job's title or a source is labelled with who wrote that. */
	insights: (string | UntrustedText)[]
}

const sourceText = (text: string) => untrustedLine(text, 'outside', 60)

export const rate = (views: number, applications: number) => (views > 0 ? Math.round((applications / views) * 1000) / 10 : null)
const counts = (views: number, applications: number): Counts => ({ views, applications, conversionRate: rate(views, applications) })
/** Percent change, one decimal; null when there is nothing to compare with. */
export const percentChange = (before: number, now: number) => (before > 0 ? Math.round(((now - before) / before) * 1000) / 10 : null)

const DAY = 86_400_000

export async function analyticsSummary(deps: AppDeps, actor: Actor, range: 7 | 30): Promise<AnalyticsSummary> {
	const to = deps.now()
	const from = new Date(to.getTime() - range * DAY)
	const before = new Date(from.getTime() - range * DAY)
	const reach = await reachableJobIds(deps, actor)
	const jobFilter = reach === 'all' ? sql`` : reach.length ? sql` and job_id in (${sql.join(reach.map((id) => sql`${id}`), sql`, `)})` : sql` and false`
	const rows = await deps.database.rows<{ jobId: string; source: string; kind: string; current: boolean; n: number }>(
		sql`select job_id as "jobId", source, kind, at >= ${from.toISOString()}::timestamptz as current, count(*)::int as n
from ${careersEvents} where workspace_id = ${actor.workspaceId} and at >= ${before.toISOString()}::timestamptz and at < ${to.toISOString()}::timestamptz${jobFilter}
group by 1, 2, 3, 4`,
	)
	const now = { views: 0, applications: 0 }
	const prev = { views: 0, applications: 0 }
	const byJob = new Map<string, { views: number; applications: number }>()
	const bySource = new Map<string, { views: number; applications: number; prevViews: number; prevApplications: number }>()
	for (const r of rows) {
		const key = r.kind === 'view' ? 'views' : 'applications'
		if (!r.current) {
			prev[key] += r.n
			const s = bySource.get(r.source) ?? { views: 0, applications: 0, prevViews: 0, prevApplications: 0 }
			s[key === 'views' ? 'prevViews' : 'prevApplications'] += r.n
			bySource.set(r.source, s)
			continue
		}
		now[key] += r.n
		const j = byJob.get(r.jobId) ?? { views: 0, applications: 0 }
		j[key] += r.n
		byJob.set(r.jobId, j)
		const s = bySource.get(r.source) ?? { views: 0, applications: 0, prevViews: 0, prevApplications: 0 }
		s[key] += r.n
		bySource.set(r.source, s)
	}
	const titles = await jobTitles(deps, actor.workspaceId, [...byJob.keys()])
	const byActivity = <T extends { views: number; applications: number }>(a: T & { name: string }, b: T & { name: string }) => b.applications - a.applications || b.views - a.views || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
	const jobsRanked = [...byJob.entries()]
		.map(([jobId, c]) => {
			const title = titles.get(jobId) ?? untrustedLine('', 'colleague')
			return { jobId, title, name: title.text, ...c }
		})
		.sort(byActivity)
	const sourcesRanked = [...bySource.entries()].filter(([, c]) => c.views + c.applications > 0).map(([source, c]) => ({ source, name: source, ...c })).sort(byActivity)
	const totals = counts(now.views, now.applications)
	const previous = counts(prev.views, prev.applications)
	const summary: AnalyticsSummary = {
		range,
		from: from.toISOString(),
		to: to.toISOString(),
		totals,
		previous,
		change: {
			views: percentChange(prev.views, now.views),
			applications: percentChange(prev.applications, now.applications),
			conversionRate: totals.conversionRate !== null && previous.conversionRate !== null ? Math.round((totals.conversionRate - previous.conversionRate) * 10) / 10 : null,
		},
		topJobs: jobsRanked.slice(0, 5).map((j) => ({ jobId: j.jobId, title: j.title, ...counts(j.views, j.applications) })),
		topSources: sourcesRanked.slice(0, 5).map((s) => ({ source: sourceText(s.source), label: sourceText(sourceLabel(s.source)), ...counts(s.views, s.applications) })),
		insights: [],
	}
	summary.insights = insightsOf(summary, {
		jobs: jobsRanked.map((j) => ({ title: j.title, ...counts(j.views, j.applications) })),
		sources: sourcesRanked.map((s) => ({ label: sourceLabel(s.source), ...counts(s.views, s.applications), previousApplications: s.prevApplications })),
	})
	return summary
}
