/**
 * SCIM groups are the workspace's roles (Owner, Admin, Recruiter, Hiring manager, Viewer): a person
 * is a member of exactly one, their role. Adding someone to a group gives them its role (the people
 * page's rules hold: only owners make owners, the last owner stays); removing them from their
 * role's group gives them the role single sign-on gives new people (Viewer if that is the group
 * they left). Groups cannot be created or deleted: a group pushed under a role's name is that role.
 */
import { and, eq, inArray, isNull, or } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../../core/actor.ts'
import { PERSON_ROLES } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError, invalid } from '../../../core/errors.ts'
import type { Db } from '../../../db/client.ts'
import { changeRole } from '../people.ts'
import { memberships, users } from '../table.ts'
import { type FilterTerm, filterTerms, textOf, unsupportedFilter, valueFilterOf } from './scim-filter.ts'
import { GROUP_NAMES, GROUP_SCHEMA, roleOfGroup } from './scim-model.ts'
import { newPersonRole } from './scim-users.ts'

export interface ScimGroup {
	role: PersonRole
	members: { userId: string; name: string }[]
}

export function requireGroup(id: string): PersonRole {
	const role = roleOfGroup(id)
	if (!role || role !== id) throw new AppError('NOT_FOUND', `Group ${id} not found`)
	return role
}

const GROUP_FILTERS = 'displayName, id, externalId or members eq "…", or members[value eq "…"]'
const GROUP_PATHS = ['displayname', 'id', 'externalid', 'members', 'members.value']

/**
 * A `filter` on the groups (RFC 7644 §3.4.2.2), `eq` terms joined by `and`: `displayName` (in any
 * case), `id`, `members` (Entra asks `id eq "…" and members eq "<user id>"` to know whether someone
 * is in a group; `members[value eq "<user id>"]` says the same). Groups have no `externalId` here:
 * a filter on it finds none.
 */
export function groupFilter(filter: string | undefined): (group: ScimGroup) => boolean {
	const terms = filterTerms(filter, GROUP_SCHEMA, GROUP_FILTERS)
	const tests = terms.map((term): ((g: ScimGroup) => boolean) => {
		const filtered = valueFilterOf(term.path, GROUP_FILTERS)
		if (filtered) return memberTest(term, filtered)
		// The attribute first: a value's type is only worth a word for an attribute a group has.
		if (!GROUP_PATHS.includes(term.path)) throw unsupportedFilter(`${term.path} is not supported: use ${GROUP_FILTERS}`)
		const text = textOf(term)
		if (term.path === 'displayname') return (g) => roleOfGroup(text) === g.role
		if (term.path === 'id') return (g) => g.role === text
		if (term.path === 'externalid') return () => false
		return (g) => g.members.some((m) => m.userId === text)
	})
	return (group) => tests.every((t) => t(group))
}

/** `members[value eq "…"]` alone, or `members[value eq "…"].value eq "…"`: the group has that member (each id named). */
function memberTest(term: FilterTerm, filtered: NonNullable<ReturnType<typeof valueFilterOf>>): (g: ScimGroup) => boolean {
	const compared = term.value === undefined && filtered.sub === undefined ? [] : [textOf(term)]
	if (filtered.attribute !== 'members' || (filtered.sub !== undefined && filtered.sub !== 'value') || filtered.terms.some((t) => t.path !== 'value'))
		throw unsupportedFilter(`${term.path} is not supported: use ${GROUP_FILTERS}`)
	const ids = [...compared, ...filtered.terms.map(textOf)]
	// Every term is of one value (RFC 7644 §3.4.2.2): a member whose id is each named.
	return (g) => g.members.some((m) => ids.every((id) => m.userId === id))
}

/** The groups `filter` picks (all without one), with their members. */
export async function listGroups(deps: AppDeps, actor: Actor, filter: string | undefined, db: Db = deps.db): Promise<ScimGroup[]> {
	const picks = groupFilter(filter)
	return (await groupsOf(db, actor.workspaceId, PERSON_ROLES)).filter(picks)
}

/** The groups of `roles`, each with its members (the active people with that role), in name order. */
async function groupsOf(db: Db, workspaceId: string, roles: readonly PersonRole[]): Promise<ScimGroup[]> {
	const rows = await db
		.select({ userId: users.id, name: users.name, role: memberships.role })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(and(eq(memberships.workspaceId, workspaceId), isNull(memberships.removedAt), inArray(memberships.role, [...roles])))
		.orderBy(users.name, users.id)
	return roles.map((role) => ({ role, members: rows.filter((r) => r.role === role).map(({ userId, name }) => ({ userId, name })) }))
}

export async function getGroup(deps: AppDeps, actor: Actor, id: string, db: Db = deps.db): Promise<ScimGroup> {
	return (await groupsOf(db, actor.workspaceId, [requireGroup(id)]))[0]!
}

/** A group "created" by the provider: only a role's name is one. */
export function groupNamed(displayName: unknown): PersonRole {
	const role = typeof displayName === 'string' ? roleOfGroup(displayName) : null
	if (!role) throw invalid([{ field: 'displayName', message: `must be the name of a role: ${PERSON_ROLES.map((r) => GROUP_NAMES[r]).join(', ')}` }])
	return role
}

/**
 * Changes the members of the role's group: `add` and `remove` lists of user ids, or `replace` with
 * the full list. All or nothing (RFC 7644 §3.5.2): one transaction, so a member refused leaves
 * every member as they were.
 */
export async function changeMembers(deps: AppDeps, actor: Actor, role: PersonRole, change: { add?: string[]; remove?: string[]; replace?: string[] }) {
	await deps.db.transaction(async (tx) => {
		await lockMembers(tx, actor.workspaceId, role, [...(change.replace ?? []), ...(change.add ?? []), ...(change.remove ?? [])])
		const current = (await getGroup(deps, actor, role, tx)).members.map((m) => m.userId)
		const add = change.replace ?? change.add ?? []
		const remove = change.replace ? current.filter((id) => !change.replace!.includes(id)) : (change.remove ?? [])
		const fallback = async () => {
			const role0 = await newPersonRole(tx, actor.workspaceId)
			return role0 === role ? 'viewer' : role0
		}
		for (const userId of add) if (!current.includes(userId)) await setRole(deps, tx, actor, userId, role)
		for (const userId of remove) if (current.includes(userId)) await setRole(deps, tx, actor, userId, await fallback())
	})
}

/**
 * Locks, in one statement and in user-id order as owners.ts does, every membership the request may
 * change (the group's members, the ids named) with the owners' rows. `changeRole` then locks them
 * one member at a time: without this, two group requests at once could each hold a row the other
 * waits for (a deadlock).
 */
async function lockMembers(tx: Db, workspaceId: string, role: PersonRole, ids: string[]): Promise<void> {
	const inGroup = and(inArray(memberships.role, ['owner', role]), isNull(memberships.removedAt))
	await tx
		.select({ userId: memberships.userId })
		.from(memberships)
		.where(and(eq(memberships.workspaceId, workspaceId), ids.length ? or(inGroup, inArray(memberships.userId, ids)) : inGroup))
		.orderBy(memberships.userId)
		.for('update')
}

/** One member's new role, the people page's refusals said in SCIM's words. */
async function setRole(deps: AppDeps, tx: Db, actor: Actor, userId: string, role: string): Promise<void> {
	try {
		await changeRole(deps, actor, { id: actor.workspaceId, slug: actor.workspaceSlug }, { userId }, role, tx)
	} catch (error) {
		if (!(error instanceof AppError)) throw error
		if (error.code === 'NOT_FOUND') throw invalid([{ field: 'members', message: `${userId} is not an active user of this workspace` }])
		// The last owner stays: a rule about the member's current state, not a duplicate (SCIM's `uniqueness`).
		if (error.code === 'CONFLICT') throw new AppError('CONFLICT', error.message, { scimType: 'mutability' })
		throw error
	}
}
