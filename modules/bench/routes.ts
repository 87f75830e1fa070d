/** The bench page: a thin adapter over `listBench` (what `list_bench` shows), with a role-family filter. */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { ROLE_FAMILIES } from './family.ts'
import { benchPage } from './pages.ts'
import { listBench } from './service.ts'

export function benchRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'bench.routes' }).use(kit.auth).get(
		'/bench',
		async ({ session, query }) => {
			const roleFamily = query.family || undefined
			const page = await listBench(deps, session.actor, { limit: 25, cursor: query.cursor, roleFamily })
			return benchPage(deps, session, { roleFamily, ...page, paged: Boolean(query.cursor) })
		},
		{
			session: { permission: 'bench:read' },
			query: t.Object({
				family: t.Optional(
					t.Union([t.Literal(''), ...ROLE_FAMILIES.map((f) => t.Literal(f))], { error: 'family must be a role family (java, dotnet, qa, …)' }),
				),
				cursor: t.Optional(t.String({ minLength: 1, maxLength: 64, error: 'cursor is not valid: use the Next page link' })),
			}),
		},
	)
}
