/** The portal home's overdue to-dos (the person's own). */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { when } from '../../core/ui.ts'
import { listTodos } from './service.ts'

export const todosHomeSection: PageSection = {
	page: 'home',
	order: 50,
	permission: 'todos:read',
	async render(deps, session) {
		// Open to-dos come first, soonest due first: the overdue ones lead the first page.
		const { todos } = await listTodos(deps, session.actor, { limit: 25 })
		const overdue = todos.filter((t) => t.overdue && !t.done)
		return html`<section class="card" aria-labelledby="overdue"><h2 id="overdue">Overdue to-dos</h2>
${
	overdue.length === 0
		? html`<p class="empty">Nothing overdue.</p>`
		: html`<ul class="queue">${overdue.slice(0, 8).map((t) => html`<li>${t.title}${t.candidate ? html` · <a href="/candidates/${t.candidate.id}">${t.candidate.name}</a>` : ''}<br><span class="meta">due ${when(t.dueAt)}</span></li>`)}</ul>`
}
<p><a href="/todos">All your to-dos</a></p></section>`
	},
}
