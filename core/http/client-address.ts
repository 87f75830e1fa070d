/**
 * The client's network address, for every per-address limit (REST, sign-in, OAuth registration
 * and revocation, failed credentials on every bearer door, forms): one function, `clientAddress`.
 *
 * The HTTP server notes each request's peer (the TCP connection it came on) with `notePeer` before
 * the app sees the request; Elysia's own `server` is not set when the app is served through
 * `app.handle` (core/main.ts), so it cannot be asked.
 *
 * Behind proxies we run, `TRUST_PROXY` names them: `on` is loopback (127.0.0.0/8 and ::1), or a
 * comma-separated list of addresses and CIDR networks (`127.0.0.1,10.0.0.0/8`). `X-Forwarded-For`
 * is read only when the peer is one of them: before issue 26, `on` read it from anyone, so a client
 * that reached the app's port directly chose its own address (and its own per-address budgets).
 * The header is then read from its end: each entry a trusted proxy added names the hop before it,
 * and the first address that is not a trusted proxy is the client. Entries further left are
 * whatever the client sent. An entry that is not an IP address ends the walk (the last trusted hop
 * counts). Matching is ipaddr.js's; an IPv4 address seen through an IPv6 socket matches as IPv4.
 *
 * Addresses are counted in a normal form: an IPv4 address seen through an IPv6 socket
 * (`::ffff:192.0.2.1`) is that IPv4 address, and an IPv6 address counts by its /64 network, because
 * one IPv6 client is handed a whole /64 and could otherwise step past any per-address limit by
 * changing its last 64 bits.
 *
 * A request with no noted peer was built inside the process (tests; nothing the server received),
 * so it is judged as coming from loopback; with no trusted header it is counted under "unknown".
 */
import ipaddr from 'ipaddr.js'
import { isIP, isIPv6 } from 'node:net'

/** The networks `TRUST_PROXY` names: [network address, prefix length]; empty = trust no proxy. */
export type TrustedProxies = readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[]

const LOOPBACK = ['127.0.0.0/8', '::1/128']

/**
 * `TRUST_PROXY` as written: `off` (or unset), `on` (loopback), or addresses and CIDR networks
 * separated by commas. Returns the networks, or what is wrong (naming each bad entry).
 */
export function parseTrustProxy(raw: string | undefined): { proxies: TrustedProxies } | { problem: string } {
	const value = (raw ?? '').trim().toLowerCase()
	if (['', 'off', 'false', '0'].includes(value)) return { proxies: [] }
	const entries = ['on', 'true', '1'].includes(value) ? LOOPBACK : value.split(',').map((e) => e.trim())
	const proxies: [ipaddr.IPv4 | ipaddr.IPv6, number][] = []
	const bad: string[] = []
	for (const entry of entries) {
		if (ipaddr.isValidCIDR(entry)) proxies.push(ipaddr.parseCIDR(entry))
		else if (isIP(entry)) {
			const address = ipaddr.parse(entry)
			proxies.push([address, address.kind() === 'ipv4' ? 32 : 128])
		} else bad.push(JSON.stringify(entry))
	}
	if (bad.length)
		return {
			problem: `TRUST_PROXY must be "on" (loopback), "off", or IP addresses and CIDR networks separated by commas, e.g. 127.0.0.1,10.0.0.0/8 (not ${bad.join(', ')})`,
		}
	return { proxies }
}

/** Whether `address` (an IP address as written) is in one of the trusted networks. */
export function isTrustedProxy(proxies: TrustedProxies, address: string): boolean {
	if (!proxies.length || !isIP(address.replace(/%.*$/, ''))) return false
	let parsed = ipaddr.parse(address.replace(/%.*$/, ''))
	if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
	return proxies.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))
}

/** The raw address of each request's connection (noted by the server). */
const peers = new WeakMap<Request, string>()

/** Records the address of the connection a request came on (called by the HTTP server). */
export function notePeer(request: Request, address: string | null | undefined): void {
	if (address && normaliseAddress(address)) peers.set(request, address)
}

/** The address every per-address limit counts this request under. */
export function clientAddress(config: { readonly trustProxy: TrustedProxies }, request: Request): string {
	const peer = peers.get(request)
	let hop = peer
	// Only a trusted proxy's header is read, and only as far as the hops are trusted proxies.
	if (isTrustedProxy(config.trustProxy, peer ?? '127.0.0.1')) {
		const entries = request.headers.get('x-forwarded-for')?.split(',') ?? []
		for (let i = entries.length - 1; i >= 0; i--) {
			const entry = entries[i]!.trim()
			if (!normaliseAddress(entry)) break
			hop = entry
			if (!isTrustedProxy(config.trustProxy, entry)) break
		}
	}
	return (hop && normaliseAddress(hop)) ?? 'unknown'
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
