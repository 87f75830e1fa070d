/**
 * Permissions, compiled once from what the modules declare: role → set of permission keys,
 * plus the grants a person holds beyond their role.
 */
import type { Role } from './actor.ts'
import { ROLES } from './actor.ts'
import type { ModuleDef, PermissionDef, Permissions } from './module.ts'

// Declared with the module contract: the app's dependencies hold it, and modules receive those.
export type { Permissions }

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
		includedIn: (role, grants) => grants.filter((key) => byRole.get(role)?.has(key) ?? false),
		can: (actor, key) =>
			(byRole.get(actor.role)?.has(key) ?? false) || (actor.role !== 'vendor' && actor.grants.includes(key) && (all.get(key)?.grantable ?? false)),
	}
}
