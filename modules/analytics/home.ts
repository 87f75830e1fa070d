/** The portal home's applications per day: the last 14 UTC days of the careers site, as on the analytics page. */
import { columnChart } from '../../core/charts.ts'
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { plural } from '../../core/ui.ts'
import { dayPeriods } from './pages.ts'
import { careersPerDay } from './service.ts'

const DAY = 86_400_000
export const HOME_DAYS = 14

export const applicationsHomeSection: PageSection = {
	page: 'home',
	order: 25,
	permission: 'analytics:read',
	async render(deps, session) {
		const to = deps.now()
		const from = new Date(Math.floor(to.getTime() / DAY) * DAY - (HOME_DAYS - 1) * DAY)
		const days = await careersPerDay(deps, session.actor, { from, to })
		const total = days.reduce((sum, d) => sum + d.applications, 0)
		return html`<section class="card" aria-labelledby="applications-per-day"><h2 id="applications-per-day">Applications per day</h2>
<p class="meta">${plural(total, 'application')} on your careers site in the last ${HOME_DAYS} days (UTC)${session.actor.role === 'hiring_manager' ? ', for the jobs on your hiring teams' : ''}.</p>
${columnChart({ title: `Applications per day, last ${HOME_DAYS} days`, periodHeading: 'Day (UTC)', series: [{ name: 'Applications', colour: 'vermillion' }], periods: dayPeriods(days, ['applications']), empty: `No applications in the last ${HOME_DAYS} days.` })}
<p><a href="/analytics">Analytics</a></p></section>`
	},
}
