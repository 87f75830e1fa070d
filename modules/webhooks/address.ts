/**
 * Where a webhook may go: through the one outbound connection (`core/http/outbound.ts`), so an
 * endpoint's address is judged the same way when it is added and at every delivery: `https://` only,
 * every address its name resolves to public unicast (no private, loopback, link-local, IPv4-mapped or
 * other embedded forms), the connection pinned to a checked address, no redirects followed.
 * `WEBHOOKS_ALLOW_PRIVATE=on` allows `http://` and private addresses (development and tests).
 */
import { checkedAddresses, OutboundError, outboundUrlProblem, type OutboundNetwork, type OutboundPolicy } from '../../core/http/outbound.ts'
import type { AppDeps } from '../../core/deps.ts'
import { webhookSettings } from './settings.ts'

/** No answer within this long counts as a failure (the specification's receivers answer at once and work later). */
export const DELIVERY_TIMEOUT_MS = 10_000
const MAX_ANSWER_BYTES = 64 * 1024
export const MAX_URL_LENGTH = 2000

export function webhookPolicy(deps: Pick<AppDeps, 'config'>, network?: OutboundNetwork): OutboundPolicy {
	const allowPrivate = deps.config.settings.of(webhookSettings).webhooksAllowPrivate
	return {
		allowPrivate,
		allowHttp: allowPrivate,
		timeoutMs: DELIVERY_TIMEOUT_MS,
		maxBytes: MAX_ANSWER_BYTES,
		maxRedirects: 0,
		userAgent: 'Benchline-Webhooks/1.0',
		network,
	}
}

export const NOT_PUBLIC = 'must be a public internet address: this one is private, loopback or link-local, or its name cannot be found'

/** Why `url` cannot be an endpoint (a message naming what is wrong, for the `url` field), or null. Looks the name up. */
export async function endpointUrlProblem(deps: Pick<AppDeps, 'config'>, url: string, network?: OutboundNetwork): Promise<string | null> {
	if (!url.trim()) return 'is required'
	if ([...url].length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`
	const policy = webhookPolicy(deps, network)
	const problem = outboundUrlProblem(url, policy)
	if (problem) return problem
	try {
		await checkedAddresses(new URL(url), policy)
		return null
	} catch (error) {
		if (error instanceof OutboundError && error.failure === 'timeout') return 'could not be looked up in time; try again'
		return NOT_PUBLIC
	}
}
