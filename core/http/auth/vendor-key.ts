/**
 * The Job Publish REST API: a vendor API key (`Authorization: Bearer bl_vk_…`), rate limited per key.
 *
 *   vendor: true      the route gets the key's `actor`
 *   vendorKey: true   the route gets the presented, not yet looked up, `vendorKey` and looks it up
 *                     inside its own statement (publish: one round trip instead of two); it keeps
 *                     the precedence by checking the key on its error paths
 *
 * Error precedence follows design.md: 401, 403, 429, then the body (413, 400); the per-address
 * limits come first, so their 429 is decided before the key is looked up.
 */
import type { AppDeps } from '../../deps.ts'
import type { CredentialVerifier } from '../../module.ts'
import { clientAddress } from '../client-address.ts'
import { presentedCredential } from './bearer-credential.ts'
import { declare, type ResolveContext } from './declared.ts'
import { enforceAddressLimit, enforceRateLimit } from './limits.ts'

export function vendorKeyAuth(deps: AppDeps, verifiers: readonly CredentialVerifier[]) {
	const presented = async (request: Request) => {
		const address = clientAddress(deps.config, request)
		await enforceAddressLimit(deps, address)
		const key = await presentedCredential(deps, verifiers, request.headers.get('authorization'), { door: 'rest', address })
		// Counted by the key's hash, so both kinds of route share one bucket per key.
		return { key, bucket: `key:${key.hash}` }
	}
	return {
		vendor: (_declared: true) => ({
			resolve: declare('vendor', async ({ request, set }: ResolveContext) => {
				const { key, bucket } = await presented(request)
				const actor = await key.check()
				await enforceRateLimit(deps, bucket, set.headers)
				return { actor }
			}),
		}),
		vendorKey: (_declared: true) => ({
			resolve: declare('vendor-key', async ({ request, set }: ResolveContext) => {
				const { key, bucket } = await presented(request)
				await enforceRateLimit(deps, bucket, set.headers, key.check)
				return { vendorKey: key }
			}),
		}),
	}
}
