/**
 * The outbox page (owners and admins): everything the portal sent or is about to send, with
 * failures and their last error. Without `SMTP_URL` it is the dev mailbox: mail stays here.
 */
import { Elysia, t } from 'elysia'
import { decodePosition, encodePosition } from '../../core/cursor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { html, portalPage, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { dataTable } from '../../core/ui.ts'
import { PRIVATE_MARKER } from './private.ts'
import { getOutboxRow, listOutbox, outboxCounts, PRIVATE_ERASED, retryOutboxRow, type OutboxRow } from './service.ts'

const STATUSES = ['pending', 'sending', 'sent', 'failed', 'not_sent'] as const
const LABEL: Record<string, string> = { pending: 'Waiting', sending: 'Sending', sent: 'Sent', failed: 'Failed', not_sent: 'Not sent' }
const when = (d: Date | null) => (d ? html`<time datetime="${d.toISOString()}">${d.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>` : '—')
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

function banner(deps: AppDeps): SafeHtml {
	return html`${deps.config.smtpUrl ? '' : html`<p class="notice" role="status"><strong>Dev mailbox:</strong> SMTP_URL is not set, so e-mail is kept here and not sent.</p>`}
${deps.config.messaging ? '' : html`<p class="notice" role="status">No messaging provider is configured (MESSAGING_ACCOUNT, MESSAGING_TOKEN, MESSAGING_FROM): messages are recorded as not sent.</p>`}`
}

function listPage(deps: AppDeps, session: PageSession, view: { rows: OutboxRow[]; counts: Record<string, number>; status?: string; older?: string }): Response {
	const filter = (s: string | undefined, label: string) => (view.status === s ? html`<strong>${label}</strong>` : html`<a href="/outbox${s ? `?status=${s}` : ''}">${label}</a>`)
	return portalPage(
		deps,
		session,
		{ title: 'Outbox' },
		html`<section class="card"><h1>Outbox</h1>
${banner(deps)}
<p class="meta">${filter(undefined, 'All')} · ${STATUSES.map((s, i) => html`${i ? ' · ' : ''}${filter(s, `${LABEL[s]} (${view.counts[s] ?? 0})`)}`)}</p>
${view.rows.length === 0
	? html`<p>Nothing here.</p>`
	: dataTable({
			caption: 'Messages in the outbox',
			hideCaption: true,
			rows: view.rows,
			empty: '',
			columns: [
				{ label: 'Subject', cell: (r) => html`<a href="/outbox/${r.id}">${r.subject ?? r.text.slice(0, 60)}</a>` },
				{ label: 'To', cell: (r) => r.to },
				{ label: 'Channel', cell: (r) => (r.channel === 'email' ? 'E-mail' : 'Message') },
				{ label: 'Created', cell: (r) => when(r.createdAt) },
				{ label: 'Status', cell: (r) => LABEL[r.status] ?? r.status },
				{ label: 'Attempts', numeric: true, cell: (r) => r.attempts },
				{ label: 'Last error', cell: (r) => r.lastError ?? '' },
			],
		})}
${view.older ? html`<p><a href="/outbox?${view.status ? `status=${view.status}&` : ''}before=${view.older}">Older</a></p>` : ''}
</section>`,
	)
}

function entryPage(deps: AppDeps, session: PageSession, r: OutboxRow, notice?: string): Response {
	return portalPage(
		deps,
		session,
		{ title: r.subject ?? 'Message' },
		html`<section class="card"><p class="crumbs"><a href="/outbox">Outbox</a></p>
<h1>${r.subject ?? 'Message'}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<dl class="facts"><div><dt>Channel</dt><dd>${r.channel === 'email' ? 'E-mail' : 'Message'}</dd></div><div><dt>To</dt><dd>${r.to}</dd></div><div><dt>Status</dt><dd>${LABEL[r.status] ?? r.status}</dd></div><div><dt>Attempts</dt><dd>${r.attempts}</dd></div><div><dt>Created</dt><dd>${when(r.createdAt)}</dd></div><div><dt>Sent</dt><dd>${when(r.sentAt)}</dd></div>${r.status === 'pending' && r.attempts > 0 ? html`<div><dt>Next attempt</dt><dd>${when(r.nextAttemptAt)}</dd></div>` : ''}</dl>
${r.lastError ? html`<p class="error">Last error: ${r.lastError}</p>` : ''}
${r.status === 'failed' || r.status === 'not_sent' ? (r.privateErased ? html`<p class="meta">${PRIVATE_ERASED}</p>` : html`<form method="post" action="/outbox/${r.id}/retry" class="inline"><input type="hidden" name="csrf" value="${session.csrf}"><button type="submit">Try again</button></form>`) : ''}
${r.attachments.length ? html`<h2>Attachments</h2><ul>${r.attachments.map((a) => html`<li>${a.filename} <span class="meta">${a.contentType}</span></li>`)}</ul>` : ''}
<h2>Text</h2>
${r.carriesPrivate ? html`<p class="meta">The recipient’s private link is shown as ${PRIVATE_MARKER}: only the recipient gets it, filled in when it is sent, and it is not kept afterwards.</p>` : ''}
<pre>${r.text}</pre></section>`,
	)
}

export function outboxRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'outbox.routes' })
		.use(auth)
		.get(
			'/outbox',
			async ({ actor, session, query }) => {
				const status = STATUSES.find((s) => s === query.status)
				const scope = `outbox:${actor!.workspaceId}:${status ?? ''}`
				const before = query.before ? decodePosition(deps.secret, scope, query.before) : undefined
				const [rows, counts] = await Promise.all([listOutbox(deps.db, actor!.workspaceId, { limit: 51, before, status }), outboxCounts(deps.db, actor!.workspaceId)])
				const shown = rows.slice(0, 50)
				const last = shown[shown.length - 1]
				const older = rows.length > 50 && last ? encodePosition(deps.secret, scope, { at: last.createdAt, id: last.id }) : undefined
				return listPage(deps, session!, { rows: shown, counts, status, older })
			},
			{ auth: { permission: 'outbox:read' }, query: t.Object({ before: t.Optional(t.String({ maxLength: 64 })), status: t.Optional(t.String({ maxLength: 20 })) }) },
		)
		.get('/outbox/:id', async ({ actor, session, params }) => entryPage(deps, session!, await getOutboxRow(deps.db, actor!.workspaceId, params.id)), { auth: { permission: 'outbox:read' } })
		.post(
			'/outbox/:id/retry',
			async ({ actor, session, params }) => {
				try {
					await retryOutboxRow(deps, actor!, params.id)
				} catch (error) {
					if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error
					return entryPage(deps, session!, await getOutboxRow(deps.db, actor!.workspaceId, params.id), error.message)
				}
				return entryPage(deps, session!, await getOutboxRow(deps.db, actor!.workspaceId, params.id), 'Queued again: the worker will try to deliver it shortly.')
			},
			{ auth: { permission: 'outbox:retry' }, body: form },
		)
}
