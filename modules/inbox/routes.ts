/** Inbox pages, and the mail provider's signed inbound webhook (public). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { doneNotice, formList, formText, seeOther } from '../../core/http/form.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { bulkSendRoutes } from './bulk-send.ts'
import { composeRoutes } from './compose-routes.ts'
import { receiveInbound } from './inbound.ts'
import { inboxPage, threadPage } from './pages.ts'
import { FILTERS, getThread, listThreads, markThreadRead, replyToThread, setStarred, type InboxFilter } from './service.ts'
import { bulkReportCookie, bulkReportPage, localBack, overBulkLimit, runBulk } from '../../core/bulk.ts'
import { textOf } from '../../core/untrusted.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
/** The bulk Mark as read report crosses its redirect sealed in this cookie (core/bulk.ts). */
const BULK_PATH = '/inbox/bulk'
const bulkReport = bulkReportCookie('bl_bulk_inbox', BULK_PATH)
const auth = { permission: 'inbox:read' } as const
/** Notices after a new message (Post/Redirect/Get). */
const DONE: Record<string, string> = {
	sent: 'Your message is on its way.',
	'not-sent': 'Your message was recorded but not sent: its reason is shown on it (see the outbox).',
	replied: 'Your reply is on its way.',
	// A form sent twice (repeated-send.ts): the second changed nothing.
	repeated: 'This message was already sent moments ago: it was not sent again.',
	starred: 'The conversation is starred.',
	unstarred: 'The conversation is no longer starred.',
}

/** Bulk Mark as read: each ticked conversation through markThreadRead (one activity line each; core/bulk.ts's rules), then the report. */
async function markReadInBulk(deps: AppDeps, session: PageSession, body: unknown, cookie: Record<string, any>) {
	const ids = [...new Set(formList(body, 'thread'))]
	// More than the limit is refused as a whole (core/bulk.ts), never cut short.
	const tooMany = overBulkLimit(ids.length, 'conversations')
	const lines = await runBulk(deps, tooMany ? [] : ids, {
		action: 'inbox.bulk-read',
		name: () => 'A conversation',
		step: async (id, record) => {
			const read = await markThreadRead(deps, session.actor, id)
			record.name = textOf(read.subject)
			return read.changed ? { result: 'done' } : { result: 'unchanged', note: 'Already read.' }
		},
		refusal: (error) => (error.code === 'NOT_FOUND' ? 'Not found.' : `${error.message}.`),
	})
	const action = tooMany ? `Nothing done: ${tooMany}` : ids.length ? 'Mark as read' : 'Nothing done: tick at least one conversation'
	await bulkReport.seal(deps, cookie, session.sessionId, { action, back: localBack(formText(body, 'back'), '/inbox'), lines })
	return seeOther(BULK_PATH)
}

export function inboxRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'inbox.routes' })
		.use(kit.auth)
		.use(composeRoutes(deps, kit))
		.use(bulkSendRoutes(deps, kit))
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
		.post(BULK_PATH, ({ session, body, cookie }) => markReadInBulk(deps, session, body, cookie), { session: auth, body: form })
		.get(
			BULK_PATH,
			async ({ session, cookie }) => bulkReportPage(deps, session, await bulkReport.open(deps, cookie, session.sessionId), { href: '/inbox', text: 'Inbox' }),
			{
				session: auth,
			},
		)
		.get(
			'/inbox/:id',
			async ({ session, params, query }) =>
				threadPage(deps, session, await getThread(deps, session.actor, params.id), { notice: doneNotice(DONE, query.done) }),
			{
				session: auth,
				query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }),
			},
		)
		.post(
			'/inbox/:id/:action',
			async ({ session, params, body }) => {
				const actor = session.actor
				// Post/Redirect/Get: reloading the conversation never sends the reply (or the star) again.
				if (params.action === 'star' || params.action === 'unstar') {
					await setStarred(deps, actor, params.id, params.action === 'star')
					return seeOther(`/inbox/${encodeURIComponent(params.id)}`, `${params.action}red`)
				}
				if (params.action !== 'reply') throw new AppError('NOT_FOUND', 'Not found')
				const text = formText(body, 'text')
				try {
					const reply = await replyToThread(deps, actor, params.id, text)
					return seeOther(`/inbox/${encodeURIComponent(params.id)}`, reply.repeated ? 'repeated' : 'replied')
				} catch (error) {
					if (!(error instanceof AppError) || !['VALIDATION', 'CONFLICT'].includes(error.code)) throw error
					return threadPage(deps, session, await getThread(deps, actor, params.id), {
						error: error.fields?.length ? `Message ${error.fields[0]!.message}.` : error.message,
						typed: text,
					})
				}
			},
			{ session: auth, body: form },
		)
}
