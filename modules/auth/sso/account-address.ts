/**
 * The account's own address (its sign-in everywhere), as a workspace's identity provider may change
 * it: by SCIM (scim-users.ts) or at a sign-in with single sign-on (sso-sign-in.ts).
 *
 * Rules:
 * - Only while no other workspace holds the account (`heldElsewhere`): it is the person's sign-in
 *   there too, and this workspace's provider speaks for this workspace only.
 * - The password was proven through the old address's mail, not the new one's: it counts as not
 *   vouched for (`passwordFromInvitation`, so the identity provider of the new address's domain taking
 *   the account in ends it), and reset links sent to the old address are used up.
 */
import { and, count, eq, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../../../db/client.ts'
import { memberships, passwordResets, scimUsers, users } from '../table.ts'

/**
 * Whether another workspace still holds the person: they are a member there, or its SCIM deactivated
 * them (removed, with its `scim_users` row kept) and can activate them again at any time, into the
 * account as it is then. A person removed there with no SCIM to bring them back (removed on the
 * people page, deleted by its SCIM) is not held: they return only by accepting an invitation, to the
 * account as it is.
 */
export async function heldElsewhere(tx: Db, workspaceId: string, userId: string): Promise<boolean> {
	const [elsewhere] = await tx
		.select({ n: count() })
		.from(memberships)
		.leftJoin(scimUsers, and(eq(scimUsers.workspaceId, memberships.workspaceId), eq(scimUsers.userId, memberships.userId)))
		.where(
			and(eq(memberships.userId, userId), sql`${memberships.workspaceId} <> ${workspaceId}`, or(isNull(memberships.removedAt), isNotNull(scimUsers.userId))),
		)
	return elsewhere!.n > 0
}

/** Whether an account has the address (in its normal form, core/email.ts). */
export async function addressTaken(tx: Db, email: string): Promise<boolean> {
	const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
	return taken !== undefined
}

/** Writes the account's new address; the caller checked it may (`heldElsewhere`, `addressTaken`, the domain's workspace). */
export async function moveAccountAddress(tx: Db, userId: string, email: string, now: Date): Promise<void> {
	await tx.update(users).set({ email, passwordFromInvitation: true, addressFromWorkspace: null }).where(eq(users.id, userId))
	await tx
		.update(passwordResets)
		.set({ usedAt: now })
		.where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
}
