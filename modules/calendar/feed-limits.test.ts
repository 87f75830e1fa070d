/**
 * The limits a feed fetch keeps now that it goes through node's http client to a checked address
 * (issue 16) instead of `fetch`: at most 2 MB (declared or counted while reading a chunked body),
 * at most 3 redirects, redirects only to web addresses, a clear message for other statuses.
 * The time limit is tested against hung peers in `tests/reliability/outbound-timeouts.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { fetchFeed } from './fetch.ts'

const config = { calendarFeedsAllowPrivate: true, calendarFeedTimeout: 10 }
const MB = 1024 * 1024
const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n'

let server: ReturnType<typeof Bun.serve>
/** What the server was asked, in order. */
const asked: string[] = []
let base: string

beforeAll(() => {
	server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(req) {
			const url = new URL(req.url)
			asked.push(url.pathname)
			const hops = url.pathname.match(/^\/hops\/(\d+)$/)
			if (hops) return Number(hops[1]) ? new Response(null, { status: 302, headers: { location: `/hops/${Number(hops[1]) - 1}` } }) : new Response(ICS)
			if (url.pathname === '/to-file') return new Response(null, { status: 301, headers: { location: 'file:///etc/passwd' } })
			if (url.pathname === '/to-nowhere') return new Response(null, { status: 307, headers: { location: 'http://[::1' } })
			if (url.pathname === '/gone') return new Response('gone', { status: 410 })
			if (url.pathname === '/secret') return new Response('no', { status: 403 })
			const size = Number(url.searchParams.get('bytes'))
			if (url.pathname === '/declared') return new Response('x'.repeat(size), { headers: { 'content-type': 'text/calendar' } })
			// Chunked: no Content-Length, so only counting while reading can stop it.
			if (url.pathname === '/chunked')
				return new Response(
					new ReadableStream({
						async pull(controller) {
							controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)))
							if (--chunks === 0) controller.close()
						},
					}),
					{ headers: { 'content-type': 'text/calendar' } },
				)
			return new Response('?', { status: 400 })
		},
	})
	base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
let chunks = 0

const outcome = (path: string) =>
	fetchFeed(config, `${base}${path}`).then(
		(text) => `${text.length} characters`,
		(error: Error) => error.message,
	)

describe('feed fetch limits', () => {
	test('2 MB: a body of exactly 2 MB is read; one byte more is refused, whether declared or chunked', async () => {
		expect(await outcome(`/declared?bytes=${2 * MB}`)).toBe(`${2 * MB} characters`)
		expect(await outcome(`/declared?bytes=${2 * MB + 1}`)).toBe('The feed is larger than 2 MB')
		chunks = 32
		expect(await outcome('/chunked')).toBe(`${2 * MB} characters`)
		chunks = 1000
		expect(await outcome('/chunked')).toBe('The feed is larger than 2 MB')
	})

	test('redirects: three are followed, a fourth is refused; only to web addresses', async () => {
		asked.length = 0
		expect(await outcome('/hops/3')).toBe(`${ICS.length} characters`)
		expect(asked).toEqual(['/hops/3', '/hops/2', '/hops/1', '/hops/0'])
		asked.length = 0
		expect(await outcome('/hops/4')).toBe('The feed address redirects too many times')
		expect(asked).toEqual(['/hops/4', '/hops/3', '/hops/2', '/hops/1'])
		expect(await outcome('/to-file')).toBe('The feed address redirects to something that is not a web address')
		expect(await outcome('/to-nowhere')).toBe('The feed address redirects to something that is not a web address')
	})

	test('other statuses say what the server answered', async () => {
		expect(await outcome('/gone')).toBe('The calendar server answered 410')
		expect(await outcome('/secret')).toBe('The calendar server answered 403: check that the address is the private (secret) iCal address and still valid')
	})
})

describe('a peer that is not a web server', () => {
	let raw: Server
	beforeAll(async () => {
		raw = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'))
		await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
	})
	afterAll(() => raw.close())

	test('an answer that is not HTTP reads as unreachable, with no detail of what answered', async () => {
		const message = await fetchFeed(config, `http://127.0.0.1:${(raw.address() as AddressInfo).port}/x.ics`).catch((error: Error) => error.message)
		expect(message).toBe('The calendar server could not be reached at this address; check that it is the iCal address your calendar gives you')
	})
})
