/**
 * The owner rules, shared by every path that changes a membership: only an owner makes, demotes or
 * removes an owner, and the last owner can never be removed or demoted.
 *
 * Each such path first locks, in one statement and in a fixed order (by user id), the rows of the
 * workspace's owners together with the row it changes. Two changes at the same time therefore queue
 * on the same rows instead of deadlocking, and the second one decides on what the first left:
 * PostgreSQL re-checks a locked row after waiting, so an owner removed or demoted meanwhile no longer
 * counts (the count can only err low, which refuses). The acting owner must be among the locked
 * owners: one who was demoted a moment ago cannot still act as an owner.
 */
import { and, eq, isNull, or } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { AppError } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { memberships } from './table.ts'

export interface LockedMembers {
	/** The workspace's owners now (user ids), their rows locked. */
	owners: string[]
	/** The membership row to change, locked (removed memberships too); null when there is none. */
	target: { role: string; grants: string[]; removedAt: Date | null } | null
}

export async function lockOwnersAnd(tx: Db, workspaceId: string, userId: string | null): Promise<LockedMembers> {
	const rows = await tx
		.select({ userId: memberships.userId, role: memberships.role, grants: memberships.grants, removedAt: memberships.removedAt })
		.from(memberships)
		.where(
			and(
				eq(memberships.workspaceId, workspaceId),
				or(and(eq(memberships.role, 'owner'), isNull(memberships.removedAt)), userId ? eq(memberships.userId, userId) : undefined),
			),
		)
		.orderBy(memberships.userId)
		.for('update')
	const owners = rows.filter((r) => r.role === 'owner' && !r.removedAt).map((r) => r.userId)
	const target = rows.find((r) => r.userId === userId)
	return { owners, target: target ? { role: target.role, grants: target.grants, removedAt: target.removedAt } : null }
}

export const OWNERS_ONLY = 'Only an owner can make, demote or remove an owner'

/**
 * Refuses unless the actor is an owner now: the operator's CLI, the workspace's SCIM provisioning
 * (an owner made its token, and the identity provider's Owner group sets owners), or a person among
 * the locked owners. `message` says what was refused, when it is not making or demoting an owner.
 */
export function requireActingOwner(actor: Actor, locked: LockedMembers, message = OWNERS_ONLY): void {
	const owner =
		actor.role === 'owner' &&
		(actor.userId === null ? actor.credential.kind === 'cli' || actor.credential.kind === 'scim_token' : locked.owners.includes(actor.userId))
	if (!owner) throw new AppError('FORBIDDEN', message)
}

/**
 * Whether `actor` may end another member's credentials one by one (revoke a personal token,
 * disconnect an app), as **Sign out everywhere** allows: their own always; owners anyone's; admins
 * anyone's but an owner's (only an owner does it to an owner); others none.
 */
export function mayEndCredentialsOf(actor: Pick<Actor, 'userId' | 'role'>, target: { userId: string; role: string | null }): boolean {
	if (target.userId === actor.userId) return true
	if (actor.role === 'owner') return true
	return actor.role === 'admin' && target.role !== 'owner'
}

export const OWNER_CREDENTIALS_ONLY = 'Only an owner can end an owner’s tokens and app connections'
