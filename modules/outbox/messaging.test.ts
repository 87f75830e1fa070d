/**
 * The messaging-app adapter against a provider-shaped HTTP server started by the test (Twilio's
 * Messages API: basic auth, form body, 201 with a message sid, errors as {code, message}).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { inArray } from 'drizzle-orm'
import { createLogger } from '../../core/log.ts'
import { newWorkspace, testDeps } from '../../tests/helpers.ts'
import { waitFor } from '../../tests/reliability/processes.ts'
import { deliverDue, enqueueMessage, messagingConfigured, NO_PROVIDER, toE164 } from './index.ts'
import { MAX_ANSWER_BYTES } from './messaging.ts'
import { outbox } from './table.ts'

setDefaultTimeout(30_000)

interface Received {
	path: string
	authorization: string | null
	form: Record<string, string>
}

const ACCOUNT = 'AC0123456789abcdef'
const TOKEN = 'provider-secret'
const received: Received[] = []
/** Planned answers by recipient: a list of HTTP statuses to give, in order (then 201). */
const plan = new Map<string, number[]>()
/** Recipients whose answer is a streamed body (no Content-Length) past the cap: `huge` ends at 1 MiB, `endless` never ends. */
const oversized = new Map<string, 'huge' | 'endless'>()
/** Oversized answers the provider is still writing (the reader has not hung up). */
const streaming = new Set<string>()
let provider: ReturnType<typeof Bun.serve>

beforeAll(async () => {
	await testDeps()
	provider = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const url = new URL(request.url)
			const form = Object.fromEntries(new URLSearchParams(await request.text()))
			received.push({ path: url.pathname, authorization: request.headers.get('authorization'), form })
			if (request.method !== 'POST' || url.pathname !== `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`)
				return Response.json({ code: 20404, message: 'The requested resource was not found', status: 404 }, { status: 404 })
			if (request.headers.get('authorization') !== `Basic ${btoa(`${ACCOUNT}:${TOKEN}`)}`)
				return Response.json({ code: 20003, message: 'Authenticate', status: 401 }, { status: 401 })
			const kind = oversized.get(form.To!)
			if (kind) return new Response(oversizedBody(form.To!, kind), { status: 201, headers: { 'content-type': 'application/json' } })
			const next = plan.get(form.To!)?.shift()
			if (next === 400) return Response.json({ code: 21211, message: `The 'To' number ${form.To} is not a valid phone number.`, status: 400 }, { status: 400 })
			if (next) return new Response('upstream trouble', { status: next })
			return Response.json(
				{ sid: `SM${crypto.randomUUID().replace(/-/g, '')}`, status: 'queued', to: form.To, from: form.From, body: form.Body },
				{ status: 201 },
			)
		},
	})
})
afterAll(() => provider.stop(true))

/** A JSON-looking answer written in 16 KiB chunks, a few milliseconds apart (so an uncapped reader would fill memory, slowly). */
function oversizedBody(to: string, kind: 'huge' | 'endless'): ReadableStream<Uint8Array> {
	const chunk = new TextEncoder().encode(' '.repeat(16 * 1024))
	let written = 0
	streaming.add(to)
	return new ReadableStream({
		async pull(controller) {
			if (kind === 'huge' && written >= 1024 * 1024) {
				streaming.delete(to)
				return controller.close()
			}
			await Bun.sleep(5)
			written += chunk.byteLength
			controller.enqueue(chunk)
		},
		cancel: () => void streaming.delete(to),
	})
}

const providerDeps = (overrides: Record<string, string> = {}) =>
	testDeps({
		MESSAGING_URL: `http://127.0.0.1:${provider.port}`,
		MESSAGING_ACCOUNT: ACCOUNT,
		MESSAGING_TOKEN: TOKEN,
		MESSAGING_FROM: '+15550001111',
		...overrides,
	})
const rowsOf = async (ids: string[]) => (await testDeps()).db.select().from(outbox).where(inArray(outbox.id, ids))
const number = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`

describe('messaging provider adapter', () => {
	test('a message is posted with basic auth and a form body, and marked sent', async () => {
		const deps = await providerDeps()
		const ws = await newWorkspace()
		const to = number()
		const { id, status } = await enqueueMessage(deps.db, { workspaceId: ws.id, to, text: 'Please upload your documents: https://x.test/upload/abc' }, deps)
		expect(status).toBe('pending')
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
		const got = received.filter((r) => r.form.To === to)
		expect(got).toHaveLength(1)
		expect(got[0]!.form).toEqual({ To: to, From: '+15550001111', Body: 'Please upload your documents: https://x.test/upload/abc' })
		expect((await rowsOf([id]))[0]!.status).toBe('sent')
	})

	test('a WhatsApp sender gives the recipient the same channel prefix', async () => {
		const deps = await providerDeps({ MESSAGING_FROM: 'whatsapp:+15550002222' })
		const ws = await newWorkspace()
		const to = number()
		await enqueueMessage(deps.db, { workspaceId: ws.id, to, text: 'Hi' }, deps)
		await deliverDue(deps, { workspaceId: ws.id })
		expect(received.find((r) => r.form.To === `whatsapp:${to}`)?.form.From).toBe('whatsapp:+15550002222')
	})

	test('a provider outage (5xx) is retried; a refused number (4xx) fails at once with the provider’s reason', async () => {
		const deps = await providerDeps()
		const ws = await newWorkspace()
		const flaky = number()
		const invalid = number()
		plan.set(flaky, [503, 500])
		plan.set(invalid, [400])
		const [a, b] = [
			await enqueueMessage(deps.db, { workspaceId: ws.id, to: flaky, text: 'one' }, deps),
			await enqueueMessage(deps.db, { workspaceId: ws.id, to: invalid, text: 'two' }, deps),
		]
		const o = { workspaceId: ws.id, baseDelayMs: 0 }
		expect(await deliverDue(deps, o)).toEqual({ sent: 0, retried: 1, failed: 1 })
		const [failed] = await rowsOf([b.id])
		expect(failed!.status).toBe('failed')
		expect(failed!.lastError).toContain('21211')
		expect(failed!.lastError).toContain('not a valid phone number')
		expect(await deliverDue(deps, o)).toEqual({ sent: 0, retried: 1, failed: 0 })
		expect((await rowsOf([a.id]))[0]!.lastError).toContain('HTTP 500')
		expect(await deliverDue(deps, o)).toEqual({ sent: 1, retried: 0, failed: 0 })
		const [ok] = await rowsOf([a.id])
		expect(ok!.status).toBe('sent')
		expect(ok!.attempts).toBe(3)
		expect(received.filter((r) => r.form.To === flaky)).toHaveLength(3)
	})

	test('a refused number: the provider’s words (which name the number) stay in the row; the log says the status and the provider’s code only', async () => {
		const lines: string[] = []
		const deps = { ...(await providerDeps()), log: createLogger('info', (l) => void lines.push(l)) }
		const ws = await newWorkspace()
		const invalid = number()
		plan.set(invalid, [400])
		const { id } = await enqueueMessage(deps.db, { workspaceId: ws.id, to: invalid, text: 'x' }, deps)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 1 })
		expect((await rowsOf([id]))[0]!.lastError).toContain(invalid)
		const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'outbox delivery failed for good' && l.id === id)
		expect(line).toMatchObject({ channel: 'message', reason: 'messaging provider: HTTP 400 (code 21211)' })
		expect(lines.filter((l) => l.includes(invalid.slice(2)))).toEqual([])
	})

	test('wrong credentials are a permanent failure', async () => {
		const deps = await providerDeps({ MESSAGING_TOKEN: 'wrong' })
		const ws = await newWorkspace()
		const { id } = await enqueueMessage(deps.db, { workspaceId: ws.id, to: number(), text: 'x' }, deps)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 1 })
		expect((await rowsOf([id]))[0]!.lastError).toContain('HTTP 401')
	})

	test('an unreachable provider is retried', async () => {
		const deps = await testDeps({ MESSAGING_URL: 'http://127.0.0.1:9', MESSAGING_ACCOUNT: ACCOUNT, MESSAGING_TOKEN: TOKEN, MESSAGING_FROM: '+15550001111' })
		const ws = await newWorkspace()
		const { id } = await enqueueMessage(deps.db, { workspaceId: ws.id, to: number(), text: 'x' }, deps)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 1, failed: 0 })
		const [row] = await rowsOf([id])
		expect(row!.status).toBe('pending')
		expect(row!.lastError).toContain('unreachable')
	})

	test('without a provider, messages are recorded as not sent with the reason', async () => {
		const deps = await testDeps()
		expect(messagingConfigured(deps)).toBe(false)
		const ws = await newWorkspace()
		const recorded = await enqueueMessage(deps.db, { workspaceId: ws.id, to: number(), text: 'x', notSent: NO_PROVIDER }, deps)
		expect(recorded.status).toBe('not_sent')
		// One queued before the provider was removed: the worker records it as not sent too.
		const queued = await enqueueMessage(deps.db, { workspaceId: ws.id, to: number(), text: 'y' }, deps)
		await deliverDue(deps, { workspaceId: ws.id })
		for (const row of await rowsOf([recorded.id, queued.id])) {
			expect(row.status).toBe('not_sent')
			expect(row.lastError).toBe(NO_PROVIDER)
		}
		expect(received.some((r) => r.form.Body === 'y')).toBe(false)
	})

	test('an answer larger than the cap (1 MiB, or endless) is not read: the send fails with the reason, the rest go on', async () => {
		// MESSAGING_TIMEOUT well above what the cap needs, so only the cap can end the endless answer in this test.
		const deps = await providerDeps({ MESSAGING_TIMEOUT: '20' })
		const ws = await newWorkspace()
		const [huge, endless, fine] = [number(), number(), number()]
		oversized.set(huge, 'huge')
		oversized.set(endless, 'endless')
		const rows = [
			await enqueueMessage(deps.db, { workspaceId: ws.id, to: huge, text: 'one' }, deps),
			await enqueueMessage(deps.db, { workspaceId: ws.id, to: endless, text: 'two' }, deps),
			await enqueueMessage(deps.db, { workspaceId: ws.id, to: fine, text: 'three' }, deps),
		]
		// A 2xx answer that cannot be read may or may not have been sent: retried, as an unreadable answer is.
		expect(await deliverDue(deps, { workspaceId: ws.id, baseDelayMs: 0 })).toEqual({ sent: 1, retried: 2, failed: 0 })
		const byId = new Map((await rowsOf(rows.map((r) => r.id))).map((r) => [r.id, r]))
		for (const { id } of rows.slice(0, 2)) {
			expect(byId.get(id)).toMatchObject({ status: 'pending', attempts: 1, sentAt: null })
			expect(byId.get(id)!.lastError).toBe(`messaging provider: the answer (HTTP 201) is larger than ${MAX_ANSWER_BYTES / 1024} KiB; it was not read`)
		}
		expect(byId.get(rows[2]!.id)!.status).toBe('sent')
		// The reader hung up: the provider is not left writing the endless answer.
		await waitFor('the endless answer to be cancelled by the reader', () => !streaming.has(endless), 5_000, 20)
		oversized.clear()
	})

	test('phone numbers are normalised to E.164', () => {
		expect(toE164('(512) 555-0100')).toBe('+15125550100')
		expect(toE164('+1 512 555 0100')).toBe('+15125550100')
		expect(toE164('1-512-555-0100')).toBe('+15125550100')
		expect(toE164('+44 20 7946 0958')).toBe('+442079460958')
		expect(toE164('555-0100')).toBeNull()
		expect(toE164('call me')).toBeNull()
	})
})
