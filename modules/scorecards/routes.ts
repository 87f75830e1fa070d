/** Scorecard pages (Post/Redirect/Get; a refused form is the page again, 422, with every value kept). */
import { viewed } from '../audit/index.ts'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AppError } from '../../core/errors.ts'
import { formBody, formList, formText, isRefusal } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { attributesPage, scorecardFormPage, type Kept } from './pages.ts'
import { attributesOf, saveScorecard, scorecardForm, setAttributes, WRITE } from './service.ts'

const auth = { permission: WRITE } as const

function kept(values: Record<string, string>, error: AppError, fallback: string): Kept {
	const errors = (error.fields ?? []).map((f) => ({ field: f.field, message: f.message }))
	return { values, errors: errors.length ? errors : [{ field: fallback, message: error.message }] }
}

export function scorecardRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'scorecards.routes' })
		.use(kit.auth)
		.get(
			'/applications/:id/scorecard',
			({ session, params, request }) =>
				viewed(deps, request, session.actor, 'application', params.id, async () =>
					scorecardFormPage(deps, session, await scorecardForm(deps, session.actor, params.id)),
				),
			{
				session: auth,
			},
		)
		.post(
			'/applications/:id/scorecard',
			async ({ session, params, body, redirect }) => {
				const attributes = formList(body, 'attribute')
				const ratings = attributes.map((_, i) => formText(body, `rating-${i}`))
				const input = { attributes, ratings, recommendation: formText(body, 'recommendation'), notes: formText(body, 'notes') }
				try {
					await saveScorecard(deps, session.actor, params.id, input)
					return redirect(`/applications/${encodeURIComponent(params.id)}?done=scorecard#done`, 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					const form = await scorecardForm(deps, session.actor, params.id)
					// Ratings are kept only when they still rate the attributes the form shows.
					const same = form.attributes.attributes.join('\n') === attributes.join('\n')
					const values: Record<string, string> = { recommendation: input.recommendation, notes: input.notes }
					if (same) for (const [i, r] of ratings.entries()) values[`rating-${i}`] = r
					return scorecardFormPage(deps, session, form, { kept: kept(values, error, 'recommendation'), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
		.get('/jobs/:id/scorecard', async ({ session, params }) => attributesPage(deps, session, await attributesOf(deps, session.actor, params.id)), {
			session: auth,
		})
		.post(
			'/jobs/:id/scorecard',
			async ({ session, params, body, redirect }) => {
				const text = formText(body, 'attributes')
				try {
					await setAttributes(deps, session.actor, params.id, text.split('\n'))
					return redirect(`/jobs/${encodeURIComponent(params.id)}?done=scorecard-attributes#done`, 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					const a = await attributesOf(deps, session.actor, params.id)
					return attributesPage(deps, session, a, { kept: kept({ attributes: text }, error, 'attributes'), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
}
