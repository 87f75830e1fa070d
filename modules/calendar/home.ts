/** The portal home's calendar: the person's entries today and tomorrow, days of their own time zone, what is over marked past. */
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { dayKey, nextDay, startOfDay } from '../../core/time.ts'
import { getCalendar } from './service.ts'
import { daySection } from './pages.ts'

export const calendarHomeSection: PageSection = {
	page: 'home',
	order: 30,
	permission: 'calendar:read',
	async render(deps, session) {
		const now = deps.now()
		const today = dayKey(now, session.timeZone)
		const tomorrow = nextDay(today)
		const { events, nextCursor } = await getCalendar(deps, session.actor, {
			from: startOfDay(today, session.timeZone)!.toISOString(),
			to: new Date(startOfDay(nextDay(today, 2), session.timeZone)!.getTime() - 1).toISOString(),
			limit: 20,
		})
		return html`<section class="card" aria-labelledby="today"><h2 id="today">Today and tomorrow</h2>
<div class="days">${daySection({ day: today, label: 'Today', events, now, level: 3 })}${daySection({ day: tomorrow, label: 'Tomorrow', events, now, level: 3 })}</div>
<p><a href="/calendar">${nextCursor ? 'More on your calendar' : 'Your calendar'}</a></p></section>`
	},
}
