/**
 * The outbound connection beyond what the calendar feed tests cover (they drive it through GETs with
 * redirects and 43 hostile addresses): a POST with its body and headers, https-only unless allowed,
 * private addresses refused unless allowed (also for a name that resolves to one), no redirect
 * followed unless allowed, the body bounded for whoever reads it, the one deadline, and the
 * fetch-shaped adapter a library can be given.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { OutboundError, outboundFetch, outboundFetcher, outboundNetwork, outboundText, outboundUrlProblem, type OutboundPolicy } from './outbound.ts'

let server: ReturnType<typeof Bun.serve>
let base: string
const received: { method: string; body: string; type: string | null; agent: string | null }[] = []

beforeAll(() => {
	server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const path = new URL(request.url).pathname
			received.push({ method: request.method, body: await request.text(), type: request.headers.get('content-type'), agent: request.headers.get('user-agent') })
			if (path === '/moved') return new Response(null, { status: 307, headers: { location: '/hook' } })
			if (path === '/big') return new Response('x'.repeat(5000))
			if (path === '/endless')
				return new Response(
					new ReadableStream({
						async pull(c) {
							c.enqueue(new TextEncoder().encode('x'.repeat(100)))
							await Bun.sleep(5)
						},
					}),
				)
			if (path === '/silent') return new Promise<Response>(() => {})
			return Response.json({ ok: true, path })
		},
	})
	base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))

const open: OutboundPolicy = { allowPrivate: true, timeoutMs: 5_000, maxBytes: 1_000, userAgent: 'Benchline test' }
const strict: OutboundPolicy = { ...open, allowPrivate: false }
const failure = (p: Promise<unknown>) =>
	p.then(
		() => 'answered',
		(e: unknown) => (e instanceof OutboundError ? e.failure : `other: ${e}`),
	)

describe('outbound requests', () => {
	test('a POST carries its body and headers; the answer reads back', async () => {
		const response = await outboundFetch(`${base}/hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }, open)
		expect(response.status).toBe(200)
		expect(JSON.parse(await outboundText(response))).toEqual({ ok: true, path: '/hook' })
		expect(received.at(-1)).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json', agent: 'Benchline test' })
	})

	test('plain http only where allowed; user names and passwords never', () => {
		expect(outboundUrlProblem('http://example.com/x', { allowPrivate: false })).toBe('must start with https://')
		expect(outboundUrlProblem('http://example.com/x', { allowPrivate: false, allowHttp: true })).toBeNull()
		expect(outboundUrlProblem('https://u:p@example.com/x', { allowPrivate: false })).toBe('must not hold a user name or password')
		expect(outboundUrlProblem('ftp://example.com/x', { allowPrivate: true })).toBe('must be a web address starting with https://')
	})

	test('a private address, or a name resolving to one, is unreachable unless allowed, with nothing sent', async () => {
		const before = received.length
		expect(await failure(outboundFetch(`${base}/hook`, { method: 'POST', body: 'x' }, { ...strict, allowHttp: true }))).toBe('unreachable')
		const toLoopback = { ...outboundNetwork(false), resolve: async () => ['93.184.216.34', '127.0.0.1'] }
		expect(await failure(outboundFetch(`http://hooks.example:${server.port}/hook`, {}, { ...strict, allowHttp: true, network: toLoopback }))).toBe(
			'unreachable',
		)
		expect(await failure(outboundFetch(`http://[::ffff:127.0.0.1]:${server.port}/hook`, {}, { ...strict, allowHttp: true }))).toBe('unreachable')
		expect(received.length).toBe(before)
	})

	test('a redirect is the answer unless some are allowed; a 307 keeps the method and body', async () => {
		const moved = await outboundFetch(`${base}/moved`, { method: 'POST', body: 'once' }, open)
		expect(moved.status).toBe(307)
		const followed = await outboundFetch(`${base}/moved`, { method: 'POST', body: 'twice' }, { ...open, maxRedirects: 1 })
		expect(followed.status).toBe(200)
		expect(received.at(-1)).toMatchObject({ method: 'POST', body: 'twice' })
	})

	test('the body is bounded for whoever reads it, and the deadline covers the body', async () => {
		expect(await failure(outboundFetch(`${base}/big`, {}, open).then(outboundText))).toBe('too_large')
		expect(await failure(outboundFetch(`${base}/endless`, {}, { ...open, maxBytes: 10_000_000, timeoutMs: 300 }).then(outboundText))).toBe('timeout')
		expect(await failure(outboundFetch(`${base}/silent`, {}, { ...open, timeoutMs: 300 }))).toBe('timeout')
	})

	test('the fetch-shaped adapter sends what a library gives it through the same checks', async () => {
		const fetchLike = outboundFetcher(open)
		const response = await fetchLike(`${base}/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ a: 'b' }),
		})
		expect(await response.json()).toEqual({ ok: true, path: '/token' })
		expect(received.at(-1)).toMatchObject({ method: 'POST', body: 'a=b', type: 'application/x-www-form-urlencoded' })
		expect(await failure(outboundFetcher({ ...strict, allowHttp: true })(`${base}/token`))).toBe('unreachable')
	})
})
