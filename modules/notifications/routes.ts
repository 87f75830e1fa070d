/** Notification pages: the list, Mark all as read, opening one, and the daily digest choice (Post/Redirect/Get). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { formBody, formText } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { chooseDigest } from './digest.ts'
import { notificationsPage } from './pages.ts'
import { listNotifications, markAllRead, openNotification } from './service.ts'

const auth = { permission: 'notifications:read' } as const
const OUT_OF_DATE = 'This page’s address was changed: start again from the first page.'

export function notificationRoutes(deps: AppDeps, kit: HttpKit) {
	return (
		new Elysia({ name: 'notifications.routes' })
			.use(kit.auth)
			.get(
				'/notifications',
				async ({ session, query }) => {
					const done = query.done === 'read' ? 'Every notification is marked as read.' : null
					try {
						const list = await listNotifications(deps, session.actor, { limit: 50, cursor: query.cursor })
						return notificationsPage(deps, session, { ...list, paged: Boolean(query.cursor), done })
					} catch (error) {
						// A page address that was changed by hand: said on the page (as /activity does), not the error page.
						if (!(error instanceof AppError) || error.code !== 'VALIDATION' || !query.cursor) throw error
						return notificationsPage(deps, session, { notifications: [], nextCursor: null, paged: true, done, error: OUT_OF_DATE })
					}
				},
				{ session: auth, query: t.Object({ cursor: t.Optional(t.String({ maxLength: 200 })), done: t.Optional(t.String({ maxLength: 20 })) }) },
			)
			.post(
				'/notifications/read-all',
				async ({ session, redirect }) => {
					await markAllRead(deps, session.actor)
					return redirect('/notifications?done=read', 303)
				},
				{ session: auth, body: formBody },
			)
			.post(
				'/notifications/digest',
				async ({ session, body, redirect }) => {
					await chooseDigest(deps, session.actor.workspaceId, session.actor.userId!, formText(body, 'digest') === 'on')
					return redirect('/settings/profile?done=digest#digest', 303)
				},
				{ session: auth, body: formBody },
			)
			// Opening marks it read and goes to the record (a link in the list and in the digest e-mail).
			.get('/notifications/:id', async ({ session, params, redirect }) => redirect(await openNotification(deps, session.actor, params.id), 303), {
				session: auth,
				params: t.Object({ id: t.String({ maxLength: 160 }) }),
			})
	)
}
