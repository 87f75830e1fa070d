/**
 * Personal tokens (`bl_pat_…`) for assistant apps that take a bearer token.
 *
 * Rules: a token is named by its person, shown once at creation and stored only as SHA-256;
 * it is checked on every request, so revocation and leaving the workspace take effect at once;
 * owners and admins see and revoke everyone's tokens, other people only their own; every change
 * made with a token is logged with the token's name.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../core/actor.ts'
import { isAdmin } from '../../core/actor.ts'
import { credentialType, hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { perDatabase } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { membershipColumns, noteUse, personActorFrom } from './credential-use.ts'
import { mayEndCredentialsOf, OWNER_CREDENTIALS_ONLY } from './owners.ts'
import { memberships, personalTokens, users, workspaces } from './table.ts'
import { normalEmail } from '../../core/email.ts'
import { typedLine } from '../../core/untrusted.ts'

export interface TokenView {
	id: string
	name: string
	ownerName: string
	ownerEmail: string
	lastFour: string
	createdAt: Date
	lastUsedAt: Date | null
	mine: boolean
	/** Whether the reader may revoke it (an admin may not revoke an owner's). */
	mayRevoke: boolean
}

/** The longest token name (code points). */
export const MAX_TOKEN_NAME = 80

/** The token's name as stored is what every change made with it shows, so it is one line of visible text (`typedLine`). */
export async function createPersonalToken(deps: AppDeps, actor: Actor, input: { name: string }): Promise<{ tokenId: string; token: string; name: string }> {
	const { line: name, problem } = typedLine(input.name, MAX_TOKEN_NAME)
	if (problem) throw invalid([{ field: 'name', message: problem }])
	if (!actor.userId) throw new AppError('FORBIDDEN', 'Only a person can create a personal token')
	const token = newCredential('pat')
	const tokenId = newId('pat')
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(personalTokens)
			.values({ id: tokenId, workspaceId: actor.workspaceId, userId: actor.userId!, name, tokenHash: hashSecret(token), lastFour: token.slice(-4) })
		await recordActivity(tx, actor, { action: 'token.created', targetType: 'personal_token', targetId: tokenId, detail: { name } })
	})
	return { tokenId, token, name }
}

/** Live tokens the actor may see: everyone's for owners and admins, otherwise their own. */
export async function listPersonalTokens(deps: AppDeps, actor: Actor): Promise<TokenView[]> {
	const rows = await deps.db
		.select({
			id: personalTokens.id,
			name: personalTokens.name,
			userId: personalTokens.userId,
			ownerName: users.name,
			ownerEmail: users.email,
			lastFour: personalTokens.lastFour,
			createdAt: personalTokens.createdAt,
			lastUsedAt: personalTokens.lastUsedAt,
			role: memberships.role,
		})
		.from(personalTokens)
		.innerJoin(users, eq(users.id, personalTokens.userId))
		.leftJoin(
			memberships,
			and(eq(memberships.userId, personalTokens.userId), eq(memberships.workspaceId, personalTokens.workspaceId), isNull(memberships.removedAt)),
		)
		.where(
			and(
				eq(personalTokens.workspaceId, actor.workspaceId),
				isNull(personalTokens.revokedAt),
				isAdmin(actor) ? undefined : eq(personalTokens.userId, actor.userId ?? ''),
			),
		)
		.orderBy(desc(personalTokens.createdAt), desc(personalTokens.id))
	return rows.map(({ userId, role, ...r }) => ({ ...r, mine: userId === actor.userId, mayRevoke: mayEndCredentialsOf(actor, { userId, role }) }))
}

export async function revokePersonalToken(deps: AppDeps, actor: Actor, tokenId: string): Promise<void> {
	await deps.db.transaction(async (tx) => {
		const [held] = await tx
			.select({ userId: personalTokens.userId, role: memberships.role })
			.from(personalTokens)
			.leftJoin(
				memberships,
				and(eq(memberships.userId, personalTokens.userId), eq(memberships.workspaceId, personalTokens.workspaceId), isNull(memberships.removedAt)),
			)
			.where(and(eq(personalTokens.id, tokenId), eq(personalTokens.workspaceId, actor.workspaceId)))
		if (held && isAdmin(actor) && !mayEndCredentialsOf(actor, held)) throw new AppError('FORBIDDEN', OWNER_CREDENTIALS_ONLY)
		const revoked = await tx
			.update(personalTokens)
			.set({ revokedAt: deps.now() })
			.where(
				and(
					eq(personalTokens.id, tokenId),
					eq(personalTokens.workspaceId, actor.workspaceId),
					isNull(personalTokens.revokedAt),
					isAdmin(actor) ? undefined : eq(personalTokens.userId, actor.userId ?? ''),
				),
			)
			.returning({ name: personalTokens.name })
		if (!revoked.length) throw new AppError('NOT_FOUND', 'No such token')
		await recordActivity(tx, actor, { action: 'token.revoked', targetType: 'personal_token', targetId: tokenId, detail: { name: revoked[0]!.name } })
	})
}

const lookupStatement = perDatabase((db) =>
	db
		.select({
			id: personalTokens.id,
			name: personalTokens.name,
			lastUsedAt: personalTokens.lastUsedAt,
			...membershipColumns,
		})
		.from(personalTokens)
		.innerJoin(users, eq(users.id, personalTokens.userId))
		.innerJoin(workspaces, eq(workspaces.id, personalTokens.workspaceId))
		.innerJoin(
			memberships,
			and(eq(memberships.userId, personalTokens.userId), eq(memberships.workspaceId, personalTokens.workspaceId), isNull(memberships.removedAt)),
		)
		.where(and(eq(personalTokens.tokenHash, sql.placeholder('hash')), isNull(personalTokens.revokedAt)))
		.prepare('personal_token_lookup'),
)

/** The person behind a personal token; null when unknown, revoked, or the person left. */
export async function verifyPersonalToken(deps: AppDeps, token: string): Promise<Actor | null> {
	if (credentialType(token) !== 'pat') return null
	const [row] = await lookupStatement(deps.db).execute({ hash: hashSecret(token) })
	if (!row) return null
	noteUse(deps, row.lastUsedAt, (now) => deps.db.update(personalTokens).set({ lastUsedAt: now }).where(eq(personalTokens.id, row.id)))
	return personActorFrom(row, { kind: 'personal_token', id: row.id, name: row.name }, false)
}

/** For the CLI: the person's actor in a workspace, by e-mail. */
export async function personActor(deps: AppDeps, workspaceSlug: string, email: string): Promise<Actor> {
	const [row] = await deps.db
		.select({ userId: users.id, name: users.name, workspaceId: workspaces.id, role: memberships.role, grants: memberships.grants })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
		.where(and(eq(workspaces.slug, workspaceSlug), eq(users.email, normalEmail(email)), isNull(memberships.removedAt)))
	if (!row) throw new AppError('NOT_FOUND', `${email} is not in the workspace "${workspaceSlug}"`)
	return {
		workspaceId: row.workspaceId,
		workspaceSlug,
		role: row.role as PersonRole,
		userId: row.userId,
		vendorId: null,
		name: row.name,
		credential: { kind: 'cli', id: '', name: 'operator CLI' },
		grants: row.grants,
		readOnly: false,
	}
}
