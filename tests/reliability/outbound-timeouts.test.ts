/**
 * Outbound timeouts (checklist L4) against real hung peers on loopback: an SMTP server that accepts
 * the connection and never greets, one that greets and then hangs after the message data, one that
 * trickles its answers; a messaging provider that accepts and never answers, or answers its headers
 * and trickles the body; a calendar feed that never answers or trickles. Each send or read gives up
 * within its configured bound (set low here: SMTP_TIMEOUT, MESSAGING_TIMEOUT, CALENDAR_FEED_TIMEOUT),
 * the outbox row waits for its retry with the reason shown on the outbox page (not lost, not sent
 * twice), the worker goes on delivering other rows meanwhile, and the server goes on answering.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { createServer, type Socket } from 'node:net'
import { loadConfig } from '../../core/config.ts'
import type { AppDeps } from '../../core/deps.ts'
import { feedNetwork, fetchFeed } from '../../modules/calendar/fetch.ts'
import { refreshDueFeeds } from '../../modules/calendar/index.ts'
import { calendarSettings } from '../../modules/calendar/settings.ts'
import { calendarBusy, calendarFeeds } from '../../modules/calendar/table.ts'
import { DEFAULT_WORKER_OPTIONS, deliverDue, enqueueMail, enqueueMessage, outboxSettings, startOutboxWorker } from '../../modules/outbox/index.ts'
import { smtpTimeouts } from '../../modules/outbox/mail.ts'
import { outbox } from '../../modules/outbox/table.ts'
import { clock, configProblems, newPerson, newWorkspace, testDeps, unique, type TestWorkspace } from '../helpers.ts'
import { PortalClient, portalApp, uniqueAddress } from '../portal.ts'
import { startSmtp, type TestSmtp } from '../smtp.ts'
import { waitFor } from './processes.ts'

setDefaultTimeout(60_000)

/** The bound every test sets (seconds), and how much later than it a give-up may be seen (a loaded 2-core machine). */
const BOUND = 3
const SLACK_MS = 2_500
/** A page answered while a peer hangs: well under the 3 s a blocked server would take, with room for a busy CI machine. */
const SERVED_MEANWHILE_MS = 2_000
const ACCOUNT = 'AC0123456789abcdef'
const TOKEN = 'provider-secret'

interface Connection {
	openedAt: number
	closedAt?: number
	received: string
}

interface HungPeer {
	readonly port: number
	readonly connections: Connection[]
	close(): void
}

/** A raw TCP server on loopback that accepts connections and does only what `behave` says. */
async function hungPeer(behave: (socket: Socket) => void = () => {}): Promise<HungPeer> {
	const connections: Connection[] = []
	const sockets = new Set<Socket>()
	const server = createServer((socket) => {
		const c: Connection = { openedAt: Date.now(), received: '' }
		connections.push(c)
		sockets.add(socket)
		socket.on('data', (d) => (c.received += d.toString()))
		socket.on('close', () => {
			c.closedAt = Date.now()
			sockets.delete(socket)
		})
		socket.on('error', () => {})
		behave(socket)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return {
		port: (server.address() as { port: number }).port,
		connections,
		close() {
			for (const s of sockets) s.destroy()
			server.close()
		},
	}
}

/** Writes `chunk` every `everyMs` until the other side goes: never silent, never done. */
function trickle(socket: Socket, chunk: string, everyMs = 200) {
	const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(chunk)), everyMs)
}

/** A peer that answers a request's headers at once, then trickles a chunked body that never ends. */
const tricklingBody = (status: string, contentType: string, chunk: string) =>
	hungPeer((s) =>
		s.once('data', () => {
			s.write(`HTTP/1.1 ${status}\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`)
			trickle(s, chunk)
		}),
	)

/** A Twilio-shaped provider that answers at once (the working one). */
const sentMessages: Record<string, string>[] = []
let provider: ReturnType<typeof Bun.serve>
let smtp: TestSmtp
let stalling = true

beforeAll(async () => {
	await testDeps()
	smtp = await startSmtp({ stall: (address) => stalling && address.startsWith('stall-') })
	provider = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const form = Object.fromEntries(new URLSearchParams(await request.text()))
			sentMessages.push(form)
			return Response.json({ sid: `SM${crypto.randomUUID().replace(/-/g, '')}`, status: 'queued' }, { status: 201 })
		},
	})
})
afterAll(async () => {
	await smtp.stop()
	provider.stop(true)
})
afterEach(() => clock.reset())

const messaging = (url: string) => ({ MESSAGING_URL: url, MESSAGING_ACCOUNT: ACCOUNT, MESSAGING_TOKEN: TOKEN, MESSAGING_FROM: '+15550001111' })
const providerUrl = () => `http://127.0.0.1:${provider.port}`
const timeouts = { SMTP_TIMEOUT: String(BOUND), MESSAGING_TIMEOUT: String(BOUND), CALENDAR_FEED_TIMEOUT: String(BOUND) }
const rowOf = async (id: string) =>
	(
		await (
			await testDeps()
		).db
			.select()
			.from(outbox)
			.where(inArray(outbox.id, [id]))
	)[0]!
const phone = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
/** The worker as it runs in the server, limited to the test's workspace; retries are an hour away, so each test controls them. */
const worker = (deps: AppDeps, ws: TestWorkspace) => startOutboxWorker(deps, { workspaceId: ws.id, pollMs: 50, baseDelayMs: 3_600_000 })

/**
 * The portal served on a real loopback port, with an admin of `ws` signed in over HTTP, to show the
 * server answers while outbound calls hang (and what the outbox page says about them).
 */
async function servedPortal(ws: TestWorkspace, overrides: Record<string, string> = {}) {
	const { app } = await portalApp(overrides)
	const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => app.handle(request) })
	const url = `http://127.0.0.1:${server.port}`
	const admin = await newPerson(ws, 'admin')
	const client = new PortalClient({ handle: (request) => fetch(request, { redirect: 'manual' }) }, { origin: url, address: uniqueAddress() })
	const signIn = await client.signIn(admin.email, admin.password)
	if (signIn.status !== 303) throw new Error(`sign-in over HTTP failed: ${signIn.status}`)
	/** A request answered while something hangs: its status and how long it took. */
	const timed = async (request: () => Promise<{ status: number; text: string }>) => {
		const started = Date.now()
		const res = await request()
		return { status: res.status, text: res.text, ms: Date.now() - started }
	}
	const health = () =>
		timed(async () => {
			const res = await fetch(`${url}/health`)
			return { status: res.status, text: await res.text() }
		})
	return { url, client, admin, timed, health, stop: () => server.stop(true) }
}

/** Waits until the row has settled after its first attempt; returns when that was seen. */
async function settled(id: string): Promise<number> {
	await waitFor(`outbox row ${id} to settle`, async () => (await rowOf(id)).status !== 'sending', (BOUND + 15) * 1000, 20)
	return Date.now()
}

describe('a hung SMTP server', () => {
	test('one that accepts the connection and never greets: the send gives up within SMTP_TIMEOUT, the row waits for its retry with the reason; messages and the portal are served meanwhile; the retry delivers it once', async () => {
		const silent = await hungPeer()
		const ws = await newWorkspace()
		const deps = await testDeps({ SMTP_URL: `smtp://127.0.0.1:${silent.port}`, ...messaging(providerUrl()), ...timeouts })
		const portal = await servedPortal(ws)
		const stop = worker(deps, ws)
		try {
			const to = `${unique('greet')}@example.test`
			const mail = await enqueueMail(deps.db, { workspaceId: ws.id, to, subject: 'Never greeted', text: 'x' }, deps)
			await waitFor('the worker to connect to the silent server', () => silent.connections.length === 1, 10_000, 10)

			// Meanwhile: a message goes out, and the server answers pages.
			const text = unique('meanwhile')
			const message = await enqueueMessage(deps.db, { workspaceId: ws.id, to: phone(), text }, deps)
			await waitFor('the message to be sent while the mail hangs', async () => (await rowOf(message.id)).status === 'sent', 10_000, 20)
			expect((await rowOf(mail.id)).status).toBe('sending')
			expect(sentMessages.filter((m) => m.Body === text)).toHaveLength(1)
			const health = await portal.health()
			expect(health.status).toBe(200)
			expect(health.ms).toBeLessThan(SERVED_MEANWHILE_MS)
			const during = await portal.timed(() => portal.client.get(`/outbox/${mail.id}`))
			expect(during.status).toBe(200)
			expect(during.text).toContain('<dd>Sending</dd>')

			const gaveUp = (await settled(mail.id)) - silent.connections[0]!.openedAt
			expect(gaveUp).toBeGreaterThanOrEqual(BOUND * 1000 - 500)
			expect(gaveUp).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			const row = await rowOf(mail.id)
			expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null })
			expect(row.lastError).toMatch(/^SMTP: (Greeting never received|no complete answer within 3 s)/)
			expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3_000_000)
			await waitFor('the connection to be closed by the sender', () => silent.connections[0]!.closedAt !== undefined, 5_000, 20)
			const page = await portal.client.get(`/outbox/${mail.id}`)
			expect(page.text).toContain('<dd>Waiting</dd>')
			expect(page.text).toContain(`Last error: ${row.lastError}`)
			expect(page.text).toContain('Next attempt')
			// Only one attempt while it hung.
			expect(silent.connections).toHaveLength(1)

			// The SMTP server is replaced by one that works: the retry delivers the mail, once.
			await stop()
			clock.advance(3_600_001)
			expect(await deliverDue(await testDeps({ SMTP_URL: smtp.url, ...messaging(providerUrl()), ...timeouts }), { workspaceId: ws.id })).toEqual({
				sent: 1,
				retried: 0,
				failed: 0,
			})
			expect(smtp.to(to)).toHaveLength(1)
			expect(await rowOf(mail.id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
		} finally {
			await stop()
			portal.stop()
			silent.close()
		}
	})

	test('one that greets, takes the message and never answers it: the send gives up within SMTP_TIMEOUT; other mail to the same server is delivered meanwhile; the retry delivers it once', async () => {
		stalling = true
		const ws = await newWorkspace()
		const deps = await testDeps({ SMTP_URL: smtp.url, ...messaging(providerUrl()), ...timeouts })
		const portal = await servedPortal(ws)
		const stop = worker(deps, ws)
		try {
			const to = `stall-${unique()}@example.test`
			const mail = await enqueueMail(deps.db, { workspaceId: ws.id, to, subject: 'Hangs after DATA', text: 'x' }, deps)
			await waitFor('the server to read the whole message and hang', () => smtp.stalled.some((m) => m.to.includes(to)), 10_000, 10)
			const hungAt = Date.now()

			const others = await Promise.all(
				[1, 2, 3].map(
					async (i) =>
						(await enqueueMail(deps.db, { workspaceId: ws.id, to: `${unique(`other${i}`)}@example.test`, subject: `Other ${i}`, text: 'y' }, deps)).id,
				),
			)
			await waitFor(
				'the other mail to be delivered while one hangs',
				async () => (await Promise.all(others.map(rowOf))).every((r) => r.status === 'sent'),
				10_000,
				20,
			)
			expect((await rowOf(mail.id)).status).toBe('sending')
			const health = await portal.health()
			expect(health.status).toBe(200)
			expect(health.ms).toBeLessThan(SERVED_MEANWHILE_MS)

			const gaveUp = (await settled(mail.id)) - hungAt
			expect(gaveUp).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			const row = await rowOf(mail.id)
			expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null })
			expect(row.lastError).toMatch(/^SMTP: (Timeout|no complete answer within 3 s)/)
			expect((await portal.client.get(`/outbox/${mail.id}`)).text).toContain(`Last error: ${row.lastError}`)
			// Never acknowledged, so never counted as delivered; and not tried again while it hung.
			expect(smtp.to(to)).toHaveLength(0)
			expect(smtp.stalled.filter((m) => m.to.includes(to))).toHaveLength(1)

			await stop()
			stalling = false
			clock.advance(3_600_001)
			expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
			expect(smtp.to(to)).toHaveLength(1)
			expect(await rowOf(mail.id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
		} finally {
			stalling = true
			await stop()
			portal.stop()
		}
	})

	test('one that trickles its answer (never silent, so no idle timeout fires) is cut at SMTP_TIMEOUT', async () => {
		const trickler = await hungPeer((s) => {
			s.write('220 slow.test ESMTP\r\n')
			s.once('data', () => trickle(s, '250-still thinking\r\n'))
		})
		try {
			const ws = await newWorkspace()
			const deps = await testDeps({ SMTP_URL: `smtp://127.0.0.1:${trickler.port}`, ...timeouts })
			const { id } = await enqueueMail(deps.db, { workspaceId: ws.id, to: `${unique('trickle')}@example.test`, subject: 'Trickled', text: 'x' }, deps)
			const started = Date.now()
			expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 1, failed: 0 })
			expect(Date.now() - started).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			expect((await rowOf(id)).lastError).toBe('SMTP: no complete answer within 3 s (SMTP_TIMEOUT)')
			await waitFor('the connection to be closed by the sender', () => trickler.connections[0]!.closedAt !== undefined, 5_000, 20)
			expect(trickler.connections[0]!.received).toMatch(/^EHLO /)
		} finally {
			trickler.close()
		}
	})
})

describe('a hung messaging provider', () => {
	test('one that accepts the connection and never answers: the send gives up within MESSAGING_TIMEOUT, the row waits for its retry with the reason; e-mail and the portal are served meanwhile; the retry sends it once', async () => {
		const silent = await hungPeer()
		const ws = await newWorkspace()
		const deps = await testDeps({ SMTP_URL: smtp.url, ...messaging(`http://127.0.0.1:${silent.port}`), ...timeouts })
		const portal = await servedPortal(ws)
		const stop = worker(deps, ws)
		try {
			const to = phone()
			const text = unique('hung-provider')
			const message = await enqueueMessage(deps.db, { workspaceId: ws.id, to, text }, deps)
			await waitFor('the provider to receive the request', () => silent.connections[0]?.received.includes('Messages.json') ?? false, 10_000, 10)

			const mailTo = `${unique('meanwhile')}@example.test`
			const mail = await enqueueMail(deps.db, { workspaceId: ws.id, to: mailTo, subject: 'Meanwhile', text: 'z' }, deps)
			await waitFor('the mail to be delivered while the message hangs', async () => (await rowOf(mail.id)).status === 'sent', 10_000, 20)
			expect(smtp.to(mailTo)).toHaveLength(1)
			expect((await rowOf(message.id)).status).toBe('sending')
			const health = await portal.health()
			expect(health.status).toBe(200)
			expect(health.ms).toBeLessThan(SERVED_MEANWHILE_MS)

			const gaveUp = (await settled(message.id)) - silent.connections[0]!.openedAt
			expect(gaveUp).toBeGreaterThanOrEqual(BOUND * 1000 - 500)
			expect(gaveUp).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			const row = await rowOf(message.id)
			expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null, lastError: 'messaging provider did not answer within 3 s (MESSAGING_TIMEOUT)' })
			await waitFor('the connection to be closed by the sender', () => silent.connections[0]!.closedAt !== undefined, 5_000, 20)
			const list = await portal.client.get('/outbox?status=pending')
			expect(list.text).toContain('messaging provider did not answer within 3 s')
			expect(silent.connections).toHaveLength(1)

			await stop()
			clock.advance(3_600_001)
			expect(await deliverDue(await testDeps({ SMTP_URL: smtp.url, ...messaging(providerUrl()), ...timeouts }), { workspaceId: ws.id })).toEqual({
				sent: 1,
				retried: 0,
				failed: 0,
			})
			expect(sentMessages.filter((m) => m.Body === text)).toHaveLength(1)
			expect(await rowOf(message.id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
		} finally {
			await stop()
			portal.stop()
			silent.close()
		}
	})

	test('one that answers its headers and then trickles the body is cut at MESSAGING_TIMEOUT', async () => {
		const trickler = await tricklingBody('201 Created', 'application/json', '1\r\n \r\n')
		try {
			const ws = await newWorkspace()
			const deps = await testDeps({ ...messaging(`http://127.0.0.1:${trickler.port}`), ...timeouts })
			const { id } = await enqueueMessage(deps.db, { workspaceId: ws.id, to: phone(), text: 'x' }, deps)
			const started = Date.now()
			expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 1, failed: 0 })
			expect(Date.now() - started).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			expect(await rowOf(id)).toMatchObject({ status: 'pending', lastError: 'messaging provider did not answer within 3 s (MESSAGING_TIMEOUT)' })
			await waitFor('the connection to be closed by the sender', () => trickler.connections[0]!.closedAt !== undefined, 5_000, 20)
		} finally {
			trickler.close()
		}
	})
})

describe('a hung calendar feed', () => {
	const DAY = 86_400_000
	const stamp = (d: Date) =>
		d
			.toISOString()
			.replace(/[-:]/g, '')
			.replace(/\.\d{3}/, '')
	const tomorrow = new Date(Math.floor(Date.now() / DAY) * DAY + DAY + 15 * 3_600_000)
	const ics = [
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Benchline test//EN',
		'BEGIN:VEVENT',
		'UID:one@test',
		`DTSTART:${stamp(tomorrow)}`,
		`DTEND:${stamp(new Date(tomorrow.getTime() + 3_600_000))}`,
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n')
	const feedOverrides = { CALENDAR_FEEDS_ALLOW_PRIVATE: 'on', ...timeouts }
	/** The sweep reads every due feed in the database: the test's feeds must not fall due in later runs on the same PostgreSQL. */
	const removeFeeds = async (ws: TestWorkspace) => {
		const deps = await testDeps()
		await deps.db.delete(calendarBusy).where(eq(calendarBusy.workspaceId, ws.id))
		await deps.db.delete(calendarFeeds).where(eq(calendarFeeds.workspaceId, ws.id))
	}

	test('a feed server that accepts and never answers: the settings page answers within CALENDAR_FEED_TIMEOUT with the reason; other pages are served meanwhile', async () => {
		const silent = await hungPeer()
		const ws = await newWorkspace()
		const portal = await servedPortal(ws, feedOverrides)
		try {
			await portal.client.get('/settings/calendar')
			const saving = portal.timed(() => portal.client.post('/settings/calendar', { url: `http://127.0.0.1:${silent.port}/feed.ics` }))
			await waitFor('the feed server to be asked', () => silent.connections[0]?.received.includes('GET /feed.ics') ?? false, 10_000, 10)
			const health = await portal.health()
			expect(health.status).toBe(200)
			expect(health.ms).toBeLessThan(SERVED_MEANWHILE_MS)
			const other = await portal.timed(() => portal.client.get('/portal'))
			expect(other.status).toBe(200)
			expect(other.ms).toBeLessThan(SERVED_MEANWHILE_MS)

			const saved = await saving
			// The page answers (422: the address was saved but could not be read) with the reason.
			expect(saved.status).toBe(422)
			expect(saved.ms).toBeGreaterThanOrEqual(BOUND * 1000 - 500)
			expect(saved.ms).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			expect(saved.text).toContain('The calendar server did not answer within 3 seconds')
			const deps = await testDeps()
			const [feed] = await deps.db
				.select()
				.from(calendarFeeds)
				.where(inArray(calendarFeeds.userId, [portal.admin.userId]))
			expect(feed).toMatchObject({ status: 'error', lastError: 'The calendar server did not answer within 3 seconds' })
			await waitFor('the connection to be closed by the reader', () => silent.connections[0]!.closedAt !== undefined, 5_000, 20)
		} finally {
			await removeFeeds(ws)
			portal.stop()
			silent.close()
		}
	})

	test('a feed that trickles its body is cut at CALENDAR_FEED_TIMEOUT, and the refresh sweep goes on to the next feed', async () => {
		const trickler = await tricklingBody('200 OK', 'text/calendar', '1\r\nB\r\n')
		const good = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(ics, { headers: { 'content-type': 'text/calendar' } }) })
		const ws = await newWorkspace()
		try {
			const deps = await testDeps(feedOverrides)
			const [slow, fine] = [await newPerson(ws, 'recruiter'), await newPerson(ws, 'recruiter')]
			// Due long ago, so these two come first in the sweep whatever else the database holds.
			const due = new Date('2000-01-01T00:00:00Z')
			await deps.db.insert(calendarFeeds).values([
				{ workspaceId: ws.id, userId: slow.userId, url: `http://127.0.0.1:${trickler.port}/feed.ics`, nextRefreshAt: due },
				{ workspaceId: ws.id, userId: fine.userId, url: `http://127.0.0.1:${good.port}/feed.ics`, nextRefreshAt: new Date(due.getTime() + 1000) },
			])
			const started = Date.now()
			expect(await refreshDueFeeds(deps, 2)).toBe(2)
			expect(Date.now() - started).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			const feeds = await deps.db
				.select()
				.from(calendarFeeds)
				.where(inArray(calendarFeeds.userId, [slow.userId, fine.userId]))
			expect(feeds.find((f) => f.userId === slow.userId)).toMatchObject({ status: 'error', lastError: 'The calendar server did not answer within 3 seconds' })
			expect(feeds.find((f) => f.userId === fine.userId)).toMatchObject({ status: 'ok', busyCount: 1 })
			await waitFor('the connection to be closed by the reader', () => trickler.connections[0]!.closedAt !== undefined, 5_000, 20)
		} finally {
			await removeFeeds(ws)
			trickler.close()
			good.stop(true)
		}
	})
})

describe('a calendar feed fetch as a whole (issue 16: it now connects to the checked address itself)', () => {
	const config = { calendarFeedsAllowPrivate: true, calendarFeedTimeout: BOUND }
	const tooSlow = `The calendar server did not answer within ${BOUND} seconds`

	test('a name look-up that never answers is cut at CALENDAR_FEED_TIMEOUT', async () => {
		const network = { ...feedNetwork(config), resolve: () => new Promise<string[]>(() => {}) }
		const started = Date.now()
		expect(await fetchFeed(config, 'https://calendar.example/feed.ics', network).catch((error: Error) => error.message)).toBe(tooSlow)
		expect(Date.now() - started).toBeGreaterThanOrEqual(BOUND * 1000 - 500)
		expect(Date.now() - started).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
	})

	test('redirects that each answer within the bound, but not all together, are cut at CALENDAR_FEED_TIMEOUT; the open connection is closed', async () => {
		const opened: Socket[] = []
		// Each hop answers its redirect after 1.2 s: three redirects and the feed take 4.8 s in all.
		const slow = createServer((socket) => {
			opened.push(socket)
			socket.on('error', () => {})
			socket.once('data', (d) => {
				const hop = Number(/GET \/hop(\d)/.exec(d.toString())?.[1] ?? 0)
				setTimeout(
					() => socket.destroyed || socket.end(`HTTP/1.1 302 Found\r\nLocation: /hop${hop + 1}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
					1_200,
				)
			})
		})
		await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
		try {
			const started = Date.now()
			expect(await fetchFeed(config, `http://127.0.0.1:${(slow.address() as { port: number }).port}/hop0`).catch((error: Error) => error.message)).toBe(tooSlow)
			expect(Date.now() - started).toBeLessThanOrEqual(BOUND * 1000 + SLACK_MS)
			expect(opened.length).toBe(3)
			await waitFor('the last connection to be closed by the reader', () => opened.every((s) => s.destroyed || s.closed), 5_000, 20)
		} finally {
			for (const s of opened) s.destroy()
			slow.close()
		}
	})
})

describe('configuration', () => {
	test('production defaults: SMTP 10 s to connect, 10 s for the greeting, 30 s of silence, 120 s in all; messaging 15 s; calendar feeds 10 s, below HTTP_IDLE_TIMEOUT', () => {
		const config = loadConfig({})
		expect([config.smtpTimeout, config.settings.of(outboxSettings).messagingTimeout, config.settings.of(calendarSettings).calendarFeedTimeout]).toEqual([
			120, 15, 10,
		])
		expect(smtpTimeouts(config.smtpTimeout)).toEqual({ connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, total: 120_000 })
		expect(smtpTimeouts(3)).toEqual({ connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 3_000, total: 3_000 })
		expect(loadConfig({ HTTP_IDLE_TIMEOUT: '5' }).settings.of(calendarSettings).calendarFeedTimeout).toBe(4)
		const problems = (env: Record<string, string>) => configProblems(env).join('\n')
		expect(problems({ CALENDAR_FEED_TIMEOUT: '30' })).toContain('CALENDAR_FEED_TIMEOUT must be less than HTTP_IDLE_TIMEOUT (30)')
		// A send may never outlast the outbox's 5-minute lease (another claim would send it twice).
		expect(problems({ SMTP_TIMEOUT: '300' })).toContain('SMTP_TIMEOUT must be a whole number from 1 to 240')
		expect(DEFAULT_WORKER_OPTIONS.leaseMs).toBeGreaterThan(240_000 + 30_000)
		expect(problems({ MESSAGING_TIMEOUT: '0' })).toContain('MESSAGING_TIMEOUT must be a whole number from 1 to 240')
	})
})
