/**
 * The membership port: modules that keep something for a person because of their place in a
 * workspace (the jobs module's hiring teams) are told, in the change's transaction, when that place
 * ends or its role changes, so what they keep never outlives it (someone invited back later starts
 * from nothing, not from what they held before).
 */
import type { PersonRole } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'
import { contributionsTo } from '../../core/registry.ts'
import type { Db } from '../../db/client.ts'

export interface MembershipChange {
	readonly workspaceId: string
	readonly userId: string
	/** The new role; null when the person left the workspace (removed, deactivated or deleted by SCIM). */
	readonly role: PersonRole | null
}

export interface MembershipListener {
	/** In the change's transaction: a failure undoes the change. */
	changed(deps: AppDeps, tx: Db, change: MembershipChange): Promise<void>
}

export const membershipPort = definePort<MembershipListener>(
	'auth:membership',
	'Told, in its transaction, when a person leaves a workspace or their role there changes (what a module keeps for them because of it goes too)',
)

/** Tells every listener of the change, in `tx`. */
export async function tellMembershipChanged(deps: AppDeps, tx: Db, change: MembershipChange): Promise<void> {
	for (const listener of contributionsTo(deps.registry, membershipPort)) await listener.changed(deps, tx, change)
}
