/** The portal home's first section: what needs the person's attention (the review queue), oldest first. */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { daysSince, plural } from '../../core/ui.ts'
import { reviewQueue } from './service.ts'

const SHOWN = 8

/** Where an entry is dealt with: the conversation for a reply, else the application or the candidate. */
const target = (i: { type: string; recordId: string; applicationId: string | null; candidate: { id: string } }) =>
	i.type === 'reply_waiting' ? `/inbox/${i.recordId}` : i.applicationId ? `/applications/${i.applicationId}` : `/candidates/${i.candidate.id}`

export const reviewHomeSection: PageSection = {
	page: 'home',
	order: 10,
	permission: 'review:read',
	async render(deps, session) {
		const queue = await reviewQueue(deps, session.actor, { limit: SHOWN })
		const items = queue.items
		return html`<section class="card wide" aria-labelledby="attention"><h2 id="attention">Needs your attention</h2>
${
	items.length === 0
		? html`<p class="empty">Nothing is waiting for you: new applications, finished interviews, replies and documents received show up here.</p>`
		: html`<ul class="queue">${items.map(
				(i) => html`<li><a href="${target(i)}">${i.candidate.name}</a>${i.job ? html` · ${i.job.title}` : ''}
<br><span>${i.reason}</span> <span class="meta">waiting ${daysSince(i.since, deps.now())}</span></li>`,
			)}</ul>${queue.nextCursor ? html`<p class="meta">Showing the oldest ${plural(SHOWN, 'item')}; more are waiting.</p>` : ''}`
}
</section>`
	},
}
