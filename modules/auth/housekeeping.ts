/**
 * Periodic clean-up of what expires: failed sign-in records past the slow-down window, expired
 * sessions and sign-in choices, consent pages and authorization codes, and apps that registered but never got a grant.
 * Plain DELETEs, safe when several instances run them at once.
 */
import { and, eq, lt, notExists } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { normaliseStoredAddresses } from './stored-addresses.ts'
import { oauthClients, oauthCodes, oauthConsentRequests, oauthGrants, oauthTokens, sessions, signInChoices, signInFailures } from './table.ts'
import { runEvery } from '../../core/every.ts'

const HOUR = 3_600_000

/**
 * An app registered through dynamic registration (anyone may register, 20 a minute per address)
 * that has no code and no grant this long after registering is removed. Registering is the first
 * step of a sign-in that takes minutes, so a day is far more than a real app needs, and it bounds
 * what registration spam can leave behind (checklist B5). Apps that were ever allowed are kept,
 * disconnected ones included: they show in people's history of connected apps. An app that comes
 * back later with a removed client_id gets an error page telling the person to connect it again.
 */
export const ABANDONED_CLIENT_MS = 24 * HOUR

export async function cleanUp(deps: AppDeps): Promise<void> {
	const now = deps.now().getTime()
	await deps.db.delete(signInFailures).where(lt(signInFailures.at, new Date(now - 24 * HOUR)))
	await deps.db.delete(sessions).where(lt(sessions.expiresAt, new Date(now)))
	await deps.db.delete(signInChoices).where(lt(signInChoices.expiresAt, new Date(now)))
	await deps.db.delete(oauthConsentRequests).where(lt(oauthConsentRequests.expiresAt, new Date(now)))
	await deps.db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, new Date(now - 24 * HOUR)))
	// Tokens past their end (access tokens, and refresh tokens replaced, revoked or not) open nothing
	// and answer nothing: a day later they go. Grants stay (the history of connected apps).
	await deps.db.delete(oauthTokens).where(lt(oauthTokens.expiresAt, new Date(now - 24 * HOUR)))
	await deleteAbandonedClients(deps, new Date(now - ABANDONED_CLIENT_MS))
}

/**
 * Clients registered before `before` that never got a grant: none in oauth_grants (a grant is made
 * when a code is exchanged, and kept after Disconnect), no code (Allow issues one; an unexchanged
 * code is kept a day past its expiry, then the app counts as abandoned too), and no consent page
 * open right now.
 */
async function deleteAbandonedClients(deps: AppDeps, before: Date) {
	const db = deps.db
	await db
		.delete(oauthClients)
		.where(
			and(
				lt(oauthClients.createdAt, before),
				notExists(db.select({ one: oauthGrants.id }).from(oauthGrants).where(eq(oauthGrants.clientId, oauthClients.id))),
				notExists(db.select({ one: oauthCodes.id }).from(oauthCodes).where(eq(oauthCodes.clientId, oauthClients.id))),
				notExists(db.select({ one: oauthConsentRequests.id }).from(oauthConsentRequests).where(eq(oauthConsentRequests.clientId, oauthClients.id))),
			),
		)
}

export function startHousekeeping(deps: AppDeps): () => Promise<void> {
	// Once per start: addresses stored before they had one normal form (core/stored-addresses.ts, which logs its failures and never throws).
	void normaliseStoredAddresses(deps)
	return runEvery(deps.log, { everyMs: HOUR, failure: 'auth clean-up failed' }, () => cleanUp(deps))
}
