/**
 * Job alerts on the careers site: the form's POST (`/careers/<slug>/alerts`), and the confirmation
 * link (`/careers/<slug>/alerts/confirm/<token>`). Opening the link only asks (link checkers and
 * mail previews open links); pressing **Confirm** starts the alert. The rules are in alerts.ts;
 * unsubscribing is the outbox's page (`/unsubscribe/…`, one click, `List-Unsubscribe`).
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { readableEmail } from '../../core/email.ts'
import { AppError } from '../../core/errors.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import type { AuthPlugin } from '../../core/http/auth.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import { unreadableFormFields } from '../../core/http/form.ts'
import { answersUnreadableText, unreadableMessage } from '../../core/http/query.ts'
import { html, page } from '../../core/html.ts'
import { ALERT_CONFIRM_HOURS, confirmAlert, pendingAlert, requestAlert } from './alerts.ts'
import { workspaceOr404 } from './lookup.ts'
import { jobListPage } from './pages.ts'
import { criteriaQuery, criteriaWords, readCriteria, searchCareers } from './search.ts'

/** Alerts one client address may ask for a minute: a person asks for a few; a script mailing strangers is stopped. */
export const ALERTS_PER_MINUTE = 5

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

const invalidLink = () =>
	new AppError(
		'NOT_FOUND',
		`This confirmation link is not valid: it was used already, a newer one was sent, or it is more than ${ALERT_CONFIRM_HOURS} hours old. Ask for the alert again.`,
	)

export function alertRoutes(deps: AppDeps, auth: AuthPlugin) {
	return new Elysia({ name: 'careers.alerts' })
		.use(auth)
		.post(
			'/careers/:workspace/alerts',
			async ({ params, body, cookie, request }) => {
				const ws = await workspaceOr404(deps, params.workspace)
				const fields = body as Record<string, unknown>
				// A field the form's body does not hold as text (a hand-made post with `%zz`) is refused on the form, never stored as typed.
				const unreadable = unreadableFormFields(request).map((f) => f.field)
				const { criteria, errors } = readCriteria(fields, unreadable, 'this form')
				const email = typeof fields.email === 'string' && !unreadable.includes('email') ? fields.email.slice(0, 320) : ''
				const emailUnreadable = unreadable.includes('email')
					? [{ field: 'email', message: `${unreadableMessage('Your e-mail address', 'this form')}: type it again` }]
					: []
				const again = async (alert: { errors?: { field: string; message: string }[]; notice?: string }) =>
					jobListPage(ws, {
						results: await searchCareers(deps, ws.id, criteria, 1),
						criteria,
						errors,
						alert: { csrf: anonymousCsrf(deps, cookie), email: alert.notice ? '' : email, ...alert },
					})
				if (errors.length || emailUnreadable.length) return again({ errors: emailUnreadable })
				const decision = await deps.limiter.hit(`job-alert:${clientAddress(deps.config, request)}`, ALERTS_PER_MINUTE)
				if (!decision.allowed) {
					const res = await again({
						errors: [{ field: 'email', message: `Too many alerts were asked for from your network: wait ${decision.resetSeconds} seconds and try again` }],
					})
					return new Response(res.body, { status: 429, headers: { ...Object.fromEntries(res.headers), 'Retry-After': String(decision.resetSeconds) } })
				}
				let kept: string
				try {
					kept = await requestAlert(deps, ws, email, criteria)
				} catch (error) {
					if (error instanceof AppError && error.code === 'VALIDATION') return again({ errors: error.fields ?? [] })
					throw error
				}
				return again({ notice: `Check your inbox: we sent a link to ${readableEmail(kept)} to confirm the alert. Nothing is sent until you confirm.` })
			},
			{ auth: 'form', body: form, transform: answersUnreadableText },
		)
		.get(
			'/careers/:workspace/alerts/confirm/:token',
			async ({ params, cookie }) => {
				const ws = await workspaceOr404(deps, params.workspace)
				const alert = await pendingAlert(deps, ws.id, params.token)
				if (!alert) throw invalidLink()
				const words = criteriaWords(alert).join(', ') || 'all jobs'
				return page(
					{ title: 'Confirm your job alert' },
					html`<section class="card"><h1>Confirm your job alert</h1>
<p>New jobs at ${ws.name} matching ${words}, sent to <strong>${alert.email}</strong> at most once a day.</p>
<form method="post" action="/careers/${ws.slug}/alerts/confirm/${params.token}"><input type="hidden" name="csrf" value="${anonymousCsrf(deps, cookie)}"><button type="submit">Confirm</button></form></section>`,
				)
			},
			{ auth: 'public' },
		)
		.post(
			'/careers/:workspace/alerts/confirm/:token',
			async ({ params }) => {
				const ws = await workspaceOr404(deps, params.workspace)
				const alert = await confirmAlert(deps, ws.id, params.token)
				if (!alert) throw invalidLink()
				return page(
					{ title: 'Job alert confirmed' },
					html`<section class="card"><h1>Job alert confirmed</h1><div class="notice" role="status"><p>New jobs matching ${criteriaWords(alert).join(', ') || 'all jobs'} will come to ${alert.email} at most once a day. Every e-mail has a link to stop them.</p></div>
<p><a href="/careers/${ws.slug}${criteriaQuery(alert)}">Back to the jobs</a></p></section>`,
				)
			},
			{ auth: 'form', body: form },
		)
}
