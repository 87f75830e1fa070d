/**
 * Which network addresses the server may reach on a person's behalf (against SSRF): only public
 * unicast ones. Classification is ipaddr.js's (`range()` knows loopback, private, link-local,
 * carrier-grade NAT, unique-local, unspecified, multicast, broadcast, reserved, benchmarking,
 * 6to4, Teredo, NAT64, …), never a hand-written list of prefixes.
 */
import ipaddr from 'ipaddr.js'
import { isIP } from 'node:net'

/**
 * Global unicast IPv6: the only block IANA hands out for public addresses. Everything below it
 * (`::/8` holds the IPv4-compatible `::a.b.c.d` forms, which ipaddr.js calls plain unicast) and
 * above it is refused.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3')

/**
 * The address to connect to when `ip` is a public unicast address, else null. An IPv4-mapped IPv6
 * address (`::ffff:a.b.c.d`) is judged, and returned, as the IPv4 address it carries; every other
 * IPv6 form that embeds an IPv4 address (IPv4-compatible, 6to4, Teredo, NAT64, SIIT) is refused.
 * Only canonical address text (as `URL.hostname` and name look-ups give it) is accepted.
 */
export function publicAddress(ip: string): string | null {
	if (!isIP(ip)) return null
	const address = ipaddr.process(ip)
	if (address.range() !== 'unicast') return null
	if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return null
	return address.toString()
}

/** Any well-formed address, as it will be connected to: for installs that allow private addresses on purpose. */
export function anyAddress(ip: string): string | null {
	return isIP(ip) ? ipaddr.process(ip).toString() : null
}
