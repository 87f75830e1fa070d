/**
 * Careers-site analytics: job page views and applications, by job and by source.
 *
 * Rules: the careers pages record events (`recordCareersEvent`), never failing the page when the
 * database is unhappy; a summary covers the last 7 or 30 days against the 30 (or 7) days before;
 * conversion is applications per view in percent; hiring managers see only their jobs. The counts
 * come from per-day and per-hour counters and the events of the minutes at the period's ends
 * (`counted.ts`).
 */
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { jobLabels, reachableJobIds } from '../jobs/index.ts'
import { countsByDay, countsBySource, type Counted } from './counted.ts'
import { rankJobs } from './ranking.ts'
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
		await deps.db
			.insert(careersEvents)
			.values({ id: newId('cev'), workspaceId: event.workspaceId, jobId: event.jobId, kind: event.kind, source: normalizeSource(event.source), at: deps.now() })
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

/** The period a summary covers: the last `range` days up to now, and the as long one before it. */
export interface Period {
	range: 7 | 30
	from: Date
	to: Date
	before: Date
}

export function periodOf(deps: Pick<AppDeps, 'now'>, range: 7 | 30): Period {
	const to = deps.now()
	const from = new Date(to.getTime() - range * DAY)
	return { range, from, to, before: new Date(from.getTime() - range * DAY) }
}

/** The jobs the actor's counts cover (hiring managers: their hiring teams' jobs). */
async function countedFor(deps: AppDeps, actor: Actor, from: Date, to: Date): Promise<Counted> {
	return { workspaceId: actor.workspaceId, reach: await reachableJobIds(deps, actor), from, to }
}

export async function analyticsSummary(deps: AppDeps, actor: Actor, range: 7 | 30): Promise<AnalyticsSummary> {
	return (await careersSummary(deps, actor, periodOf(deps, range))).summary
}

export interface CareersSummary {
	summary: AnalyticsSummary
	/** Jobs and sources ranked as in the summary (most applications, then views), `top` of each. */
	jobs: AnalyticsSummary['topJobs']
	sources: AnalyticsSummary['topSources']
}

/** The summary of `get_analytics_summary`, with the ranking of jobs and sources longer than its top five when asked. */
export async function careersSummary(deps: AppDeps, actor: Actor, period: Period, top = 5): Promise<CareersSummary> {
	const { range, from, to, before } = period
	const current = await countedFor(deps, actor, from, to)
	const earlier = { ...current, from: before, to: from }
	// Sources (few) are ranked here; jobs (up to every job of the workspace) in SQL (`ranking.ts`),
	// which returns only the top ones and what the insights need, however many jobs had traffic.
	// A statement per period: in one, PostgreSQL spread the two over parallel workers, whose start
	// cost 15–30 ms on a busy machine for 2 ms of work (bench/README.md, issue 13).
	const bySourceIn = async (c: Counted, isCurrent: boolean) =>
		(await deps.database.rows<{ source: string; kind: string; n: number }>(countsBySource(c))).map((r) => ({ ...r, current: isCurrent }))
	const [currentRows, earlierRows, jobRows] = await Promise.all([bySourceIn(current, true), bySourceIn(earlier, false), rankJobs(deps, current, top)])
	const sourceRows = [...currentRows, ...earlierRows]
	const now = { views: 0, applications: 0 }
	const prev = { views: 0, applications: 0 }
	const bySource = new Map<string, { views: number; applications: number; prevViews: number; prevApplications: number }>()
	for (const r of sourceRows) {
		const key = r.kind === 'view' ? 'views' : 'applications'
		const s = bySource.get(r.source) ?? { views: 0, applications: 0, prevViews: 0, prevApplications: 0 }
		if (r.current) {
			now[key] += r.n
			s[key] += r.n
		} else {
			prev[key] += r.n
			s[key === 'views' ? 'prevViews' : 'prevApplications'] += r.n
		}
		bySource.set(r.source, s)
	}
	const byActivity = <T extends { views: number; applications: number }>(a: T & { name: string }, b: T & { name: string }) =>
		b.applications - a.applications || b.views - a.views || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
	const sourcesRanked = [...bySource.entries()]
		.filter(([, c]) => c.views + c.applications > 0)
		.map(([source, c]) => ({ source, name: source, ...c }))
		.sort(byActivity)
	// Titles are labelled by who wrote them (a vendor or a colleague); only the few jobs named are looked up.
	const titles = await jobLabels(deps, actor, [...new Set(jobRows.filter((r) => r.jobId).map((r) => r.jobId!))])
	const titleOf = (jobId: string) => titles.get(jobId) ?? untrustedLine('', 'colleague')
	const job = (r: (typeof jobRows)[number]) => ({ jobId: r.jobId!, title: titleOf(r.jobId!), ...counts(r.views, r.applications) })
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
			conversionRate:
				totals.conversionRate !== null && previous.conversionRate !== null ? Math.round((totals.conversionRate - previous.conversionRate) * 10) / 10 : null,
		},
		topJobs: [],
		topSources: [],
		insights: [],
	}
	const ranked = jobRows.filter((r) => r.part === 'top').map(job)
	const sources = sourcesRanked
		.slice(0, Math.max(top, 5))
		.map((s) => ({ source: sourceText(s.source), label: sourceText(sourceLabel(s.source)), ...counts(s.views, s.applications) }))
	summary.topJobs = ranked.slice(0, 5)
	summary.topSources = sources.slice(0, 5)
	const best = jobRows.find((r) => r.part === 'best')
	summary.insights = insightsOf(summary, {
		bestJob: best ? job(best) : null,
		silentJobs: {
			count: jobRows.find((r) => r.part === 'silentCount')?.views ?? 0,
			titles: jobRows.filter((r) => r.part === 'silent').map((r) => titleOf(r.jobId!)),
		},
		sources: sourcesRanked.map((s) => ({ label: sourceLabel(s.source), ...counts(s.views, s.applications), previousApplications: s.prevApplications })),
	})
	return { summary, jobs: ranked.slice(0, top), sources: sources.slice(0, top) }
}

export interface DayCounts {
	/** The UTC day, YYYY-MM-DD. */
	day: string
	views: number
	applications: number
}

/**
 * Job page views and applications per UTC day of the period (every day listed, quiet ones as 0).
 * Whole days: the first day is counted from its midnight even when the period starts later in it
 * (the last 7 days from now start mid-day), so a day's bar is that day's total wherever it is shown
 * (the home page's chart, either range of the analytics page); only today's, not over, is partial.
 */
export async function careersPerDay(deps: AppDeps, actor: Actor, period: Pick<Period, 'from' | 'to'>): Promise<DayCounts[]> {
	const start = Math.floor(period.from.getTime() / DAY) * DAY
	const rows = await deps.database.rows<{ day: string; kind: string; n: number }>(countsByDay(await countedFor(deps, actor, new Date(start), period.to)))
	const days: DayCounts[] = []
	for (let t = start; t < period.to.getTime(); t += DAY) days.push({ day: new Date(t).toISOString().slice(0, 10), views: 0, applications: 0 })
	const byDay = new Map(days.map((d) => [d.day, d]))
	for (const r of rows) {
		const d = byDay.get(r.day)
		if (d) d[r.kind === 'view' ? 'views' : 'applications'] += r.n
	}
	return days
}
