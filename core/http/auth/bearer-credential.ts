/** A bearer credential (vendor API key, personal token, OAuth access token) as presented on a door. */
import type { Actor } from '../../actor.ts'
import type { AppDeps } from '../../deps.ts'
import { credentialType, hashSecret } from '../../credentials.ts'
import { AppError } from '../../errors.ts'
import type { CredentialVerifier } from '../../module.ts'
import { parseBearer } from '../bearer.ts'
import { countFailedCredential, refuseWhileFailing } from '../failed-credentials.ts'

const bearerChallenge = (error?: string) => ({ 'WWW-Authenticate': error ? `Bearer realm="benchline", error="${error}"` : 'Bearer realm="benchline"' })

/** `WWW-Authenticate` for `/api/mcp`: points at the protected resource metadata (RFC 9728). */
export const mcpChallenge = (baseUrl: string, error?: string) => ({
	'WWW-Authenticate': `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"${error ? `, error="${error}"` : ''}, scope="mcp"`,
})

/** A bearer credential as presented: well formed, of a known type, not yet looked up. */
export interface PresentedCredential {
	/** SHA-256 of the token: what the database stores, and the rate-limit bucket. */
	readonly hash: string
	/** Looks the credential up: its actor, or 401 (unknown, revoked) or the verifier's own 403. */
	check(): Promise<Actor>
	/** Counts the failure for the client address; the 401 for a credential that is not, or no longer, valid. */
	rejected(): Promise<AppError>
}

/**
 * Reads the `Authorization` header for one door: 401 when it is missing or malformed, or when the
 * token is of no type this door takes or fails its checksum (all without a database query).
 *
 * Every credential that fails (here, in `check` or through `rejected`) is counted for the client
 * address; an address past its budget of failures gets 429 with `Retry-After` before anything is
 * looked up. A missing header is not a failure: it is how clients discover the challenge.
 */
export async function presentedCredential(
	deps: AppDeps,
	verifiers: readonly CredentialVerifier[],
	header: string | null,
	from: { door: 'rest' | 'mcp' | 'scim'; address: string },
): Promise<PresentedCredential> {
	const { door, address } = from
	const challenge = (error?: string) => (door === 'mcp' ? mcpChallenge(deps.config.baseUrl, error) : bearerChallenge(error))
	const what = door === 'mcp' ? 'an access token or personal token' : door === 'scim' ? 'a SCIM token' : 'an API key'
	const failed = async (error: AppError) => {
		await countFailedCredential(deps, address, door)
		return error
	}
	const rejected = () =>
		failed(
			new AppError(
				'UNAUTHORIZED',
				door === 'mcp'
					? 'The token is not valid, has expired or has been revoked'
					: door === 'scim'
						? 'The SCIM token is not valid or has been revoked'
						: 'The API key is not valid or has been revoked',
				{ headers: challenge('invalid_token') },
			),
		)
	const parsed = parseBearer(header)
	if ('problem' in parsed && parsed.problem === 'missing')
		throw new AppError('UNAUTHORIZED', `Authentication is required: send Authorization: Bearer <token> with ${what}`, { headers: challenge() })
	await refuseWhileFailing(deps, address)
	if ('problem' in parsed)
		throw await failed(
			new AppError('UNAUTHORIZED', `The Authorization header is malformed: send Authorization: Bearer <token> with ${what}`, {
				headers: challenge('invalid_request'),
			}),
		)
	const { token } = parsed
	const verifier = verifiers.find((v) => token.startsWith(v.prefix))
	if (!verifier || !credentialType(token)) throw await rejected()
	return {
		hash: hashSecret(token),
		rejected,
		check: async () => {
			const actor = await verifier.verify(deps, token)
			if (!actor) throw await rejected()
			return actor
		},
	}
}
