/** The portal home's open jobs (those the person can see), each with its applicants per stage. */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { dataTable } from '../../core/ui.ts'
import { listJobs } from '../jobs/index.ts'
import { candidateJobFacts } from './facts.ts'
import { stagesOf } from './stages.ts'

const SHOWN = 10

export const openJobsHomeSection: PageSection = {
	page: 'home',
	order: 20,
	permission: 'candidates:read',
	async render(deps, session) {
		const { jobs, nextCursor } = await listJobs(deps, session.actor, { status: 'Open', limit: SHOWN })
		const [facts, stages] = await Promise.all([candidateJobFacts(deps, session.actor, jobs.map((j) => j.id)), stagesOf(deps, session.actor.workspaceId)])
		// Only stages that hold someone on at least one of these jobs get a column.
		const used = stages.filter((s) => jobs.some((j) => facts.get(j.id)?.applicationsByStage?.[s.key]))
		return html`<section class="card wide" aria-labelledby="open-jobs"><h2 id="open-jobs">Open jobs</h2>
${dataTable({
	caption: 'Open jobs and their applicants per stage',
	hideCaption: true,
	rows: jobs,
	empty: 'No open jobs you can see.',
	columns: [
		{ label: 'Job', cell: (j) => html`<a href="/jobs/${j.id}">${j.title}</a>` },
		{ label: 'Applicants', numeric: true, cell: (j) => j.applicantCount },
		...used.map((s) => ({ label: s.label, numeric: true, cell: (j: (typeof jobs)[number]) => facts.get(j.id)?.applicationsByStage?.[s.key] ?? 0 })),
	],
})}
<p><a href="/jobs?status=Open">${nextCursor ? 'All open jobs' : 'Jobs'}</a></p></section>`
	},
}
