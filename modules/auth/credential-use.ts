/** What personal tokens and OAuth access tokens share once their row is found. */
import type { Actor, Credential, PersonRole } from '../../core/actor.ts'
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

/** "Last used" is kept to the minute, off the request's path (core/last-used.ts). */
export { noteUse } from '../../core/last-used.ts'
