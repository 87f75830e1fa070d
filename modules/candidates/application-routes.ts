/** The application page and its Move to stage form (Post/Redirect/Get; a refused move is the page again, 422). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { Actor } from '../../core/actor.ts'
import { AppError, invalid } from '../../core/errors.ts'
import type { HttpKit } from '../../core/module.ts'
import { viewed } from '../audit/index.ts'
import { applicationPage, MOVE_FIELD, MOVE_FORM } from './application-page.ts'
import { moveToStage, MOVE_PERMISSION } from './stage-move.ts'
import { bulkReportCookie, bulkReportPage, localBack, type BulkLine } from '../../core/bulk.ts'
import { formList, formText, isRefusal, seeOther } from '../../core/http/form.ts'
import { bulkApplications } from './bulk.ts'

/** A bulk action's report crosses its redirect sealed in this cookie, sent only to the report page. */
const BULK_PATH = '/applications/bulk'
const bulkReport = bulkReportCookie('bl_bulk_applications', BULK_PATH)

const MAX_ID = 160
const params = t.Object({ id: t.String() })
const query = t.Object({
	done: t.Optional(t.String({ maxLength: 40 })),
	/** `vendor`: the vendor submission section shows its check (Check vendor submission). */
	check: t.Optional(t.Literal('vendor')),
})
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

/** Ids are at most 160 characters: a longer one is absent, answered like any other absent record. */
const applicationId = (id: string) => {
	if (id.length > MAX_ID) throw new AppError('NOT_FOUND', 'No application with this id')
	return id
}

/** The stage list's bulk form, done: its report, or what kept the whole action from being done. */
async function bulkFromForm(deps: AppDeps, actor: Actor, body: Record<string, unknown>): Promise<{ action: string; lines: BulkLine[] }> {
	const applicationIds = formList(body, 'application')
	const action = formText(body, 'action')
	if (action !== 'move' && action !== 'reject')
		throw invalid([{ field: 'action', message: 'must be move or reject: press Move to stage or Reject' }], 'Choose Move to stage or Reject')
	try {
		return action === 'reject'
			? await bulkApplications(deps, actor, { action: 'reject', applicationIds, reason: formText(body, 'reason') })
			: await bulkApplications(deps, actor, { action: 'move', applicationIds, stageKey: formText(body, 'stageKey') })
	} catch (error) {
		if (!isRefusal(error)) throw error
		return { action: `Nothing done: ${error.message.replace(/\.$/, '')}`, lines: [] }
	}
}

export function applicationRoutes(deps: AppDeps, { auth }: HttpKit) {
	return (
		new Elysia({ name: 'candidates.application-routes' })
			.use(auth)
			// Bulk actions on a job's stage list: one POST, each application through its own service, then
			// the report (Post/Redirect/Get). A choice the whole action lacks (no application ticked, no
			// stage or reason) sends the person back to the list with nothing done, said on the report.
			// The action is the button pressed, Move to stage or Reject: any other (none of the list's
			// forms sends one) is refused with 422 before anything is done, never taken for a move.
			.post(
				BULK_PATH,
				async ({ session, body, cookie }) => {
					const back = localBack(formText(body, 'back'), '/jobs')
					await bulkReport.seal(deps, cookie, session.sessionId, { ...(await bulkFromForm(deps, session.actor, body)), back })
					return seeOther(BULK_PATH)
				},
				{ session: { permission: 'candidates:read' }, body: form },
			)
			.get(
				BULK_PATH,
				async ({ session, cookie }) => bulkReportPage(deps, session, await bulkReport.open(deps, cookie, session.sessionId), { href: '/jobs', text: 'Jobs' }),
				{
					session: { permission: 'candidates:read' },
				},
			)
			.get(
				'/applications/:id',
				({ session, params, query, request }) =>
					viewed(deps, request, session.actor, 'application', params.id, () =>
						applicationPage(deps, session, applicationId(params.id), { done: query.done, context: { query } }),
					),
				{
					session: { permission: 'candidates:read' },
					params,
					query,
				},
			)
			.post(
				'/applications/:id/stage',
				async ({ session, params, body, redirect, request }) => {
					const id = applicationId(params.id)
					const stageKey = formText(body, 'stageKey').slice(0, 200)
					// The pipeline board's Move menu comes back to the board; a script on it asks for JSON instead.
					const back = formText(body, 'back')
					const board = /^\/jobs\/[A-Za-z0-9_-]{1,160}$/.test(back) ? back : null
					const wantsJson = board !== null && (request.headers.get('accept') ?? '').includes('application/json')
					try {
						const move = await moveToStage(deps, session.actor, { applicationId: id, stageKey })
						if (wantsJson) return Response.json({ moved: move.changed, applicationId: move.applicationId, from: move.from, to: move.to })
						if (board) return redirect(`${board}?done=${move.changed ? 'moved' : 'not-moved'}#done`, 303)
						return redirect(`/applications/${encodeURIComponent(move.applicationId)}?done=${move.changed ? 'stage' : 'stage-unchanged'}#done`, 303)
					} catch (error) {
						if (wantsJson && error instanceof AppError && error.status < 500) return Response.json({ error: error.message }, { status: error.status })
						if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
						const errors = [
							{
								field: MOVE_FIELD,
								message: stageKey
									? `“${stageKey}” is not a stage of this workspace: choose one of the stages listed`
									: 'Choose the stage to move the application to',
							},
						]
						return applicationPage(deps, session, id, { status: 422, errors, context: { refused: { form: MOVE_FORM, values: { stageKey }, errors } } })
					}
				},
				{ session: { permission: MOVE_PERMISSION }, params, body: form },
			)
	)
}
