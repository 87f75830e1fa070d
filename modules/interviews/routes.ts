/** The interview provider's callback (signed, public), and the interviews pages (thin adapters over `service.ts`). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { handleInterviewCallback } from './callback.ts'
import { interviewListPage, interviewPage } from './pages.ts'
import { getInterview, listInterviews, STATUSES } from './service.ts'

const auth = { permission: 'interviews:read' } as const
const PAGE = 25

export function interviewRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'interviews.routes' })
		.use(kit.auth)
		.post('/api/interviews/callback', ({ request }) => handleInterviewCallback(deps, request), { auth: 'public', parse: 'none' })
		.get(
			'/interviews',
			async ({ session, query }) => {
				const status = query.status || undefined
				const page = await listInterviews(deps, session.actor, { status, limit: PAGE, cursor: query.cursor })
				return interviewListPage(deps, session, { status, ...page, paged: Boolean(query.cursor) })
			},
			{
				session: auth,
				query: t.Object({
					status: t.Optional(t.Union([t.Literal(''), ...STATUSES.map((s) => t.Literal(s))], { error: `status must be one of ${STATUSES.join(', ')}` })),
					cursor: t.Optional(t.String({ minLength: 1, maxLength: 64, error: 'cursor is not valid: use the Next page link' })),
				}),
			},
		)
		.get('/interviews/:id', async ({ session, params }) => interviewPage(deps, session, await getInterview(deps, session.actor, params.id)), {
			session: auth,
			params: t.Object({ id: t.String({ minLength: 1, maxLength: 160 }) }),
		})
}
