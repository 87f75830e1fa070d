/**
 * Plain-sentence insights computed from the summary's numbers, most telling first, at most five.
 * Thresholds keep them honest: a change under 5% "held steady", a job needs 20 views
 * before its conversion is called out, a source needs a fifth of all views to be called weak.
 */
import { untrusted, type TextAuthor, type UntrustedText } from '../../core/untrusted.ts'
import type { AnalyticsSummary, Counts } from './service.ts'

const FARTHEST_FIRST: TextAuthor[] = ['outside', 'candidate', 'vendor', 'colleague', 'self']

/**
 * A sentence that quotes others' words (a job's title, a link's source) reaches a model labelled
 * as written by them; of several authors, the one furthest from the workspace.
 */
function quoting(sentence: string, authors: TextAuthor[]): UntrustedText {
	return untrusted(sentence, FARTHEST_FIRST.find((a) => authors.includes(a)) ?? 'colleague', 2000)
}

const n = (x: number) => x.toLocaleString('en-US')
const pct = (x: number) => `${x.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
const period = (range: number) => `the previous ${range} days`

/** How one number moved, as a clause: "rose 18%, from 420 to 496". */
function movement(before: number, now: number): string {
	if (before === 0) return `reached ${n(now)}, up from none`
	const change = ((now - before) / before) * 100
	if (Math.abs(change) < 5) return `held steady at ${n(now)} (${n(before)} before)`
	return `${change > 0 ? 'rose' : 'fell'} ${pct(Math.abs(Math.round(change * 10) / 10))}, from ${n(before)} to ${n(now)}`
}

function trend(s: AnalyticsSummary): string {
	return `Job page views ${movement(s.previous.views, s.totals.views)}, and applications ${movement(s.previous.applications, s.totals.applications)}, compared with ${period(s.range)}.`
}

/** Views a job needs before its conversion is called out. */
export const MIN_VIEWS = 20

export interface InsightDetail {
	/** The job converting best among those with `MIN_VIEWS` views and an application (ties: the busier). */
	bestJob: (Counts & { title: UntrustedText }) | null
	/** Jobs with `MIN_VIEWS` views and no application: how many, and the three most viewed. */
	silentJobs: { count: number; titles: UntrustedText[] }
	sources: (Counts & { label: string; previousApplications: number })[]
}

export function insightsOf(s: AnalyticsSummary, detail: InsightDetail): (string | UntrustedText)[] {
	const out: (string | UntrustedText)[] = []
	const { views, applications } = s.totals
	if (views === 0 && applications === 0) {
		out.push(`No careers-site visits or applications were recorded in the last ${s.range} days.`)
		if (s.previous.views > 0)
			out.push(`There were ${n(s.previous.views)} job page views in ${period(s.range)}: check that your jobs are still open and linked.`)
		return out
	}
	out.push(trend(s))
	if (s.totals.conversionRate !== null) {
		const before = s.previous.conversionRate
		out.push(
			before === null || Math.abs(s.totals.conversionRate - before) < 0.1
				? `${pct(s.totals.conversionRate)} of job page views turned into applications.`
				: `${pct(s.totals.conversionRate)} of job page views turned into applications, ${s.totals.conversionRate > before ? 'up' : 'down'} from ${pct(before)}.`,
		)
	}
	const topSource = detail.sources[0]
	if (topSource && topSource.applications > 0 && applications > 0)
		out.push(
			quoting(
				`${topSource.label} brought the most applications: ${n(topSource.applications)} of ${n(applications)} (${pct(Math.round((topSource.applications / applications) * 1000) / 10)}).`,
				['outside'],
			),
		)
	const overall = s.totals.conversionRate
	const weak = overall !== null ? detail.sources.find((x) => x.views >= views / 5 && x.conversionRate !== null && x.conversionRate < overall / 2) : undefined
	if (weak)
		out.push(
			quoting(
				`${weak.label} sends ${pct(Math.round((weak.views / views) * 1000) / 10)} of the views but converts at ${pct(weak.conversionRate!)}, under half the ${pct(overall!)} average: review how your jobs appear there.`,
				['outside'],
			),
		)
	const best = detail.bestJob
	if (best)
		out.push(
			quoting(`${best.title.text} converts best: ${pct(best.conversionRate!)} of its ${n(best.views)} views became applications.`, [best.title.writtenBy]),
		)
	const silent = detail.silentJobs
	if (silent.count) {
		const named = silent.titles.slice(0, 3)
		out.push(
			quoting(
				`${silent.count === 1 ? `${named[0]?.text} had` : `${silent.count} jobs had`} at least ${MIN_VIEWS} views but no applications${silent.count > 1 ? `: ${named.map((t) => t.text).join(', ')}${silent.count > 3 ? ' and more' : ''}` : ''}.`,
				named.map((t) => t.writtenBy),
			),
		)
	}
	return out.slice(0, 6)
}
