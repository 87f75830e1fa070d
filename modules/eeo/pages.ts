/** The EEO report page (/eeo): owners only; one question at a time, counts per job and stage. */
import type { AppDeps } from '../../core/deps.ts'
import { html, portalPage } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { dataTable, pageHeader, selectField } from '../../core/ui.ts'
import { EEO_QUESTIONS } from './questions.ts'
import { type EeoReport, type EeoReportRow, HIDDEN_LABEL, SMALLEST_SHOWN, type ShownCount } from './report.ts'

const count = (n: ShownCount) => (n === null ? html`<span class="meta">${HIDDEN_LABEL}</span>` : n.toLocaleString('en-US'))

export function eeoPage(deps: AppDeps, session: PageSession, report: EeoReport): Response {
	const q = report.question
	return portalPage(
		deps,
		session,
		{ title: `EEO report: ${q.label}`, current: '/eeo' },
		html`${pageHeader({
			title: 'EEO report',
			meta: `Applicants’ voluntary self-identification, counted per job and stage. A line with a count under ${SMALLEST_SHOWN} is hidden whole, every count and its total, so no answer of a few applicants can be told from which cells are hidden.`,
			actions: html`<a class="button secondary" href="/eeo/report.csv?question=${q.key}">Download CSV</a>`,
		})}
<form method="get" action="/eeo" class="filters card">
${selectField({ id: 'question', label: 'Question', value: q.key, options: EEO_QUESTIONS.map((x) => [x.key, x.label] as const) })}
<button type="submit">Show</button></form>
<section class="card" aria-labelledby="eeo-h"><h2 id="eeo-h">${q.label}</h2>
${dataTable<EeoReportRow>({
	caption: `${q.label}: applicants per job and stage`,
	hideCaption: true,
	rows: report.rows,
	empty: 'No applicant has answered yet: the questions are on every job’s apply form.',
	columns: [
		{ label: 'Job and stage', cell: (r) => html`<strong>${r.jobTitle}</strong><br><span class="meta">${r.stage}</span>` },
		...q.options.map(([, label], i) => ({ label, numeric: true, cell: (r: EeoReportRow) => count(r.counts[i] as ShownCount) })),
		{ label: 'Total', numeric: true, cell: (r) => count(r.total) },
	],
})}</section>`,
	)
}
