/**
 * The token endpoint's code exchange, revocation and access-token checks (refresh.ts: the refresh grant).
 *
 * Rules:
 * - Codes work once within 60 seconds, for the same client, redirect address, PKCE verifier and
 *   resource. `redirect_uri` is required only when the authorization request named it (RFC 6749
 *   §4.1.3); when sent, it must be the address the code was issued for. A replayed code (with a
 *   valid verifier) revokes the tokens issued from it. A missing `code` is `invalid_request`.
 * - Access tokens last 1 hour; refresh tokens 30 days and are replaced on each use (refresh.ts).
 *   A client whose grants lack refresh_token (its registration or metadata document) gets an
 *   access token alone (RFC 6749 §5.1: the refresh token is optional), and may not refresh.
 * - An access token carries its grant's scope, or the narrower one its refresh asked for
 *   (`oauth_tokens.scope`): read-only access at /api/mcp follows the token's scope.
 * - A client known by its metadata document is checked again before any token is issued
 *   (client-document-check.ts): gone, invalid or no longer listing the grant's redirect address is
 *   `invalid_client`, and the connection ends.
 * - Tokens are opaque, prefixed, stored as SHA-256, and bound to the person, the client and the
 *   resource. Every request checks the grant and the membership, so Disconnect, revocation and
 *   leaving the workspace take effect at once.
 */
import { and, eq, isNull, sql } from 'drizzle-orm'
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'
import type { Actor } from '../../../core/actor.ts'
import { credentialType, hashSecret, newCredential, newId, safeEqual } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { perDatabase, type Db } from '../../../db/client.ts'
import { membershipColumns, noteUse, personActorFrom } from '../credential-use.ts'
import { memberships, oauthClients, oauthCodes, oauthGrants, oauthTokens, users, workspaces } from '../table.ts'
import { AuthorizeRedirectError, mcpResource, normaliseResource, writesAllowed } from './authorize.ts'
import { checkDocumentClient } from './client-document-check.ts'
import { isDocumentClientId } from './client-documents.ts'
import { type Client, findClient, usesRefreshTokens } from './clients.ts'
import { OAuthError } from './errors.ts'

export const ACCESS_TTL_S = 3600
export const REFRESH_TTL_MS = 30 * 86_400_000

export interface TokenResponse {
	access_token: string
	token_type: 'Bearer'
	expires_in: number
	/** Absent for a client that did not ask for the refresh_token grant. */
	refresh_token?: string
	scope: string
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const encoder = new TextEncoder()

/**
 * A new pair for a grant: the access token of `scope` (the grant's, unless a refresh asked for less),
 * the refresh token of the grant's scope (RFC 6749 §6); the access token alone with `refresh: false`.
 */
export async function issuePair(
	deps: AppDeps,
	db: Db,
	grant: { id: string; scope: string },
	scope = grant.scope,
	o: { refresh: boolean } = { refresh: true },
): Promise<TokenResponse> {
	const access = newCredential('at')
	const refresh = o.refresh ? newCredential('rt') : null
	const now = deps.now().getTime()
	await db.insert(oauthTokens).values([
		{
			id: hashSecret(access),
			grantId: grant.id,
			kind: 'access',
			scope: scope === grant.scope ? null : scope,
			expiresAt: new Date(now + ACCESS_TTL_S * 1000),
		},
		...(refresh ? [{ id: hashSecret(refresh), grantId: grant.id, kind: 'refresh', expiresAt: new Date(now + REFRESH_TTL_MS) }] : []),
	])
	return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TTL_S, ...(refresh ? { refresh_token: refresh } : {}), scope }
}

/** The client the request names, from its row (no outbound request): unknown is `invalid_client`. */
export async function requireClient(deps: AppDeps, form: URLSearchParams): Promise<Client> {
	const client = await findClient(deps, form.get('client_id') ?? '')
	if (!client) throw new OAuthError('invalid_client', 'Unknown client_id: register the app again', 401)
	return client
}

/**
 * A client known by its metadata document must still be one before a token is issued
 * (client-document-check.ts): when the verdict ends the connection, its grant is revoked.
 */
export async function requireDocumentStill(deps: AppDeps, client: Client, redirectUri: string | null, grantId: string | null): Promise<void> {
	if (!isDocumentClientId(client.id)) return
	const verdict = await checkDocumentClient(deps, client.id, redirectUri)
	if (verdict.usable) return
	if (verdict.ends) await revokeGrant(deps, grantId, 'client_document')
	throw new OAuthError(
		'invalid_client',
		verdict.ends ? `${verdict.reason}: this connection has ended; connect the app again` : `${verdict.reason}; try again later`,
		401,
	)
}

/**
 * The client as its row says now: a metadata document checked again just before (requireDocumentStill)
 * may have changed its grants since the request's client was read.
 */
export async function clientNow(deps: AppDeps, client: Client): Promise<Client> {
	return isDocumentClientId(client.id) ? ((await findClient(deps, client.id)) ?? client) : client
}

export async function stillMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
	const [row] = await db
		.select({ role: memberships.role })
		.from(memberships)
		.where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId), isNull(memberships.removedAt)))
	return Boolean(row)
}

export async function revokeGrant(deps: AppDeps, grantId: string | null, reason: string) {
	if (!grantId) return
	await deps.db
		.update(oauthGrants)
		.set({ revokedAt: deps.now(), revokedReason: reason })
		.where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)))
}

const s256 = (verifier: string) => encodeBase64urlNoPadding(sha256(encoder.encode(verifier)))

export function checkResource(deps: AppDeps, requested: string | null, bound: string) {
	try {
		if (requested !== null && normaliseResource(deps, requested) !== bound)
			throw new AuthorizeRedirectError('invalid_target', 'resource differs from the one authorized')
	} catch (e) {
		throw new OAuthError('invalid_target', (e as Error).message)
	}
}

export async function exchangeCode(deps: AppDeps, form: URLSearchParams): Promise<TokenResponse> {
	const code = form.get('code')
	if (code === null) throw new OAuthError('invalid_request', 'code is required')
	const verifier = form.get('code_verifier') ?? ''
	const invalid = (why: string) => new OAuthError('invalid_grant', why)
	// A mistyped or forged code fails its checksum before any database query, the client's included.
	if (credentialType(code) !== 'code') throw invalid('The authorization code is not valid')
	const client = await requireClient(deps, form)
	const id = hashSecret(code)
	const [row] = await deps.db.select().from(oauthCodes).where(eq(oauthCodes.id, id))
	if (!row || row.clientId !== client.id) throw invalid('The authorization code is not valid')
	const redirectUri = form.get('redirect_uri')
	if (row.redirectUriSent && redirectUri === null) throw invalid('redirect_uri is required: it was sent with the authorization request')
	if (redirectUri !== null && redirectUri !== row.redirectUri) throw invalid('redirect_uri differs from the one used to get the code')
	if (!VERIFIER.test(verifier) || !safeEqual(s256(verifier), row.codeChallenge)) throw invalid('code_verifier does not match the code_challenge')
	checkResource(deps, form.get('resource'), row.resource)
	if (row.usedAt) {
		// Replayed with a valid verifier: whoever got the first exchange may be an attacker.
		await revokeGrant(deps, row.grantId, 'code_replay')
		throw invalid('The authorization code was already used; the tokens issued from it are revoked')
	}
	if (deps.now() > row.expiresAt) throw invalid('The authorization code has expired (codes last 60 seconds)')
	if (!(await stillMember(deps.db, row.workspaceId, row.userId))) throw invalid('The person is no longer in the workspace')
	await requireDocumentStill(deps, client, row.redirectUri, null)
	const refresh = usesRefreshTokens(await clientNow(deps, client))

	const result = await deps.db.transaction(async (tx) => {
		const consumed = await tx
			.update(oauthCodes)
			.set({ usedAt: deps.now() })
			.where(and(eq(oauthCodes.id, id), isNull(oauthCodes.usedAt)))
			.returning({ id: oauthCodes.id })
		if (!consumed.length) return null
		const grantId = newId('grant')
		await tx.insert(oauthGrants).values({
			id: grantId,
			clientId: client.id,
			userId: row.userId,
			workspaceId: row.workspaceId,
			scope: row.scope,
			readOnly: row.readOnly,
			resource: row.resource,
			redirectUri: row.redirectUri,
		})
		await tx.update(oauthCodes).set({ grantId }).where(eq(oauthCodes.id, id))
		return issuePair(deps, tx, { id: grantId, scope: row.scope }, row.scope, { refresh })
	})
	if (result) return result
	// Lost a race with a parallel exchange of the same code: treat it as a replay.
	const [after] = await deps.db.select({ grantId: oauthCodes.grantId }).from(oauthCodes).where(eq(oauthCodes.id, id))
	await revokeGrant(deps, after?.grantId ?? null, 'code_replay')
	throw invalid('The authorization code was already used; the tokens issued from it are revoked')
}

/** RFC 7009: revoking a refresh token ends its whole connection; an access token only itself. */
export async function revokeToken(deps: AppDeps, form: URLSearchParams): Promise<void> {
	const token = form.get('token')
	if (!token) throw new OAuthError('invalid_request', 'token is required')
	const type = credentialType(token)
	if (type !== 'at' && type !== 'rt') return
	const [row] = await deps.db
		.select({ kind: oauthTokens.kind, grantId: oauthTokens.grantId, clientId: oauthGrants.clientId })
		.from(oauthTokens)
		.innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
		.where(eq(oauthTokens.id, hashSecret(token)))
	// A public client may only revoke its own tokens; anything else is silently ignored.
	if (!row || row.clientId !== form.get('client_id')) return
	if (row.kind === 'refresh') await revokeGrant(deps, row.grantId, 'revoked')
	else
		await deps.db
			.update(oauthTokens)
			.set({ revokedAt: deps.now() })
			.where(eq(oauthTokens.id, hashSecret(token)))
}

const accessLookup = perDatabase((db) =>
	db
		.select({
			expiresAt: oauthTokens.expiresAt,
			revokedAt: oauthTokens.revokedAt,
			tokenScope: oauthTokens.scope,
			grantId: oauthGrants.id,
			grantScope: oauthGrants.scope,
			readOnly: oauthGrants.readOnly,
			resource: oauthGrants.resource,
			lastUsedAt: oauthGrants.lastUsedAt,
			clientName: oauthClients.name,
			...membershipColumns,
		})
		.from(oauthTokens)
		.innerJoin(oauthGrants, and(eq(oauthGrants.id, oauthTokens.grantId), isNull(oauthGrants.revokedAt)))
		.innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
		.innerJoin(users, eq(users.id, oauthGrants.userId))
		.innerJoin(workspaces, eq(workspaces.id, oauthGrants.workspaceId))
		.innerJoin(
			memberships,
			and(eq(memberships.userId, oauthGrants.userId), eq(memberships.workspaceId, oauthGrants.workspaceId), isNull(memberships.removedAt)),
		)
		.where(and(eq(oauthTokens.id, sql.placeholder('hash')), eq(oauthTokens.kind, 'access')))
		.prepare('oauth_access_lookup'),
)

/** The person behind an OAuth access token minted for our MCP address; null otherwise. */
export async function verifyAccessToken(deps: AppDeps, token: string): Promise<Actor | null> {
	if (credentialType(token) !== 'at') return null
	const [row] = await accessLookup(deps.db).execute({ hash: hashSecret(token) })
	if (!row || row.revokedAt || deps.now() > row.expiresAt || row.resource !== mcpResource(deps)) return null
	noteUse(deps, row.lastUsedAt, (now) => deps.db.update(oauthGrants).set({ lastUsedAt: now }).where(eq(oauthGrants.id, row.grantId)))
	// Read-only when the grant is, or when this token was issued for less (a narrower refresh).
	const readOnly = row.readOnly || !writesAllowed(row.tokenScope ?? row.grantScope)
	return personActorFrom(row, { kind: 'oauth_app', id: row.grantId, name: row.clientName }, readOnly)
}
