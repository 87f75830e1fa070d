/** The audit trail page (/audit): filters, the lines newest first, and the downloads. */
import type { FieldError } from '../../core/errors.ts'
import { html, portalPage } from '../../core/html.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { dataTable, errorSummary, pageHeader, pager, selectField, tag, textField, when, type Tone } from '../../core/ui.ts'
import { type AuditQuery, filterQuery } from './filters.ts'
import type { AuditRow } from './queries.ts'

const KINDS: Record<string, string> = { tool_call: 'Tool call', view: 'Page view', search: 'Search', data: 'Personal data' }
const OUTCOMES: Record<string, [string, Tone]> = { ok: ['OK', 'good'], refused: ['Refused', 'warn'], error: ['Error', 'bad'] }
const THROUGH: Record<string, string> = { session: 'in the portal', personal_token: 'personal token', oauth_app: 'app', cli: 'operator CLI' }
const IDS_SHOWN = 3

export interface AuditView {
	query: AuditQuery
	rows: AuditRow[]
	next: string | null
	paged: boolean
	choices: { people: { id: string; name: string }[]; apps: string[]; actions: string[] }
	errors: FieldError[]
}

const through = (r: AuditRow) =>
	r.credentialKind === 'oauth_app' || r.credentialKind === 'personal_token'
		? `${THROUGH[r.credentialKind]} “${r.credentialName}”`
		: (THROUGH[r.credentialKind] ?? r.credentialKind)

function records(r: AuditRow) {
	const ids = r.recordIds
	const shown = ids.slice(0, IDS_SHOWN)
	return html`${shown.map((id, i) => html`${i ? ', ' : ''}<code>${id}</code>`)}${ids.length > IDS_SHOWN ? html` <span class="meta">and ${ids.length - IDS_SHOWN} more</span>` : ''}${
		r.criteria ? html`<br><span class="meta">Searched for ${JSON.stringify(r.criteria)}${r.jobId ? html` for job <code>${r.jobId}</code>` : ''}</span>` : ''
	}`
}

export function auditPage(deps: AppDeps, session: PageSession, view: AuditView): Response {
	const q = view.query
	const query = filterQuery(q)
	const base = `/audit${query ? `?${query}` : ''}`
	const download = (format: string) => `/audit/export.${format}${query ? `?${query}` : ''}`
	return portalPage(
		deps,
		session,
		{ title: 'Audit trail', current: '/audit', hasErrors: view.errors.length > 0, status: view.errors.length ? 422 : 200 },
		html`${pageHeader({
			title: 'Audit trail',
			meta: 'Every tool call, every view of a candidate, application or document, and every search of the candidate database, newest first.',
			actions: html`<a class="button secondary" href="${download('csv')}">Download CSV</a> <a class="button secondary" href="${download('ndjson')}">Download NDJSON</a>`,
		})}
${errorSummary(view.errors)}
<form method="get" action="/audit" class="filters card" role="search" aria-label="Filter the audit trail">
${selectField({ id: 'person', label: 'Person', value: q.person ?? '', options: [['', 'Everyone'], ...view.choices.people.map((p) => [p.id, p.name] as const)], errors: view.errors })}
${selectField({ id: 'app', label: 'App or token', value: q.app ?? '', options: [['', 'Any'], ...view.choices.apps.map((a) => [a, a] as const)] })}
${selectField({ id: 'action', label: 'Tool or event', value: q.action ?? '', options: [['', 'Any'], ...view.choices.actions.map((a) => [a, a] as const)] })}
${textField({ id: 'record', label: 'Record id', value: q.record ?? '', maxlength: 64 })}
${textField({ id: 'from', label: 'From', type: 'date', value: q.from ?? '', errors: view.errors })}
${textField({ id: 'until', label: 'Until', type: 'date', value: q.until ?? '', errors: view.errors })}
<button type="submit">Show</button></form>
<section class="card" aria-labelledby="trail-h"><h2 id="trail-h" class="visually-hidden">Audit trail</h2>
${dataTable<AuditRow>({
	caption: 'Audit trail, newest first',
	hideCaption: true,
	rows: view.rows,
	empty: view.paged ? 'No more lines.' : query ? 'Nothing in the trail matches these filters.' : 'Nothing has been recorded yet.',
	columns: [
		{ label: 'When', cell: (r) => when(r.at) },
		{ label: 'Who', cell: (r) => html`<strong>${r.actorName}</strong><br><span class="meta">${through(r)}</span>` },
		{
			label: 'What',
			cell: (r) => {
				const [label, tone] = OUTCOMES[r.outcome] ?? [r.outcome, 'neutral']
				return html`<code>${r.action}</code> ${tag(label, tone)}<br><span class="meta">${KINDS[r.kind] ?? r.kind}</span>`
			},
		},
		{ label: 'Records', cell: (r) => (r.recordIds.length || r.criteria ? records(r) : html`<span class="meta">None</span>`) },
		{ label: 'Address', cell: (r) => html`<span class="meta">${r.address}</span>` },
	],
})}
${pager({ base, next: view.next, first: !view.paged })}</section>`,
	)
}
