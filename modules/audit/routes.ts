/** /audit (the page) and /audit/export.csv|ndjson (the same filters, streamed): owners and admins. */
import { Elysia, t } from 'elysia'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { textStream } from '../../core/http/stream.ts'
import type { HttpKit } from '../../core/module.ts'
import { downloadDisposition } from '../../core/http/file-response.ts'
import { type AuditQuery, readFilters } from './filters.ts'
import { auditPage } from './pages.ts'
import { auditChoices, exportAudit, type ExportFormat, listAudit } from './queries.ts'

const PAGE = 50
const field = t.Optional(t.String({ maxLength: 200 }))
const query = t.Object({ person: field, app: field, action: field, record: field, from: field, until: field, cursor: t.Optional(t.String({ maxLength: 300 })) })
const TYPES = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' } as const

export function auditRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'audit.routes' })
		.use(auth)
		.get(
			'/audit',
			async ({ session, query: q }) => {
				const { cursor, ...asked } = q
				const choices = await auditChoices(deps, session.actor.workspaceId)
				const { filters, errors } = readFilters(asked, choices)
				const view = { query: asked as AuditQuery, rows: [], next: null, paged: Boolean(cursor), choices, errors }
				if (errors.length) return auditPage(deps, session, view)
				const page = await listAudit(deps, session.actor.workspaceId, filters, { limit: PAGE, cursor })
				return auditPage(deps, session, { ...view, rows: page.rows, next: page.nextCursor })
			},
			{ session: { permission: 'audit:read' }, query },
		)
		.get('/audit/export.csv', ({ session, query: q, status }) => download(deps, session.actor, q, 'csv', status), {
			session: { permission: 'audit:read' },
			query,
		})
		.get('/audit/export.ndjson', ({ session, query: q, status }) => download(deps, session.actor, q, 'ndjson', status), {
			session: { permission: 'audit:read' },
			query,
		})
}

/** The trail with the page's filters, streamed as it is read (an export of years never sits in memory). */
async function download(deps: AppDeps, actor: Actor, q: AuditQuery & { cursor?: string }, format: ExportFormat, status: (code: 422, body: string) => unknown) {
	const { cursor: _, ...asked } = q
	const { filters, errors } = readFilters(asked, await auditChoices(deps, actor.workspaceId))
	if (errors.length) return status(422, `The filters are not valid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`)
	const chunks = exportAudit(deps, actor.workspaceId, filters, format)
	const body = await textStream(format === 'csv' ? withByteOrderMark(chunks) : chunks, deps.log)
	const day = deps.now().toISOString().slice(0, 10)
	return new Response(body, {
		headers: { 'Content-Type': TYPES[format], 'Content-Disposition': downloadDisposition(`audit-${actor.workspaceSlug}-${day}.${format}`) },
	})
}

/**
 * A downloaded CSV starts with a byte-order mark: Excel reads one without it in the machine's legacy
 * code page (José as JosÃ©). Only the download: `audit export` writes to scripts, which want none.
 */
async function* withByteOrderMark(chunks: AsyncIterable<string>): AsyncGenerator<string> {
	yield '\uFEFF'
	yield* chunks
}
