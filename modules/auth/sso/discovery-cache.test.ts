/**
 * The discovery documents kept for sign-ins (discovery-cache.ts) against a real HTTP server that
 * logs what it is asked: kept 5 minutes, at most 300 issuers (the one fetched longest ago goes
 * first), forgotten when the discovery failed. The sign-in pages' side is in sso.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer, type Server } from 'node:http'
import type { CustomFetch } from 'openid-client'
import { unique } from '../../../tests/helpers.ts'
import { DISCOVERY_KEPT_MS, discoveryFetch } from './discovery-cache.ts'

let server: Server
let base = ''
const asked: string[] = []

beforeAll(async () => {
	server = createServer((req, res) => {
		asked.push(req.url ?? '')
		res.writeHead(200, { 'content-type': 'application/json' })
		res.end(JSON.stringify({ issuer: `${base}${req.url}` }))
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const NOW = Date.UTC(2026, 0, 5, 9)

/** One discovery's document fetch for `issuer`, as openid-client makes it: the document it got. */
async function read(issuer: string, o: { now?: number; fresh?: boolean } = {}) {
	const fetcher: CustomFetch = (url, init) => fetch(url, { method: init.method, headers: init.headers })
	const document = discoveryFetch(issuer, { now: o.now ?? NOW, fresh: o.fresh ?? false, fetcher })
	const answer = await document.fetch(`${base}/${issuer}`, { method: 'GET', headers: { accept: 'application/json' }, body: undefined, redirect: 'manual' })
	return { document, body: (await answer.json()) as { issuer: string }, status: answer.status }
}
const times = (issuer: string) => asked.filter((url) => url === `/${issuer}`).length

describe('discovery documents kept for sign-ins', () => {
	test('kept for 5 minutes: read again after; an owner’s fresh read asks the provider and drops the kept copy', async () => {
		const issuer = unique('kept')
		expect((await read(issuer)).body.issuer).toBe(`${base}/${issuer}`)
		await read(issuer, { now: NOW + DISCOVERY_KEPT_MS - 1 })
		expect(times(issuer)).toBe(1)
		await read(issuer, { now: NOW + DISCOVERY_KEPT_MS })
		expect(times(issuer)).toBe(2)
		await read(issuer, { now: NOW + DISCOVERY_KEPT_MS, fresh: true })
		await read(issuer, { now: NOW + DISCOVERY_KEPT_MS })
		expect(times(issuer)).toBe(4)
	})

	test('a discovery that failed forgets the document it got: the next one asks again', async () => {
		const issuer = unique('failed')
		const { document } = await read(issuer)
		document.forget()
		await read(issuer)
		await read(issuer)
		expect(times(issuer)).toBe(2)
	})

	test('at most 300 issuers: past that, the one fetched longest ago is dropped', async () => {
		const issuers = Array.from({ length: 301 }, () => unique('many'))
		for (const issuer of issuers) await read(issuer)
		await read(issuers[300]!)
		await read(issuers[1]!)
		expect([times(issuers[300]!), times(issuers[1]!)]).toEqual([1, 1])
		await read(issuers[0]!)
		expect(times(issuers[0]!)).toBe(2)
	})
})
