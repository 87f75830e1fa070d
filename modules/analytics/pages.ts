/** The analytics page (`/analytics`): the careers summary, traffic per day, the funnel, sources, jobs and waiting times as charts with their tables. */
import { textOf } from '../../core/untrusted.ts'
import { barChart, columnChart, funnelChart, type BarDatum, type ChartColour, type Period as ChartPeriod } from '../../core/charts.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage, raw } from '../../core/html.ts'
import { facts, pageHeader, plural, when } from '../../core/ui.ts'
import { PER_DAY, type ApplicationFunnel } from '../candidates/index.ts'
import type { Dashboard } from './dashboard.ts'
import type { DayCounts } from './service.ts'

const n = (x: number) => x.toLocaleString('en-US')
const pct = (x: number) => `${x.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
const SHORT_DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' })
const FULL_DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })

/** Views and applications of each UTC day, as chart periods. */
export function dayPeriods(days: readonly DayCounts[], pick: readonly ('views' | 'applications')[]): ChartPeriod[] {
	return days.map((d) => {
		const date = new Date(`${d.day}T00:00:00Z`)
		return { label: SHORT_DAY.format(date), full: FULL_DAY.format(date), values: pick.map((k) => d[k]) }
	})
}

/** "+18% on the previous 30 days", in words when there is nothing to compare with. */
function change(value: number | null, range: number, unit: '%' | ' points') {
	if (value === null) return `nothing to compare with in the ${range} days before`
	if (value === 0) return `the same as the ${range} days before`
	return `${value > 0 ? 'up' : 'down'} ${Math.abs(value).toLocaleString('en-US', { maximumFractionDigits: 1 })}${unit} on the ${range} days before`
}

const hours = (h: number) => (h < 1 ? 'under an hour' : h < 48 ? plural(Math.round(h), 'hour') : plural(Math.round((h / 24) * 10) / 10, 'day'))

function responseSection(funnel: ApplicationFunnel) {
	const r = funnel.responses
	const first = funnel.stages[0]?.label ?? 'the first stage'
	const rule = html`<p class="meta">An application has its first response when someone moves it on from ${first}; the time is counted from when it arrived.</p>`
	if (!r.answered && !r.waiting)
		return html`${rule}<p class="empty">No applications ${r.measured ? 'waiting or answered' : 'arrived'} in this period, so there is no response time to show.</p>`
	const sampled = r.sampled ? ` Measured on ${plural(r.measured, 'application')} of the ${n(funnel.received)} received: the first ${PER_DAY} of each day.` : ''
	const closed = r.closedUnmoved
		? ` ${plural(r.closedUnmoved, 'application')} closed in ${first} without being moved ${r.closedUnmoved === 1 ? 'is' : 'are'} left out.`
		: ''
	const median = r.medianHours === null ? 'None has had a response yet.' : `Half of those answered had their first response within ${hours(r.medianHours)}.`
	return html`${rule}<p>${median} ${plural(r.answered, 'application')} answered, ${n(r.waiting)} still waiting in ${first}.${closed}${sampled}</p>
${barChart({
	title: 'Time from application to first response',
	summary: `${median} ${r.answered} answered, ${r.waiting} waiting.`,
	labelHeading: 'Time to first response',
	valueLabel: 'Applications',
	colour: 'purple',
	empty: 'No application has had a response yet.',
	data: [...r.bands.map((b) => ({ label: b.label, value: b.count })), { label: `Still waiting in ${first}`, value: r.waiting }],
})}`
}

/** Views and conversion beside a count of applications. */
const converted = (x: { views: number; conversionRate: number | null }) =>
	`${n(x.views)} views, ${x.conversionRate === null ? 'no views' : pct(x.conversionRate)} converted`

/** Applications through the careers site by one grouping (source, job): the groups with any, views and conversion beside. */
const careersBars = (title: string, labelHeading: string, colour: ChartColour, data: BarDatum[], range: number) =>
	barChart({
		title,
		labelHeading,
		valueLabel: 'Applications',
		colour,
		data,
		noteHeading: 'Views and conversion',
		empty: `No applications came through your careers site in the last ${range} days.`,
	})

/** Applications by source and by job (careers site), side by side. */
function sourceAndJobCharts(d: Dashboard, range: number) {
	const sources = d.careers.sources.filter((x) => x.applications > 0).map((x) => ({ label: textOf(x.label), value: x.applications, note: converted(x) }))
	const jobs = d.careers.jobs
		.filter((x) => x.applications > 0)
		.map((x) => ({ label: textOf(x.title), value: x.applications, href: `/jobs/${x.jobId}`, note: converted(x) }))
	return html`<div class="grid-2 two-up">
<section class="card" aria-labelledby="by-source"><h2 id="by-source">Applications by source</h2>
${careersBars('Applications by source', 'Source', 'blue', sources, range)}</section>
<section class="card" aria-labelledby="by-job"><h2 id="by-job">Applications by job</h2>
${careersBars('Applications by job', 'Job', 'vermillion', jobs, range)}</section>
</div>`
}

export function analyticsPage(deps: AppDeps, session: PageSession, d: Dashboard): Response {
	const s = d.careers.summary
	const range = d.period.range
	const hiringManager = session.actor.role === 'hiring_manager'
	const periodLink = (r: 7 | 30) => html`<a href="/analytics?range=${r}"${r === range ? raw(' aria-current="page"') : ''}>Last ${r} days</a>`
	const steps = [
		{ label: 'Job page views', value: s.totals.views },
		{ label: 'Applications received', value: d.funnel.received },
		...d.funnel.stages.slice(1).map((st) => ({ label: st.label, value: st.reached })),
	]
	return portalPage(
		deps,
		session,
		{ title: `Analytics, last ${range} days`, current: '/analytics' },
		html`${pageHeader({
			title: 'Analytics',
			meta: html`The last ${range} days: from ${when(d.period.from)} to ${when(d.period.to)}.${hiringManager ? ' Only the jobs on your hiring teams.' : ''}`,
			actions: html`<nav class="periods" aria-label="Period">${periodLink(7)}${periodLink(30)}</nav>`,
		})}
<section class="card" aria-labelledby="totals"><h2 id="totals">Your careers site</h2>
${facts([
	['Job page views', html`${n(s.totals.views)} <span class="meta">${change(s.change.views, range, '%')}</span>`],
	['Applications', html`${n(s.totals.applications)} <span class="meta">${change(s.change.applications, range, '%')}</span>`],
	[
		'Views that became applications',
		s.totals.conversionRate === null
			? 'no views yet'
			: html`${pct(s.totals.conversionRate)} <span class="meta">${change(s.change.conversionRate, range, ' points')}</span>`,
	],
])}
<h3>What stands out</h3>
<ul class="insights">${s.insights.map((i) => html`<li>${i}</li>`)}</ul></section>
<div class="grid-2">
<section class="card wide" aria-labelledby="per-day"><h2 id="per-day">Views and applications per day</h2>
<p class="meta">Job page views and applications sent on your careers site, per whole day (UTC): the first bar is all of ${d.days[0] ? FULL_DAY.format(new Date(`${d.days[0].day}T00:00:00Z`)) : 'its day'}, though the ${range} days above start later in it, so the bars can add up to more than the totals; today’s counts up to now.</p>
${columnChart({
	title: 'Views and applications per day',
	periodHeading: 'Day (UTC)',
	series: [
		{ name: 'Job page views', colour: 'blue' },
		{ name: 'Applications', colour: 'vermillion' },
	],
	periods: dayPeriods(d.days, ['views', 'applications']),
	empty: `No job page views or applications were recorded in the last ${range} days.`,
})}</section>
<section class="card wide" aria-labelledby="funnel"><h2 id="funnel">From view to hire</h2>
<p class="meta">Views are job page views on your careers site. The steps after them follow the ${plural(d.funnel.received, 'application')} received in these ${range} days (careers site, vendors, referrals and every other source) to the furthest stage each has reached so far.</p>
${funnelChart({ title: 'From view to hire', valueLabel: 'Count', steps, empty: `No job page views or applications in the last ${range} days.` })}</section>
</div>
${sourceAndJobCharts(d, range)}
<section class="card" aria-labelledby="response"><h2 id="response">Time from application to first response</h2>
${responseSection(d.funnel)}</section>`,
	)
}
