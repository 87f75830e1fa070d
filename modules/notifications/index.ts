/**
 * Notifications: what a person should know about (mentions in notes), at `/notifications` with the
 * unread count in the navigation, and an optional daily e-mail digest. Other modules record them
 * with `notify` inside their own transaction, and name their records for each reader through the
 * `notifications:record` port (what that reader can open now).
 */
import { defineModule } from '../../core/module.ts'
import { startDigests } from './digest.ts'
import { digestSection } from './pages.ts'
import { notifiedRecords } from './port.ts'
import { notificationRoutes } from './routes.ts'
import { unreadCount } from './service.ts'
import * as tables from './table.ts'

export { notify, unreadCount, type NewNotification, type NotificationKind } from './service.ts'
export { sendDigests, DIGEST_HOUR } from './digest.ts'
export { notifiedRecords, type NotifiedRecords } from './port.ts'

export default defineModule({
	name: 'notifications',
	description: 'Notifications (mentions in notes): the list, the unread count in the navigation and the optional daily e-mail digest.',
	requires: ['auth', 'activity', 'outbox'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'notifications:read',
			description: 'See your notifications and choose the daily digest',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'],
		},
	],
	ports: [notifiedRecords],
	routes: notificationRoutes,
	paths: ['/notifications'],
	start: (deps) => startDigests(deps),
	pageSections: [digestSection],
	nav: [
		{
			href: '/notifications',
			label: 'Notifications',
			section: 'work',
			order: 60,
			permission: 'notifications:read',
			countLabel: 'unread',
			counter: (deps, session) => unreadCount(deps.database, session.actor.workspaceId, session.actor.userId!),
		},
	],
})
