/** The calendar settings page (a person's own external feed). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { HttpKit } from '../../core/module.ts'
import { clearFeed, feedOf, refreshFeed, setFeed } from './feeds.ts'
import { calendarPage, calendarSettingsPage } from './pages.ts'
import { getCalendar, parseWhen, SCOPES } from './service.ts'

const DAY = 86_400_000

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const auth = { permission: 'calendar:read' } as const

export function calendarRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'calendar.routes' })
		.use(kit.auth)
		.get(
			'/calendar',
			async ({ session, query }) => {
				// A week from the day asked for (default: today), midnight UTC.
				const start = query.from ? parseWhen(query.from, 'from') : new Date(Math.floor(deps.now().getTime() / DAY) * DAY)
				const scope = query.scope ?? 'mine'
				const week = await getCalendar(deps, session.actor, {
					from: start.toISOString(),
					to: new Date(start.getTime() + 7 * DAY - 1).toISOString(),
					scope,
					limit: 100,
					cursor: query.cursor,
				})
				return calendarPage(deps, session, { week, start, scope })
			},
			{
				session: auth,
				query: t.Object({
					from: t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', error: 'from must be a date (YYYY-MM-DD)' })),
					scope: t.Optional(
						t.Union(
							SCOPES.map((s) => t.Literal(s)),
							{ error: 'scope must be mine, team or workspace' },
						),
					),
					cursor: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
				}),
			},
		)
		.get('/settings/calendar', async ({ session }) => calendarSettingsPage(deps, session, { feed: await feedOf(deps, session.actor) }), { session: auth })
		.post(
			'/settings/calendar',
			async ({ session, body }) => {
				const value = String((body as Record<string, unknown>).url ?? '')
				try {
					const feed = await setFeed(deps, session.actor, value)
					return calendarSettingsPage(
						deps,
						session,
						feed.status === 'ok'
							? { feed, notice: `Your calendar was read: ${feed.busyCount} busy times.` }
							: { feed, error: feed.lastError ?? 'The feed could not be read.' },
					)
				} catch (error) {
					if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
					return calendarSettingsPage(deps, session, { feed: await feedOf(deps, session.actor), error: `${error.message}.`, value })
				}
			},
			{ session: auth, body: form },
		)
		.post(
			'/settings/calendar/refresh',
			async ({ session }) => {
				const actor = session.actor
				const current = await feedOf(deps, actor)
				if (current) await refreshFeed(deps, actor.workspaceId, actor.userId!, current.url)
				const feed = await feedOf(deps, actor)
				return calendarSettingsPage(
					deps,
					session,
					feed?.status === 'ok' ? { feed, notice: `Your calendar was read: ${feed.busyCount} busy times.` } : { feed, error: feed?.lastError ?? undefined },
				)
			},
			{ session: auth, body: form },
		)
		.post(
			'/settings/calendar/remove',
			async ({ session }) => {
				await clearFeed(deps, session.actor)
				return calendarSettingsPage(deps, session, { feed: null, notice: 'Your calendar feed was removed.' })
			},
			{ session: auth, body: form },
		)
}
