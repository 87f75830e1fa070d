/**
 * Password routes: Change password (`/settings/password`, where a temporary password is replaced
 * too), Forgot password (`/sign-in/forgot-password`) and the page a reset link opens
 * (`/sign-in/reset-password/<link>`). Every change answers with a redirect (Post/Redirect/Get); a refused
 * form is the page again with 422, its errors and the e-mail address kept.
 */
import { formText } from '../../core/http/form.ts'
import { eq } from 'drizzle-orm'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { changePasswordPage, deadLinkPage, forgotPasswordPage, resetPasswordPage } from './password-pages.ts'
import { requestPasswordReset, resetLinkAccount, resetPassword } from './password-reset.ts'
import { changePassword, hasTemporaryPassword } from './passwords.ts'
import { safeNext } from '../../core/http/return-address.ts'
import { users } from './table.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const field = formText

/** The refusals a password form shows on the page itself (anything else is the app's error page). */
const shown = (error: unknown): error is AppError => error instanceof AppError && (error.code === 'VALIDATION' || error.code === 'RATE_LIMITED')

/** Change password (a temporary one is replaced here too). */
function changePasswordRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const emailOf = async (session: PageSession) =>
		(await deps.db.select({ email: users.email }).from(users).where(eq(users.id, session.actor.userId!)))[0]?.email ?? ''
	const settingsPage = async (
		session: PageSession,
		next: string,
		extra: { errors?: { field: string; message: string }[]; notice?: string; status?: number } = {},
	) =>
		changePasswordPage(deps, session, { email: await emailOf(session), temporary: await hasTemporaryPassword(deps.db, session.actor.userId!), next, ...extra })

	return new Elysia({ name: 'auth.passwords.change' })
		.use(auth)
		.get(
			'/settings/password',
			({ session, query }) =>
				settingsPage(session, safeNext(query.next), {
					notice: query.done === 'changed' ? 'Your password was changed. You were signed out everywhere else.' : undefined,
				}),
			{ session: 'signed-in', query: t.Object({ next: t.Optional(t.String({ maxLength: 8000 })), done: t.Optional(t.String({ maxLength: 40 })) }) },
		)
		.post(
			'/settings/password',
			async ({ session, body, redirect }) => {
				const next = safeNext(field(body, 'next'))
				const temporary = await hasTemporaryPassword(deps.db, session.actor.userId!)
				try {
					await changePassword(deps, session, { current: field(body, 'current'), password: field(body, 'password'), confirm: field(body, 'confirm') })
				} catch (error) {
					if (!shown(error)) throw error
					const errors = error.fields ?? [{ field: 'current-password', message: error.message }]
					const res = await settingsPage(session, next, { errors, status: error.status })
					if (error.retryAfter) res.headers.set('Retry-After', String(error.retryAfter))
					return res
				}
				// A person who just replaced a temporary password goes on to where they were going.
				return redirect(temporary ? next : '/settings/password?done=changed', 303)
			},
			{ session: 'signed-in', body: form },
		)
}

/** Forgot password, and the page a reset link opens. */
function resetPasswordRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	return new Elysia({ name: 'auth.passwords.reset' })
		.use(auth)
		.get('/sign-in/forgot-password', ({ cookie, query }) => forgotPasswordPage({ csrf: anonymousCsrf(deps, cookie), sent: query.done === 'sent' }), {
			auth: 'form',
			query: t.Object({ done: t.Optional(t.String({ maxLength: 40 })) }),
		})
		.post(
			'/sign-in/forgot-password',
			async ({ body, cookie, request, redirect }) => {
				const email = field(body, 'email').slice(0, 320)
				try {
					// What depends on the account is not waited for (`settled`): the answer takes the same time
					// whether or not the address has one.
					await requestPasswordReset(deps, { email, address: clientAddress(deps.config, request) })
					return redirect('/sign-in/forgot-password?done=sent', 303)
				} catch (error) {
					if (!shown(error)) throw error
					const res = forgotPasswordPage({
						csrf: anonymousCsrf(deps, cookie),
						email,
						errors: error.fields,
						error: error.fields ? undefined : error.message,
						status: error.status,
					})
					if (error.retryAfter) res.headers.set('Retry-After', String(error.retryAfter))
					return res
				}
			},
			{ auth: 'form', body: form },
		)
		.get(
			'/sign-in/reset-password/:token',
			async ({ params, cookie }) => {
				const account = await resetLinkAccount(deps, params.token)
				return account ? resetPasswordPage({ csrf: anonymousCsrf(deps, cookie), token: params.token, email: account.email }) : deadLinkPage()
			},
			{ auth: 'form' },
		)
		.post(
			'/sign-in/reset-password/:token',
			async ({ params, body, cookie, redirect }) => {
				try {
					await resetPassword(deps, params.token, {
						password: field(body, 'password'),
						confirm: field(body, 'confirm'),
						disconnect: field(body, 'disconnect') === '1',
					})
					return redirect('/sign-in?done=password-reset', 303)
				} catch (error) {
					if (error instanceof AppError && error.code === 'NOT_FOUND') return deadLinkPage()
					if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
					const account = await resetLinkAccount(deps, params.token)
					if (!account) return deadLinkPage()
					return resetPasswordPage({
						csrf: anonymousCsrf(deps, cookie),
						token: params.token,
						email: account.email,
						disconnect: field(body, 'disconnect') === '1',
						errors: error.fields,
						status: 422,
					})
				}
			},
			{ auth: 'form', body: form },
		)
}

export function passwordRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'auth.passwords' }).use(changePasswordRoutes(deps, auth)).use(resetPasswordRoutes(deps, auth))
}
