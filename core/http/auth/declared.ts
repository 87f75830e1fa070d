/**
 * What a route declared about its credential. Each kind of credential is its own macro (one file
 * each beside this one), and each tags the resolve hook it adds with the spec, so the app and the
 * tests read every route's declaration back from Elysia's route table.
 */
import type { PermissionKey } from '../../module.ts'

/** Every declaration, as the route table reports it (`vendor-key` is the `vendorKey` macro). */
export type AuthSpec = 'public' | 'form' | 'vendor' | 'vendor-key' | 'mcp' | 'scim' | 'signed-in' | { permission: PermissionKey }

/** The part of Elysia's context the credential macros read. */
export interface ResolveContext {
	readonly request: Request
	readonly set: { headers: Record<string, string | number> }
	readonly cookie: Record<string, any>
	readonly body: unknown
}

/** Tags a macro's resolve hook with what the route declared. */
export function declare<F extends (context: ResolveContext) => Promise<unknown>>(spec: AuthSpec, resolve: F): F & { auth: AuthSpec } {
	return Object.assign(resolve, { auth: spec })
}

/** Every credential a route declared, read back from Elysia's route table (a route must have one). */
export function declaredAuths(hooks: unknown): AuthSpec[] {
	const before = (hooks as { beforeHandle?: unknown })?.beforeHandle
	const list = Array.isArray(before) ? before : before ? [before] : []
	return list.flatMap((h) => {
		const spec = ((h as { fn?: unknown }).fn ?? h) as { auth?: AuthSpec }
		return spec?.auth ? [spec.auth] : []
	})
}

/** What a route declared (undefined when nothing). */
export function declaredAuth(hooks: unknown): AuthSpec | undefined {
	return declaredAuths(hooks)[0]
}
