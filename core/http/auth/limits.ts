/** The request limits of the bearer doors: per credential, and per client address before any lookup. */
import type { AppDeps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import { rateLimitHeaders } from '../rate-limit.ts'

/**
 * Counts one request for the credential; throws 429 with `Retry-After` over the limit. `before429`
 * runs first when the limit is reached (a key counted before it was looked up: 401 and 403 rank
 * above 429).
 */
export async function enforceRateLimit(
	deps: AppDeps,
	key: string,
	headers: Record<string, string | number>,
	before429?: () => Promise<unknown>,
): Promise<void> {
	const decision = await deps.limiter.hit(key)
	const rl = rateLimitHeaders(decision)
	Object.assign(headers, rl)
	if (!decision.allowed) {
		await before429?.()
		headers['Retry-After'] = String(decision.resetSeconds)
		throw new AppError('RATE_LIMITED', `Too many requests: wait ${decision.resetSeconds} seconds`, {
			retryAfter: decision.resetSeconds,
			headers: { ...rl, 'Retry-After': String(decision.resetSeconds) },
		})
	}
}

/**
 * Counts one REST request for the client address before any credential is looked up: a flood of
 * made-up keys from one address is refused (429) without a database query per key. The limit is
 * far above one vendor's, so vendors that share an address are not slowed down.
 */
export async function enforceAddressLimit(deps: AppDeps, address: string): Promise<void> {
	const decision = await deps.limiter.hit(`addr:rest:${address}`, deps.config.rateLimitPerAddressPerMinute)
	if (decision.allowed) return
	const retryAfter = String(decision.resetSeconds)
	throw new AppError('RATE_LIMITED', `Too many requests from this address: wait ${decision.resetSeconds} seconds`, {
		retryAfter: decision.resetSeconds,
		headers: { ...rateLimitHeaders(decision, 'address'), 'Retry-After': retryAfter },
	})
}
