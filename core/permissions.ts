/**
 * Permissions, compiled once from what the modules declare: role → set of permission keys,
 * plus the grants a person holds beyond their role.
 */
import type { Actor, Role } from './actor.ts'
import { ROLES } from './actor.ts'
import type { ModuleDef, PermissionDef, PermissionKey } from './module.ts'

export interface Permissions {
	/** Every declared permission, by key. */
	readonly all: ReadonlyMap<string, PermissionDef>
	/** True when the actor's role or personal grants include the permission. */
	can(actor: Pick<Actor, 'role' | 'grants'>, key: PermissionKey | string): boolean
	/** True when the role alone (without personal grants) includes the permission. */
	roleHas(role: Role, key: string): boolean
}

export function compilePermissions(modules: readonly ModuleDef[]): Permissions {
	const all = new Map<string, PermissionDef>()
	const byRole = new Map<Role, Set<string>>(ROLES.map((r) => [r, new Set<string>()]))
	for (const m of modules)
		for (const p of m.permissions ?? []) {
			all.set(p.key, p)
			for (const role of p.grantedTo) byRole.get(role)?.add(p.key)
		}
	return {
		all,
		roleHas: (role, key) => byRole.get(role)?.has(key) ?? false,
		can: (actor, key) =>
			(byRole.get(actor.role)?.has(key) ?? false) || (actor.role !== 'vendor' && actor.grants.includes(key) && (all.get(key)?.grantable ?? false)),
	}
}
