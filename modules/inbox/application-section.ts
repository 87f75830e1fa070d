/**
 * The messages on the application page (`pageSections`, page `application`): the latest messages
 * exchanged with the application's candidate, oldest first, as `get_application` gives them
 * (`messagesOfApplications`), each linking to its conversation. Only for people who read the inbox.
 */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { tag, when } from '../../core/ui.ts'
import { messagesOfApplications } from './contributions.ts'

interface MessageView {
	id: string
	threadId: string
	direction: 'in' | 'out'
	channel: string
	subject: string | null
	text: { text: string }
	at: string
	aboutThisApplication: boolean
}

const CHANNELS: Record<string, string> = { email: 'e-mail', message: 'messaging app' }

export const applicationMessagesSection: PageSection = {
	page: 'application',
	order: 30,
	permission: 'inbox:read',
	async render(deps, session, applicationId) {
		const found = await messagesOfApplications(deps, session.actor, [applicationId])
		const messages = (found.get(applicationId)?.messages ?? []) as MessageView[]
		const body = messages.length
			? html`<ol class="entries">${messages.map(
					(
						m,
					) => html`<li><p class="meta">${m.direction === 'in' ? 'From the candidate' : 'To the candidate'} by ${CHANNELS[m.channel] ?? m.channel} · ${when(m.at)}${m.aboutThisApplication ? html` · ${tag('About this application', 'info')}` : ''}</p>
${m.subject ? html`<p><strong>${m.subject}</strong></p>` : ''}<p class="lines">${m.text}</p>
<p><a href="/inbox/${m.threadId}">Open the conversation<span class="visually-hidden">: ${m.subject ?? 'message'} of ${when(m.at)}</span></a></p></li>`,
				)}</ol>`
			: html`<p class="empty">No messages with this candidate yet.</p>`
		return html`<section class="card" id="messages" aria-labelledby="messages-h"><div class="title-row"><h2 id="messages-h">Messages</h2><a class="button secondary" href="/inbox/new?application=${encodeURIComponent(applicationId)}">New message</a></div>
<p class="meta">The latest messages with the candidate, about any of their applications, oldest first.</p>${body}</section>`
	},
}
