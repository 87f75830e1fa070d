/**
 * Applying from a job page: the form (on the job page) and its multipart POST. The rules live in
 * the candidates module (`applyToJob`); this adapter only reads the form and picks the page: thanks
 * (200), the form again with messages and what was typed (422), "already applied" (409), or the
 * form again with what was typed and a notice to retry later (429 over the per-address limit, 503
 * when every résumé reader is busy; both with `Retry-After`).
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { normalEmail, readableEmail } from '../../core/email.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { formText } from '../../core/http/form.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { SafeHtml } from '../../core/html.ts'
import type { AuthPlugin } from '../../core/http/auth.ts'
import { normalizeSource, recordCareersEvent } from '../analytics/index.ts'
import type { Workspace } from '../auth/index.ts'
import { applyToJob, forgetKeptResume, keepResume, keptResume } from '../candidates/index.ts'
import { readSelfIdentification, recordSelfIdentification } from '../eeo/index.ts'
import { jobQuestionsOf, jobUrl, type PublicJob } from '../jobs/index.ts'
import { publicJobAt } from './lookup.ts'
import { applyForm, appliedPage, type ApplyFormState } from './apply-pages.ts'
import { closedJobPage, jobPage } from './pages.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

/** The apply form for a job page (sets the anonymous CSRF cookie). */
export async function applySection(
	deps: AppDeps,
	ws: Workspace,
	job: PublicJob,
	cookie: Record<string, any>,
	source: string | null,
	state: Partial<ApplyFormState> = {},
): Promise<SafeHtml> {
	return applyForm(ws, job, await jobQuestionsOf(deps, job.id), { csrf: anonymousCsrf(deps, cookie), source: source ?? '', ...state })
}

/**
 * Applications one client address may send a minute. A person applies a few times at most (fixing a
 * mistake the form pointed out, or a handful of jobs in one sitting), and an office or campus behind
 * one address may have several people applying; 10 covers both. Each application costs a résumé
 * reading of up to `FILE_PARSE_TIMEOUT` seconds in a reader process, so a script sending dozens a
 * second from one address is stopped here, before any file is read.
 */
export const APPLICATIONS_PER_MINUTE = 10

export function applyRoutes(deps: AppDeps, auth: AuthPlugin) {
	return new Elysia({ name: 'careers.apply' }).use(auth).post(
		'/careers/:workspace/jobs/:slug/apply',
		async ({ params, body, cookie, request }) => {
			const { ws, job } = await publicJobAt(deps, params.workspace, params.slug)
			if (job.status !== 'Open') return closedJobPage(ws, job)
			const fields = body as Record<string, unknown>
			const file = fields.resume instanceof Blob && fields.resume.size > 0 ? (fields.resume as File) : null
			// A résumé chosen on an earlier try, kept on the server, unless another file was chosen now.
			const keptToken = (!file && formText(fields, 'resume_kept')) || null
			const kept = keptToken ? await keptResume(deps, ws.id, keptToken) : null
			const resume = file ? { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name } : kept
			// A field sent twice is read as its first value, as every form reads it (`formText`).
			const values: Record<string, string> = {}
			for (const k of Object.keys(fields))
				if (k === 'name' || k === 'email' || k === 'phone' || k.startsWith('answer_') || k.startsWith('eeo_')) values[k] = formText(fields, k).slice(0, 4000)
			const answers = Object.fromEntries(
				Object.entries(values)
					.filter(([k]) => k.startsWith('answer_'))
					.map(([k, v]) => [k.slice('answer_'.length), v]),
			)
			const source = normalizeSource(formText(fields, 'source'))
			const again = async (status: number, state: Partial<ApplyFormState>, headers: Record<string, string> = {}) => {
				const page = jobPage(
					ws,
					job,
					jobUrl(deps.config.baseUrl, ws.slug, job.slug),
					await applySection(deps, ws, job, cookie, source, { values, ...state }),
					state.errors,
				)
				for (const [name, value] of Object.entries(headers)) page.headers.set(name, value)
				return new Response(page.body, { status, headers: page.headers })
			}
			const retryLater = (status: number, seconds: number, why: string) =>
				again(
					status,
					{ notice: `${why} Wait ${seconds} seconds, choose your résumé again and send the form; what you typed is kept.`, chooseFileAgain: true },
					{ 'Retry-After': String(seconds) },
				)
			const decision = await deps.limiter.hit(`apply:${clientAddress(deps.config, request)}`, APPLICATIONS_PER_MINUTE)
			if (!decision.allowed) return retryLater(429, decision.resetSeconds, 'Too many applications were sent from your network in the last minute.')
			const selfIdentified = readSelfIdentification(values)
			try {
				const event = await applyToJob(deps, {
					workspace: ws,
					job,
					name: values.name ?? '',
					email: values.email ?? '',
					phone: values.phone ?? '',
					resume,
					answers,
					source,
					alongside: async (tx, application) => {
						// Everything else passed: a wrong self-identification answer refuses it here, before anything is written.
						if (selfIdentified.errors.length) throw invalid(selfIdentified.errors, 'Some answers need your attention')
						await recordSelfIdentification(tx, application, selfIdentified.answers)
					},
				})
				await recordCareersEvent(deps, { workspaceId: event.workspaceId, jobId: event.jobId, kind: 'application', source: event.source })
				if (keptToken) await forgetKeptResume(deps, keptToken)
				return appliedPage(ws, job, readableEmail(normalEmail(values.email ?? '')))
			} catch (error) {
				if (error instanceof AppError && error.code === 'VALIDATION') {
					// Every problem at once: the application's own, then the self-identification answers (the form's order).
					const errors = [...(error.fields ?? []), ...selfIdentified.errors.filter((e) => !error.fields?.some((f) => f.field === e.field))]
					// Other fields need fixing, the résumé does not: keep it so nobody has to find the file again.
					const fine = resume && !errors.some((f) => f.field === 'resume')
					const token = fine ? (kept ? keptToken : await keepResume(deps, ws.id, resume)) : null
					return again(422, { errors, kept: token ? { token, fileName: resume!.fileName } : undefined })
				}
				if (error instanceof AppError && error.code === 'CONFLICT')
					return again(409, { notice: `${error.message} We will be in touch about it; you do not need to apply again.` })
				if (error instanceof AppError && error.code === 'UNAVAILABLE' && error.retryAfter) return retryLater(503, error.retryAfter, error.message)
				throw error
			}
		},
		{ auth: 'form', body: form },
	)
}
