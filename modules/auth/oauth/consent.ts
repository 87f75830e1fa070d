/**
 * One-time consent form tokens (checklist C10, OWASP CSRF cheat sheet).
 *
 * The session's CSRF token (core/http/csrf.ts) proves a post comes from a page of this session, but
 * it is the same for every form of the session. The consent form also carries a token of its own:
 * made when the consent page is shown, stored (as SHA-256) with the session and the exact
 * authorization request on that page, and deleted by the first Allow or Cancel. A replayed post, or a
 * token from another session or another request, finds no row and mints no code.
 */
import { and, eq, gt } from 'drizzle-orm'
import { hashSecret, randomToken } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { oauthConsentRequests } from '../table.ts'
import { storable } from './client-text.ts'

/**
 * How long a consent page may stay open before its buttons stop working. Long enough to read the
 * page and come back from a coffee; the app's own sign-in attempt usually gives up sooner.
 */
export const CONSENT_TTL_MS = 30 * 60_000

/** Remembers the consent page being shown; returns the token its form must carry. */
export async function openConsent(deps: AppDeps, session: PageSession, clientId: string, request: string): Promise<string> {
	const token = randomToken(20)
	await deps.db
		.insert(oauthConsentRequests)
		.values({ id: hashSecret(token), sessionId: session.sessionId, clientId, request, expiresAt: new Date(deps.now().getTime() + CONSENT_TTL_MS) })
	return token
}

/**
 * Uses up the consent form's token: true once, for the session that saw the page and the request
 * that was on it, before it expires; false for anything else (missing, replayed, foreign, late).
 */
export async function takeConsent(deps: AppDeps, session: PageSession, token: unknown, request: string): Promise<boolean> {
	// A request holding a NUL character was never on a consent page (the authorization request is refused first).
	if (typeof token !== 'string' || !/^[a-z2-7]{32}$/.test(token) || !storable(request)) return false
	const taken = await deps.db
		.delete(oauthConsentRequests)
		.where(
			and(
				eq(oauthConsentRequests.id, hashSecret(token)),
				eq(oauthConsentRequests.sessionId, session.sessionId),
				eq(oauthConsentRequests.request, request),
				gt(oauthConsentRequests.expiresAt, deps.now()),
			),
		)
		.returning({ id: oauthConsentRequests.id })
	return taken.length === 1
}
