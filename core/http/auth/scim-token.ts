/**
 * `scim: true`, for `/scim/v2`: a workspace's SCIM token (`bl_scim_…`), which an identity provider
 * (Okta, Microsoft Entra ID) presents to create, change and deactivate people. Only the verifiers
 * of the `scim` door are asked, so a SCIM token opens nothing else and no other credential opens
 * SCIM. Rate limited per token; failures are counted per client address like on every bearer door.
 */
import type { AppDeps } from '../../deps.ts'
import type { CredentialVerifier } from '../../module.ts'
import { clientAddress } from '../client-address.ts'
import { presentedCredential } from './bearer-credential.ts'
import { declare, type ResolveContext } from './declared.ts'
import { enforceRateLimit } from './limits.ts'

export function scimTokenAuth(deps: AppDeps, verifiers: readonly CredentialVerifier[]) {
	return (_declared: true) => ({
		resolve: declare('scim', async ({ request, set }: ResolveContext) => {
			const presented = await presentedCredential(deps, verifiers, request.headers.get('authorization'), {
				door: 'scim',
				address: clientAddress(deps.config, request),
			})
			const actor = await presented.check()
			await enforceRateLimit(deps, `cred:${actor.credential.id}`, set.headers)
			return { actor }
		}),
	})
}
