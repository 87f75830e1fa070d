/**
 * SCIM tokens: what an identity provider presents on `/scim/v2` (core/http/auth/scim-token.ts).
 *
 * Rules: only owners create and revoke them (a token provisions people with any role, Owner
 * included); a token is shown once (core/http/reveal-cookie.ts) and stored as its SHA-256; it is
 * checked on every request, so revoking it stops the provider at its next request; it acts as the
 * workspace's SCIM provisioning, logged under the token's name.
 *
 * A token is as good as its creator's word: when they leave the workspace or take a role that may
 * not make tokens, the tokens they made are revoked in the same transaction (`revokeTokensOfCreator`,
 * called by `endMembership` and `changeRole`, the two places every removal and role change goes
 * through: the people page, the CLI, SCIM). Else a removed owner kept a token that provisions
 * anyone as Owner, themselves included. `/settings/sso` tells the remaining owners why
 * (`tokensRevokedWithCreator`), so they can give their provider a new one.
 */
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import { credentialType, hashSecret, newCredential, newId } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError, invalid } from '../../../core/errors.ts'
import { noteUse } from '../../../core/last-used.ts'
import { type Db, perDatabase } from '../../../db/client.ts'
import { recordActivity } from '../../activity/index.ts'
import { memberships, scimTokens, users, workspaces } from '../table.ts'
import { typedLine } from '../../../core/untrusted.ts'

export const MANAGE_SSO = 'auth:manage_sso'

/** Why a token was revoked (`scim_tokens.revoked_reason`): by an owner, or with its creator. */
export type ScimTokenRevocation = 'revoked' | 'creator_left' | 'creator_not_owner'

/** How long `/settings/sso` says a token was revoked with its creator. */
const REVOKED_WITH_CREATOR_SHOWN_MS = 30 * 24 * 3_600_000

export interface ScimTokenView {
	id: string
	name: string
	lastFour: string
	createdAt: Date
	lastUsedAt: Date | null
}

/** A token revoked because the person who made it left the workspace or is no longer an owner. */
export interface RevokedWithCreatorView {
	id: string
	name: string
	lastFour: string
	revokedAt: Date
	reason: 'creator_left' | 'creator_not_owner'
	creatorName: string
	creatorEmail: string
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
			.set({ revokedAt: deps.now(), revokedReason: 'revoked' satisfies ScimTokenRevocation })
			.where(and(eq(scimTokens.id, tokenId), eq(scimTokens.workspaceId, actor.workspaceId), isNull(scimTokens.revokedAt)))
			.returning({ name: scimTokens.name })
		if (!revoked.length) throw new AppError('NOT_FOUND', 'No such SCIM token')
		await recordActivity(tx, actor, { action: 'scim_token.revoked', targetType: 'scim_token', targetId: tokenId, detail: { name: revoked[0]!.name } })
	})
}

/**
 * Revokes, in the caller's transaction, the tokens `userId` made in the workspace, each logged as
 * revoked by `actor` with the reason: they left it (`endMembership`), or their new role may not
 * make tokens (`changeRole`). Tokens made by the operator (no creator) are not anyone's to lose.
 */
export async function revokeTokensOfCreator(
	tx: Db,
	actor: Actor,
	o: { workspaceId: string; userId: string; now: Date; reason: 'creator_left' | 'creator_not_owner' },
): Promise<number> {
	const revoked = await tx
		.update(scimTokens)
		.set({ revokedAt: o.now, revokedReason: o.reason })
		.where(and(eq(scimTokens.workspaceId, o.workspaceId), eq(scimTokens.createdBy, o.userId), isNull(scimTokens.revokedAt)))
		.returning({ id: scimTokens.id, name: scimTokens.name })
	for (const token of revoked)
		await recordActivity(tx, actor, {
			action: 'scim_token.revoked',
			targetType: 'scim_token',
			targetId: token.id,
			detail: { name: token.name, reason: o.reason },
		})
	return revoked.length
}

/** The tokens revoked with their creator in the last 30 days, newest first, with who made them (for `/settings/sso`). */
export async function tokensRevokedWithCreator(deps: AppDeps, actor: Actor): Promise<RevokedWithCreatorView[]> {
	requireManageSso(deps, actor)
	const rows = await deps.db
		.select({
			id: scimTokens.id,
			name: scimTokens.name,
			lastFour: scimTokens.lastFour,
			revokedAt: scimTokens.revokedAt,
			reason: scimTokens.revokedReason,
			creatorName: users.name,
			creatorEmail: users.email,
		})
		.from(scimTokens)
		.innerJoin(users, eq(users.id, scimTokens.createdBy))
		.where(
			and(
				eq(scimTokens.workspaceId, actor.workspaceId),
				inArray(scimTokens.revokedReason, ['creator_left', 'creator_not_owner']),
				gt(scimTokens.revokedAt, new Date(deps.now().getTime() - REVOKED_WITH_CREATOR_SHOWN_MS)),
			),
		)
		.orderBy(desc(scimTokens.revokedAt), desc(scimTokens.id))
	return rows.map((r) => ({ ...r, revokedAt: r.revokedAt!, reason: r.reason as RevokedWithCreatorView['reason'] }))
}

const lookupStatement = perDatabase((db) =>
	db
		.select({
			id: scimTokens.id,
			name: scimTokens.name,
			lastUsedAt: scimTokens.lastUsedAt,
			workspaceId: workspaces.id,
			slug: workspaces.slug,
			createdBy: scimTokens.createdBy,
			creatorRole: memberships.role,
		})
		.from(scimTokens)
		.innerJoin(workspaces, eq(workspaces.id, scimTokens.workspaceId))
		.leftJoin(
			memberships,
			and(eq(memberships.workspaceId, scimTokens.workspaceId), eq(memberships.userId, scimTokens.createdBy), isNull(memberships.removedAt)),
		)
		.where(and(eq(scimTokens.tokenHash, sql.placeholder('hash')), isNull(scimTokens.revokedAt)))
		.prepare('scim_token_lookup'),
)

/**
 * The workspace's SCIM provisioning behind a token (acting as an owner), or null when unknown or
 * revoked, or when its creator is no longer in the workspace with a role that makes tokens (their
 * tokens are revoked then; this holds even for a path that forgot to).
 */
export async function verifyScimToken(deps: AppDeps, token: string): Promise<Actor | null> {
	if (credentialType(token) !== 'scim') return null
	const [row] = await lookupStatement(deps.db).execute({ hash: hashSecret(token) })
	if (!row) return null
	if (row.createdBy !== null && (row.creatorRole === null || !deps.permissions.roleHas(row.creatorRole as Actor['role'], MANAGE_SSO))) return null
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
