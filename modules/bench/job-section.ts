/**
 * What the bench module adds to a job's page (`/jobs/<id>`, page `job`): bench people ranked by fit
 * to the job, as `get_job_bench` ranks them (same service, same permission), with the reasons for
 * each place. The main view shows the first few; `?list=bench` the whole ranking, paged.
 */
import type { AppDeps } from '../../core/deps.ts'
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { PageQuery, PageSection } from '../../core/module.ts'
import { dataTable, pager, when, type Column } from '../../core/ui.ts'
import { textOf } from '../../core/untrusted.ts'
import { jobBench } from './match.ts'

/** Bench people on the job's main view. */
const ON_JOB = 5
const PER_PAGE = 25

type Ranked = Awaited<ReturnType<typeof jobBench>>['bench'][number]

const availability = (from: string | null, now: Date) =>
	from && Date.parse(`${from}T00:00:00Z`) > now.getTime() ? html`from ${when(`${from}T00:00:00Z`, { time: false })}` : 'Now'

async function benchRanking(deps: AppDeps, session: PageSession, jobId: string, q: PageQuery): Promise<SafeHtml> {
	const full = q.list === 'bench'
	const ranked = await jobBench(deps, session.actor, { jobId, limit: full ? PER_PAGE : ON_JOB, cursor: full ? q.cursor : undefined })
	const columns: Column<Ranked>[] = [
		{
			label: 'Person',
			cell: (b) =>
				html`<a href="/candidates/${b.candidate.id}">${b.candidate.name}</a>${b.candidate.headline ? html`<span class="meta block">${b.candidate.headline}</span>` : ''}`,
		},
		{ label: 'Rank', numeric: true, cell: (b) => b.rank },
		{ label: 'Fit', cell: (b) => html`<strong>${b.score}</strong> <span class="meta">· ${b.mustHavesMet} of ${b.mustHavesTotal} must-haves</span>` },
		{ label: 'Bench', cell: (b) => b.roleFamilies.join(', ') },
		{ label: 'Available', cell: (b) => availability(b.availableFrom, deps.now()) },
		{ label: 'Rate', numeric: true, cell: (b) => (b.hourlyRate === null ? '—' : `${b.hourlyRate.toLocaleString('en-US')} / hour`) },
		{
			label: 'Why',
			cell: (b) =>
				html`<ul class="reasons">${b.reasons.map((r) => html`<li>${r}</li>`)}${b.missing.length ? html`<li>missing: ${b.missing.map((m) => textOf(m)).join(', ')}</li>` : ''}</ul>`,
		},
	]
	const more = full
		? pager({ base: `/jobs/${jobId}?list=bench`, next: ranked.nextCursor, first: !q.cursor })
		: ranked.nextCursor
			? html`<p class="see-all"><a href="/jobs/${jobId}?list=bench">See the whole bench ranking</a></p>`
			: ''
	return html`<section class="card" id="${full ? 'list' : 'bench'}" aria-labelledby="bench-h"><h2 id="bench-h">Bench ranked by fit</h2>
${full ? html`<p><a href="/jobs/${jobId}#bench">Back to the job</a></p>` : ''}
<p class="meta">The job looks like the ${ranked.job.roleFamily} role family. Fit out of 100: must-haves 60, nice-to-haves 15, on that family’s bench 15, availability 10.</p>
${dataTable({ caption: 'Bench ranked by fit', hideCaption: true, columns, rows: ranked.bench, empty: full && q.cursor ? 'No more.' : 'Nobody is on the bench yet.' })}
${more}</section>`
}

export const benchJobSection: PageSection = {
	page: 'job',
	order: 40,
	permission: 'bench:read',
	render: async (deps, session, jobId, { query: q = {} } = {}) =>
		(q.stage === undefined && q.list === undefined) || q.list === 'bench' ? benchRanking(deps, session, jobId, q) : null,
}
