/**
 * The address per-address limits count a request under: the connection's peer, or the trusted
 * proxy's `X-Forwarded-For` entry, in one normal form (tests/per-address-limits.test.ts drives
 * every limit through a real server).
 */
import { describe, expect, test } from 'bun:test'
import { clientAddress, normaliseAddress, notePeer, parseTrustProxy, type TrustedProxies } from './client-address.ts'

const proxies = (raw: string): { trustProxy: TrustedProxies } => {
	const parsed = parseTrustProxy(raw)
	if ('problem' in parsed) throw new Error(parsed.problem)
	return { trustProxy: parsed.proxies }
}
const trusted = proxies('on')
const untrusted = proxies('off')
const request = (forwarded?: string) => new Request('http://localhost/', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} })

describe('client address', () => {
	test('IPv4 as is; IPv4 seen through an IPv6 socket is that IPv4 address; IPv6 counts by its /64', () => {
		expect(normaliseAddress('192.0.2.7')).toBe('192.0.2.7')
		expect(normaliseAddress('::ffff:192.0.2.7')).toBe('192.0.2.7')
		expect(normaliseAddress('::FFFF:c000:207')).toBe('192.0.2.7')
		// One client's /64, however its last 64 bits are written, is one address.
		const ownNetwork = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9', '2001:db8:1:2::a:b']
		expect(new Set(ownNetwork.map(normaliseAddress))).toEqual(new Set(['2001:db8:1:2::/64']))
		expect(normaliseAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
		expect(normaliseAddress('::1')).toBe('0:0:0:0::/64')
		expect(normaliseAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
	})

	test('anything that is not an IP address is not an address', () => {
		for (const raw of [
			'',
			'unknown',
			'192.0.2.7:8080',
			'[2001:db8::1]',
			'[2001:db8::1]:443',
			'192.0.2.256',
			'example.com',
			'1.2.3',
			' 192.0.2.7x',
			'2001:db8::1::2',
		])
			expect({ raw, address: normaliseAddress(raw) }).toEqual({ raw, address: null })
	})

	test('the peer the server noted counts; X-Forwarded-For only from a loopback peer with TRUST_PROXY=on, and only its last entry', () => {
		const direct = request('198.51.100.9')
		notePeer(direct, '::ffff:127.0.0.2')
		expect(clientAddress(untrusted, direct)).toBe('127.0.0.2')
		expect(clientAddress(trusted, direct)).toBe('198.51.100.9')
		const spoofed = request('203.0.113.1, 198.51.100.9')
		notePeer(spoofed, '127.0.0.1')
		expect(clientAddress(trusted, spoofed)).toBe('198.51.100.9')
		// A last entry that is no address (a misconfigured proxy, or none) leaves the peer in charge.
		for (const header of ['garbage', '198.51.100.9, ', '198.51.100.9:1234']) {
			const odd = request(header)
			notePeer(odd, '127.0.0.1')
			expect({ header, address: clientAddress(trusted, odd) }).toEqual({ header, address: '127.0.0.1' })
		}
	})

	test('a request the server never saw (built in-process) is "unknown" unless a trusted proxy named it', () => {
		expect(clientAddress(untrusted, request())).toBe('unknown')
		expect(clientAddress(untrusted, request('198.51.100.9'))).toBe('unknown')
		expect(clientAddress(trusted, request('198.51.100.9'))).toBe('198.51.100.9')
		expect(clientAddress(trusted, request('2001:db8:5:6:7::1'))).toBe('2001:db8:5:6::/64')
	})

	test('TRUST_PROXY=on trusts loopback peers only: a client reaching the port directly cannot name its own address (issue 26)', () => {
		for (const peer of ['192.0.2.2', '203.0.113.5', '::ffff:198.51.100.4', '2001:db8::5', '10.0.0.1', 'fd00::2']) {
			const direct = request('198.51.100.9')
			notePeer(direct, peer)
			expect({ peer, address: clientAddress(trusted, direct) }).toEqual({ peer, address: normaliseAddress(peer) ?? 'not an address' })
		}
		for (const peer of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1']) {
			const viaProxy = request('198.51.100.9')
			notePeer(viaProxy, peer)
			expect({ peer, address: clientAddress(trusted, viaProxy) }).toEqual({ peer, address: '198.51.100.9' })
		}
	})

	test('TRUST_PROXY names proxies by address or network: the header is read from them only, from its end, past every trusted hop', () => {
		const config = proxies('127.0.0.1, 10.0.0.0/8,2001:db8:aa::/48')
		const from = (peer: string, forwarded: string) => {
			const r = request(forwarded)
			notePeer(r, peer)
			return clientAddress(config, r)
		}
		expect(from('10.1.2.3', '198.51.100.9')).toBe('198.51.100.9')
		expect(from('::ffff:10.1.2.3', '198.51.100.9')).toBe('198.51.100.9')
		expect(from('2001:db8:aa:1::7', '198.51.100.9')).toBe('198.51.100.9')
		// 127.0.0.2 is not 127.0.0.1: listing an address trusts that address only.
		expect(from('127.0.0.2', '198.51.100.9')).toBe('127.0.0.2')
		expect(from('192.0.2.2', '198.51.100.9')).toBe('192.0.2.2')
		// nginx (127.0.0.1) behind a load balancer (10.9.9.9): the client is the first untrusted hop from the end.
		expect(from('127.0.0.1', '198.51.100.9, 10.9.9.9')).toBe('198.51.100.9')
		// What the client wrote before it is never read.
		expect(from('127.0.0.1', '10.0.0.7, 203.0.113.1, 10.9.9.9')).toBe('203.0.113.1')
		// Every hop trusted: the furthest one counts; a hop that is no address ends the walk.
		expect(from('127.0.0.1', '10.0.0.7')).toBe('10.0.0.7')
		expect(from('127.0.0.1', 'garbage, 10.0.0.7')).toBe('10.0.0.7')
		expect(from('127.0.0.1', '198.51.100.9, garbage')).toBe('127.0.0.1')
		// A request built in-process is judged as loopback: trusted here because 127.0.0.1 is listed.
		expect(clientAddress(config, request('198.51.100.9'))).toBe('198.51.100.9')
		expect(clientAddress(proxies('10.0.0.0/8'), request('198.51.100.9'))).toBe('unknown')
	})

	test('TRUST_PROXY values: off, on, addresses and networks; anything else is refused naming the bad entries', () => {
		for (const off of ['', 'off', 'OFF', 'false', '0']) expect(parseTrustProxy(off)).toEqual({ proxies: [] })
		expect(parseTrustProxy(undefined)).toEqual({ proxies: [] })
		for (const on of ['on', 'true', '1']) expect(parseTrustProxy(on)).toEqual(parseTrustProxy('127.0.0.0/8,::1/128'))
		const listed = parseTrustProxy('127.0.0.1,10.0.0.0/8,::1,2001:db8::/32')
		expect('proxies' in listed && listed.proxies.map(([a, bits]) => `${a.toString()}/${bits}`)).toEqual([
			'127.0.0.1/32',
			'10.0.0.0/8',
			'::1/128',
			'2001:db8::/32',
		])
		for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1,,', '10.0.0.1:80', '*', 'yes']) {
			const parsed = parseTrustProxy(bad)
			expect({ bad, problem: 'problem' in parsed && parsed.problem.startsWith('TRUST_PROXY must be') }).toEqual({ bad, problem: true })
		}
	})
})
