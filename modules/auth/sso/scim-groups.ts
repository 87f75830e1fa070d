/**
 * SCIM groups are the workspace's roles (Owner, Admin, Recruiter, Hiring manager, Viewer): a person
 * is a member of exactly one, their role. Adding someone to a group gives them its role (the people
 * page's rules hold: only owners make owners, the last owner stays); removing them from their
 * role's group gives them the role single sign-on gives new people (Viewer if that is the group
 * they left). Groups cannot be created or deleted: a group pushed under a role's name is that role.
 */
import { and, eq, isNull } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../../core/actor.ts'
import { PERSON_ROLES } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError, invalid } from '../../../core/errors.ts'
import { changeRole } from '../people.ts'
import { memberships, users } from '../table.ts'
import { GROUP_NAMES, roleOfGroup } from './scim-model.ts'
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

/** The groups (optionally the one named `displayName eq "…"`), with their members. */
export async function listGroups(deps: AppDeps, actor: Actor, filter: string | undefined): Promise<ScimGroup[]> {
	let roles: readonly PersonRole[] = PERSON_ROLES
	if (filter !== undefined && filter.trim() !== '') {
		const m = /^\s*displayName\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter)
		if (!m) throw invalid([{ field: 'filter', message: 'is not supported: use displayName eq "…"' }])
		const role = roleOfGroup(m[1]!.replace(/\\(.)/g, '$1'))
		roles = role ? [role] : []
	}
	const rows = await deps.db
		.select({ userId: users.id, name: users.name, role: memberships.role })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(and(eq(memberships.workspaceId, actor.workspaceId), isNull(memberships.removedAt)))
		.orderBy(users.name, users.id)
	return roles.map((role) => ({ role, members: rows.filter((r) => r.role === role).map(({ userId, name }) => ({ userId, name })) }))
}

export async function getGroup(deps: AppDeps, actor: Actor, id: string): Promise<ScimGroup> {
	const role = requireGroup(id)
	return (await listGroups(deps, actor, `displayName eq "${GROUP_NAMES[role]}"`))[0]!
}

/** A group "created" by the provider: only a role's name is one. */
export function groupNamed(displayName: unknown): PersonRole {
	const role = typeof displayName === 'string' ? roleOfGroup(displayName) : null
	if (!role) throw invalid([{ field: 'displayName', message: `must be the name of a role: ${PERSON_ROLES.map((r) => GROUP_NAMES[r]).join(', ')}` }])
	return role
}

/** Changes the members of the role's group: `add` and `remove` lists of user ids, or `replace` with the full list. */
export async function changeMembers(deps: AppDeps, actor: Actor, role: PersonRole, change: { add?: string[]; remove?: string[]; replace?: string[] }) {
	const ws = { id: actor.workspaceId, slug: actor.workspaceSlug }
	const current = (await getGroup(deps, actor, role)).members.map((m) => m.userId)
	const add = change.replace ?? change.add ?? []
	const remove = change.replace ? current.filter((id) => !change.replace!.includes(id)) : (change.remove ?? [])
	const fallback = async () => {
		const role0 = await newPersonRole(deps.db, actor.workspaceId)
		return role0 === role ? 'viewer' : role0
	}
	for (const userId of add) {
		if (current.includes(userId)) continue
		try {
			await changeRole(deps, actor, ws, { userId }, role)
		} catch (error) {
			if (error instanceof AppError && error.code === 'NOT_FOUND')
				throw invalid([{ field: 'members', message: `${userId} is not an active user of this workspace` }])
			throw error
		}
	}
	for (const userId of remove) if (current.includes(userId)) await changeRole(deps, actor, ws, { userId }, await fallback())
}
