/** The application page and its Move to stage form (Post/Redirect/Get; a refused move is the page again, 422). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { HttpKit } from '../../core/module.ts'
import { applicationPage, MOVE_FIELD, MOVE_FORM } from './application-page.ts'
import { moveToStage, MOVE_PERMISSION } from './stage-move.ts'

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

export function applicationRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'candidates.application-routes' })
		.use(auth)
		.get(
			'/applications/:id',
			({ session, params, query }) => applicationPage(deps, session, applicationId(params.id), { done: query.done, context: { query } }),
			{
				session: { permission: 'candidates:read' },
				params,
				query,
			},
		)
		.post(
			'/applications/:id/stage',
			async ({ session, params, body, redirect }) => {
				const id = applicationId(params.id)
				const stageKey = String((body as Record<string, unknown>).stageKey ?? '').slice(0, 200)
				try {
					const move = await moveToStage(deps, session.actor, { applicationId: id, stageKey })
					return redirect(`/applications/${encodeURIComponent(move.applicationId)}?done=${move.changed ? 'stage' : 'stage-unchanged'}`, 303)
				} catch (error) {
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
}
