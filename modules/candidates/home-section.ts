/** The portal home's open jobs (those the person can see), each with its applicants per stage, and their pipeline as a chart. */
import { barChart } from '../../core/charts.ts'
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { dataTable, plural } from '../../core/ui.ts'
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
		const [facts, stages] = await Promise.all([
			candidateJobFacts(
				deps,
				session.actor,
				jobs.map((j) => j.id),
			),
			stagesOf(deps, session.actor.workspaceId),
		])
		return html`<section class="card wide" aria-labelledby="open-jobs"><h2 id="open-jobs">Open jobs</h2>
${dataTable({
	caption: 'Open jobs and their applicants per stage',
	hideCaption: true,
	rows: jobs,
	empty: 'No open jobs you can see.',
	columns: [
		{ label: 'Job', cell: (j) => html`<a href="/jobs/${j.id}">${j.label}</a>` },
		{ label: 'Applicants', numeric: true, cell: (j) => j.applicantCount },
		{
			// One line of stage counts (pipeline order, stages holding someone): short on a phone too.
			label: 'By stage',
			cell: (j) => {
				const counts = facts.get(j.id)?.applicationsByStage ?? {}
				const held = stages.filter((s) => counts[s.key])
				return held.length
					? html`<ul class="counts">${held.map((s) => html`<li><span>${s.label}</span> <strong>${counts[s.key]}</strong></li>`)}</ul>`
					: html`<span class="meta">nobody yet</span>`
			},
		},
	],
})}
${
	jobs.length
		? html`<h3 id="open-jobs-pipeline">Pipeline of ${jobs.length === 1 ? 'this job' : `these ${plural(jobs.length, 'job')}`}</h3>
${barChart({
	title: 'Applicants and leads per stage in these jobs',
	summary: `Applicants and leads per stage, added up over the ${plural(jobs.length, 'open job')} above.`,
	labelHeading: 'Stage',
	valueLabel: 'Applicants and leads',
	colour: 'green',
	data: stages.map((s) => ({ label: s.label, value: jobs.reduce((sum, j) => sum + (facts.get(j.id)?.applicationsByStage?.[s.key] ?? 0), 0) })),
	empty: 'Nobody has applied to these jobs yet.',
})}`
		: ''
}
<p><a href="/jobs?status=Open">${nextCursor ? 'All open jobs' : 'Jobs'}</a></p></section>`
	},
}
