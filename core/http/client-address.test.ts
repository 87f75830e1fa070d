/**
 * The address per-address limits count a request under: the connection's peer, or the trusted
 * proxy's `X-Forwarded-For` entry, in one normal form (tests/per-address-limits.test.ts drives
 * every limit through a real server).
 */
import { describe, expect, test } from 'bun:test'
import { clientAddress, normaliseAddress, notePeer } from './client-address.ts'

const trusted = { trustProxy: true }
const untrusted = { trustProxy: false }
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

	test('the peer the server noted counts; X-Forwarded-For only behind TRUST_PROXY, and only its last entry', () => {
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
})
