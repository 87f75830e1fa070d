/**
 * Authentication and permissions for REST routes and pages. Every route declares its credential
 * with one macro, and a test checks that each route in the app's route table declares exactly one:
 *
 *   auth: 'public'                    anyone (careers pages, health, OAuth endpoints)
 *   auth: 'form'                      anyone, but a form post must carry the double-submit CSRF token
 *   session: 'signed-in'              a person with a portal session (pages); posts are CSRF-checked
 *   session: { permission: 'x:y' }    a signed-in person whose role or grants include the permission
 *   vendor: true                      a vendor API key (`Authorization: Bearer bl_vk_…`), rate limited
 *   vendorKey: true                   the same, but the route looks the key up inside its own statement
 *   mcp: true                         a personal token or OAuth access token for `/api/mcp`
 *   scim: true                        a workspace's SCIM token (`bl_scim_…`) for `/scim/v2`, and only there
 *
 * One macro, and one file under `auth/`, per kind of credential: Elysia types a macro's context by
 * the macro, not by the value given to it, so only separate macros can hand `session` (pages),
 * `actor` (vendor, mcp) or `vendorKey` to their handlers as non-null.
 *
 * Error precedence on the REST door follows design.md: 401, 403, 429, then the body (413, 400).
 * Exceptions: the per-address limits are decided before the credential is looked up, so a 429
 * from them comes before a 401 (REST requests per address; failed credentials per address on
 * every bearer door, `failed-credentials.ts`).
 */
import { Elysia } from 'elysia'
import type { AppDeps } from '../deps.ts'
import type { CredentialVerifier } from '../module.ts'
import { anonymousAuth } from './auth/anonymous.ts'
import { mcpTokenAuth } from './auth/mcp-token.ts'
import { pageSessionOf, sessionAuth, type SessionResolver } from './auth/session.ts'
import { scimTokenAuth } from './auth/scim-token.ts'
import { vendorKeyAuth } from './auth/vendor-key.ts'

// What modules and tests use of the kinds' files, from the one place they import auth from.
export { presentedCredential, type PresentedCredential } from './auth/bearer-credential.ts'
export { declaredAuth, declaredAuths, type AuthSpec } from './auth/declared.ts'
export type { PageSession, SessionResolver } from './auth/session.ts'

export interface ActorResolvers {
	readonly bearer: readonly CredentialVerifier[]
	readonly session: SessionResolver | null
}

export function createAuthPlugin(deps: AppDeps, resolvers: ActorResolvers) {
	const pageSession = pageSessionOf(deps, resolvers.session)
	const verifiersOf = (door: CredentialVerifier['door']) => resolvers.bearer.filter((v) => v.door === door)
	return new Elysia({ name: 'core.auth' }).macro({
		auth: anonymousAuth(deps),
		session: sessionAuth(deps, pageSession),
		...vendorKeyAuth(deps, verifiersOf('rest')),
		mcp: mcpTokenAuth(deps, verifiersOf('mcp'), pageSession),
		scim: scimTokenAuth(deps, verifiersOf('scim')),
	})
}

export type AuthPlugin = ReturnType<typeof createAuthPlugin>

// What a module's routes are built with (`HttpKit`, core/module.ts) holds this plugin: added here, where its
// type is made, so the module contract imports nothing of this file.
declare module '../module.ts' {
	interface HttpKit {
		/** The credential macros (one of `auth`, `session`, `vendor`, `vendorKey`, `mcp`, `scim` on every route). */
		readonly auth: AuthPlugin
	}
}
