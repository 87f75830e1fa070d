/**
 * Workspaces and the people in them.
 *
 * Rules: a workspace slug is lower-case letters, digits and dashes; an e-mail address identifies
 * one account across workspaces (stored lower-cased); a person holds one role per workspace and
 * may hold extra grants; a person who leaves keeps their history but loses every way in at once
 * (sessions, personal tokens and app connections are checked against the membership on each request).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../core/actor.ts'
import { PERSON_ROLES } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { memberships, oauthGrants, personalTokens, sessions, users, workspaces } from './table.ts'

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/
const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/

export interface Workspace extends WorkspaceRef {
	readonly name: string
}

export async function createWorkspace(deps: AppDeps, input: { slug: string; name: string }): Promise<Workspace> {
	const slug = input.slug.trim().toLowerCase()
	const name = input.name.trim()
	const problems = []
	if (!SLUG.test(slug)) problems.push({ field: 'slug', message: 'must be 1-40 lower-case letters, digits or dashes' })
	if (!name || name.length > 120) problems.push({ field: 'name', message: 'must be 1-120 characters' })
	if (problems.length) throw invalid(problems)
	const id = newId('ws')
	const inserted = await deps.db.insert(workspaces).values({ id, slug, name }).onConflictDoNothing().returning({ id: workspaces.id })
	if (!inserted.length) throw new AppError('CONFLICT', `A workspace with the slug "${slug}" already exists`)
	return { id, slug, name }
}

export async function findWorkspace(db: Db, slug: string): Promise<Workspace | null> {
	const [row] = await db.select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name }).from(workspaces).where(eq(workspaces.slug, slug))
	return row ?? null
}

export async function requireWorkspace(db: Db, slug: string): Promise<Workspace> {
	const ws = await findWorkspace(db, slug)
	if (!ws) throw new AppError('NOT_FOUND', `No workspace with the slug "${slug}"`)
	return ws
}

export async function listWorkspaces(db: Db): Promise<Workspace[]> {
	return db.select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name }).from(workspaces).orderBy(workspaces.createdAt)
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

/**
 * Creates the account (or reuses the one with this e-mail) and adds it to the workspace.
 * A person already in the workspace is a conflict; one who left is brought back with the new role.
 */
export async function addPerson(deps: AppDeps, actor: Actor, ws: WorkspaceRef, input: NewPerson): Promise<{ userId: string; created: boolean }> {
	const email = input.email.trim().toLowerCase()
	const name = input.name.trim()
	const problems = []
	if (!EMAIL.test(email) || email.length > 254) problems.push({ field: 'email', message: 'must be an e-mail address' })
	if (!name || name.length > 120) problems.push({ field: 'name', message: 'must be 1-120 characters' })
	if (!isPersonRole(input.role)) problems.push({ field: 'role', message: `must be one of: ${PERSON_ROLES.join(', ')}` })
	if (input.password.length < 10 || input.password.length > 200) problems.push({ field: 'password', message: 'must be 10-200 characters' })
	for (const g of input.grants ?? []) if (!deps.permissions.all.get(g)?.grantable) problems.push({ field: 'grants', message: `"${g}" is not a permission that can be granted` })
	if (problems.length) throw invalid(problems)
	// Only an owner makes owners: an admin must not be able to promote an account they control.
	if (input.role === 'owner' && actor.role !== 'owner') throw new AppError('FORBIDDEN', 'Only an owner can add another owner')

	const passwordHash = await Bun.password.hash(input.password)
	return deps.db.transaction(async (tx) => {
		let [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
		const created = !user
		if (!user) [user] = await tx.insert(users).values({ id: newId('usr'), email, name, passwordHash }).returning({ id: users.id })
		const [existing] = await tx.select({ removedAt: memberships.removedAt }).from(memberships).where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, user!.id)))
		if (existing && !existing.removedAt) throw new AppError('CONFLICT', `${email} is already in this workspace`)
		if (existing) {
			await tx.update(memberships).set({ role: input.role, grants: input.grants ?? [], removedAt: null }).where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, user!.id)))
		} else {
			await tx.insert(memberships).values({ workspaceId: ws.id, userId: user!.id, role: input.role, grants: input.grants ?? [] })
		}
		await recordActivity(tx, actor, { action: 'person.added', targetType: 'user', targetId: user!.id, detail: { email, role: input.role } })
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

export async function listPeople(db: Db, workspaceId: string): Promise<PersonView[]> {
	return db
		.select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, grants: memberships.grants })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(and(eq(memberships.workspaceId, workspaceId), isNull(memberships.removedAt)))
		.orderBy(users.name)
}

/**
 * The person leaves the workspace: their sessions, personal tokens and app connections there
 * stop at once. The last owner cannot leave.
 */
export async function removePerson(deps: AppDeps, actor: Actor, ws: WorkspaceRef, who: { email?: string; userId?: string }): Promise<{ userId: string }> {
	return deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select({ userId: users.id, role: memberships.role, email: users.email })
			.from(memberships)
			.innerJoin(users, eq(users.id, memberships.userId))
			.where(and(eq(memberships.workspaceId, ws.id), who.userId ? eq(users.id, who.userId) : eq(users.email, (who.email ?? '').trim().toLowerCase()), isNull(memberships.removedAt)))
		if (!row) throw new AppError('NOT_FOUND', `${who.email ?? 'This person'} is not in this workspace`)
		if (row.role === 'owner') {
			// The owners' rows are locked (in a fixed order) so that two owners leaving at the same
			// time cannot both see the other one still there.
			const owners = await tx
				.select({ userId: memberships.userId })
				.from(memberships)
				.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.role, 'owner'), isNull(memberships.removedAt)))
				.orderBy(memberships.userId)
				.for('update')
			if (owners.length <= 1) throw new AppError('CONFLICT', 'The last owner cannot leave the workspace; make someone else an owner first')
		}
		const now = deps.now()
		await tx.update(memberships).set({ removedAt: now }).where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, row.userId)))
		await tx.delete(sessions).where(and(eq(sessions.workspaceId, ws.id), eq(sessions.userId, row.userId)))
		await tx.update(personalTokens).set({ revokedAt: now }).where(and(eq(personalTokens.workspaceId, ws.id), eq(personalTokens.userId, row.userId), isNull(personalTokens.revokedAt)))
		await tx.update(oauthGrants).set({ revokedAt: now, revokedReason: 'person_left' }).where(and(eq(oauthGrants.workspaceId, ws.id), eq(oauthGrants.userId, row.userId), isNull(oauthGrants.revokedAt)))
		await recordActivity(tx, actor, { action: 'person.removed', targetType: 'user', targetId: row.userId, detail: { email: row.email } })
		return { userId: row.userId }
	})
}

/** The actor used by the operator CLI and start-up tasks: acts as an owner, logged as "operator CLI". */
export function operatorActor(ws: WorkspaceRef): Actor {
	return {
		workspaceId: ws.id,
		workspaceSlug: ws.slug,
		role: 'owner',
		userId: null,
		vendorId: null,
		name: 'Operator',
		credential: { kind: 'cli', id: '', name: 'operator CLI' },
		grants: [],
		readOnly: false,
	}
}

/**
 * Display names of people by id (other modules show who did what), labelled: a name is text its
 * owner or an admin typed, and reaches a model only as such.
 */
export async function userNames(db: Db, ids: string[]): Promise<Map<string, UntrustedText>> {
	if (!ids.length) return new Map()
	const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, [...new Set(ids)]))
	return new Map(rows.map((r) => [r.id, untrustedLine(r.name, 'colleague', 120)]))
}

/** `{ userId, name }` of one person, from what `userNames` answered (a person since deleted has an empty name). */
export const personRef = (names: Map<string, UntrustedText>, userId: string) => ({ userId, name: names.get(userId) ?? untrustedLine('', 'colleague') })
