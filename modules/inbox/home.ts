/** The portal home's unread conversations. */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { when } from '../../core/ui.ts'
import { listThreads } from './service.ts'

export const inboxHomeSection: PageSection = {
	page: 'home',
	order: 40,
	permission: 'inbox:read',
	async render(deps, session) {
		const { threads, nextCursor } = await listThreads(deps, session.actor, { filter: 'unread', limit: 5 })
		return html`<section class="card" aria-labelledby="unread"><h2 id="unread">Unread messages</h2>
${
	threads.length === 0
		? html`<p class="empty">No unread conversations.</p>`
		: html`<ul class="queue">${threads.map((t) => html`<li><a href="/inbox/${t.id}">${t.counterpart.name}: ${t.subject}</a><br><span class="meta">${when(t.lastMessageAt)}</span></li>`)}</ul>`
}
<p><a href="/inbox?filter=unread">${nextCursor ? 'All unread conversations' : 'Open the inbox'}</a></p></section>`
	},
}
