/**
 * Plain-sentence insights computed from the summary's numbers, most telling first, at most five.
 * Thresholds keep them honest: a change under 5% "held steady", a job needs 20 views
 * before its conversion is called out, a source needs a fifth of all views to be called weak.
 */
import { untrusted, type TextAuthor, type UntrustedText } from '../../core/untrusted.ts'
import type { AnalyticsSummary, Counts } from './service.ts'

const FARTHEST_FIRST: TextAuthor[] = ['outside', 'candidate', 'vendor', 'colleague']

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

export interface InsightDetail {
	jobs: (Counts & { title: UntrustedText })[]
	sources: (Counts & { label: string; previousApplications: number })[]
}

export function insightsOf(s: AnalyticsSummary, detail: InsightDetail): (string | UntrustedText)[] {
	const out: (string | UntrustedText)[] = []
	const { views, applications } = s.totals
	if (views === 0 && applications === 0) {
		out.push(`No careers-site visits or applications were recorded in the last ${s.range} days.`)
		if (s.previous.views > 0) out.push(`There were ${n(s.previous.views)} job page views in ${period(s.range)}: check that your jobs are still open and linked.`)
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
		out.push(quoting(`${topSource.label} brought the most applications: ${n(topSource.applications)} of ${n(applications)} (${pct(Math.round((topSource.applications / applications) * 1000) / 10)}).`, ['outside']))
	const overall = s.totals.conversionRate
	const weak = overall !== null ? detail.sources.find((x) => x.views >= views / 5 && x.conversionRate !== null && x.conversionRate < overall / 2) : undefined
	if (weak) out.push(quoting(`${weak.label} sends ${pct(Math.round((weak.views / views) * 1000) / 10)} of the views but converts at ${pct(weak.conversionRate!)}, under half the ${pct(overall!)} average: review how your jobs appear there.`, ['outside']))
	const ranked = detail.jobs.filter((j) => j.views >= 20 && j.conversionRate !== null).sort((x, y) => y.conversionRate! - x.conversionRate!)
	const best = ranked[0]
	if (best && best.applications > 0) out.push(quoting(`${best.title.text} converts best: ${pct(best.conversionRate!)} of its ${n(best.views)} views became applications.`, [best.title.writtenBy]))
	const silent = detail.jobs.filter((j) => j.views >= 20 && j.applications === 0)
	if (silent.length) {
		const named = silent.slice(0, 3)
		out.push(
			quoting(
				`${silent.length === 1 ? `${silent[0]!.title.text} had` : `${silent.length} jobs had`} at least 20 views but no applications${silent.length > 1 ? `: ${named.map((j) => j.title.text).join(', ')}${silent.length > 3 ? ' and more' : ''}` : ''}.`,
				named.map((j) => j.title.writtenBy),
			),
		)
	}
	return out.slice(0, 6)
}
