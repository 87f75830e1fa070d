/**
 * The outbox page (owners and admins): everything the portal sent or is about to send, with
 * failures and their last error. Without `SMTP_URL` it is the dev mailbox: mail queued then is held
 * here until an operator releases it (held.ts), and an upload link in it can be revealed (reveal.ts).
 */
import { Elysia, t } from 'elysia'
import { seeOther } from '../../core/http/form.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { revealCookie } from '../../core/http/reveal-cookie.ts'
import { actionButton, copyButton, dataTable, when } from '../../core/ui.ts'
import { PRIVATE_MARKER } from './private.ts'
import { REVEAL_PERMISSION, revealPrivateLink, revealRefusal } from './reveal.ts'
import { messagingConfigured } from './settings.ts'
import { getOutboxRow, listOutbox, OUTBOX_STATUSES, outboxCounts, retryOutboxRow, retryRefused, type OutboxRow } from './service.ts'

const STATUSES = OUTBOX_STATUSES
const LABEL: Record<string, string> = {
	held: 'Held (dev mailbox)',
	pending: 'Waiting',
	sending: 'Sending',
	sent: 'Sent',
	bounced: 'Not delivered',
	failed: 'Failed',
	not_sent: 'Not sent',
}
/** What a delivery report said, in its own words (a remote server's, escaped): never ours. */
const reportSaid = (r: OutboxRow) =>
	r.bounceReason ? html`The delivery report says: <q>${breakable(r.bounceReason)}</q>` : 'The delivery report gave no reason.'
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const RELEASE_ALL = 'npm run cli -- outbox release --all'

/** A revealed link crosses the redirect after Reveal link sealed in a cookie for the outbox pages (shown once). */
interface RevealedLink {
	id: string
	link: string
}
const revealed = revealCookie<RevealedLink>(
	'bl_revealed_link',
	'/outbox',
	(v): v is RevealedLink => typeof (v as RevealedLink)?.id === 'string' && typeof (v as RevealedLink)?.link === 'string',
)

/** What will happen to the mail here: said at the top of the outbox page. */
function banner(deps: AppDeps, held: number): SafeHtml {
	const heldLine = held ? html` ${held === 1 ? 'One e-mail is' : `${held} e-mails are`} held here now.` : ''
	return html`${
		deps.config.smtpUrl
			? held
				? html`<div class="notice" role="status"><p><strong>Held in the dev mailbox:</strong> ${held === 1 ? 'one e-mail was' : `${held} e-mails were`} queued while SMTP_URL was not set. ${held === 1 ? 'It is' : 'They are'} not sent now that SMTP_URL is set, unless an operator releases ${held === 1 ? 'it' : 'them'}: <code>${RELEASE_ALL}</code> (or <code>--id</code> and the entry’s id for one).</p></div>`
				: ''
			: html`<div class="notice" role="status"><p><strong>Dev mailbox:</strong> SMTP_URL is not set, so e-mail is kept here and not sent.${heldLine} Setting SMTP_URL later does not send it either: an operator releases it with <code>${RELEASE_ALL}</code> (or <code>--id</code> and the entry’s id for one), and it goes out once SMTP_URL is set.</p></div>`
	}
${messagingConfigured(deps) ? '' : html`<p class="notice" role="status">No messaging provider is configured (MESSAGING_ACCOUNT, MESSAGING_TOKEN, MESSAGING_FROM): messages are recorded as not sent.</p>`}`
}

/** The private link part of an entry page: the marker explained, and Reveal link where it is allowed. */
function privateLinkPart(deps: AppDeps, session: PageSession, r: OutboxRow, shown: string | null): SafeHtml | '' {
	if (!r.carriesPrivate) return ''
	if (shown)
		return html`<div class="notice" role="status"><p><strong>The private link</strong> (shown to you once; the reveal is in the activity log):</p>
<p class="secret"><a id="revealed-link" href="${shown}">${shown}</a> ${copyButton('revealed-link')}</p></div>`
	const refusal = revealRefusal(r)
	const may = deps.permissions.can(session.actor, REVEAL_PERMISSION)
	return html`<p class="meta">The recipient’s private link is shown as ${PRIVATE_MARKER}: only the recipient gets it, filled in when it is sent, and it is not kept afterwards.${refusal && r.carriesPrivate && !r.privateRevealable ? ` ${refusal}` : ''}</p>
${
	!refusal && may
		? html`<p>While this e-mail is held in the dev mailbox you can see the link yourself, to try the page it opens. It stays sealed for everyone else; revealing it is written to the activity log.</p>
${actionButton({ session, action: `/outbox/${r.id}/reveal`, label: 'Reveal link', style: 'secondary', confirm: 'Show the candidate’s private link? Revealing it is written to the activity log.' })}`
		: ''
}`
}

function listPage(deps: AppDeps, session: PageSession, view: { rows: OutboxRow[]; counts: Record<string, number>; status?: string; older?: string }): Response {
	const statuses = STATUSES.filter((s) => s !== 'held' || view.counts.held || view.status === 'held')
	const filter = (s: string | undefined, label: string) =>
		view.status === s ? html`<strong>${label}</strong>` : html`<a href="/outbox${s ? `?status=${s}` : ''}">${label}</a>`
	return portalPage(
		deps,
		session,
		{ title: 'Outbox' },
		html`<section class="card"><h1>Outbox</h1>
${banner(deps, view.counts.held ?? 0)}
<p class="meta">${filter(undefined, 'All')} · ${statuses.map((s, i) => html`${i ? ' · ' : ''}${filter(s, `${LABEL[s]} (${view.counts[s] ?? 0})`)}`)}</p>
${
	view.rows.length === 0
		? html`<p>Nothing here.</p>`
		: dataTable({
				caption: 'Messages in the outbox',
				hideCaption: true,
				rows: view.rows,
				empty: '',
				columns: [
					{ label: 'Subject', cell: (r) => html`<a href="/outbox/${r.id}">${r.subject ?? r.text.slice(0, 60)}</a>` },
					// A long address wraps at its dots and @ on a phone rather than widen the card.
					{ label: 'To', cell: (r) => breakable(r.to) },
					{ label: 'Channel', cell: (r) => (r.channel === 'email' ? 'E-mail' : 'Message') },
					{ label: 'Created', cell: (r) => when(r.createdAt) },
					{ label: 'Status', cell: (r) => LABEL[r.shownStatus] ?? r.status },
					{ label: 'Attempts', numeric: true, cell: (r) => r.attempts },
					{ label: 'Last error', cell: (r) => (r.shownStatus === 'bounced' ? reportSaid(r) : (r.lastError ?? '')) },
				],
			})
}
${view.older ? html`<p><a href="/outbox?${view.status ? `status=${view.status}&` : ''}before=${view.older}">Older</a></p>` : ''}
</section>`,
	)
}

function entryPage(deps: AppDeps, session: PageSession, r: OutboxRow, o: { notice?: string; shown?: string | null; status?: number } = {}): Response {
	const { notice, shown = null } = o
	return portalPage(
		deps,
		session,
		{ title: r.subject ?? 'Message', status: o.status },
		html`<section class="card"><p class="crumbs"><a href="/outbox">Outbox</a></p>
<h1>${r.subject ?? 'Message'}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<dl class="facts"><div><dt>Channel</dt><dd>${r.channel === 'email' ? 'E-mail' : 'Message'}</dd></div><div><dt>To</dt><dd>${breakable(r.to)}</dd></div><div><dt>Status</dt><dd>${LABEL[r.shownStatus] ?? r.status}</dd></div><div><dt>Attempts</dt><dd>${r.attempts}</dd></div><div><dt>Created</dt><dd>${when(r.createdAt)}</dd></div><div><dt>Sent</dt><dd>${when(r.sentAt)}</dd></div>${r.status === 'pending' && r.attempts > 0 ? html`<div><dt>Next attempt</dt><dd>${when(r.nextAttemptAt)}</dd></div>` : ''}</dl>
${r.shownStatus === 'held' ? html`<p>This e-mail was queued while SMTP_URL was not set, so it is held in the dev mailbox: it will not be sent, not even once SMTP_URL is set, unless an operator releases it with <code>npm run cli -- outbox release --id ${r.id}</code>.</p>` : ''}
${r.lastError ? html`<p class="error">Last error: ${r.lastError}</p>` : ''}
${r.shownStatus === 'bounced' ? html`<p class="error">Not delivered: a delivery report came back on ${when(r.bouncedAt)}. ${reportSaid(r)}</p>` : ''}
${r.status === 'failed' || r.status === 'not_sent' ? (retryRefused(r) ? html`<p class="meta">${retryRefused(r)}</p>` : html`<form method="post" action="/outbox/${r.id}/retry" class="inline"><input type="hidden" name="csrf" value="${session.csrf}"><button type="submit">Try again</button></form>`) : ''}
${r.attachments.length ? html`<h2>Attachments</h2><ul>${r.attachments.map((a) => html`<li>${a.filename} <span class="meta">${a.contentType}</span></li>`)}</ul>` : ''}
<h2>Text</h2>
${privateLinkPart(deps, session, r, shown)}
<pre>${r.text}</pre></section>`,
	)
}

export function outboxRoutes(deps: AppDeps, { auth }: HttpKit) {
	return (
		new Elysia({ name: 'outbox.routes' })
			.use(auth)
			.get(
				'/outbox',
				async ({ actor, session, query }) => {
					const status = STATUSES.find((s) => s === query.status)
					const [page, counts] = await Promise.all([
						listOutbox(deps, actor.workspaceId, { limit: 50, cursor: query.before, status }),
						outboxCounts(deps.db, actor.workspaceId),
					])
					return listPage(deps, session, { rows: page.rows, counts, status, older: page.nextCursor ?? undefined })
				},
				{
					session: { permission: 'outbox:read' },
					query: t.Object({ before: t.Optional(t.String({ maxLength: 64 })), status: t.Optional(t.String({ maxLength: 20 })) }),
				},
			)
			.get(
				'/outbox/:id',
				async ({ actor, session, params, cookie, query }) => {
					const row = await getOutboxRow(deps.db, actor.workspaceId, params.id)
					const shown = await revealed.open(deps, cookie, session.sessionId)
					const notice = query.done === 'retried' ? 'Queued again: the worker will try to deliver it shortly.' : undefined
					return entryPage(deps, session, row, { shown: shown?.id === row.id ? shown.link : null, notice })
				},
				{ session: { permission: 'outbox:read' }, query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }) },
			)
			// The link crosses the redirect sealed in a cookie (Post/Redirect/Get: reloading never reveals it again).
			.post(
				'/outbox/:id/reveal',
				async ({ actor, session, params, cookie, redirect }) => {
					try {
						const link = await revealPrivateLink(deps, actor, params.id)
						await revealed.seal(deps, cookie, session.sessionId, { id: params.id, link })
						return redirect(`/outbox/${encodeURIComponent(params.id)}`, 303)
					} catch (error) {
						if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error
						return entryPage(deps, session, await getOutboxRow(deps.db, actor.workspaceId, params.id), { notice: error.message, status: 409 })
					}
				},
				{ session: { permission: REVEAL_PERMISSION }, body: form },
			)
			.post(
				'/outbox/:id/retry',
				async ({ actor, session, params }) => {
					try {
						await retryOutboxRow(deps, actor, params.id)
					} catch (error) {
						if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error
						return entryPage(deps, session, await getOutboxRow(deps.db, actor.workspaceId, params.id), { notice: error.message, status: 409 })
					}
					return seeOther(`/outbox/${encodeURIComponent(params.id)}`, 'retried')
				},
				{ session: { permission: 'outbox:retry' }, body: form },
			)
	)
}
