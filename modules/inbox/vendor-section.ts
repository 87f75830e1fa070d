/**
 * Messages on a vendor's page (people who read the inbox): the conversation with the vendor, if
 * there is one, and New message.
 */
import { and, eq } from 'drizzle-orm'
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { plural, when } from '../../core/ui.ts'
import { inboxThreads } from './table.ts'

export const vendorMessagesSection: PageSection = {
	page: 'vendor',
	order: 5,
	permission: 'inbox:read',
	async render(deps, session, vendorId) {
		const [thread] = await deps.db
			.select({ id: inboxThreads.id, count: inboxThreads.messageCount, last: inboxThreads.lastMessageAt })
			.from(inboxThreads)
			.where(and(eq(inboxThreads.workspaceId, session.actor.workspaceId), eq(inboxThreads.vendorId, vendorId)))
		return html`<section class="card" id="messages" aria-labelledby="messages-h"><div class="title-row"><h2 id="messages-h">Messages</h2><a class="button secondary" href="/inbox/new?vendor=${encodeURIComponent(vendorId)}">New message</a></div>
${thread ? html`<p><a href="/inbox/${thread.id}">The conversation with this vendor</a> <span class="meta">${plural(thread.count, 'message')}, the latest ${when(thread.last)}</span></p>` : html`<p class="empty">No messages with this vendor yet.</p>`}</section>`
	},
}
