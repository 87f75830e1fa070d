/**
 * The refresh grant (RFC 6749 §6, OAuth 2.1 §4.3.1).
 *
 * Rules:
 * - A refresh token is replaced on each use (a new access and refresh token); it lasts 30 days.
 * - `scope` may ask for less than the grant (`mcp:read` of an `mcp` grant): that access token gets
 *   the narrower scope (read-only at /api/mcp). The new refresh token keeps the grant's scope, as
 *   RFC 6749 §6 requires ("identical to that of the refresh token included by the client"), so a
 *   later refresh without `scope` gets it all again. More than granted, or a scope we do not know,
 *   is `invalid_scope`.
 * - A replaced refresh token presented again within 60 seconds of its replacement (clients refresh
 *   in parallel, or retry after an answer was lost) gets the answer its first use got, while that
 *   answer still works: the same scope asked, its access token not revoked, its refresh token neither
 *   used nor revoked since. Otherwise `invalid_grant`, and nothing is revoked: inside the window a
 *   replay is taken for a parallel client, not a thief. After the window, any use revokes the whole
 *   family (the grant).
 * - A client known by its metadata document is checked again first (client-document-check.ts).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { sha256 } from '@oslojs/crypto/sha2'
import { decodeBase64, encodeBase64 } from '@oslojs/encoding'
import { credentialType, hashSecret } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { oauthGrants, oauthTokens } from '../table.ts'
import { SCOPES, scopeValues, unknownScopes, writesAllowed } from './authorize.ts'
import { type Client, usesRefreshTokens } from './clients.ts'
import { OAuthError } from './errors.ts'
import { checkResource, clientNow, issuePair, requireClient, requireDocumentStill, revokeGrant, stillMember, type TokenResponse } from './tokens.ts'

/** A replaced refresh token returns its successor for this long (parallel refreshes). */
export const REFRESH_GRACE_MS = 60_000

const encoder = new TextEncoder()
const invalid = (why: string) => new OAuthError('invalid_grant', why)

/**
 * The scope of the access token a refresh issues: the grant's when none is asked, what is asked
 * when the grant covers it (`mcp` covers `mcp:read`), `invalid_scope` otherwise.
 */
export function refreshScope(grantScope: string, asked: string | null): string {
	const wanted = scopeValues(asked)
	if (!wanted.length) return grantScope
	const unknown = unknownScopes(wanted)
	if (unknown.length) throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(' ')}: this server issues ${SCOPES.join(' and ')}`)
	const allowed = writesAllowed(grantScope) ? ['mcp', 'mcp:read'] : ['mcp:read']
	if (wanted.some((s) => !allowed.includes(s))) throw new OAuthError('invalid_scope', `The grant allows only: ${grantScope}`)
	return wanted.includes('mcp') ? 'mcp' : 'mcp:read'
}

export async function refreshTokens(deps: AppDeps, form: URLSearchParams): Promise<TokenResponse> {
	const token = form.get('refresh_token')
	if (token === null) throw new OAuthError('invalid_request', 'refresh_token is required')
	// Checked before any database query, the client's included (as for codes).
	if (credentialType(token) !== 'rt') throw invalid('The refresh token is not valid')
	const client = await requireClient(deps, form)
	requireRefreshGrant(client)
	const row = await liveRefreshToken(deps, token, client.id)
	checkResource(deps, form.get('resource'), row.grant.resource)
	const scope = refreshScope(row.grant.scope, form.get('scope'))
	if (!(await stillMember(deps.db, row.grant.workspaceId, row.grant.userId))) {
		await revokeGrant(deps, row.grant.id, 'person_left')
		throw invalid('The person is no longer in the workspace')
	}
	await requireDocumentStill(deps, client, row.grant.redirectUri, row.grant.id)
	// A document just fetched again may have dropped the grant: its refresh tokens stop with it.
	requireRefreshGrant(await clientNow(deps, client))
	if (row.token.replacedAt) return replayed(deps, token, row.grant.id, row.token, scope)
	return rotate(deps, token, row.grant, scope)
}

/** RFC 6749 §5.2: a client that did not ask for the refresh_token grant may not use it. */
function requireRefreshGrant(client: Client) {
	if (!usesRefreshTokens(client))
		throw new OAuthError(
			'unauthorized_client',
			'This client did not ask for the refresh_token grant (its grant_types): it gets no refresh tokens; send the person through authorization again',
		)
}

type RefreshRow = Awaited<ReturnType<typeof liveRefreshToken>>

/** The refresh token's row and grant, when the token is this client's, unrevoked and unexpired. */
async function liveRefreshToken(deps: AppDeps, token: string, clientId: string) {
	const [row] = await deps.db
		.select({ token: oauthTokens, grant: oauthGrants })
		.from(oauthTokens)
		.innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
		.where(and(eq(oauthTokens.id, hashSecret(token)), eq(oauthTokens.kind, 'refresh')))
	if (!row || row.grant.clientId !== clientId) throw invalid('The refresh token is not valid')
	if (row.grant.revokedAt || row.token.revokedAt) throw invalid('The refresh token has been revoked')
	if (deps.now() > row.token.expiresAt) throw invalid('The refresh token has expired; sign in again')
	return row
}

/** Replaces the token: the new pair, and the old token marked replaced with the pair sealed for its presenter. */
async function rotate(deps: AppDeps, token: string, grant: RefreshRow['grant'], scope: string): Promise<TokenResponse> {
	const id = hashSecret(token)
	return deps.db
		.transaction(async (tx) => {
			const pair = await issuePair(deps, tx, grant, scope)
			const rotated = await tx
				.update(oauthTokens)
				.set({ replacedAt: deps.now(), successor: await seal(token, pair) })
				.where(and(eq(oauthTokens.id, id), isNull(oauthTokens.replacedAt)))
				.returning({ id: oauthTokens.id })
			if (!rotated.length) throw new RotationRace()
			return pair
		})
		.catch(async (error) => {
			if (!(error instanceof RotationRace)) throw error
			// A parallel refresh with the same token rotated it first: answered as a replay.
			const [again] = await deps.db
				.select({ replacedAt: oauthTokens.replacedAt, successor: oauthTokens.successor })
				.from(oauthTokens)
				.where(eq(oauthTokens.id, id))
			return replayed(deps, token, grant.id, again!, scope)
		})
}

class RotationRace extends Error {}

/** A replaced token presented again: its first answer inside the grace window (graceAnswer), else the family ends. */
async function replayed(
	deps: AppDeps,
	token: string,
	grantId: string,
	used: { replacedAt: Date | null; successor: string | null },
	scope: string,
): Promise<TokenResponse> {
	if (used.successor && used.replacedAt && deps.now().getTime() - used.replacedAt.getTime() <= REFRESH_GRACE_MS)
		return graceAnswer(deps, token, used.successor, scope)
	await revokeGrant(deps, grantId, 'refresh_replay')
	throw invalid('The refresh token was already used; every token of this connection is revoked')
}

/**
 * The answer the token's first use got, again, if it still works: asked for the same scope, its
 * access token not revoked, its refresh token neither used nor revoked since (handing out a used
 * one would make its next use a replay that ends the connection). Else a refusal that ends nothing.
 */
async function graceAnswer(deps: AppDeps, token: string, sealed: string, scope: string): Promise<TokenResponse> {
	const answer = await unseal(token, sealed)
	if (answer.scope !== scope) throw invalid(`The refresh token was already used, for scope ${answer.scope}: use the refresh token it was exchanged for`)
	const rows = await deps.db
		.select({ kind: oauthTokens.kind, revokedAt: oauthTokens.revokedAt, replacedAt: oauthTokens.replacedAt })
		.from(oauthTokens)
		.where(inArray(oauthTokens.id, [hashSecret(answer.access_token), hashSecret(answer.refresh_token ?? '')]))
	const access = rows.find((r) => r.kind === 'access')
	const refresh = rows.find((r) => r.kind === 'refresh')
	if (!access || access.revokedAt || !refresh || refresh.revokedAt || refresh.replacedAt)
		throw invalid('The refresh token was already used, and the tokens it was exchanged for have since been used or revoked: use the newest refresh token')
	return answer
}

/** Seals the successor pair with a key only the presenter of the old refresh token can derive. */
async function keyFrom(oldToken: string) {
	return crypto.subtle.importKey('raw', new Uint8Array(sha256(encoder.encode(`successor:${oldToken}`))), 'AES-GCM', false, ['encrypt', 'decrypt'])
}
async function seal(oldToken: string, value: TokenResponse): Promise<string> {
	const iv = crypto.getRandomValues(new Uint8Array(12))
	const data = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyFrom(oldToken), encoder.encode(JSON.stringify(value))))
	return encodeBase64(new Uint8Array([...iv, ...data]))
}
async function unseal(oldToken: string, sealed: string): Promise<TokenResponse> {
	const bytes = decodeBase64(sealed)
	const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, await keyFrom(oldToken), bytes.slice(12))
	return JSON.parse(new TextDecoder().decode(plain))
}
