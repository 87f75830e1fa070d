/** Inbox pages, and the mail provider's signed inbound webhook (public). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { HttpKit } from '../../core/module.ts'
import { receiveInbound } from './inbound.ts'
import { inboxPage, threadPage } from './pages.ts'
import { FILTERS, getThread, listThreads, replyToThread, setStarred, type InboxFilter } from './service.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const auth = { permission: 'inbox:read' } as const

export function inboxRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'inbox.routes' })
		.use(kit.auth)
		.post('/api/inbox/inbound', ({ request }) => receiveInbound(deps, request), { auth: 'public', parse: 'none' })
		.get(
			'/inbox',
			async ({ session, query }) => {
				const filter = (FILTERS as readonly string[]).includes(query.filter ?? '') ? (query.filter as InboxFilter) : 'all'
				const list = await listThreads(deps, session.actor, { filter, limit: 50, cursor: query.cursor })
				return inboxPage(deps, session, { threads: list.threads, filter, more: list.nextCursor })
			},
			{ session: auth, query: t.Object({ filter: t.Optional(t.String({ maxLength: 20 })), cursor: t.Optional(t.String({ maxLength: 64 })) }) },
		)
		.get('/inbox/:id', async ({ session, params }) => threadPage(deps, session, await getThread(deps, session.actor, params.id)), { session: auth })
		.post(
			'/inbox/:id/:action',
			async ({ session, params, body }) => {
				const actor = session.actor
				if (params.action === 'star' || params.action === 'unstar') {
					await setStarred(deps, actor, params.id, params.action === 'star')
					return threadPage(deps, session, await getThread(deps, actor, params.id))
				}
				if (params.action !== 'reply') throw new AppError('NOT_FOUND', 'Not found')
				try {
					await replyToThread(deps, actor, params.id, String((body as Record<string, unknown>).text ?? ''))
					return threadPage(deps, session, await getThread(deps, actor, params.id), { notice: 'Your reply is on its way.' })
				} catch (error) {
					if (!(error instanceof AppError) || !['VALIDATION', 'CONFLICT'].includes(error.code)) throw error
					return threadPage(deps, session, await getThread(deps, actor, params.id), {
						error: error.fields?.length ? `Message ${error.fields[0]!.message}.` : error.message,
					})
				}
			},
			{ session: auth, body: form },
		)
}
