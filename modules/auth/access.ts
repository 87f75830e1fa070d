/**
 * Ending a person's ways in: portal sessions, personal tokens and app connections (OAuth grants,
 * whose tokens stop with them). One function per scope, used by every path that needs it: leaving a
 * workspace, an owner or admin's **Sign out everywhere**, SCIM deactivation, a password reset that
 * also disconnects apps and tokens.
 *
 * Rules: everything happens in the caller's transaction and applies to the very next request
 * (each credential is checked against its row on every request); tokens and grants are revoked,
 * not deleted, so their names stay in the activity log and the history keeps who did what;
 * only an owner signs an owner out everywhere, and a person uses their own Security page for
 * themselves.
 */
import { and, eq, isNull } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { lockOwnersAnd, requireActingOwner } from './owners.ts'
import { tellMembershipChanged } from './port.ts'
import { revokeTokensOfCreator } from './sso/scim-tokens.ts'
import { hashPassword } from './password-hash.ts'
import { randomToken } from '../../core/credentials.ts'
import { invitations, memberships, oauthCodes, oauthGrants, personalTokens, sessions, users } from './table.ts'

/** Why a person's app connections were revoked (kept on the grant). */
export type AccessEndReason = 'person_left' | 'signed_out' | 'deprovisioned' | 'password_reset'

export interface EndedAccess {
	sessions: number
	tokens: number
	apps: number
}

/**
 * Authorization codes of the person not yet exchanged (at most a minute old) are expired with the
 * connections they would become: a code issued just before Sign out everywhere, a password reset or
 * a Disconnect must not become a live connection just after (found by review).
 */
export async function expireCodes(tx: Db, o: { userId: string; now: Date; workspaceId?: string; clientId?: string }): Promise<void> {
	await tx
		.update(oauthCodes)
		.set({ expiresAt: new Date(o.now.getTime() - 1) })
		.where(
			and(
				eq(oauthCodes.userId, o.userId),
				isNull(oauthCodes.usedAt),
				o.workspaceId ? eq(oauthCodes.workspaceId, o.workspaceId) : undefined,
				o.clientId ? eq(oauthCodes.clientId, o.clientId) : undefined,
			),
		)
}

/** Ends every session, personal token and app connection (and code about to become one) of the person in one workspace. */
export async function endAccessInWorkspace(tx: Db, o: { workspaceId: string; userId: string; now: Date; reason: AccessEndReason }): Promise<EndedAccess> {
	await expireCodes(tx, o)
	const ended = await tx
		.delete(sessions)
		.where(and(eq(sessions.workspaceId, o.workspaceId), eq(sessions.userId, o.userId)))
		.returning({ id: sessions.id })
	const tokens = await tx
		.update(personalTokens)
		.set({ revokedAt: o.now })
		.where(and(eq(personalTokens.workspaceId, o.workspaceId), eq(personalTokens.userId, o.userId), isNull(personalTokens.revokedAt)))
		.returning({ id: personalTokens.id })
	const grants = await tx
		.update(oauthGrants)
		.set({ revokedAt: o.now, revokedReason: o.reason })
		.where(and(eq(oauthGrants.workspaceId, o.workspaceId), eq(oauthGrants.userId, o.userId), isNull(oauthGrants.revokedAt)))
		.returning({ clientId: oauthGrants.clientId })
	return { sessions: ended.length, tokens: tokens.length, apps: new Set(grants.map((g) => g.clientId)).size }
}

/**
 * The person leaves the workspace (removed on the People page or with the CLI, deactivated or deleted
 * by SCIM): the membership is marked removed, every way in ends, the SCIM tokens they made are
 * revoked (logged as `actor`'s doing: a token outliving its creator kept provisioning for someone who
 * left), the workspace's invitations still pending for their address are cancelled, so an old
 * invitation can never bring back someone who was removed, and the modules keeping something for
 * them as a member let it go (their hiring teams: membershipPort).
 */
export async function endMembership(
	deps: AppDeps,
	tx: Db,
	actor: Actor,
	o: { workspaceId: string; userId: string; now: Date; reason: AccessEndReason },
): Promise<EndedAccess> {
	await tx
		.update(memberships)
		.set({ removedAt: o.now })
		.where(and(eq(memberships.workspaceId, o.workspaceId), eq(memberships.userId, o.userId)))
	await settleInvitations(tx, o)
	await revokeTokensOfCreator(tx, actor, { ...o, reason: 'creator_left' })
	await tellMembershipChanged(deps, tx, { workspaceId: o.workspaceId, userId: o.userId, role: null })
	return endAccessInWorkspace(tx, o)
}

/**
 * The workspace's invitations still pending for the person's address end once they are in it or
 * have left it: the membership, not an invitation sent before, says what they may do there.
 */
export async function settleInvitations(tx: Db, o: { workspaceId: string; userId: string; now: Date }): Promise<void> {
	const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, o.userId))
	if (!person) return
	await tx
		.update(invitations)
		.set({ status: 'cancelled', decidedAt: o.now })
		.where(and(eq(invitations.workspaceId, o.workspaceId), eq(invitations.email, person.email), eq(invitations.status, 'pending')))
}

/**
 * The identity provider of the workspace whose domain the address is in vouches for the person (its
 * SCIM or single sign-on took the account in): a password that descends from an invitation (the
 * inviter's temporary one, or one chosen by whoever signed in with it; nobody showed they read the
 * account's mail) stops opening the account, and the sessions it opened end, since whoever set it
 * could be signed in as them. The person signs in through the provider, or asks for a reset link,
 * which goes to their own mailbox.
 */
export async function endInvitationPassword(deps: Pick<AppDeps, 'config'>, tx: Db, userId: string): Promise<void> {
	const [user] = await tx.select({ temporary: users.passwordTemporary, fromInvitation: users.passwordFromInvitation }).from(users).where(eq(users.id, userId))
	if (!user?.temporary && !user?.fromInvitation) return
	const unusable = await hashPassword(deps.config, randomToken(32))
	await tx
		.update(users)
		.set({ passwordHash: unusable, passwordTemporary: false, passwordFromInvitation: false, addressFromWorkspace: null })
		.where(eq(users.id, userId))
	await tx.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.signedInBy, 'password')))
}

/** Revokes the person's personal tokens and app connections in every workspace (sessions are the caller's). */
export async function disconnectAppsAndTokens(tx: Db, o: { userId: string; now: Date; reason: AccessEndReason }): Promise<Omit<EndedAccess, 'sessions'>> {
	await expireCodes(tx, o)
	const tokens = await tx
		.update(personalTokens)
		.set({ revokedAt: o.now })
		.where(and(eq(personalTokens.userId, o.userId), isNull(personalTokens.revokedAt)))
		.returning({ id: personalTokens.id })
	const grants = await tx
		.update(oauthGrants)
		.set({ revokedAt: o.now, revokedReason: o.reason })
		.where(and(eq(oauthGrants.userId, o.userId), isNull(oauthGrants.revokedAt)))
		.returning({ clientId: oauthGrants.clientId })
	return { tokens: tokens.length, apps: new Set(grants.map((g) => g.clientId)).size }
}

/**
 * An owner or admin's **Sign out everywhere** for a member of their workspace: every session,
 * personal token and app connection of that person there ends at once (other workspaces are
 * theirs to manage). Logged with what ended.
 */
export async function signOutEverywhere(deps: AppDeps, actor: Actor, ws: WorkspaceRef, userId: string): Promise<EndedAccess> {
	if (!deps.permissions.can(actor, 'auth:manage_people')) throw new AppError('FORBIDDEN', 'Only owners and admins sign people out')
	if (userId === actor.userId) throw new AppError('CONFLICT', 'To sign yourself out elsewhere, use Security in your settings')
	return deps.db.transaction(async (tx) => {
		const locked = await lockOwnersAnd(tx, ws.id, userId)
		if (!locked.target || locked.target.removedAt) throw new AppError('NOT_FOUND', 'This person is not in this workspace')
		if (locked.target.role === 'owner') {
			if (actor.role !== 'owner') throw new AppError('FORBIDDEN', 'Only an owner can sign an owner out everywhere')
			requireActingOwner(actor, locked)
		}
		const ended = await endAccessInWorkspace(tx, { workspaceId: ws.id, userId, now: deps.now(), reason: 'signed_out' })
		const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId))
		await recordActivity(tx, actor, {
			action: 'person.signed_out_everywhere',
			targetType: 'user',
			targetId: userId,
			detail: { email: person!.email, ...ended },
		})
		return ended
	})
}
