/**
 * `/sign-in/sso` and its callback: thin adapters over sso-sign-in.ts. The states of the sign-ins the
 * browser started travel in a short HttpOnly cookie limited to `/sign-in/sso` (SameSite=Lax: the
 * provider's redirect back is a top-level navigation, which carries it); a start adds one, a callback
 * takes its own out and leaves the others (tabs) their way back (`browserStates`).
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError } from '../../../core/errors.ts'
import { clientAddress } from '../../../core/http/client-address.ts'
import { anonymousCsrf } from '../../../core/http/csrf.ts'
import { formBody, formText } from '../../../core/http/form.ts'
import { safeNext } from '../../../core/http/return-address.ts'
import type { HttpKit } from '../../../core/module.ts'
import { setSessionCookie } from '../sessions.ts'
import { SsoProblem } from './oidc.ts'
import { ssoSignInPage } from './sign-in-pages.ts'
import { browserStates, browserStatesCookie, callbackPath, finishSsoSignIn, startSsoSignIn } from './sso-sign-in.ts'

const STATE_COOKIE = 'bl_sso_state'
const cookieName = (deps: AppDeps) => (deps.config.https ? `__Secure-${STATE_COOKIE}` : STATE_COOKIE)
const cookieOptions = (deps: AppDeps) => ({ httpOnly: true, secure: deps.config.https, sameSite: 'lax' as const, path: '/sign-in/sso' })

export function ssoSignInRoutes(deps: AppDeps, { auth }: HttpKit) {
	const heldStates = (cookie: Record<string, any>) => String(cookie[cookieName(deps)]?.value ?? '')
	const refused = (cookie: Record<string, any>, next: string, error: unknown, email?: string) => {
		if (error instanceof AppError && error.code === 'RATE_LIMITED') {
			// Too many starts from this address: the page says how long to wait, and so does Retry-After.
			const res = ssoSignInPage({ csrf: anonymousCsrf(deps, cookie), next, email, error: error.message, status: error.status })
			if (error.retryAfter) res.headers.set('Retry-After', String(error.retryAfter))
			return res
		}
		if (!(error instanceof SsoProblem)) throw error
		return ssoSignInPage({ csrf: anonymousCsrf(deps, cookie), next, email, error: error.message, status: 422 })
	}
	return new Elysia({ name: 'auth.sso-sign-in' })
		.use(auth)
		.get('/sign-in/sso', ({ cookie, query }) => ssoSignInPage({ csrf: anonymousCsrf(deps, cookie), next: safeNext(query.next) }), {
			auth: 'form',
			query: t.Object({ next: t.Optional(t.String({ maxLength: 8000 })) }),
		})
		.post(
			'/sign-in/sso',
			async ({ body, cookie, request, redirect }) => {
				const next = safeNext(formText(body, 'next'))
				const email = formText(body, 'email')
				try {
					const { url, state } = await startSsoSignIn(deps, { email, next, address: clientAddress(deps.config, request) })
					const states = browserStates(heldStates(cookie), { added: state })
					cookie[cookieName(deps)]!.set({ value: browserStatesCookie(states), maxAge: 600, ...cookieOptions(deps) })
					return redirect(url, 303)
				} catch (error) {
					return refused(cookie, next, error, email)
				}
			},
			{ auth: 'form', body: formBody },
		)
		.get(
			'/sign-in/sso/callback',
			async ({ request, cookie, redirect }) => {
				// The provider checks the redirect URI it was given, which is the public one (BASE_URL), not the address this server saw.
				const url = new URL(`${callbackPath}${new URL(request.url).search}`, deps.config.baseUrl)
				const held = browserStates(heldStates(cookie))
				// This sign-in's state is spent whatever comes of it; the other tabs' stay.
				const left = browserStates(heldStates(cookie), { used: url.searchParams.get('state') ?? '' })
				cookie[cookieName(deps)]!.set({ value: browserStatesCookie(left), maxAge: left.length ? 600 : 0, ...cookieOptions(deps) })
				try {
					const result = await finishSsoSignIn(deps, { url, browserStates: held })
					setSessionCookie(deps, cookie, result.token, result.expiresAt)
					return redirect(safeNext(result.next), 303)
				} catch (error) {
					return refused(cookie, '/portal', error)
				}
			},
			{ auth: 'public', query: t.Object({}, { additionalProperties: true }) },
		)
}
