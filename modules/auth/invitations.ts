/**
 * Invitations: how a person joins a workspace by their own consent.
 *
 * Rules: adding someone on the people page always makes an invitation, whether or not the e-mail
 * address has an account (one without gets an account with the temporary password, and joins the
 * same way: by accepting). Both cases answer alike — the same words, the same page, the same work
 * (the password is hashed either way) — and until the person accepts, the people page shows only
 * what the inviter typed, never the account's own name. Only the person, signed in, accepts or
 * declines; accepting makes the membership, provided the inviter could still make the invitation
 * (owner rules: owners.ts). An invitation lasts 14 days; one per workspace and address at a time.
 */
import { and, eq, gt, lte } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Actor, Credential, PersonRole } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { lockOwnersAnd, requireActingOwner, type LockedMembers } from './owners.ts'
import { checkNewPerson, MANAGE_PEOPLE, requireManagePeople, type NewPerson } from './people.ts'
import { invitations, memberships, users, workspaces } from './table.ts'
import type { Workspace } from './workspaces.ts'
import { hashPassword } from './password-hash.ts'
import { coveredElsewhere, requireNotClaimedElsewhere } from './sso/domains.ts'

const DAY = 86_400_000
export const INVITATION_DAYS = 14

/**
 * Invites the address to the workspace (the people page's "Add person"). The answer is the same
 * whether or not the address has an account; it says nothing about the account.
 */
export async function invitePerson(deps: AppDeps, actor: Actor, ws: WorkspaceRef, input: NewPerson): Promise<{ invitationId: string }> {
	requireManagePeople(deps, actor)
	const person = checkNewPerson(deps, input)
	// Hashed whether or not it is used: an existing account keeps its own password, and both
	// answers take the same time.
	const passwordHash = await hashPassword(deps.config, person.password)
	return deps.db.transaction(async (tx) => {
		const now = deps.now()
		await requireNotClaimedElsewhere(tx, ws.id, person.email)
		// A new account's password is the inviter's temporary one: the person chooses their own at first sign-in.
		await tx
			.insert(users)
			.values({
				id: newId('usr'),
				email: person.email,
				name: person.name,
				passwordHash,
				passwordTemporary: true,
				passwordFromInvitation: true,
				addressFromWorkspace: ws.id,
			})
			.onConflictDoNothing({ target: users.email })
		const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, person.email))
		const locked = await lockOwnersAnd(tx, ws.id, user!.id)
		if (locked.target && !locked.target.removedAt) throw new AppError('CONFLICT', `${person.email} is already in this workspace`)
		// Inviting as owner makes an owner; inviting a former owner back with another role demotes one.
		if (person.role === 'owner' || locked.target?.role === 'owner') requireActingOwner(actor, locked)
		// An expired invitation no longer holds the place.
		await tx
			.update(invitations)
			.set({ status: 'expired', decidedAt: now })
			.where(and(eq(invitations.workspaceId, ws.id), eq(invitations.email, person.email), eq(invitations.status, 'pending'), lte(invitations.expiresAt, now)))
		const id = newId('inv')
		const made = await tx
			.insert(invitations)
			.values({
				id,
				workspaceId: ws.id,
				email: person.email,
				name: person.name,
				role: person.role,
				grants: person.grants,
				invitedBy: actor.userId,
				expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY),
			})
			.onConflictDoNothing()
			.returning({ id: invitations.id })
		if (!made.length) throw new AppError('CONFLICT', `${person.email} has already been invited`)
		await recordActivity(tx, actor, { action: 'person.invited', targetType: 'invitation', targetId: id, detail: { email: person.email, role: person.role } })
		return { invitationId: id }
	})
}

export interface PendingInvitation {
	id: string
	/** The name the inviter typed (not the account's). */
	name: string
	email: string
	role: string
	grants: string[]
	expiresAt: Date
}

/** The workspace's invitations that can still be accepted (for the people page). */
export async function listInvitations(deps: AppDeps, workspaceId: string): Promise<PendingInvitation[]> {
	return deps.db
		.select({
			id: invitations.id,
			name: invitations.name,
			email: invitations.email,
			role: invitations.role,
			grants: invitations.grants,
			expiresAt: invitations.expiresAt,
		})
		.from(invitations)
		.where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, deps.now())))
		.orderBy(invitations.email)
}

/** Withdraws an invitation not yet answered; only an owner withdraws an invitation to be an owner. */
export async function cancelInvitation(deps: AppDeps, actor: Actor, ws: WorkspaceRef, invitationId: string): Promise<void> {
	requireManagePeople(deps, actor)
	await deps.db.transaction(async (tx) => {
		const [inv] = await tx
			.select({ email: invitations.email, role: invitations.role })
			.from(invitations)
			.where(and(eq(invitations.id, invitationId), eq(invitations.workspaceId, ws.id), eq(invitations.status, 'pending')))
			.for('update')
		if (!inv) throw new AppError('NOT_FOUND', 'No such invitation')
		if (inv.role === 'owner') requireActingOwner(actor, await lockOwnersAnd(tx, ws.id, null))
		await tx.update(invitations).set({ status: 'cancelled', decidedAt: deps.now() }).where(eq(invitations.id, invitationId))
		await recordActivity(tx, actor, { action: 'invitation.cancelled', targetType: 'invitation', targetId: invitationId, detail: { email: inv.email } })
	})
}

export interface MyInvitation {
	id: string
	workspace: Workspace
	role: string
	invitedBy: string | null
	expiresAt: Date
}

const inviter = alias(users, 'inviter')

/** The invitations waiting for this person (by their account's e-mail address). */
export async function invitationsFor(deps: AppDeps, userId: string): Promise<MyInvitation[]> {
	const rows = await deps.db
		.select({
			id: invitations.id,
			wsId: workspaces.id,
			slug: workspaces.slug,
			wsName: workspaces.name,
			role: invitations.role,
			invitedBy: inviter.name,
			expiresAt: invitations.expiresAt,
		})
		.from(invitations)
		.innerJoin(users, eq(users.email, invitations.email))
		.innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
		.leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
		.where(and(eq(users.id, userId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, deps.now())))
		.orderBy(workspaces.name, workspaces.slug)
	return rows.map((r) => ({ id: r.id, workspace: { id: r.wsId, slug: r.slug, name: r.wsName }, role: r.role, invitedBy: r.invitedBy, expiresAt: r.expiresAt }))
}

/** The pending invitation, locked, if it is addressed to this person. */
async function lockMine(tx: Db, userId: string, invitationId: string) {
	const [row] = await tx
		.select({
			id: invitations.id,
			email: invitations.email,
			role: invitations.role,
			grants: invitations.grants,
			invitedBy: invitations.invitedBy,
			expiresAt: invitations.expiresAt,
			personName: users.name,
			unproven: users.passwordFromInvitation,
			addressFromWorkspace: users.addressFromWorkspace,
			workspace: { id: workspaces.id, slug: workspaces.slug, name: workspaces.name },
		})
		.from(invitations)
		.innerJoin(users, eq(users.email, invitations.email))
		.innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
		.where(and(eq(invitations.id, invitationId), eq(users.id, userId), eq(invitations.status, 'pending')))
		.for('update', { of: invitations })
	if (!row) throw new AppError('NOT_FOUND', 'No such invitation: it may have been withdrawn or answered already')
	return row
}

/**
 * Why an account whose password descends from an invitation (or whose address a SCIM gave it) may not
 * yet join another workspace, and how the person shows the address is theirs: a reset link goes to
 * its mail, and a password set through one is the person's own (passwords.ts `vouched`).
 */
function proveAddressFirst(email: string): string {
	return `Before you join another workspace, show that ${email} is yours: sign out, choose "Forgot your password?" and set a new password through the link we send to that address. Your current password was first set for you by a workspace, not through your mail. The invitation stays open.`
}

/** Whether the inviter could still make this invitation now (they may have been demoted or left since). */
async function inviterStillMay(
	deps: AppDeps,
	tx: Db,
	inv: { invitedBy: string | null; role: string; workspace: WorkspaceRef },
	locked: LockedMembers,
): Promise<boolean> {
	if (!inv.invitedBy) return true
	if (inv.role === 'owner' || locked.target?.role === 'owner') return locked.owners.includes(inv.invitedBy)
	const [row] = await tx
		.select({ role: memberships.role, removedAt: memberships.removedAt })
		.from(memberships)
		.where(and(eq(memberships.workspaceId, inv.workspace.id), eq(memberships.userId, inv.invitedBy)))
	return !!row && !row.removedAt && deps.permissions.roleHas(row.role as PersonRole, MANAGE_PEOPLE)
}

/**
 * The person accepts: they join the workspace with the invitation's role. `via` is the credential
 * they answer with (recorded in the workspace's activity log).
 */
export async function acceptInvitation(deps: AppDeps, userId: string, invitationId: string, via: Credential): Promise<Workspace> {
	const outcome = await deps.db.transaction(async (tx) => {
		const inv = await lockMine(tx, userId, invitationId)
		const now = deps.now()
		if (inv.expiresAt <= now) return { refused: 'This invitation has expired; ask the workspace for a new one.' }
		// Whoever set the password may be holding the account: another workspace's invitation needs the address's own mail.
		if (inv.unproven && inv.addressFromWorkspace !== inv.workspace.id) return { refused: proveAddressFirst(inv.email) }
		// The address's domain came under another workspace's single sign-on after the invitation was sent.
		const covered = await coveredElsewhere(tx, inv.workspace.id, inv.email)
		if (covered) {
			await tx.update(invitations).set({ status: 'cancelled', decidedAt: now }).where(eq(invitations.id, inv.id))
			return { refused: `This invitation can no longer be accepted: ${covered}.` }
		}
		const locked = await lockOwnersAnd(tx, inv.workspace.id, userId)
		if (!(await inviterStillMay(deps, tx, inv, locked))) {
			await tx.update(invitations).set({ status: 'cancelled', decidedAt: now }).where(eq(invitations.id, inv.id))
			return { refused: 'This invitation is no longer valid: the person who sent it can no longer make it.' }
		}
		let role = inv.role
		if (locked.target && !locked.target.removedAt)
			role = locked.target.role // already in (added by the operator meanwhile): nothing changes
		else if (locked.target)
			await tx
				.update(memberships)
				.set({ role: inv.role, grants: inv.grants, removedAt: null })
				.where(and(eq(memberships.workspaceId, inv.workspace.id), eq(memberships.userId, userId)))
		else await tx.insert(memberships).values({ workspaceId: inv.workspace.id, userId, role: inv.role, grants: inv.grants })
		await tx.update(invitations).set({ status: 'accepted', decidedAt: now }).where(eq(invitations.id, inv.id))
		const actor: Actor = {
			workspaceId: inv.workspace.id,
			workspaceSlug: inv.workspace.slug,
			role: role as PersonRole,
			userId,
			vendorId: null,
			name: inv.personName,
			credential: via,
			grants: inv.grants,
			readOnly: false,
		}
		await recordActivity(tx, actor, { action: 'invitation.accepted', targetType: 'invitation', targetId: inv.id, detail: { email: inv.email, role } })
		return { workspace: inv.workspace }
	})
	if ('refused' in outcome) throw new AppError('CONFLICT', outcome.refused!)
	return outcome.workspace
}

/**
 * The person declines. The workspace's log names only the address it invited: a person who did not
 * accept shows the workspace nothing of their account (not their name, not their id).
 */
export async function declineInvitation(deps: AppDeps, userId: string, invitationId: string): Promise<void> {
	await deps.db.transaction(async (tx) => {
		const inv = await lockMine(tx, userId, invitationId)
		await tx.update(invitations).set({ status: 'declined', decidedAt: deps.now() }).where(eq(invitations.id, inv.id))
		const actor: Actor = {
			workspaceId: inv.workspace.id,
			workspaceSlug: inv.workspace.slug,
			role: 'viewer',
			userId: null,
			vendorId: null,
			name: inv.email,
			credential: { kind: 'session', id: '', name: 'invitation answer' },
			grants: [],
			readOnly: true,
		}
		await recordActivity(tx, actor, { action: 'invitation.declined', targetType: 'invitation', targetId: inv.id, detail: { email: inv.email } })
	})
}
