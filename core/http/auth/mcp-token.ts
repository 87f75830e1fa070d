/**
 * `mcp: true`, for `/api/mcp`: a personal token or OAuth access token, rate limited per credential;
 * a foreign browser Origin is 403 and 401s point at the resource metadata. The handler gets the
 * token's `actor`.
 */
import type { AppDeps } from '../../deps.ts'
import type { CredentialVerifier } from '../../module.ts'
import { clientAddress } from '../client-address.ts'
import { applyCors } from '../cors.ts'
import { verifyCsrf } from '../csrf.ts'
import { presentedCredential } from './bearer-credential.ts'
import { declare, type ResolveContext } from './declared.ts'
import { enforceRateLimit } from './limits.ts'
import type { PageSessionOf } from './session.ts'

/** Header carrying the session's CSRF token on the portal's MCP connection test. */
export const CONNECTION_TEST_HEADER = 'x-benchline-connection-test'

export function mcpTokenAuth(deps: AppDeps, verifiers: readonly CredentialVerifier[], pageSession: PageSessionOf) {
	return (_declared: true) => ({
		resolve: declare('mcp', async ({ request, set, cookie }: ResolveContext) => {
			applyCors(deps.config, request, set.headers)
			// The portal's "Test connection" speaks MCP from the person's own browser with their
			// session: same site, no Authorization header, the session's CSRF token in a header.
			// Such an actor may only look (initialize, tools/list; see core/mcp/handler.ts).
			const testToken = request.headers.get(CONNECTION_TEST_HEADER)
			if (testToken !== null && !request.headers.has('authorization')) {
				const session = await pageSession(request, cookie)
				verifyCsrf(deps, request, testToken, session.csrf)
				await enforceRateLimit(deps, `cred:${session.sessionId}`, set.headers)
				return { actor: { ...session.actor, credential: { ...session.actor.credential, name: 'portal connection test' } } }
			}
			const presented = await presentedCredential(deps, verifiers, request.headers.get('authorization'), {
				door: 'mcp',
				address: clientAddress(deps.config, request),
			})
			const actor = await presented.check()
			await enforceRateLimit(deps, `cred:${actor.credential.id}`, set.headers)
			return { actor }
		}),
	})
}
