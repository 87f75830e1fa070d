import { contribute, defineModule } from '../../core/module.ts'
import { feedReaders } from './feed-read.ts'
import { membershipPort } from '../auth/index.ts'
import { dropFeedWithMembership, refreshDueFeeds } from './feeds.ts'
import { sealPlainAddresses } from './feed-secret.ts'
import { calendarRoutes } from './routes.ts'
import { seedCalendar } from './seed.ts'
import { externalSource } from './service.ts'
import { calendarSettings } from './settings.ts'
import { calendarTools } from './tools.ts'
import { calendarViews } from './views.ts'
import { calendarHomeSection } from './home.ts'
import { calendarSources } from './port.ts'
import * as tables from './table.ts'
import { runEvery } from '../../core/every.ts'

export { calendarSources, type CalendarEntry, type CalendarSource } from './port.ts'
export { busyTimes, parseWhen } from './service.ts'
export { refreshDueFeeds, refreshFeed, setFeed } from './feeds.ts'

export default defineModule({
	name: 'calendar',
	settings: calendarSettings,
	description: 'The calendar: interviews, follow-ups and busy times from people’s own iCalendar feeds.',
	requires: ['auth', 'activity', 'jobs', 'candidates'],
	checks: ['calendar:read'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'calendar:read',
			description: 'See calendars (hiring managers: their jobs’ interviews and candidates)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	tools: calendarTools,
	views: calendarViews,
	routes: calendarRoutes,
	paths: ['/calendar', '/settings'],
	ports: [calendarSources],
	pools: [feedReaders],
	contributes: [contribute(calendarSources, externalSource), contribute(membershipPort, { changed: dropFeedWithMembership })],
	seed: seedCalendar,
	nav: [
		{ href: '/calendar', label: 'Calendar', permission: 'calendar:read', section: 'work', order: 40 },
		{ href: '/settings/calendar', label: 'Calendar feed', permission: 'calendar:read' },
	],
	pageSections: [calendarHomeSection],
	start(deps) {
		// Feed addresses kept in plain text before they were sealed are sealed at once (each refresh pass does
		// it again first, for a row an instance still on the older code wrote meanwhile).
		const sealing = sealPlainAddresses(deps).catch((error) =>
			deps.log.warn('calendar: feed addresses kept in plain text could not be sealed; the next refresh pass tries again', { error }),
		)
		// Every minute, refresh the feeds that are due; one pass at a time per instance.
		const stop = runEvery(deps.log, { everyMs: 60_000, failure: 'calendar refresh pass failed' }, () => refreshDueFeeds(deps))
		return async () => {
			await sealing
			await stop()
		}
	},
	activityLabels: { 'calendar.feed_set': 'set the calendar feed of', 'calendar.feed_removed': 'removed the calendar feed of' },
})
