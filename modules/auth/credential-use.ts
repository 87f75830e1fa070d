/** What personal tokens and OAuth access tokens share once their row is found. */
import type { Actor, Credential, PersonRole } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { memberships, users, workspaces } from './table.ts'

/** The columns every credential lookup selects about the person and their membership (joined on the live membership). */
export const membershipColumns = {
	userId: users.id,
	userName: users.name,
	workspaceId: workspaces.id,
	workspaceSlug: workspaces.slug,
	role: memberships.role,
	grants: memberships.grants,
}

export interface MembershipRow {
	userId: string
	userName: string
	workspaceId: string
	workspaceSlug: string
	role: string
	grants: string[]
}

/** The person acting through a bearer credential, with the role and grants of their membership now. */
export function personActorFrom(row: MembershipRow, credential: Credential, readOnly: boolean): Actor {
	return {
		workspaceId: row.workspaceId,
		workspaceSlug: row.workspaceSlug,
		role: row.role as PersonRole,
		userId: row.userId,
		vendorId: null,
		name: row.userName,
		credential,
		grants: row.grants,
		readOnly,
	}
}

/** "Last used" is kept to the minute: no write on most requests, and never on the request's path. */
export function noteUse(deps: AppDeps, lastUsedAt: Date | null, write: (now: Date) => Promise<unknown>): void {
	const now = deps.now()
	if (lastUsedAt && now.getTime() - lastUsedAt.getTime() <= 60_000) return
	write(now).catch((error) => deps.log.warn('could not record credential use', { error }))
}
