/** The privacy pages' routes: a candidate's export and erasure, and the workspace's privacy rules. */
import { sql } from 'drizzle-orm'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { notFound } from '../../core/errors.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { formBody, formText, isRefusal } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { downloadDisposition } from '../../core/http/file-response.ts'
import { activityFor } from '../activity/index.ts'
import { erasedPage, erasePage, rulesPage } from './pages.ts'
import { privacyRules, type RulesInput, setPrivacyRules } from './rules.ts'
import { eraseCandidate, erasurePreview, exportCandidate } from './service.ts'

const id = t.String({ maxLength: 160 })

const asInput = (r: { federalContractor: boolean; holdYears: number; inactiveMonths: number | null }): RulesInput => ({
	federalContractor: r.federalContractor,
	holdYears: String(r.holdYears),
	inactiveMonths: r.inactiveMonths === null ? '' : String(r.inactiveMonths),
})

export function privacyRoutes(deps: AppDeps, { auth }: HttpKit) {
	const heldRecords = async (workspaceId: string) =>
		(await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from applicant_flow where workspace_id = ${workspaceId}`))[0]!.n
	return new Elysia({ name: 'privacy.routes' })
		.use(auth)
		.get(
			'/candidates/:id/export.zip',
			async ({ session, params, request }) => {
				const out = await exportCandidate(deps, session.actor, params.id, clientAddress(deps.config, request))
				return new Response(out.bytes as Uint8Array<ArrayBuffer>, {
					headers: {
						'Content-Type': 'application/zip',
						'Content-Disposition': downloadDisposition(out.fileName),
						'Cache-Control': 'no-store',
						'X-Content-Type-Options': 'nosniff',
					},
				})
			},
			{ session: { permission: 'privacy:export' }, params: t.Object({ id }) },
		)
		.get('/candidates/:id/erase', async ({ session, params }) => erasePage(deps, session, await erasurePreview(deps, session.actor, params.id)), {
			session: { permission: 'privacy:erase' },
			params: t.Object({ id }),
		})
		.post(
			'/candidates/:id/erase',
			async ({ session, params, request, redirect }) => {
				await eraseCandidate(deps, session.actor, params.id, clientAddress(deps.config, request))
				return redirect(`/candidates/${encodeURIComponent(params.id)}/erased`, 303)
			},
			{ session: { permission: 'privacy:erase' }, params: t.Object({ id }), body: formBody },
		)
		.get(
			'/candidates/:id/erased',
			async ({ session, params }) => {
				const row = (await activityFor(deps.db, session.actor.workspaceId, 'candidate', params.id)).findLast((a) => a.action === 'candidate.erased')
				if (!row) throw notFound('No such erasure')
				const detail = row.detail as { applications: number; heldUntil: string | null }
				return erasedPage(deps, session, { candidateId: params.id, at: row.at, applications: detail.applications, heldUntil: detail.heldUntil })
			},
			{ session: { permission: 'privacy:erase' }, params: t.Object({ id }) },
		)
		.get(
			'/settings/privacy',
			async ({ session, query }) =>
				rulesPage(deps, session, {
					values: asInput(await privacyRules(deps, session.actor.workspaceId)),
					done: query.done === 'saved',
					held: await heldRecords(session.actor.workspaceId),
				}),
			{ session: { permission: 'privacy:settings' }, query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }) },
		)
		.post(
			'/settings/privacy',
			async ({ session, body, redirect }) => {
				const values = {
					federalContractor: formText(body, 'federalContractor') === 'on',
					holdYears: formText(body, 'holdYears'),
					inactiveMonths: formText(body, 'inactiveMonths'),
				}
				try {
					await setPrivacyRules(deps, session.actor, values)
					return redirect('/settings/privacy?done=saved', 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return rulesPage(deps, session, { values, errors: error.fields ?? [], held: await heldRecords(session.actor.workspaceId) })
				}
			},
			{ session: { permission: 'privacy:settings' }, body: formBody },
		)
}
