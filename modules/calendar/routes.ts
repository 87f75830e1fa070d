/** The calendar settings page (a person's own external feed). */
import { Elysia, t } from 'elysia'
import { formText, seeOther } from '../../core/http/form.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { HttpKit } from '../../core/module.ts'
import { clearFeed, feedOf, refreshFeed, setFeed } from './feeds.ts'
import { calendarPage, calendarSettingsPage } from './pages.ts'
import { dayKey, nextDay, startOfDay } from '../../core/time.ts'
import { getCalendar, SCOPES } from './service.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const auth = { permission: 'calendar:read' } as const

/** The calendar: a week of the person’s, their team’s or the workspace’s. */
function calendarWeekRoutes(deps: AppDeps, plugin: HttpKit['auth']) {
	return new Elysia({ name: 'calendar.week' }).use(plugin).get(
		'/calendar',
		async ({ session, query }) => {
			// A week from the day asked for (default: today), days of the person's time zone.
			const first = query.from ?? dayKey(deps.now(), session.timeZone)
			const start = startOfDay(first, session.timeZone)
			// The page links the weeks either side of it: those must be days the calendar can read too.
			const end = start && startOfDay(nextDay(first, 7), session.timeZone)
			if (!start || !end || !startOfDay(nextDay(first, -7), session.timeZone))
				throw new AppError('VALIDATION', 'from must be a date (YYYY-MM-DD) in the years 1000 to 9998', {
					fields: [{ field: 'from', message: 'must be a date (YYYY-MM-DD) in the years 1000 to 9998' }],
				})
			const scope = query.scope ?? 'mine'
			const week = await getCalendar(deps, session.actor, {
				from: start.toISOString(),
				to: new Date(end.getTime() - 1).toISOString(),
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
}

/** Settings → Calendar: a person’s own external feed. */
function calendarFeedRoutes(deps: AppDeps, plugin: HttpKit['auth']) {
	return new Elysia({ name: 'calendar.feed' })
		.use(plugin)
		.get(
			'/settings/calendar',
			async ({ session, query }) => {
				const feed = await feedOf(deps, session.actor)
				// After a form (Post/Redirect/Get): what the read found (a failure is shown on the feed itself).
				const notice =
					query.done === 'removed'
						? 'Your calendar feed was removed.'
						: query.done === 'read' && feed?.status === 'ok'
							? `Your calendar was read: ${feed.busyCount} busy times.`
							: undefined
				return calendarSettingsPage(deps, session, { feed, notice })
			},
			{ session: auth, query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }) },
		)
		.post(
			'/settings/calendar',
			async ({ session, body }) => {
				const value = formText(body, 'url')
				try {
					const feed = await setFeed(deps, session.actor, value)
					// A feed that could not be read is kept but shown as a problem (422): posting it again only reads it again.
					if (feed.status !== 'ok') return calendarSettingsPage(deps, session, { feed, error: feed.lastError ?? 'The feed could not be read.' })
					return seeOther('/settings/calendar', 'read')
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
				if (current) await refreshFeed(deps, actor.workspaceId, actor.userId!, current.urlHash)
				const feed = await feedOf(deps, actor)
				if (feed && feed.status !== 'ok') return calendarSettingsPage(deps, session, { feed, error: feed.lastError ?? 'The feed could not be read.' })
				return seeOther('/settings/calendar', 'read')
			},
			{ session: auth, body: form },
		)
		.post(
			'/settings/calendar/remove',
			async ({ session }) => {
				await clearFeed(deps, session.actor)
				return seeOther('/settings/calendar', 'removed')
			},
			{ session: auth, body: form },
		)
}

export function calendarRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'calendar.routes' }).use(calendarWeekRoutes(deps, kit.auth)).use(calendarFeedRoutes(deps, kit.auth))
}
