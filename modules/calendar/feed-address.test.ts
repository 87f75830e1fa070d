/**
 * Issue 16, item 2 (SSRF through the calendar feed address): only public unicast addresses are
 * reached. Every hostile form (IPv4-mapped, IPv4-compatible, SIIT, 6to4, Teredo, NAT64, the
 * unspecified, loopback, private, link-local, unique-local, carrier-grade NAT, multicast and
 * broadcast addresses, numeric IPv4 spellings, names that resolve to loopback, redirects to any
 * of them) is refused with one neutral message before any connection: a listener on the port
 * every address names records none, and neither do node's sockets. The connection goes to the
 * address that was checked (a name is looked up once per hop), and a refused address reads the
 * same as one that cannot be reached (no ECONNREFUSED or ECONNRESET to scan ports with).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import net from 'node:net'
import { publicAddress } from '../../core/http/public-address.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { personActor } from '../auth/index.ts'
import { fetchFeed, feedNetwork, normalizeFeedUrl, UNREACHABLE, type FeedNetwork } from './fetch.ts'
import { setFeed } from './index.ts'
import { calendarBusy, calendarFeeds } from './table.ts'

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Benchline test//EN\r\nEND:VCALENDAR\r\n'
const strict = { calendarFeedsAllowPrivate: false, calendarFeedTimeout: 5 }
const open = { calendarFeedsAllowPrivate: true, calendarFeedTimeout: 5 }

/** A TCP listener on `host` that records every connection made to it and closes it. */
async function listener(host: string, port = 0) {
	const connections: string[] = []
	const server = net.createServer((socket) => {
		connections.push(`${socket.remoteAddress} -> ${host}`)
		socket.destroy()
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(port, host, resolve)
	})
	return { port: (server.address() as net.AddressInfo).port, connections, close: () => server.close() }
}

/**
 * Every socket this process opens to `port` (node's sockets, which `http`, `https` and `tls` sit
 * on), with the address it reached; each call passes through to the real `connect`.
 */
function socketsTo(port: number) {
	const seen: { host?: string; remote?: string }[] = []
	const real = net.Socket.prototype.connect
	net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
		// net.connect passes its arguments already normalised, as one array.
		const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { port?: unknown; host?: string } | number
		const target = typeof first === 'object' && first ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined }
		if (Number(target.port) === port) {
			const entry: { host?: string; remote?: string } = { host: target.host }
			seen.push(entry)
			this.once('connect', () => (entry.remote = this.remoteAddress))
		}
		return real.apply(this, args as never)
	} as typeof real
	return { seen, restore: () => void (net.Socket.prototype.connect = real) }
}

const failure = (work: Promise<unknown>) =>
	work.then(
		(text) => `fetched: ${String(text).slice(0, 40)}`,
		(error: Error) => error.message,
	)

/** A feed server on `host`; `/moved` redirects to the address in `?to=`. */
function feedServer(host: string, port = 0) {
	const requests: { path: string; host: string | null }[] = []
	const server = Bun.serve({
		port,
		hostname: host,
		fetch(req) {
			const url = new URL(req.url)
			requests.push({ path: `${url.pathname}${url.search}`, host: req.headers.get('host') })
			if (url.pathname === '/moved') return new Response(null, { status: 302, headers: { location: url.searchParams.get('to')! } })
			return new Response(ICS, { headers: { 'content-type': 'text/calendar' } })
		},
	})
	return { port: server.port!, requests, stop: () => server.stop(true) }
}

let v4: Awaited<ReturnType<typeof listener>>
let v6: Awaited<ReturnType<typeof listener>>
/** The port every hostile address names: something listens there on 127.0.0.1 and [::1]. */
let PORT: number

beforeAll(async () => {
	v4 = await listener('127.0.0.1')
	PORT = v4.port
	v6 = await listener('::1', PORT)
})
beforeEach(() => {
	v4.connections.length = 0
	v6.connections.length = 0
})
afterAll(() => {
	v4.close()
	v6.close()
})

/** Hostile feed addresses: each must be refused with UNREACHABLE and no connection. */
const hostile = () => [
	// IPv4-mapped, in its spellings (the URL parser rewrites the first to [::ffff:7f00:1]).
	`http://[::ffff:127.0.0.1]:${PORT}/x.ics`,
	`http://[::ffff:7f00:1]:${PORT}/x.ics`,
	`http://[0:0:0:0:0:ffff:127.0.0.1]:${PORT}/x.ics`,
	`https://[::ffff:127.0.0.1]:${PORT}/x.ics`,
	`webcal://[::ffff:127.0.0.1]:${PORT}/x.ics`,
	`http://[::ffff:a9fe:a9fe]:${PORT}/latest/meta-data/`,
	`http://[::ffff:10.0.0.1]:${PORT}/x.ics`,
	// IPv4-compatible, SIIT, 6to4, Teredo and NAT64 forms of 127.0.0.1.
	`http://[::127.0.0.1]:${PORT}/x.ics`,
	`http://[::ffff:0:127.0.0.1]:${PORT}/x.ics`,
	`http://[2002:7f00:1::]:${PORT}/x.ics`,
	`http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${PORT}/x.ics`,
	`http://[64:ff9b::7f00:1]:${PORT}/x.ics`,
	`http://[64:ff9b:1::7f00:1]:${PORT}/x.ics`,
	// Unspecified, loopback, link-local, unique-local, site-local, discard, multicast, broadcast.
	`http://[::]:${PORT}/x.ics`,
	`http://0.0.0.0:${PORT}/x.ics`,
	`http://[::1]:${PORT}/x.ics`,
	`http://127.0.0.1:${PORT}/x.ics`,
	`http://127.8.9.10:${PORT}/x.ics`,
	`http://[fe80::1]:${PORT}/x.ics`,
	`http://169.254.169.254:${PORT}/latest/meta-data/`,
	`http://[fd00::1]:${PORT}/x.ics`,
	`http://[fc00::7f00:1]:${PORT}/x.ics`,
	`http://[fec0::1]:${PORT}/x.ics`,
	`http://[100::1]:${PORT}/x.ics`,
	`http://[ff02::1]:${PORT}/x.ics`,
	`http://224.0.0.1:${PORT}/x.ics`,
	`http://255.255.255.255:${PORT}/x.ics`,
	// Private, carrier-grade NAT and reserved IPv4.
	`http://10.0.0.1:${PORT}/x.ics`,
	`http://172.16.0.1:${PORT}/x.ics`,
	`http://192.168.1.1:${PORT}/x.ics`,
	`http://100.64.0.1:${PORT}/x.ics`,
	`http://198.18.0.1:${PORT}/x.ics`,
	`http://240.0.0.1:${PORT}/x.ics`,
	// Numeric spellings of 127.0.0.1 (decimal, hex, short, octal, dotted hex, a trailing dot) and of 0.0.0.0.
	`http://2130706433:${PORT}/x.ics`,
	`http://0x7f000001:${PORT}/x.ics`,
	`http://0x7f.1:${PORT}/x.ics`,
	`http://127.1:${PORT}/x.ics`,
	`http://0177.0.0.1:${PORT}/x.ics`,
	`http://127.0.0.1.:${PORT}/x.ics`,
	`http://0:${PORT}/x.ics`,
	// Names that resolve to loopback.
	`http://localhost:${PORT}/x.ics`,
	`http://LOCALHOST.:${PORT}/x.ics`,
	`webcal://localhost:${PORT}/x.ics`,
]

describe('calendar feed addresses: only public unicast addresses are reached (issue 16)', () => {
	let ws: TestWorkspace
	beforeAll(async () => {
		ws = await newWorkspace()
	})
	afterAll(async () => {
		const deps = await testDeps()
		await deps.db.delete(calendarBusy).where(eq(calendarBusy.workspaceId, ws.id))
		await deps.db.delete(calendarFeeds).where(eq(calendarFeeds.workspaceId, ws.id))
	})

	test('the URL parser turns numeric spellings into the dotted address (and an IPv4-mapped one into hex); the check sees that form', () => {
		const as = (raw: string) => new URL((normalizeFeedUrl(raw) as { url: string }).url).hostname
		for (const raw of ['http://2130706433/', 'http://0x7f000001/', 'http://0x7f.1/', 'http://127.1/', 'http://0177.0.0.1/', 'http://127.0.0.1./'])
			expect(as(raw)).toBe('127.0.0.1')
		expect(as('http://0/')).toBe('0.0.0.0')
		expect(as('http://[::ffff:127.0.0.1]/')).toBe('[::ffff:7f00:1]')
		expect(as('http://[::127.0.0.1]/')).toBe('[::7f00:1]')
		// What the classifier says of those forms, and of the public addresses it lets through.
		for (const ip of [
			'127.0.0.1',
			'0.0.0.0',
			'::ffff:7f00:1',
			'::7f00:1',
			'::ffff:0:7f00:1',
			'2002:7f00:1::',
			'64:ff9b::7f00:1',
			'2001:0:4136:e378:8000:63bf:80ff:fffe',
			'::',
			'::1',
			'fe80::1%1',
			'192.0.2.1',
			'not an address',
			'0x7f000001',
		])
			expect([ip, publicAddress(ip)]).toEqual([ip, null])
		expect(['8.8.8.8', '2606:4700::1111', '::ffff:808:808'].map(publicAddress)).toEqual(['8.8.8.8', '2606:4700::1111', '8.8.8.8'])
	})

	test('every hostile address set as a feed is refused with the one neutral message, and no connection is made', async () => {
		const deps = await testDeps()
		const person = await newPerson(ws, 'recruiter')
		const actor = await personActor(deps, ws.slug, person.email)
		const sockets = socketsTo(PORT)
		try {
			// The probe sees a connection when one is made (an install that allows private addresses).
			expect(await failure(fetchFeed(open, `http://127.0.0.1:${PORT}/x.ics`))).toBe(UNREACHABLE)
			expect([v4.connections.length, sockets.seen]).toEqual([1, [{ host: '127.0.0.1', remote: '127.0.0.1' }]])
			v4.connections.length = 0
			sockets.seen.length = 0

			const refused: [string, string | null][] = []
			for (const url of hostile()) {
				const feed = await setFeed(deps, actor, url)
				refused.push([url, feed.status === 'error' ? feed.lastError : `status ${feed.status}`])
			}
			expect(refused).toEqual(hostile().map((url) => [url, UNREACHABLE]))
			expect(v4.connections).toEqual([])
			expect(v6.connections).toEqual([])
			expect(sockets.seen).toEqual([])
		} finally {
			sockets.restore()
		}
	})

	test('a redirect from an allowed feed to a private address, in any form, is refused at that hop; no connection is made there', async () => {
		// No public address can be served on a test machine: here 127.0.0.2 stands for the public feed, everything else is judged as in production.
		const network: FeedNetwork = { ...feedNetwork(strict), reachable: (ip) => (ip === '127.0.0.2' ? ip : publicAddress(ip)) }
		const feed = feedServer('127.0.0.2')
		const sockets = socketsTo(PORT)
		try {
			const moved = (to: string) => `http://127.0.0.2:${feed.port}/moved?to=${encodeURIComponent(to)}`
			expect(await fetchFeed(strict, moved('/feed.ics'), network)).toBe(ICS)
			const targets = [
				`http://127.0.0.1:${PORT}/x.ics`,
				`http://[::ffff:127.0.0.1]:${PORT}/x.ics`,
				`http://[::1]:${PORT}/x.ics`,
				`http://localhost:${PORT}/x.ics`,
				`http://2130706433:${PORT}/x.ics`,
				`http://[64:ff9b::7f00:1]:${PORT}/x.ics`,
				`http://169.254.169.254:${PORT}/x.ics`,
			]
			const results = await Promise.all(targets.map((to) => failure(fetchFeed(strict, moved(to), network))))
			expect(results).toEqual(targets.map(() => UNREACHABLE))
			// Two hops deep: the allowed feed redirects to itself, then to loopback.
			expect(await failure(fetchFeed(strict, moved(moved(`http://127.0.0.1:${PORT}/x.ics`)), network))).toBe(UNREACHABLE)
			expect(feed.requests).toHaveLength(2 + targets.length + 2)
			expect([v4.connections, v6.connections, sockets.seen]).toEqual([[], [], []])
		} finally {
			sockets.restore()
			feed.stop()
		}
	})

	test('every address a name resolves to must be public: one private answer among public ones refuses the name, before any connection', async () => {
		const sockets = socketsTo(PORT)
		try {
			const answering = (addresses: string[]): FeedNetwork => ({ ...feedNetwork(strict), resolve: async () => addresses })
			for (const addresses of [['93.184.215.14', '127.0.0.1'], ['2606:4700::1111', '::1'], ['8.8.8.8', '::ffff:7f00:1'], ['10.1.2.3'], ['fd12::1'], []])
				expect([addresses, await failure(fetchFeed(strict, `http://feed.test:${PORT}/x.ics`, answering(addresses)))]).toEqual([addresses, UNREACHABLE])
			expect(await failure(fetchFeed(strict, `http://no-such-host.invalid:${PORT}/x.ics`))).toBe(UNREACHABLE)
			expect([v4.connections, sockets.seen]).toEqual([[], []])
		} finally {
			sockets.restore()
		}
	})

	test('DNS rebinding: the name is looked up once per hop and the connection goes to the address that was checked, not to a later answer', async () => {
		const checked = feedServer('127.0.0.1')
		const later = await listener('127.0.0.2', checked.port)
		const sockets = socketsTo(checked.port)
		const lookups: string[] = []
		// The first answer passes the check; every later one names an address the check would refuse.
		const network: FeedNetwork = {
			resolve: async (host) => {
				lookups.push(host)
				return lookups.length === 1 ? ['127.0.0.1'] : ['127.0.0.2']
			},
			reachable: (ip) => (ip === '127.0.0.1' ? ip : publicAddress(ip)),
		}
		try {
			expect(await fetchFeed(strict, `http://rebinding.test:${checked.port}/feed.ics`, network)).toBe(ICS)
			expect(lookups).toEqual(['rebinding.test'])
			expect(sockets.seen).toEqual([{ host: 'rebinding.test', remote: '127.0.0.1' }])
			expect(checked.requests).toEqual([{ path: '/feed.ics', host: `rebinding.test:${checked.port}` }])
			expect(later.connections).toEqual([])
			// A redirect is a new hop: looked up (and checked) again, so the rebound answer is refused there.
			expect(
				await failure(
					fetchFeed(strict, `http://127.0.0.1:${checked.port}/moved?to=${encodeURIComponent(`http://rebinding.test:${checked.port}/feed.ics`)}`, network),
				),
			).toBe(UNREACHABLE)
			expect(lookups).toEqual(['rebinding.test', 'rebinding.test'])
			expect(later.connections).toEqual([])
		} finally {
			sockets.restore()
			checked.stop()
			later.close()
		}
	})
})

describe('refused and unreachable read the same', () => {
	test('connection refused, connection reset, a failed TLS handshake, an unknown name and a refused address all give the one message', async () => {
		const closed = await listener('127.0.0.1')
		closed.close()
		const reset = net.createServer((socket) => socket.resetAndDestroy())
		await new Promise<void>((resolve) => reset.listen(0, '127.0.0.1', resolve))
		const plain = feedServer('127.0.0.1')
		try {
			const messages = [
				await failure(fetchFeed(open, `http://127.0.0.1:${closed.port}/x.ics`)),
				await failure(fetchFeed(open, `http://127.0.0.1:${(reset.address() as net.AddressInfo).port}/x.ics`)),
				await failure(fetchFeed(open, `https://127.0.0.1:${plain.port}/x.ics`)),
				await failure(fetchFeed(open, `http://no-such-host.invalid/x.ics`)),
				await failure(fetchFeed(strict, `http://127.0.0.1:${plain.port}/x.ics`)),
			]
			expect(messages).toEqual(messages.map(() => UNREACHABLE))
			expect(plain.requests).toEqual([])
		} finally {
			reset.close()
			plain.stop()
		}
	})

	test('the settings page shows the same message for a refused address and for a closed port, never the network error', async () => {
		const closed = await listener('127.0.0.1')
		closed.close()
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		try {
			const errorOf = (text: string) => text.match(/<p class="error" role="alert">([^<]*)<\/p>/)?.[1]
			const strictPage = await signedIn(person)
			const refused = await strictPage.post('/settings/calendar', { url: `http://[::ffff:127.0.0.1]:${PORT}/x.ics` })
			const openPage = await signedIn(person, { overrides: { CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' } })
			const unreachable = await openPage.post('/settings/calendar', { url: `http://127.0.0.1:${closed.port}/x.ics` })
			expect([refused.status, unreachable.status]).toEqual([422, 422])
			expect(errorOf(refused.text)).toBe(UNREACHABLE)
			expect(errorOf(unreachable.text)).toBe(UNREACHABLE)
			for (const page of [refused.text, unreachable.text]) expect(page).not.toMatch(/ECONN|ENOTFOUND|private network|loopback/i)
			expect(v4.connections).toEqual([])
		} finally {
			const deps = await testDeps()
			await deps.db.delete(calendarFeeds).where(eq(calendarFeeds.workspaceId, ws.id))
		}
	})
})
