/**
 * Where a webhook may go: through the one outbound connection (`core/http/outbound.ts`), so an
 * endpoint's address is judged the same way when it is added and at every delivery: `https://` only,
 * every address its name resolves to public unicast (no private, loopback, link-local, IPv4-mapped or
 * other embedded forms), the connection pinned to a checked address, no redirects followed.
 * `WEBHOOKS_ALLOW_PRIVATE=on` allows `http://` and private addresses (development and tests).
 */
import { type SQL, sql } from 'drizzle-orm'
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

/**
 * An endpoint's address as it is stored, shown and called: the URL parser's own form (`href`), never
 * the text as typed. They differ where the parser reads what a person would not: a backslash is a
 * slash, so `http://127.0.0.1:4190\@evil.example/x` calls 127.0.0.1 and is stored as
 * `http://127.0.0.1:4190/@evil.example/x`, not as an address that seems to name evil.example; no
 * fragment and no empty query, which the request does not carry. Only for an address
 * `endpointUrlProblem` accepted.
 */
export function canonicalUrl(url: string): string {
	const parsed = new URL(url.trim())
	// A name written as fully qualified (`hooks.example.`) is the same receiver as without the dot, which
	// is the name TLS certificates and SNI carry; kept, it was another address to the firm's switch-off.
	if (parsed.hostname.endsWith('.') && !parsed.hostname.startsWith('[')) parsed.hostname = parsed.hostname.slice(0, -1)
	// What the request carries and nothing more: a fragment is never sent, and an empty query (`/hook?`)
	// is the path alone on the wire (core/http/pinned-request.ts sends pathname and search). Kept, they
	// made one receiving address two, so the address a firm switched off was added again as `…/hook#2`.
	return `${parsed.origin}${parsed.pathname}${parsed.search}`
}

/**
 * The address called of an endpoint's stored `url` (SQL), for comparing: rows stored before
 * `canonicalUrl` dropped the fragment and an empty query may still hold them.
 */
export const calledUrl = (url: SQL) => sql`regexp_replace(split_part(${url}, '#', 1), '[?]$', '')`

/**
 * What no delivery could do with the address, though it is a web address: a fragment (`#…`) is never
 * sent to a receiver (a token put there would never arrive, and the same receiver would be another
 * address to the firm's switch-off), and port 0 is no port anything listens on.
 */
function undeliverable(url: string): string | null {
	const parsed = new URL(url.trim())
	if (parsed.href.includes('#')) return 'must not hold a fragment (#…): it is never sent to the receiver; put what it carries in the path or query'
	if (parsed.port === '0') return 'must not name port 0'
	return null
}

/** Why `url` cannot be an endpoint (a message naming what is wrong, for the `url` field), or null. Looks the name up. */
export async function endpointUrlProblem(deps: Pick<AppDeps, 'config'>, url: string, network?: OutboundNetwork): Promise<string | null> {
	if (!url.trim()) return 'is required'
	if ([...url].length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`
	const policy = webhookPolicy(deps, network)
	const problem = outboundUrlProblem(url, policy) ?? undeliverable(url)
	if (problem) return problem
	// What is stored is the parser's form, longer where it percent-encodes (each character beyond ASCII takes up to 12).
	if ([...canonicalUrl(url)].length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters once written out as it is called`
	try {
		await checkedAddresses(new URL(url), policy)
		return null
	} catch (error) {
		if (error instanceof OutboundError && error.failure === 'timeout') return 'could not be looked up in time; try again'
		return NOT_PUBLIC
	}
}
