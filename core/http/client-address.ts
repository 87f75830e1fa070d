/**
 * The client's network address, for every per-address limit (REST, sign-in, OAuth registration
 * and revocation, failed credentials on every bearer door, forms): one function, `clientAddress`.
 *
 * The HTTP server notes each request's peer (the TCP connection it came on) with `notePeer` before
 * the app sees the request; Elysia's own `server` is not set when the app is served through
 * `app.handle` (core/main.ts), so it cannot be asked. Behind a proxy we run (TRUST_PROXY=on), the
 * last `X-Forwarded-For` entry is the one our proxy added; earlier entries are whatever the client
 * sent and cannot be trusted. A last entry that is not an IP address is ignored (the peer counts).
 *
 * Addresses are counted in a normal form: an IPv4 address seen through an IPv6 socket
 * (`::ffff:192.0.2.1`) is that IPv4 address, and an IPv6 address counts by its /64 network, because
 * one IPv6 client is handed a whole /64 and could otherwise step past any per-address limit by
 * changing its last 64 bits.
 *
 * A request with no noted peer and no trusted header (only in-process tests build such requests)
 * is counted under "unknown".
 */
import { isIP, isIPv6 } from 'node:net'
import type { Config } from '../config.ts'

const peers = new WeakMap<Request, string>()

/** Records the address of the connection a request came on (called by the HTTP server). */
export function notePeer(request: Request, address: string | null | undefined): void {
	const normal = address ? normaliseAddress(address) : null
	if (normal) peers.set(request, normal)
}

/** The address every per-address limit counts this request under. */
export function clientAddress(config: Pick<Config, 'trustProxy'>, request: Request): string {
	if (config.trustProxy) {
		const forwarded = normaliseAddress(request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() ?? '')
		if (forwarded) return forwarded
	}
	return peers.get(request) ?? 'unknown'
}

/** An IP address in the form limits count it (see above), or null when `raw` is not one. */
export function normaliseAddress(raw: string): string | null {
	const address = raw.toLowerCase()
	const kind = isIP(address)
	if (kind === 4) return address
	if (kind !== 6) return null
	const groups = ipv6Groups(address)
	if (groups.slice(0, 6).join(':') === '0:0:0:0:0:65535') return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
	return `${groups
		.slice(0, 4)
		.map((g) => g.toString(16))
		.join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address (`isIPv6` checked it; zone ids are dropped). */
function ipv6Groups(address: string): number[] {
	if (!isIPv6(address)) throw new Error('not an IPv6 address')
	let text = address.replace(/%.*$/, '')
	// A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
	text = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`)
	const [head, tail] = text.split('::') as [string, string | undefined]
	const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : [])
	const left = parse(head)
	const right = parse(tail)
	return tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right]
}
