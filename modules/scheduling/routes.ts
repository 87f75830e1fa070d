/** Schedule, reschedule and cancel (Post/Redirect/Get; a refused form is the page again, 422, with every value kept). */
import { viewed } from '../audit/index.ts'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { formBody, formList, formText, isRefusal } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { schedulePage, type Kept } from './pages.ts'
import { cancelInterview, rescheduleInterview, scheduledInterview, scheduleInterview, WRITE, type ScheduleInput } from './service.ts'

const auth = { permission: WRITE } as const
const dayQuery = t.Object({ day: t.Optional(t.String({ maxLength: 10 })) })

function inputOf(body: unknown): ScheduleInput {
	return {
		interviewerIds: formList(body, 'interviewers'),
		date: formText(body, 'date'),
		time: formText(body, 'time'),
		minutes: formText(body, 'minutes'),
		videoUrl: formText(body, 'videoUrl'),
	}
}

function kept(input: ScheduleInput, error: AppError): Kept {
	const errors = (error.fields ?? []).map((f) => ({ field: f.field, message: f.message }))
	return {
		values: { interviewers: input.interviewerIds, date: input.date, time: input.time, minutes: String(input.minutes), videoUrl: input.videoUrl },
		errors: errors.length ? errors : [{ field: 'date', message: error.message }],
	}
}

/** The interview, checked to belong to the application in the address (another's is absent). */
async function interviewOn(deps: AppDeps, session: PageSession, applicationId: string, id: string) {
	const interview = await scheduledInterview(deps, session.actor, id)
	if (interview.applicationId !== applicationId) await scheduledInterview(deps, session.actor, '')
	return interview
}

export function schedulingRoutes(deps: AppDeps, kit: HttpKit) {
	const back = (id: string, done: string) => `/applications/${encodeURIComponent(id)}?done=${done}#done`
	return new Elysia({ name: 'scheduling.routes' })
		.use(kit.auth)
		.get(
			'/applications/:id/schedule',
			({ session, params, query, request }) =>
				viewed(deps, request, session.actor, 'application', params.id, () => schedulePage(deps, session, { applicationId: params.id, day: query.day })),
			{
				session: auth,
				query: dayQuery,
			},
		)
		.post(
			'/applications/:id/schedule',
			async ({ session, params, body, redirect }) => {
				const input = inputOf(body)
				try {
					const done = await scheduleInterview(deps, session.actor, params.id, input)
					return redirect(back(params.id, done.repeated ? 'scheduled-again' : done.busy.length ? 'scheduled-busy' : 'scheduled'), 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return schedulePage(deps, session, { applicationId: params.id, kept: kept(input, error), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
		.get(
			'/applications/:id/schedule/:interviewId',
			async ({ session, params, query }) =>
				schedulePage(deps, session, { applicationId: params.id, interview: await interviewOn(deps, session, params.id, params.interviewId), day: query.day }),
			{ session: auth, query: dayQuery },
		)
		.post(
			'/applications/:id/schedule/:interviewId',
			async ({ session, params, body, redirect }) => {
				const interview = await interviewOn(deps, session, params.id, params.interviewId)
				const input = inputOf(body)
				try {
					await rescheduleInterview(deps, session.actor, interview.id, input)
					return redirect(back(params.id, 'rescheduled'), 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return schedulePage(deps, session, { applicationId: params.id, interview, kept: kept(input, error), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
		.post(
			'/applications/:id/schedule/:interviewId/cancel',
			async ({ session, params, redirect }) => {
				const interview = await interviewOn(deps, session, params.id, params.interviewId)
				await cancelInterview(deps, session.actor, interview.id)
				return redirect(back(params.id, 'cancelled'), 303)
			},
			{ session: auth, body: formBody },
		)
}
