/**
 * Failed credentials are counted per client address on every door that takes one (the bearer doors
 * in `auth.ts`, the OAuth token endpoint, `/metrics` with its token): each one that fails costs a
 * database look-up, and a stream of made-up ones is someone guessing. Past `FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE` the
 * address waits for the minute to end, before any look-up. Only failures are counted, so clients
 * whose credentials work are never slowed down by this, however many share an address.
 */
import type { AppDeps } from '../deps.ts'
import { AppError } from '../errors.ts'
import type { CredentialDoor } from '../metrics.ts'
import { rateLimitHeaders } from './rate-limit.ts'

const bucket = (address: string) => `authfail:${address}`

/** Seconds the address must wait before presenting another credential (null: it may go on). */
export async function failedCredentialsWait(deps: AppDeps, address: string): Promise<{ seconds: number; headers: Record<string, string> } | null> {
	const decision = await deps.limiter.peek(bucket(address), deps.config.failedCredentialsPerAddressPerMinute)
	if (decision.remaining > 0) return null
	return { seconds: decision.resetSeconds, headers: { ...rateLimitHeaders(decision, 'failed-credentials'), 'Retry-After': String(decision.resetSeconds) } }
}

/** The 429 of an address past its budget, before anything is looked up (the doors that answer in AppError's shape). */
export async function refuseWhileFailing(deps: AppDeps, address: string): Promise<void> {
	const wait = await failedCredentialsWait(deps, address)
	if (wait)
		throw new AppError('RATE_LIMITED', `Too many failed credentials from this address: wait ${wait.seconds} seconds`, {
			retryAfter: wait.seconds,
			headers: wait.headers,
		})
}

/** Counts one failed credential for the address (and on `/metrics`, by door). */
export async function countFailedCredential(deps: AppDeps, address: string, door: CredentialDoor): Promise<void> {
	deps.metrics.credentialFailure(door)
	await deps.limiter.hit(bucket(address), deps.config.failedCredentialsPerAddressPerMinute)
}
