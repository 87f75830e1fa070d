/** Inbox pages: the conversation list and one conversation (star, reply). */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { plural, tag, when } from '../../core/ui.ts'
import { textOf } from '../../core/untrusted.ts'
import { snippetAuthor, type getThread, type ThreadSummary } from './service.ts'

const lastWords = (t: ThreadSummary) =>
	t.snippet.text ? html` · ${snippetAuthor(t.snippet.writtenBy, t.counterpart.type, t.counterpart.name.text)}: ${t.snippet.text}` : ''

export function inboxPage(deps: AppDeps, session: PageSession, view: { threads: ThreadSummary[]; filter: string; more: string | null }): Response {
	return portalPage(
		deps,
		session,
		{ title: 'Inbox' },
		html`<section class="card"><div class="title-row"><h1>Inbox</h1><div class="actions"><a class="button" href="/inbox/new">New message</a></div></div>
<p class="meta">${['all', 'unread', 'starred'].map((f) => (f === view.filter ? html`<strong>${f}</strong> ` : html`<a href="/inbox?filter=${f}">${f}</a> `))}</p>
${view.threads.length === 0 ? html`<p>No conversations.</p>` : ''}
${
	view.threads.length
		? html`<form method="post" action="/inbox/bulk" data-bulk><input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="back" value="/inbox?filter=${view.filter}">
<p hidden data-needs-script><label class="check"><input type="checkbox" data-select-all="thread"> Select all on this page</label></p>
<ul class="jobs">${view.threads.map(
				(
					t,
				) => html`<li class="picked"><span class="pick"><input type="checkbox" name="thread" value="${t.id}" id="pick-${t.id}"><label for="pick-${t.id}" class="visually-hidden">Select ${t.counterpart.name.text}: ${t.subject.text}</label></span>
<span><a href="/inbox/${t.id}">${t.unread ? html`<strong>${t.counterpart.name.text}: ${t.subject.text}</strong>` : html`${t.counterpart.name.text}: ${t.subject.text}`}</a>
<span class="meta">${t.starred ? '★ ' : ''}${plural(t.messageCount, 'message')} · ${when(t.lastMessageAt)}${lastWords(t)}</span></span></li>`,
			)}</ul>
<fieldset class="bulk-actions"><legend>With the selected conversations</legend><div class="bulk-row"><button type="submit">Mark as read</button></div></fieldset></form>`
		: ''
}
${view.more ? html`<p><a href="/inbox?filter=${view.filter}&amp;cursor=${view.more}">Older</a></p>` : ''}</section>`,
	)
}

type ThreadMessage = Awaited<ReturnType<typeof getThread>>['messages'][number]

const SENDER = { verified: tag('Sender verified', 'good'), not_verified: tag('Sender not verified', 'warn'), not_checked: tag('Sender not checked') }

/** What a message is, beyond its words: whether its sender was verified, whether a person wrote it, whether it arrived. */
function labels(m: ThreadMessage) {
	const tags = [
		m.senderCheck ? SENDER[m.senderCheck] : '',
		m.automatic === 'automatic' ? tag('Automatic reply') : m.automatic === 'delivery_report' ? tag('Delivery report', 'warn') : '',
		m.delivery === 'bounced' ? tag('Not delivered: a delivery report came back', 'bad') : '',
	].filter(Boolean)
	// Why a sender is not verified, in our words, and what it means for the conversation.
	const why =
		m.senderCheck === 'not_verified'
			? html` <span class="meta">${m.senderCheckReason}. ${
					m.automatic === 'delivery_report'
						? 'So it is not believed: no message it reports on is marked as not delivered.'
						: 'Not counted as a reply from the person this address belongs to.'
				}</span>`
			: ''
	return tags.length ? html`<p>${tags.map((t, i) => html`${i ? ' ' : ''}${t}`)}${why}</p>` : ''
}

export function threadPage(
	deps: AppDeps,
	session: PageSession,
	thread: Awaited<ReturnType<typeof getThread>>,
	message?: { error?: string; notice?: string; typed?: string },
): Response {
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	return portalPage(
		deps,
		session,
		{ title: thread.subject.text, status: message?.error ? 422 : 200 },
		html`<section class="card"><p class="crumbs"><a href="/inbox">Inbox</a></p>
<h1>${thread.subject.text}</h1>
<p class="meta">With ${thread.counterpart.name.text} (${thread.counterpart.address.text}, ${thread.counterpart.type})</p>
<form method="post" action="/inbox/${thread.id}/${thread.starred ? 'unstar' : 'star'}" class="inline">${csrf}<button type="submit" class="secondary">${thread.starred ? '★ Unstar' : '☆ Star'}</button></form>
${message?.notice ? html`<p class="notice" role="status">${message.notice}</p>` : ''}
${message?.error ? html`<p class="error" role="alert">${message.error}</p>` : ''}
${thread.olderMessagesOmitted ? html`<p class="meta">${plural(thread.olderMessagesOmitted, 'older message')} ${thread.olderMessagesOmitted === 1 ? 'is' : 'are'} not shown.</p>` : ''}
${thread.messages.map(
	(
		m,
	) => html`<article class="card"><p class="meta">${m.direction === 'in' ? html`From ${textOf(m.from)}` : html`To ${textOf(m.to)}${m.delivery && m.delivery !== 'bounced' ? ` · ${m.delivery}` : ''}`} · ${m.channel} · ${when(m.at)}</p>
${labels(m)}${m.subject ? html`<p><strong>${m.subject.text}</strong></p>` : ''}<pre>${m.text.text}</pre></article>`,
)}
${
	thread.counterpart.address.text.includes('@')
		? html`<h2>Reply</h2><form method="post" action="/inbox/${thread.id}/reply" class="stack">${csrf}
<label for="reply-text">Message <textarea id="reply-text" name="text" required maxlength="20000" rows="6">${message?.typed ?? ''}</textarea></label>
<button type="submit">Send</button></form>`
		: ''
}
</section>`,
	)
}
