/**
 * CSRF protection for every form. Signed-in forms carry a token derived from the session
 * (HMAC with the server secret), so it is bound to that session; anonymous forms (sign-in) use a
 * double-submit cookie. Both are compared in constant time, and a cross-site `Origin` is refused.
 */
import { hmacSha256, randomToken, safeEqual } from '../credentials.ts'
import { AppError } from '../errors.ts'
import type { AppDeps } from '../deps.ts'
import { askedOrigin } from './request-path.ts'

export const CSRF_COOKIE = 'csrf'

/** The CSRF token of a signed-in session (derived; nothing to store). */
export function sessionCsrf(deps: Pick<AppDeps, 'secret'>, sessionId: string): string {
	return hmacSha256(deps.secret, `csrf:${sessionId}`).toString('base64url').slice(0, 32)
}

/** Returns the anonymous-form token, setting the double-submit cookie when there is none yet. */
export function anonymousCsrf(deps: Pick<AppDeps, 'config'>, cookie: Record<string, any>): string {
	const jar = cookie[CSRF_COOKIE]
	let value = typeof jar?.value === 'string' && /^[a-z0-9]{32}$/.test(jar.value) ? jar.value : ''
	if (!value) {
		value = randomToken(20)
		jar.set({ value, httpOnly: true, secure: deps.config.https, sameSite: 'lax', path: '/', maxAge: 60 * 60 * 2 })
	}
	return value
}

/**
 * Refuses a form post whose token does not match, or that comes from another site: an `Origin` that
 * is neither `BASE_URL` nor the origin the client addressed (a page opened under another name).
 */
export function verifyCsrf(deps: Pick<AppDeps, 'config'>, request: Request, submitted: unknown, expected: string): void {
	const origin = request.headers.get('origin')
	if (origin && origin !== 'null' && origin !== deps.config.baseUrl && origin !== askedOrigin(request))
		throw new AppError('FORBIDDEN', 'This form was sent from another site.')
	if (typeof submitted !== 'string' || !expected || !safeEqual(submitted, expected))
		throw new AppError('FORBIDDEN', 'This form has expired. Go back, reload the page and try again.')
}
