/**
 * SCIM tokens: what an identity provider presents on `/scim/v2` (core/http/auth/scim-token.ts).
 *
 * Rules: only owners create and revoke them (a token provisions people with any role, Owner
 * included); a token is shown once (core/http/reveal-cookie.ts) and stored as its SHA-256; it is
 * checked on every request, so revoking it stops the provider at its next request; it acts as the
 * workspace's SCIM provisioning, logged under the token's name.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import { credentialType, hashSecret, newCredential, newId } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError, invalid } from '../../../core/errors.ts'
import { noteUse } from '../../../core/last-used.ts'
import { perDatabase } from '../../../db/client.ts'
import { recordActivity } from '../../activity/index.ts'
import { scimTokens, workspaces } from '../table.ts'
import { typedLine } from '../../../core/untrusted.ts'

export const MANAGE_SSO = 'auth:manage_sso'

export interface ScimTokenView {
	id: string
	name: string
	lastFour: string
	createdAt: Date
	lastUsedAt: Date | null
}

export function requireManageSso(deps: AppDeps, actor: Actor): void {
	if (!deps.permissions.can(actor, MANAGE_SSO)) throw new AppError('FORBIDDEN', 'Only owners manage single sign-on and SCIM provisioning')
}

export async function createScimToken(deps: AppDeps, actor: Actor, input: { name: string }): Promise<{ tokenId: string; token: string }> {
	requireManageSso(deps, actor)
	// The name shows next to every change the provider makes: one line of visible text (`typedLine`); none typed, a default.
	const { line, problem } = typedLine(input.name, 80, { optional: true })
	if (problem) throw invalid([{ field: 'name', message: problem }])
	const name = line || 'Identity provider'
	const token = newCredential('scim')
	const tokenId = newId('scim')
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(scimTokens)
			.values({ id: tokenId, workspaceId: actor.workspaceId, name, tokenHash: hashSecret(token), lastFour: token.slice(-4), createdBy: actor.userId })
		await recordActivity(tx, actor, { action: 'scim_token.created', targetType: 'scim_token', targetId: tokenId, detail: { name } })
	})
	return { tokenId, token }
}

export async function listScimTokens(deps: AppDeps, actor: Actor): Promise<ScimTokenView[]> {
	requireManageSso(deps, actor)
	return deps.db
		.select({ id: scimTokens.id, name: scimTokens.name, lastFour: scimTokens.lastFour, createdAt: scimTokens.createdAt, lastUsedAt: scimTokens.lastUsedAt })
		.from(scimTokens)
		.where(and(eq(scimTokens.workspaceId, actor.workspaceId), isNull(scimTokens.revokedAt)))
		.orderBy(desc(scimTokens.createdAt), desc(scimTokens.id))
}

export async function revokeScimToken(deps: AppDeps, actor: Actor, tokenId: string): Promise<void> {
	requireManageSso(deps, actor)
	await deps.db.transaction(async (tx) => {
		const revoked = await tx
			.update(scimTokens)
			.set({ revokedAt: deps.now() })
			.where(and(eq(scimTokens.id, tokenId), eq(scimTokens.workspaceId, actor.workspaceId), isNull(scimTokens.revokedAt)))
			.returning({ name: scimTokens.name })
		if (!revoked.length) throw new AppError('NOT_FOUND', 'No such SCIM token')
		await recordActivity(tx, actor, { action: 'scim_token.revoked', targetType: 'scim_token', targetId: tokenId, detail: { name: revoked[0]!.name } })
	})
}

const lookupStatement = perDatabase((db) =>
	db
		.select({ id: scimTokens.id, name: scimTokens.name, lastUsedAt: scimTokens.lastUsedAt, workspaceId: workspaces.id, slug: workspaces.slug })
		.from(scimTokens)
		.innerJoin(workspaces, eq(workspaces.id, scimTokens.workspaceId))
		.where(and(eq(scimTokens.tokenHash, sql.placeholder('hash')), isNull(scimTokens.revokedAt)))
		.prepare('scim_token_lookup'),
)

/** The workspace's SCIM provisioning behind a token (acting as an owner), or null when unknown or revoked. */
export async function verifyScimToken(deps: AppDeps, token: string): Promise<Actor | null> {
	if (credentialType(token) !== 'scim') return null
	const [row] = await lookupStatement(deps.db).execute({ hash: hashSecret(token) })
	if (!row) return null
	noteUse(deps, row.lastUsedAt, (now) => deps.db.update(scimTokens).set({ lastUsedAt: now }).where(eq(scimTokens.id, row.id)))
	return {
		workspaceId: row.workspaceId,
		workspaceSlug: row.slug,
		role: 'owner',
		userId: null,
		vendorId: null,
		name: 'SCIM provisioning',
		credential: { kind: 'scim_token', id: row.id, name: row.name },
		grants: [],
		readOnly: false,
	}
}
