/**
 * The people in a workspace.
 *
 * Rules: an e-mail address identifies one account across workspaces (stored lower-cased); a person
 * holds one role per workspace and may hold extra grants; a person joins a workspace only by their
 * own consent (an invitation they accept, invitations.ts) or the operator's CLI (`addPerson`);
 * only an owner makes, demotes or removes an owner and the last owner stays (owners.ts); a person
 * who leaves keeps their history but loses every way in at once (sessions, personal tokens and app
 * connections are checked against the membership on each request), and the SCIM tokens they made
 * are revoked when they leave or stop being an owner (sso/scim-tokens.ts).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../core/actor.ts'
import { PERSON_ROLES } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { personAuthor, typedLine, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { lockOwnersAnd, requireActingOwner } from './owners.ts'
import { endMembership } from './access.ts'
import { tellMembershipChanged } from './port.ts'
import { MANAGE_SSO, revokeTokensOfCreator } from './sso/scim-tokens.ts'
import { invitations, memberships, users } from './table.ts'
import { hashPassword } from './password-hash.ts'
import { requireNotClaimedElsewhere } from './sso/domains.ts'
import { emailProblem, normalEmail } from '../../core/email.ts'

export { createWorkspace, findWorkspace, listWorkspaces, requireWorkspace, SLUG, workspacesById, workspaceSlugOf, type Workspace } from './workspaces.ts'
/** The operator CLI's actor (core/actor.ts); re-exported where modules have always found it. */
export { operatorActor } from '../../core/actor.ts'

export const MANAGE_PEOPLE = 'auth:manage_people'

export const PASSWORD_MIN = 10
export const PASSWORD_MAX = 200

/** What is wrong with a password someone chose, or null: the one rule everywhere (people page, CLI, Change password, reset). */
export function passwordProblem(password: string): string | null {
	return password.length < PASSWORD_MIN || password.length > PASSWORD_MAX ? `must be ${PASSWORD_MIN}-${PASSWORD_MAX} characters` : null
}

export function isPersonRole(role: string): role is PersonRole {
	return (PERSON_ROLES as readonly string[]).includes(role)
}

export interface NewPerson {
	email: string
	name: string
	role: string
	password: string
	grants?: string[]
}

/** The new person's fields, checked and normalised (the same checks for the CLI and the people page). */
export function checkNewPerson(deps: AppDeps, input: NewPerson): { email: string; name: string; role: PersonRole; password: string; grants: string[] } {
	const email = normalEmail(input.email)
	const { line: name, problem: nameWrong } = typedLine(input.name, 120)
	const problems = []
	const emailWrong = emailProblem(email)
	if (emailWrong) problems.push({ field: 'email', message: emailWrong })
	if (nameWrong) problems.push({ field: 'name', message: nameWrong })
	if (!isPersonRole(input.role)) problems.push({ field: 'role', message: `must be one of: ${PERSON_ROLES.join(', ')}` })
	const weak = passwordProblem(input.password)
	if (weak) problems.push({ field: 'password', message: weak })
	problems.push(...grantProblems(deps, input.grants ?? []))
	if (problems.length) throw invalid(problems)
	const role = input.role as PersonRole
	return { email, name, role, password: input.password, grants: grantsBeyondRole(deps, role, input.grants ?? []).kept }
}

/**
 * The grants kept for a member with `role`: each once, sorted, none the role already includes
 * (`alreadyInRole`). One the role includes is not stored: it would come back unasked when a later
 * role change took the role's own away (`changeRole` ends them for the same reason).
 */
function grantsBeyondRole(deps: AppDeps, role: PersonRole, grants: readonly string[]): { kept: string[]; alreadyInRole: string[] } {
	const alreadyInRole = deps.permissions.includedIn(role, [...grants])
	return { kept: [...new Set(grants)].filter((g) => !alreadyInRole.includes(g)).sort(), alreadyInRole }
}

/** The grants that are no permission one may give a person (every other is refused as a whole). */
const grantProblems = (deps: AppDeps, grants: readonly string[]) =>
	grants.filter((g) => !deps.permissions.all.get(g)?.grantable).map((g) => ({ field: 'grants', message: `"${g}" is not a permission that can be granted` }))

/** Managing people is the owners' and admins' (the operator's CLI acts as an owner). */
export function requireManagePeople(deps: AppDeps, actor: Actor): void {
	if (!deps.permissions.can(actor, MANAGE_PEOPLE)) throw new AppError('FORBIDDEN', 'Only owners and admins manage the people of a workspace')
}

/**
 * The operator's CLI: creates the account (or reuses the one with this e-mail, password unchanged)
 * and adds it to the workspace directly — the operator's word is the consent. People add people
 * through invitations instead (`invitePerson`). A person already in the workspace is a conflict; one
 * who left is brought back with the new role; a pending invitation for them there is closed.
 */
export async function addPerson(deps: AppDeps, actor: Actor, ws: WorkspaceRef, input: NewPerson): Promise<{ userId: string; created: boolean }> {
	if (actor.credential.kind !== 'cli' || actor.userId !== null)
		throw new AppError('FORBIDDEN', 'People join a workspace by accepting an invitation; only the operator’s CLI adds an account directly')
	const person = checkNewPerson(deps, input)
	const passwordHash = await hashPassword(deps.config, person.password)
	return deps.db.transaction(async (tx) => {
		await requireNotClaimedElsewhere(tx, ws.id, person.email)
		const inserted = await tx
			.insert(users)
			.values({ id: newId('usr'), email: person.email, name: person.name, passwordHash })
			.onConflictDoNothing({ target: users.email })
			.returning({ id: users.id })
		const [user] = inserted.length ? inserted : await tx.select({ id: users.id }).from(users).where(eq(users.email, person.email))
		const created = inserted.length > 0
		const locked = await lockOwnersAnd(tx, ws.id, user!.id)
		if (locked.target && !locked.target.removedAt) throw new AppError('CONFLICT', `${person.email} is already in this workspace`)
		if (locked.target?.role === 'owner' || person.role === 'owner') requireActingOwner(actor, locked)
		if (locked.target) {
			await tx
				.update(memberships)
				.set({ role: person.role, grants: person.grants, removedAt: null })
				.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, user!.id)))
		} else {
			await tx.insert(memberships).values({ workspaceId: ws.id, userId: user!.id, role: person.role, grants: person.grants })
		}
		await tx
			.update(invitations)
			.set({ status: 'cancelled', decidedAt: deps.now() })
			.where(and(eq(invitations.workspaceId, ws.id), eq(invitations.email, person.email), eq(invitations.status, 'pending')))
		await recordActivity(tx, actor, { action: 'person.added', targetType: 'user', targetId: user!.id, detail: { email: person.email, role: person.role } })
		return { userId: user!.id, created }
	})
}

export interface PersonView {
	userId: string
	name: string
	email: string
	role: string
	grants: string[]
}

/** The workspace's members: people who joined (an invitation not yet accepted is not one of them). */
export async function listPeople(db: Db, workspaceId: string): Promise<PersonView[]> {
	return db
		.select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, grants: memberships.grants })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(and(eq(memberships.workspaceId, workspaceId), isNull(memberships.removedAt)))
		.orderBy(users.name, users.email)
}

/**
 * A current member's role in the workspace (null: not a member there), their membership row locked
 * for share until `tx` ends: a role change or a removal of them waits for the caller's transaction,
 * and then undoes, through the membership port, what the caller did on the strength of the role
 * (a hiring team it put them on), instead of the two crossing.
 */
export async function lockedMemberRole(tx: Db, workspaceId: string, userId: string): Promise<PersonRole | null> {
	const [row] = await tx
		.select({ role: memberships.role })
		.from(memberships)
		.where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId), isNull(memberships.removedAt)))
		.for('share')
	return row && isPersonRole(row.role) ? row.role : null
}

async function memberId(db: Db, ws: WorkspaceRef, who: { email?: string; userId?: string }): Promise<{ userId: string; email: string }> {
	const [row] = await db
		.select({ userId: users.id, email: users.email })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(
			and(
				eq(memberships.workspaceId, ws.id),
				who.userId ? eq(users.id, who.userId) : eq(users.email, normalEmail(who.email ?? '')),
				isNull(memberships.removedAt),
			),
		)
	if (!row) throw new AppError('NOT_FOUND', `${who.email ?? 'This person'} is not in this workspace`)
	return row
}

/**
 * A current member and their membership row, locked with the workspace's owners (`lockOwnersAnd`):
 * the first step of every change of a membership here. Absent or removed: not found.
 */
async function lockedMember(tx: Db, ws: WorkspaceRef, who: { email?: string; userId?: string }) {
	const row = await memberId(tx, ws, who)
	const locked = await lockOwnersAnd(tx, ws.id, row.userId)
	if (!locked.target || locked.target.removedAt) throw new AppError('NOT_FOUND', `${who.email ?? 'This person'} is not in this workspace`)
	return { row, locked, target: locked.target }
}

/**
 * The roles, other than `role`, to which a role change would end `grant` (`changeRole`): those that
 * already include it. The people page says so beside the grant, before the change.
 */
export const rolesEndingGrant = (deps: AppDeps, role: string, grant: string): PersonRole[] =>
	PERSON_ROLES.filter((r) => r !== role && deps.permissions.includedIn(r, [grant]).length > 0)

/**
 * The person leaves the workspace: their sessions, personal tokens and app connections there
 * stop at once. Only an owner removes an owner; the last owner cannot leave.
 */
export async function removePerson(deps: AppDeps, actor: Actor, ws: WorkspaceRef, who: { email?: string; userId?: string }): Promise<{ userId: string }> {
	requireManagePeople(deps, actor)
	return deps.db.transaction(async (tx) => {
		const { row, locked, target } = await lockedMember(tx, ws, who)
		if (target.role === 'owner') {
			requireActingOwner(actor, locked)
			if (locked.owners.length <= 1) throw new AppError('CONFLICT', 'The last owner cannot leave the workspace; make someone else an owner first')
		}
		await endMembership(deps, tx, actor, { workspaceId: ws.id, userId: row.userId, now: deps.now(), reason: 'person_left' })
		await recordActivity(tx, actor, { action: 'person.removed', targetType: 'user', targetId: row.userId, detail: { email: row.email } })
		return { userId: row.userId }
	})
}

/**
 * Gives a member another role. Their extra permissions (grants) stay: each was given to the person,
 * and every role may hold one (a viewer with the actively-hiring flag sets it, the role matrix says),
 * so an admin who moves someone expects them to keep it. Those the new role already includes end as
 * redundant (a grant left under an admin would come back unasked with a later demotion); `grantsEnded`
 * names them, and the people page says beside each grant, before the change, which roles end it.
 * Only an owner makes or demotes an owner; the last owner cannot be demoted. The change applies to the
 * person's next request, through any credential (the membership is read on each request). `db`: a
 * caller's transaction, when the change is one of several that stand or fall together (a SCIM group
 * request); the owner locks are then held until that transaction ends.
 */
export async function changeRole(
	deps: AppDeps,
	actor: Actor,
	ws: WorkspaceRef,
	who: { email?: string; userId?: string },
	role: string,
	db: Db = deps.db,
): Promise<{ userId: string; changed: boolean; grantsEnded: string[] }> {
	requireManagePeople(deps, actor)
	if (!isPersonRole(role)) throw invalid([{ field: 'role', message: `must be one of: ${PERSON_ROLES.join(', ')}` }])
	// Inside a caller's transaction this is a savepoint: a refusal here leaves the caller to decide.
	return db.transaction(async (tx) => {
		const { row, locked, target } = await lockedMember(tx, ws, who)
		const from = target.role
		if (from === role) return { userId: row.userId, changed: false, grantsEnded: [] }
		if (from === 'owner' || role === 'owner') requireActingOwner(actor, locked)
		if (from === 'owner' && locked.owners.length <= 1) throw new AppError('CONFLICT', 'The last owner cannot be demoted; make someone else an owner first')
		const grantsEnded = deps.permissions.includedIn(role, target.grants)
		const grantsKept = target.grants.filter((g) => !grantsEnded.includes(g))
		await tx
			.update(memberships)
			.set({ role, grants: grantsKept })
			.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, row.userId)))
		await recordActivity(tx, actor, {
			action: 'person.role_changed',
			targetType: 'user',
			targetId: row.userId,
			detail: { email: row.email, from, to: role, ...(grantsEnded.length ? { grantsEnded } : {}) },
		})
		await tellMembershipChanged(deps, tx, { workspaceId: ws.id, userId: row.userId, role })
		// A role that may not make SCIM tokens keeps none: the tokens they made (as an owner) act as one.
		if (!deps.permissions.roleHas(role, MANAGE_SSO))
			await revokeTokensOfCreator(tx, actor, { workspaceId: ws.id, userId: row.userId, now: deps.now(), reason: 'creator_not_owner' })
		return { userId: row.userId, changed: true, grantsEnded }
	})
}

export const OWNER_GRANTS_ONLY = 'Only an owner can change an owner’s extra permissions'

/**
 * The extra permissions a member with `role` may be offered (the people page's choices): every
 * grantable permission the role does not include, and those they hold (so one can be ended). With no
 * role yet (Add a person, where the role is chosen in the same form): every grantable permission.
 */
export const grantsOffered = (deps: AppDeps, role: string | null, held: readonly string[]): string[] =>
	[...deps.permissions.all.values()]
		.filter((p) => p.grantable && (role === null || held.includes(p.key) || !deps.permissions.includedIn(role as PersonRole, [p.key]).length))
		.map((p) => p.key)
		.sort()

/**
 * Sets a member's extra permissions (grants) to exactly `grants`: the one way to give one after they
 * joined, or to end one (a role change keeps them, `changeRole`). Those their role already includes
 * are not kept (`alreadyInRole`), as a role change ends them. Only an owner changes an owner's, as
 * only an owner changes an owner's role. The same set again changes nothing (`changed` false, no
 * activity line). The change applies to their next request.
 */
export async function setGrants(
	deps: AppDeps,
	actor: Actor,
	ws: WorkspaceRef,
	who: { email?: string; userId?: string },
	grants: string[],
): Promise<{ userId: string; grants: string[]; alreadyInRole: string[]; changed: boolean }> {
	requireManagePeople(deps, actor)
	const problems = grantProblems(deps, grants)
	if (problems.length) throw invalid(problems)
	return deps.db.transaction(async (tx) => {
		const { row, locked, target } = await lockedMember(tx, ws, who)
		if (target.role === 'owner') requireActingOwner(actor, locked, OWNER_GRANTS_ONLY)
		const { kept, alreadyInRole } = grantsBeyondRole(deps, target.role as PersonRole, grants)
		const before = [...target.grants].sort()
		const changed = kept.join() !== before.join()
		if (changed) {
			await tx
				.update(memberships)
				.set({ grants: kept })
				.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, row.userId)))
			await recordActivity(tx, actor, {
				action: 'person.grants_set',
				targetType: 'user',
				targetId: row.userId,
				detail: { email: row.email, from: before, to: kept },
			})
		}
		return { userId: row.userId, grants: kept, alreadyInRole, changed }
	})
}

/**
 * Display names of people by id (other modules show who did what), labelled: a name is text its
 * owner or an admin typed, and reaches a model only as such. The reader's own name is their own
 * (`self`), anyone else's a colleague's (`personAuthor`).
 */
export async function userNames(db: Db, ids: string[], reader: { userId?: string | null }): Promise<Map<string, UntrustedText>> {
	if (!ids.length) return new Map()
	const rows = await db
		.select({ id: users.id, name: users.name })
		.from(users)
		.where(inArray(users.id, [...new Set(ids)]))
	return new Map(rows.map((r) => [r.id, untrustedLine(r.name, personAuthor(r.id, reader), 120)]))
}

/** `{ userId, name }` of one person, from what `userNames` answered (a person since deleted has an empty name). */
export const personRef = (names: Map<string, UntrustedText>, userId: string) => ({ userId, name: names.get(userId) ?? untrustedLine('', 'colleague') })
