/**
 * The pages of privacy requests: the workspace's public page where a person asks for their data or
 * its erasure (`/careers/<slug>/privacy`), the page its confirmation link opens, and the owners'
 * list (`/privacy-requests`) with each request's deadline and the answers.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { FieldError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { ownEntry } from '../../core/own-entry.ts'
import { breakable, html, page, portalPage, type SafeHtml } from '../../core/html.ts'
import { actionButton, csrfField, dataTable, errorSummary, facts, notice, pageHeader, plural, tag, textArea, textField, when } from '../../core/ui.ts'
import type { Workspace } from '../auth/index.ts'
import { MAX_REASON } from './request-actions.ts'
import { CONFIRM_HOURS, DUE_DAYS, MAX_NOTE, type PrivacyRequestRow, privacyPagePath, REQUEST_KINDS, type RequestKind } from './requests.ts'

export interface RequestFormState {
	csrf: string
	values?: { email?: string; kind?: string; note?: string }
	errors?: readonly FieldError[]
	/** `sent`: the request was taken; `confirmed`: its link was confirmed. */
	done?: string
	status?: number
	retryAfter?: number
}

const DONE: Record<string, string> = {
	sent: `Thank you. If the address is right, an e-mail is on its way to it with a link to confirm your request (it works for ${CONFIRM_HOURS} hours). Nothing happens until you confirm.`,
	confirmed: `Your request is confirmed. We answer it by e-mail within ${DUE_DAYS} days.`,
}

/** The public page: e-mail, what is asked, a note. */
export function requestFormPage(ws: Workspace, s: RequestFormState): Response {
	const v = s.values ?? {}
	const errors = s.errors ?? []
	const kindError = errors.find((e) => e.field === 'kind')?.message
	const res = page(
		{ title: `Your data at ${ws.name}`, hasErrors: errors.length > 0, status: s.status ?? (errors.length ? 422 : 200) },
		html`${errorSummary(errors)}${notice((s.done && ownEntry(DONE, s.done)) || null)}
<section class="card stack" aria-labelledby="privacy-h"><h1 id="privacy-h">Your data at ${ws.name}</h1>
<p>If you applied to ${ws.name} or were put forward for one of its jobs, you can ask for a copy of the personal data it holds about you, or for its erasure. Enter the e-mail address you used: we send a link to it to confirm that the request is yours, and answer within ${DUE_DAYS} days of your confirmation.</p>
<form method="post" action="${privacyPagePath(ws.slug)}" class="stack" novalidate><input type="hidden" name="csrf" value="${s.csrf}">
${textField({ id: 'email', label: 'E-mail', type: 'email', autocomplete: 'email', maxlength: 254, value: v.email, errors })}
<fieldset class="choice" id="kind"${kindError ? html` aria-describedby="kind-error"` : ''}><legend>What are you asking for?</legend>
${kindError ? html`<span class="field-error" id="kind-error">${kindError}</span>` : ''}
${(Object.entries(REQUEST_KINDS) as [RequestKind, string][]).map(
	([value, label]) =>
		html`<label for="kind-${value}"><input type="radio" id="kind-${value}" name="kind" value="${value}"${v.kind === value ? html` checked` : ''}> ${label}</label>`,
)}</fieldset>
${textArea({ id: 'note', label: 'Note (optional)', hint: 'Anything that helps us find your records, such as another address you used.', maxlength: MAX_NOTE, rows: 3, value: v.note, errors })}
<div class="actions"><button type="submit">Send request</button></div></form>
<p><a href="/careers/${ws.slug}">Open jobs at ${ws.name}</a></p></section>`,
	)
	if (s.retryAfter) res.headers.set('Retry-After', String(s.retryAfter))
	return res
}

/** What the confirmation link opens: what was asked, and the button that confirms it (opening a link only asks). */
export function confirmPage(ws: Workspace, v: { csrf: string; action: string; kind: RequestKind; email: string }): Response {
	return page(
		{ title: 'Confirm your request' },
		html`<section class="card stack" aria-labelledby="confirm-h"><h1 id="confirm-h">Confirm your request</h1>
<p>You ask ${ws.name} to <strong>${v.kind === 'access' ? 'send you a copy of your data' : 'erase your data'}</strong> (${breakable(v.email)}).${v.kind === 'erasure' ? ' Erasure cannot be undone.' : ''} Once you confirm, we answer by e-mail within ${DUE_DAYS} days.</p>
<form method="post" action="${v.action}"><input type="hidden" name="csrf" value="${v.csrf}"><div class="actions"><button type="submit">Confirm request</button></div></form></section>`,
	)
}

/** The deadline in words, highlighted when close or past. */
export function deadline(r: Pick<PrivacyRequestRow, 'dueAt' | 'daysLeft' | 'status'>): SafeHtml {
	if (r.status !== 'open') return html`${when(r.dueAt, { time: false })}`
	const left =
		r.daysLeft < 0 ? tag(`Overdue by ${plural(-r.daysLeft, 'day')}`, 'bad') : tag(`${plural(r.daysLeft, 'day')} left`, r.daysLeft <= 7 ? 'warn' : 'neutral')
	return html`${when(r.dueAt, { time: false })} ${left}`
}

const STATUS: Record<PrivacyRequestRow['status'], [string, 'info' | 'good' | 'neutral']> = {
	open: ['Open', 'info'],
	completed: ['Done', 'good'],
	declined: ['Declined', 'neutral'],
}

const matchesCell = (r: PrivacyRequestRow) =>
	r.matches.length
		? html`${r.matches.map((m, i) => html`${i ? ', ' : ''}<a href="/candidates/${encodeURIComponent(m.id)}">${m.name}</a>`)}`
		: 'None in this workspace'

/** What the address alone holds (no candidate behind it), e.g. "2 job alerts". */
const heldCell = (r: PrivacyRequestRow) => r.held.map((h) => plural(h.count, h.noun)).join(', ') || null

function openCard(session: PageSession, r: PrivacyRequestRow, errors: readonly FieldError[]): SafeHtml {
	const id = encodeURIComponent(r.id)
	const act =
		r.kind === 'access'
			? actionButton({ session, action: `/privacy-requests/${id}/send`, label: 'Send data' })
			: actionButton({
					session,
					action: `/privacy-requests/${id}/erase`,
					label: 'Erase',
					style: 'danger',
					confirm: `Erase every candidate with the address ${r.email}, and everything else kept under it? This cannot be undone.`,
				})
	return html`<section class="card" aria-labelledby="req-${r.id}"><h2 id="req-${r.id}" class="break" tabindex="-1">${REQUEST_KINDS[r.kind]}: ${breakable(r.email)}</h2>
${facts(
	[
		['Request', r.kind === 'access' ? 'Access (a copy of their data)' : 'Erasure'],
		['Matched candidates', matchesCell(r)],
		['Also under this address', heldCell(r)],
		['Received', when(r.confirmedAt)],
		['Deadline', deadline(r)],
		['Note', r.note],
	],
	{ skipEmpty: true },
)}
${
	r.matches.length || r.held.length
		? html`<div class="actions">${act}</div>`
		: html`<p class="hint">Nothing is kept under this address (no candidate, no job alert): decline the request with the reason.</p>`
}
<form method="post" action="/privacy-requests/${id}/decline" class="stack decline">${csrfField(session)}
${textArea({ id: `reason-${r.id}`, name: 'reason', label: 'Reason to decline (sent to the person)', maxlength: MAX_REASON, rows: 2, errors })}
<div class="actions"><button type="submit" class="secondary">Decline</button></div></form></section>`
}

export function requestsPage(
	deps: AppDeps,
	session: PageSession,
	v: { rows: PrivacyRequestRow[]; errors?: readonly FieldError[]; done?: string; status?: number },
): Response {
	const errors = v.errors ?? []
	const open = v.rows.filter((r) => r.status === 'open')
	const answered = v.rows.filter((r) => r.status !== 'open')
	const done: Record<string, string> = { sent: 'The data was sent.', erased: 'The data was erased.', declined: 'The request was declined.' }
	return portalPage(
		deps,
		session,
		{ title: 'Privacy requests', current: '/privacy-requests', hasErrors: errors.length > 0, status: v.status ?? (errors.length ? 422 : 200) },
		html`${errorSummary(errors)}${notice(v.done ? done[v.done] : null)}
${pageHeader({
	title: 'Privacy requests',
	meta: html`People ask for their data or its erasure on the <a href="${privacyPagePath(session.actor.workspaceSlug)}">public privacy page</a>; confirmed requests are answered within ${DUE_DAYS} days (CCPA/CPRA).`,
})}
<h2>Open</h2>
${open.length ? open.map((r) => openCard(session, r, errors)) : html`<p class="empty">No request waits for an answer.</p>`}
<section class="card" aria-labelledby="answered-h"><h2 id="answered-h">Answered</h2>
${dataTable({
	caption: 'Answered requests',
	hideCaption: true,
	columns: [
		{ label: 'Request', cell: (r: PrivacyRequestRow) => REQUEST_KINDS[r.kind] },
		{ label: 'E-mail', cell: (r) => breakable(r.email) },
		{ label: 'Received', cell: (r) => when(r.confirmedAt, { time: false }) },
		{ label: 'Deadline', cell: (r) => when(r.dueAt, { time: false }) },
		{ label: 'Status', cell: (r) => tag(STATUS[r.status][0], STATUS[r.status][1]) },
		{
			label: 'Answer',
			cell: (r) => html`${when(r.resolvedAt, { time: false })} by ${r.resolvedBy ?? '—'}${r.declineReason ? html`: ${r.declineReason}` : ''}`,
		},
	],
	rows: answered,
	empty: 'No request was answered yet.',
})}</section>`,
	)
}
