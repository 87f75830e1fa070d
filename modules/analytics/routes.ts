/** The analytics page: a thin adapter over `dashboard.ts` (the numbers behind `get_analytics_summary`). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { analyticsDashboard } from './dashboard.ts'
import { analyticsPage } from './pages.ts'

export function analyticsRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'analytics.routes' })
		.use(kit.auth)
		.get(
			'/analytics',
			async ({ session, query }) => analyticsPage(deps, session, await analyticsDashboard(deps, session.actor, query.range === '7' ? 7 : 30)),
			{
				session: { permission: 'analytics:read' },
				query: t.Object({ range: t.Optional(t.Union([t.Literal('7'), t.Literal('30')], { error: 'range must be 7 or 30 (days)' })) }),
			},
		)
}
