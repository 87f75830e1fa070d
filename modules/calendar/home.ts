/** The portal home's calendar: the person's entries today and tomorrow (UTC days). */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { when } from '../../core/ui.ts'
import { getCalendar } from './service.ts'
import { entryLine } from './pages.ts'

const DAY = 86_400_000

export const calendarHomeSection: PageSection = {
	page: 'home',
	order: 30,
	permission: 'calendar:read',
	async render(deps, session) {
		const today = new Date(Math.floor(deps.now().getTime() / DAY) * DAY)
		const { events, nextCursor } = await getCalendar(deps, session.actor, {
			from: today.toISOString(),
			to: new Date(today.getTime() + 2 * DAY - 1).toISOString(),
			limit: 20,
		})
		return html`<section class="card" aria-labelledby="today"><h2 id="today">Today and tomorrow</h2>
${events.length === 0 ? html`<p class="empty">Nothing on your calendar for ${when(today, { time: false })} or the day after.</p>` : html`<ul class="queue">${events.map((e) => html`<li>${entryLine(e)}</li>`)}</ul>`}
<p><a href="/calendar">${nextCursor ? 'More on your calendar' : 'Your calendar'}</a></p></section>`
	},
}
