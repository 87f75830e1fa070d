/**
 * Webhooks end to end: real receivers (Bun.serve on loopback, so WEBHOOKS_ALLOW_PRIVATE is on except
 * where the address rule is under test), real signatures checked with the `standardwebhooks` library,
 * real workers claiming from the test database.
 */
import { afterEach, beforeAll, describe, expect, setSystemTime, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import type { Actor } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { closeDeps, createDeps, modules } from '../../core/main.ts'
import {
	call,
	callOn,
	clock,
	emptyDatabase,
	newPerson,
	newVendor,
	newWorkspace,
	openScratchDatabase,
	testDeps,
	unique,
	usingPostgres,
	type TestWorkspace,
} from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { operatorActor, personActor } from '../auth/index.ts'
import { moveToStage } from '../candidates/index.ts'
import { submitToVendor } from '../documents/index.ts'
import { jobs } from '../jobs/table.ts'
import { setJobStatus } from '../jobs/service.ts'
import { createKey, setApiAccess, verifyVendorKey } from '../vendors/index.ts'
import { drainEvents } from '../events/index.ts'
import { outbox } from '../outbox/table.ts'
import { newSigningSecret, openSecret, sealSecret } from './secrets.ts'
import {
	addEndpoint,
	endPreviousSecrets,
	getEndpoint,
	listEndpoints,
	MAX_ENDPOINTS,
	MAX_PREVIOUS_SECRETS,
	replayDelivery,
	rotateSecret,
	ROTATION_OVERLAP_MS,
	sendTestEvent,
	setEndpointEnabled,
} from './service.ts'
import { webhookDeliveries, webhookEndpoints } from './table.ts'
import { claimForTest, deliverDueWebhooks, FAILING_DISABLES_AFTER_MS, pruneDeliveries, startWebhookWorker } from './worker.ts'
import { webhookQueue } from './queue.ts'
import { CAUSES, DISABLED_CAUSES, switchedOff } from './switch-off.ts'
import { payloadData } from './consumer.ts'

interface Received {
	id: string
	timestamp: string
	signature: string
	body: string
	headers: Record<string, string>
}

/** A receiver on loopback; `answer` decides each reply (the n-th request, from 1). */
function receiver(answer: (n: number, request: Request) => Response | Promise<Response> = () => new Response('ok')) {
	const got: Received[] = []
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		idleTimeout: 60,
		async fetch(request) {
			const body = await request.text()
			const h = Object.fromEntries(request.headers.entries())
			got.push({ id: h['webhook-id']!, timestamp: h['webhook-timestamp']!, signature: h['webhook-signature']!, body, headers: h })
			return answer(got.length, request)
		},
	})
	return { url: `http://127.0.0.1:${server.port}/hooks`, got, stop: () => server.stop(true) }
}

const verify = (secret: string, r: Received) =>
	new Webhook(secret).verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature }) as {
		type: string
		timestamp: string
		data: Record<string, unknown>
	}

/**
 * The library's verify as a receiver runs it when the delivery arrives: at the attempt's time (the
 * test clock may be days ahead, past verify's 5-minute tolerance of the real clock).
 */
function verifiesAtArrival(secret: string, r: Received): boolean {
	setSystemTime(new Date(Number(r.timestamp) * 1000))
	try {
		verify(secret, r)
		return true
	} catch {
		return false
	} finally {
		setSystemTime()
	}
}

async function until(check: () => Promise<boolean> | boolean, what: string) {
	for (let i = 0; ; i++) {
		if (await check()) return
		if (i > 6000) throw new Error(`never happened: ${what}`)
		await Bun.sleep(20)
	}
}

let deps: AppDeps
beforeAll(async () => {
	deps = await testDeps({ WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' })
	// The consumer's position starts at the newest event when it is first registered (as at a server's start).
	await drain()
})
afterEach(() => clock.reset())

async function publish(apiKey: string, vendorJobId = unique('REQ-'), title = 'Java developer') {
	const res = await call('POST', '/api/v1/jobs', { key: apiKey, body: { vendorJobId, title } })
	expect(res.status).toBe(201)
	// The API names a job by the vendor's own id; Benchline's id is what the events carry.
	const [job] = await deps.database.rows<{ id: string }>(sql`select id from ${jobs} where vendor_job_id = ${vendorJobId}`)
	return { vendorJobId, jobId: job!.id }
}

const drain = () => drainEvents(deps, ['webhooks'])
const deliveries = (endpointId: string) =>
	deps.database.rows<{ id: string; status: string; attempts: number; lastStatus: number | null; lastError: string | null }>(
		sql`select id, status, attempts, last_status as "lastStatus", last_error as "lastError" from ${webhookDeliveries} where endpoint_id = ${endpointId} order by seq`,
	)
/** Moves the clock to the endpoint's next retry, as a worker polling all along would reach it. */
async function advanceToDue(endpointId: string) {
	const [next] = await deps.database.rows<{ at: string }>(
		sql`select min(next_attempt_at) as at from ${webhookDeliveries} where endpoint_id = ${endpointId} and status = 'pending'`,
	)
	clock.advance(Math.max(0, new Date(next!.at).getTime() - clock.now().getTime()))
}
const endpointRow = async (id: string) =>
	(
		await deps.database.rows<{ enabled: boolean; disabledReason: string | null; disabledCause: string | null }>(
			sql`select enabled, disabled_reason as "disabledReason", disabled_cause as "disabledCause" from ${webhookEndpoints} where id = ${id}`,
		)
	)[0]!

/** The vendor as its API key makes it (a key of its own, made here: adding an endpoint holds the adding key live). */
async function vendorActor(ws: TestWorkspace, vendorId: string): Promise<Actor> {
	const key = await createKey(deps, operatorActor(ws), vendorId)
	return (await verifyVendorKey(deps, key.apiKey))!
}

describe('delivery', () => {
	test('a vendor’s publish reaches the workspace endpoint, signed so that the standardwebhooks library verifies it', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint, secret } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published', 'job.closed'] })
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
		const vendor = await newVendor(ws, 'Acme', deps)
		const { jobId, vendorJobId } = await publish(vendor.apiKey, undefined, 'Senior QA engineer')
		await drain()
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ delivered: 1 })
		r.stop()
		expect(r.got).toHaveLength(1)
		const payload = verify(secret, r.got[0]!)
		expect(payload.type).toBe('job.published')
		expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp)
		expect(payload.data).toEqual({ jobId, vendorId: vendor.vendorId, status: 'Open', jobTitle: 'Senior QA engineer', vendorJobId })
		expect(r.got[0]!.headers['content-type']).toBe('application/json')
		expect(r.got[0]!.id).toMatch(/^msg_/)
		// A wrong secret does not verify.
		expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, r.got[0]!)).toThrow()
		const [row] = await deliveries(endpoint.id)
		expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200 })
	})

	test('a vendor’s texts in any script verify with the standardwebhooks library, byte for byte as sent', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const vendor = await newVendor(ws, 'Ünïcode Staffing', deps)
		const { secret } = await addEndpoint(deps, await vendorActor(ws, vendor.vendorId), { url: r.url, events: ['job.published'] })
		// Astral characters (emoji, a flag, mathematical letters), combining marks, right-to-left scripts, full-width
		// and ligature forms, JSON's own escapes, and ids with a zero-width space or a direction override (ids are kept as sent).
		const jobs = [
			['REQ-\u202e😀', 'Dev 😀 🇺🇸 𝒜𝓅𝒾 engineer'],
			['REQ-\u200bé', 'Ze\u0301nith Z̵̡̛̖a̷l̸g̵o̶ ﬁnance'],
			['REQ-עברית', 'מפתח عربى Ａｂｃ ǅ ß İ'],
			['REQ-"\\', 'Quote " back \\ slash </script> \u2066x\u2069'],
		]
		const titles = new Map<string, string>()
		for (const [vendorJobId, title] of jobs) {
			const res = await call('POST', '/api/v1/jobs', { key: vendor.apiKey, body: { vendorJobId, title } })
			expect(res.status).toBe(201)
			titles.set(res.json.job.vendorJobId, res.json.job.title)
		}
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		r.stop()
		expect(r.got).toHaveLength(jobs.length)
		for (const got of r.got) {
			expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(got.body))
			const { data } = verify(secret, got)
			expect(data.jobTitle).toBe(titles.get(data.vendorJobId as string)!)
		}
		expect([...titles.keys()].sort()).toEqual(jobs.map(([id]) => id!).sort())
	})

	test('a retry after a 500 keeps the webhook-id and the body, with a newer timestamp, and still verifies', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver((n) => new Response(n === 1 ? 'down' : 'ok', { status: n === 1 ? 500 : 204 }))
		const { endpoint, secret } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		await publish((await newVendor(ws, 'Acme', deps)).apiKey)
		await drain()
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ retried: 1 })
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'pending', attempts: 1, lastStatus: 500 }])
		// Not due yet: nothing is sent before the schedule's wait.
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ delivered: 0, retried: 0 })
		clock.advance(2_000)
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ delivered: 1 })
		r.stop()
		const [first, second] = r.got
		expect(second!.id).toBe(first!.id)
		expect(second!.body).toBe(first!.body)
		expect(Number(second!.timestamp)).toBeGreaterThan(Number(first!.timestamp))
		verify(secret, first!)
		verify(secret, second!)
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'delivered', attempts: 2, lastStatus: 204 }])
	})

	test('410 Gone switches the endpoint off at once: no retry, and later events are not queued for it', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver(() => new Response('gone', { status: 410 }))
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const vendor = await newVendor(ws, 'Acme', deps)
		await publish(vendor.apiKey)
		await drain()
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ disabled: 1 })
		expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('410'), disabledCause: 'answered_410_gone' })
		await publish(vendor.apiKey)
		await drain()
		clock.advance(5_000)
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ delivered: 0, retried: 0, failed: 0 })
		r.stop()
		expect(r.got).toHaveLength(1)
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'failed', lastStatus: 410 }])
	})

	test('past the last step of the schedule a delivery has failed; failing for 5 days switches the endpoint off and e-mails the owners', async () => {
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const r = receiver(() => new Response('no', { status: 503 }))
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const vendor = await newVendor(ws, 'Acme', deps)
		await publish(vendor.apiKey)
		await drain()
		const firstFailure = clock.now().getTime()
		for (let i = 0; i < 4; i++) {
			await deliverDueWebhooks(deps, { workspaceId: ws.id })
			clock.advance(1_500)
		}
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'failed', attempts: 4, lastStatus: 503 }])
		expect((await endpointRow(endpoint.id)).enabled).toBe(true)
		// The outage goes on: the next event is retried every 12 hours (a schedule as long as the real one's
		// waits), each attempt failing, so the run of failures is unbroken for 5 days.
		const halfDaily = await testDeps({ WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_SCHEDULE: Array(12).fill('12h').join(',') })
		await publish(vendor.apiKey)
		await drain()
		for (;;) {
			const round = await deliverDueWebhooks(halfDaily, { workspaceId: ws.id })
			if (clock.now().getTime() - firstFailure < FAILING_DISABLES_AFTER_MS) {
				expect(round).toMatchObject({ retried: 1 })
				expect((await endpointRow(endpoint.id)).enabled).toBe(true)
				await advanceToDue(endpoint.id)
				continue
			}
			expect(round).toMatchObject({ disabled: 1 })
			break
		}
		r.stop()
		expect(await endpointRow(endpoint.id)).toMatchObject({
			enabled: false,
			disabledReason: 'Every delivery has failed for 5 days',
			disabledCause: 'deliveries_failing',
		})
		const mail = await deps.database.rows<{ to: string; subject: string; text: string }>(
			sql`select "to", subject, text from ${outbox} where workspace_id = ${ws.id} and subject like '%webhook%'`,
		)
		expect(mail).toEqual([expect.objectContaining({ to: owner.email, subject: 'A webhook endpoint was switched off' })])
		expect(mail[0]!.text).toContain(r.url)
	})

	/** A test event to an endpoint that is down, tried through the test schedule's 4 attempts. */
	async function failTestEvent(ws: TestWorkspace, endpointId: string) {
		await sendTestEvent(deps, operatorActor(ws), endpointId)
		for (let i = 0; i < 4; i++) {
			await deliverDueWebhooks(deps, { workspaceId: ws.id })
			clock.advance(1_500)
		}
	}

	test('a replayed delivery that had failed gets the whole schedule again, not one attempt', async () => {
		const ws = await newWorkspace(deps)
		let down = true
		const r = receiver(() => new Response('', { status: down ? 503 : 200 }))
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		await failTestEvent(ws, endpoint.id)
		const [failed] = await deliveries(endpoint.id)
		expect(failed).toMatchObject({ status: 'failed', attempts: 4 })
		// Replayed while the receiver is still down: retried on schedule, as a new delivery is.
		await replayDelivery(deps, operatorActor(ws), failed!.id)
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ retried: 1 })
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'pending', attempts: 1, lastStatus: 503 }])
		down = false
		clock.advance(1_500)
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ delivered: 1 })
		expect(new Set(r.got.map((g) => g.id)).size).toBe(1)
		r.stop()
	})

	test('days without any attempt are not failing days: the first failure after a quiet week after an outage does not switch the endpoint off', async () => {
		const ws = await newWorkspace(deps)
		let down = true
		const r = receiver(() => new Response('', { status: down ? 503 : 200 }))
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		// Day 0: an outage; one test event fails through its whole schedule.
		await failTestEvent(ws, endpoint.id)
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'failed', attempts: 4 }])
		// The receiver is back, but no event comes for 5 days; then one attempt meets a blip.
		clock.advance(FAILING_DISABLES_AFTER_MS)
		await sendTestEvent(deps, operatorActor(ws), endpoint.id)
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ retried: 1, disabled: 0 })
		expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: true, disabledReason: null, disabledCause: null })
		// The blip starts a new run: its failing time is now, not day 0.
		const [row] = await deps.database.rows<{ since: string }>(sql`select failing_since as since from ${webhookEndpoints} where id = ${endpoint.id}`)
		expect(Math.abs(new Date(row!.since).getTime() - clock.now().getTime())).toBeLessThan(5_000)
		down = false
		clock.advance(1_500)
		expect(await deliverDueWebhooks(deps, { workspaceId: ws.id })).toMatchObject({ delivered: 1 })
		r.stop()
	})

	test('a restart mid-retry loses nothing: a delivery waiting for its retry, and one claimed by an instance that died, are both delivered', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver((n) => new Response('', { status: n === 1 ? 500 : 200 }))
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const vendor = await newVendor(ws, 'Acme', deps)
		await publish(vendor.apiKey)
		await drain()
		// A retry 30 seconds later: the instance stops before it.
		const slow = await testDeps({ WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_SCHEDULE: '30s' })
		const first = startWebhookWorker(slow, { workspaceId: ws.id, pollMs: 20 })
		await until(async () => (await deliveries(endpoint.id))[0]?.lastStatus === 500, 'the first attempt failed and waits')
		await first()
		// A second delivery, claimed by an instance that then died before sending it.
		await publish(vendor.apiKey)
		await drain()
		expect(await claimForTest(deps, { workspaceId: ws.id })).toHaveLength(1)
		const [waiting, abandoned] = await deliveries(endpoint.id)
		expect(abandoned!.status).toBe('sending')
		// The restarted server: new deps on the same database, after the retry's wait and the lease.
		clock.advance(61_000)
		const restarted = await testDeps({ WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_SCHEDULE: '30s' })
		const second = startWebhookWorker(restarted, { workspaceId: ws.id, pollMs: 20 })
		await until(async () => (await deliveries(endpoint.id)).every((d) => d.status === 'delivered'), 'both delivered after the restart')
		await second()
		r.stop()
		expect(r.got.map((g) => g.id).sort()).toEqual([waiting!.id, waiting!.id, abandoned!.id].sort())
	})

	test('two instances deliver each event once', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published', 'job.changed'] })
		const vendor = await newVendor(ws, 'Acme', deps)
		for (let i = 0; i < 30; i++) await publish(vendor.apiKey)
		await drain()
		// On PostgreSQL the second instance has its own connections; the embedded database has one connection only.
		const database = usingPostgres() ? await openScratchDatabase() : deps.database
		const other = await createDeps({ config: deps.config, log: deps.log, database, now: clock.now })
		const options = { workspaceId: ws.id, pollMs: 10, perEndpoint: 30 }
		const stops = [startWebhookWorker(deps, options), startWebhookWorker(other, options)]
		await until(async () => (await deliveries(endpoint.id)).every((d) => d.status === 'delivered'), 'all delivered')
		await Promise.all(stops.map((s) => s()))
		if (usingPostgres()) await database.close()
		r.stop()
		const ids = r.got.map((g) => g.id)
		expect(ids).toHaveLength(30)
		expect(new Set(ids).size).toBe(30)
	})

	test('a receiver that hangs does not delay another endpoint', async () => {
		const ws = await newWorkspace(deps)
		const release: (() => void)[] = []
		let hold = true
		let hungEnded = 0
		const hanging = receiver((_n, request) =>
			hold
				? new Promise<Response>((resolve) => {
						request.signal.addEventListener('abort', () => hungEnded++)
						release.push(() => resolve(new Response('late')))
					})
				: new Response('ok'),
		)
		const quick = receiver()
		const slow = await addEndpoint(deps, operatorActor(ws), { url: hanging.url, events: ['job.published'] })
		const fast = await addEndpoint(deps, operatorActor(ws), { url: quick.url, events: ['job.published'] })
		// The hanging endpoint's deliveries are older, so they come first in the queue.
		for (let i = 0; i < 12; i++) await sendTestEvent(deps, operatorActor(ws), slow.endpoint.id)
		await sendTestEvent(deps, operatorActor(ws), fast.endpoint.id)
		const stop = startWebhookWorker(deps, { workspaceId: ws.id, pollMs: 20, slots: 8, perEndpoint: 2 })
		await until(() => quick.got.length === 1, 'the other endpoint got its delivery')
		// It arrived while the hanging endpoint still held its requests: none of them had ended or timed out.
		expect(hungEnded).toBe(0)
		expect(hanging.got.length).toBeLessThanOrEqual(2)
		hold = false
		for (const go of release) go()
		await until(async () => (await deliveries(slow.endpoint.id)).every((d) => d.status === 'delivered'), 'all delivered')
		await stop()
		hanging.stop()
		quick.stop()
	})

	test('during a rotation both secrets sign for 24 hours, then only the new one', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint, secret: old } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const { secret: fresh } = await rotateSecret(deps, operatorActor(ws), endpoint.id)
		await sendTestEvent(deps, operatorActor(ws), endpoint.id)
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		const during = r.got[0]!
		expect(during.signature.split(' ')).toHaveLength(2)
		expect(verify(old, during).type).toBe('webhook.test')
		expect(verify(fresh, during).data).toEqual({ endpointId: endpoint.id })
		clock.advance(24 * 3_600_000 + 1_000)
		await sendTestEvent(deps, operatorActor(ws), endpoint.id)
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		r.stop()
		const after = r.got[1]!
		expect(after.signature.split(' ')).toHaveLength(1)
		// Signed with the new secret only (the library's own signing gives the same header; its verify would
		// refuse the moved clock's timestamp).
		expect(after.signature).toBe(new Webhook(fresh).sign(after.id, new Date(Number(after.timestamp) * 1000), after.body))
	})
})

describe('rotations', () => {
	/** Sends a test event now and returns what the receiver got. */
	async function deliverTest(ws: TestWorkspace, endpointId: string, r: ReturnType<typeof receiver>) {
		await sendTestEvent(deps, operatorActor(ws), endpointId)
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		return r.got.at(-1)!
	}

	test('a second rotation within 24 hours keeps the first secret signing until its promised end, and not after', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint, secret: a } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const first = await rotateSecret(deps, operatorActor(ws), endpoint.id)
		clock.advance(3_600_000)
		const second = await rotateSecret(deps, operatorActor(ws), endpoint.id)
		const during = await deliverTest(ws, endpoint.id, r)
		expect(during.signature.split(' ')).toHaveLength(3)
		// A receiver still on the first secret, one on the second (not yet moved on), one on the newest.
		for (const secret of [a, first.secret, second.secret]) expect(verifiesAtArrival(secret, during)).toBe(true)
		expect((await getEndpoint(deps, operatorActor(ws), endpoint.id)).previousSecretsUntil).toEqual([first.previousValidUntil, second.previousValidUntil])

		// A minute before the first secret's promised end it still signs; a minute after, it does not.
		clock.advance(first.previousValidUntil.getTime() - clock.now().getTime() - 60_000)
		expect(verifiesAtArrival(a, await deliverTest(ws, endpoint.id, r))).toBe(true)
		clock.advance(120_000)
		const after = await deliverTest(ws, endpoint.id, r)
		r.stop()
		expect(after.signature.split(' ')).toHaveLength(2)
		expect(verifiesAtArrival(a, after)).toBe(false)
		expect(verifiesAtArrival(first.secret, after)).toBe(true)
		expect(verifiesAtArrival(second.secret, after)).toBe(true)
	})

	test('past the cap of secrets still signing a rotation is refused, saying until when; once the oldest ends it is allowed again', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const rotations = []
		for (let i = 0; i < MAX_PREVIOUS_SECRETS; i++) {
			rotations.push(await rotateSecret(deps, operatorActor(ws), endpoint.id))
			clock.advance(60_000)
		}
		const refused = await rotateSecret(deps, operatorActor(ws), endpoint.id).catch((e) => e)
		expect(refused).toBeInstanceOf(AppError)
		expect(refused.status).toBe(409)
		expect(refused.message).toContain('was not rotated')
		// Nothing changed: the newest secret still signs, beside every one it replaced.
		const current = rotations.at(-1)!.secret
		const signed = await deliverTest(ws, endpoint.id, r)
		expect(signed.signature.split(' ')).toHaveLength(MAX_PREVIOUS_SECRETS + 1)
		expect(verifiesAtArrival(current, signed)).toBe(true)
		// The oldest replaced secret's end has passed: a rotation is allowed again, and the ended one is dropped.
		clock.advance(rotations[0]!.previousValidUntil.getTime() - clock.now().getTime() + 1_000)
		const again = await rotateSecret(deps, operatorActor(ws), endpoint.id)
		const [row] = await deps.database.rows<{ n: number }>(
			sql`select jsonb_array_length(previous_secrets) as n from ${webhookEndpoints} where id = ${endpoint.id}`,
		)
		expect(Number(row!.n)).toBe(MAX_PREVIOUS_SECRETS)
		const last = await deliverTest(ws, endpoint.id, r)
		r.stop()
		expect(verifiesAtArrival(again.secret, last)).toBe(true)
		expect(verifiesAtArrival(current, last)).toBe(true)
	})

	test('a leaked secret is cut at once: after "end previous secrets" only the current one signs, and a rotation past the cap is allowed again', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint, secret: leaked } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const rotations = []
		for (let i = 0; i < MAX_PREVIOUS_SECRETS; i++) rotations.push(await rotateSecret(deps, operatorActor(ws), endpoint.id))
		expect((await rotateSecret(deps, operatorActor(ws), endpoint.id).catch((e) => e)).status).toBe(409)
		// Another workspace cannot reach the endpoint.
		const other = await newWorkspace(deps)
		expect((await endPreviousSecrets(deps, operatorActor(other), endpoint.id).catch((e) => e)).status).toBe(404)

		expect(await endPreviousSecrets(deps, operatorActor(ws), endpoint.id)).toEqual({ ended: MAX_PREVIOUS_SECRETS })
		const current = rotations.at(-1)!.secret
		const after = await deliverTest(ws, endpoint.id, r)
		expect(after.signature.split(' ')).toHaveLength(1)
		expect(verifiesAtArrival(current, after)).toBe(true)
		for (const old of [leaked, ...rotations.slice(0, -1).map((x) => x.secret)]) expect(verifiesAtArrival(old, after)).toBe(false)
		expect((await getEndpoint(deps, operatorActor(ws), endpoint.id)).previousSecretsUntil).toEqual([])
		// The cap counted only secrets still signing: a rotation goes through again.
		const again = await rotateSecret(deps, operatorActor(ws), endpoint.id)
		const last = await deliverTest(ws, endpoint.id, r)
		r.stop()
		expect(verifiesAtArrival(again.secret, last)).toBe(true)
		expect(verifiesAtArrival(current, last)).toBe(true)
		// Nothing left to end: a second call ends none, and the operator's command says the same.
		await endPreviousSecrets(deps, operatorActor(ws), endpoint.id)
		expect((await runCommand(deps, 'webhook end-previous-secrets', { endpoint: endpoint.id, json: true })).json).toEqual({ endpointId: endpoint.id, ended: 0 })
	})

	test('the migration moves the one previous secret of a rotation under way into the list, still signing until its end', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint, secret: old } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const until = new Date(clock.now().getTime() + ROTATION_OVERLAP_MS - 3_600_000)
		const migration = await Bun.file(new URL('./migrations/0002_previous_secrets_list.sql', import.meta.url)).text()
		// Its data statements (the column it adds exists already), run on a row as the old code left it, then undone.
		const updates = migration.split('--> statement-breakpoint').filter((statement) => /^\s*(--.*\n)*\s*UPDATE/i.test(statement))
		expect(updates).toHaveLength(2)
		const rollback = new Error('rolled back')
		let moved: { previous: { sealed: string; until: string }[] } | undefined
		await deps.db
			.transaction(async (tx) => {
				await deps.database.rows(
					sql`alter table ${webhookEndpoints} add column previous_secret_sealed text, add column previous_secret_until timestamptz(3)`,
					tx,
				)
				const sealed = await sealSecret(deps.secret, endpoint.id, old)
				await deps.database.rows(
					sql`update ${webhookEndpoints} set previous_secret_sealed = ${sealed}, previous_secret_until = ${until.toISOString()}::timestamptz, previous_secrets = '[]' where id = ${endpoint.id}`,
					tx,
				)
				for (const statement of updates) await deps.database.rows(sql.raw(statement), tx)
				;[moved] = await deps.database.rows(sql`select previous_secrets as previous from ${webhookEndpoints} where id = ${endpoint.id}`, tx)
				throw rollback
			})
			.catch((e) => {
				if (e !== rollback) throw e
			})
		expect(moved!.previous).toHaveLength(1)
		expect(new Date(moved!.previous[0]!.until)).toEqual(until)
		// Still sealed and bound to its endpoint (the migration copies, never opens it): it opens to the old secret.
		expect(await openSecret(deps.secret, endpoint.id, moved!.previous[0]!.sealed)).toBe(old)
		// With the list as the migration left it (and a newer current secret), deliveries verify with the old one.
		await deps.db
			.update(webhookEndpoints)
			.set({ previousSecrets: moved!.previous, secretSealed: await sealSecret(deps.secret, endpoint.id, newSigningSecret()) })
			.where(eq(webhookEndpoints.id, endpoint.id))
		const signed = await deliverTest(ws, endpoint.id, r)
		r.stop()
		expect(signed.signature.split(' ')).toHaveLength(2)
		expect(verifiesAtArrival(old, signed)).toBe(true)
	})
})

describe('vendors', () => {
	test('a vendor’s endpoint receives only events about its own jobs and submissions; it may not subscribe to others', async () => {
		const ws = await newWorkspace(deps)
		const a = await newVendor(ws, 'Vendor A', deps)
		const b = await newVendor(ws, 'Vendor B', deps)
		const ra = receiver()
		const rb = receiver()
		const events = ['job.published', 'job.changed', 'job.closed', 'submission.created']
		await addEndpoint(deps, await vendorActor(ws, a.vendorId), { url: ra.url, events })
		await addEndpoint(deps, await vendorActor(ws, b.vendorId), { url: rb.url, events })
		const jobA = await publish(a.apiKey)
		const jobB = await publish(b.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		ra.stop()
		rb.stop()
		expect(ra.got.map((g) => JSON.parse(g.body).data.jobId)).toEqual([jobA.jobId])
		expect(rb.got.map((g) => JSON.parse(g.body).data.jobId)).toEqual([jobB.jobId])
		// A vendor reads the status in its API's words (open, closed), as GET /api/v1/jobs/<id> says it.
		expect(JSON.parse(ra.got[0]!.body).data.status).toBe('open')
		// A job the firm set to Draft is closed to the vendor, as its API says; the firm's own endpoints keep the firm's words.
		const drafted = { type: 'job.closed', data: { jobId: jobA.jobId, status: 'Draft' } }
		expect(payloadData(drafted, new Map(), 'vendor').status).toBe('closed')
		expect(payloadData(drafted, new Map(), 'workspace').status).toBe('Draft')
		const refused = await addEndpoint(deps, await vendorActor(ws, a.vendorId), { url: ra.url, events: ['application.created'] }).catch((e) => e)
		expect(refused).toBeInstanceOf(AppError)
		expect(refused.status).toBe(422)
		expect(refused.fields).toEqual([expect.objectContaining({ field: 'events' })])
	})
})

describe('vendors cut off', () => {
	test('a vendor whose API access the firm switched off gets no events about its jobs until it is switched on again', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Vendor C', deps)
		const r = receiver()
		await addEndpoint(deps, await vendorActor(ws, vendor.vendorId), { url: r.url, events: ['job.closed', 'job.reopened', 'job.published'] })
		const { jobId } = await publish(vendor.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(r.got.map((g) => JSON.parse(g.body).type)).toEqual(['job.published'])
		await setApiAccess(deps, operatorActor(ws), vendor.vendorId, false)
		await setJobStatus(deps, operatorActor(ws), jobId, 'Closed')
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(r.got.map((g) => JSON.parse(g.body).type)).toEqual(['job.published'])
		await setApiAccess(deps, operatorActor(ws), vendor.vendorId, true)
		await setJobStatus(deps, operatorActor(ws), jobId, 'Open')
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		r.stop()
		expect(r.got.map((g) => JSON.parse(g.body).type)).toEqual(['job.published', 'job.reopened'])
	})
})

describe('a revoked vendor key', () => {
	test('switches off, in the revocation, the endpoints the vendor added with it (and unattributed ones added after it was made): they get nothing, say why, and the trail says so', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Leaky Staffing', deps)
		const other = await createKey(deps, operatorActor(ws), vendor.vendorId)
		const withLeaked = (await verifyVendorKey(deps, vendor.apiKey))!
		const withOther = (await verifyVendorKey(deps, other.apiKey))!
		const leaked = receiver()
		const kept = receiver()
		const unattributed = receiver()
		const events = ['job.published']
		const a = (await addEndpoint(deps, withLeaked, { url: leaked.url, events })).endpoint
		const b = (await addEndpoint(deps, withOther, { url: kept.url, events })).endpoint
		// Added before the adding key was kept (webhooks migration 0004): it may be the leaked key's.
		const c = (await addEndpoint(deps, withOther, { url: unattributed.url, events })).endpoint
		await deps.db.update(webhookEndpoints).set({ vendorKeyId: null }).where(eq(webhookEndpoints.id, c.id))

		const revoked = (await runCommand(deps, 'vendor key-revoke', { key: vendor.keyId })).json
		expect(revoked).toEqual({ keyId: vendor.keyId, vendorId: vendor.vendorId, revoked: true, switchedOff: { webhookEndpoints: expect.any(Array) } })
		expect((revoked.switchedOff as { webhookEndpoints: string[] }).webhookEndpoints.sort()).toEqual([a.id, c.id].sort())
		const shown = await getEndpoint(deps, operatorActor(ws), a.id)
		expect([shown.enabled, shown.disabledReason, shown.disabledCause]).toEqual([
			false,
			`the vendor’s API key …${vendor.apiKey.slice(-4)} that added it or last moved it was revoked`,
			'api_key_revoked',
		])
		expect((await getEndpoint(deps, operatorActor(ws), b.id)).enabled).toBe(true)

		await publish(other.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		leaked.stop()
		kept.stop()
		unattributed.stop()
		expect([leaked.got.length, unattributed.got.length, kept.got.length]).toEqual([0, 0, 1])
		const lines = await deps.database.rows<{ targetId: string; detail: Record<string, unknown> }>(
			sql`select target_id as "targetId", detail from activity where workspace_id = ${ws.id} and action = 'webhook.endpoint_disabled' order by target_id`,
		)
		expect(lines).toEqual([a.id, c.id].sort().map((targetId) => ({ targetId, detail: { reason: 'vendor_key_revoked', keyId: vendor.keyId } })))
		// A second revocation changes nothing; the firm alone switches one on again.
		expect((await runCommand(deps, 'vendor key-revoke', { key: vendor.keyId })).json.switchedOff).toEqual({})
		expect(await setEndpointEnabled(deps, withOther, a.id, true).catch((e) => e.status)).toBe(403)
		await setEndpointEnabled(deps, operatorActor(ws), a.id, true)
		expect(await endpointRow(a.id)).toEqual({ enabled: true, disabledReason: null, disabledCause: null })
		// A request the leaked key began before the revocation adds nothing after it: the add holds the
		// key (a revocation at that moment waits, then switches the new endpoint off) and sees it revoked.
		const late = receiver()
		expect(await addEndpoint(deps, withLeaked, { url: late.url, events }).catch((e) => e.code)).toBe('UNAUTHORIZED')
		late.stop()
		expect((await listEndpoints(deps, operatorActor(ws))).map((e) => e.url)).not.toContain(late.url)
	})
})

describe('limits', () => {
	test('at most MAX_ENDPOINTS endpoints a workspace, even when adds race (on PostgreSQL, transactions at once)', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const add = () => addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		for (let i = 0; i < MAX_ENDPOINTS - 2; i++) await add()
		const raced = await Promise.allSettled(Array.from({ length: 6 }, add))
		expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
		for (const refused of raced.filter((r) => r.status === 'rejected'))
			expect((refused as PromiseRejectedResult).reason.message).toContain(`At most ${MAX_ENDPOINTS}`)
		const [stored] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${webhookEndpoints} where workspace_id = ${ws.id}`)
		expect(Number(stored!.n)).toBe(MAX_ENDPOINTS)
	})
})

describe('limits of the operator', () => {
	test('the CLI counts the workspace’s own endpoints against the limit, not its vendors’ (it still lists and reaches those)', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const vendor = await newVendor(ws, 'Acme', deps)
		for (let i = 0; i < MAX_ENDPOINTS; i++) await addEndpoint(deps, await vendorActor(ws, vendor.vendorId), { url: r.url, events: ['job.published'] })
		const added = (await runCommand(deps, 'webhook add', { workspace: ws.slug, url: r.url, events: 'job.published' })).json
		expect(Object.keys(added).sort()).toEqual(['endpointId', 'secret', 'warnings'])
		const listed = (await runCommand(deps, 'webhook list', { workspace: ws.slug })).json as { endpoints: { endpointId: string; vendorId: string | null }[] }
		expect(listed.endpoints).toHaveLength(MAX_ENDPOINTS + 1)
		// Whose each is: the vendor's (added with its key) or the workspace's own.
		expect(listed.endpoints.filter((e) => e.vendorId === vendor.vendorId)).toHaveLength(MAX_ENDPOINTS)
		expect(listed.endpoints.find((e) => e.endpointId === added.endpointId)?.vendorId).toBeNull()
		r.stop()
	})
})

describe('addresses', () => {
	const refusing = () => testDeps()

	test('private, loopback, link-local and mapped addresses, names resolving to them, and plain http are refused with a reason naming url', async () => {
		const strict = await refusing()
		const ws = await newWorkspace(strict)
		const urls = [
			'https://10.0.0.1/hook',
			'https://127.0.0.1/hook',
			'https://169.254.169.254/latest',
			'https://192.168.1.10/hook',
			'https://[::1]/hook',
			'https://[fe80::1]/hook',
			'https://[fc00::1]/hook',
			'https://[::ffff:127.0.0.1]/hook',
			'https://[::ffff:a00:1]/hook',
			'https://[::127.0.0.1]/hook',
			'https://localhost/hook',
			'http://example.com/hook',
			'ftp://example.com/hook',
		]
		for (const url of urls) {
			const error = await addEndpoint(strict, operatorActor(ws), { url, events: ['job.published'] }).catch((e) => e)
			expect(error, url).toBeInstanceOf(AppError)
			expect(error.status, url).toBe(422)
			expect(error.fields[0].field, url).toBe('url')
		}
		const [n] = await strict.database.rows<{ n: number }>(sql`select count(*)::int as n from ${webhookEndpoints} where workspace_id = ${ws.id}`)
		expect(n!.n).toBe(0)
	})

	test('an address or description with line breaks, spaces or invisible characters is refused, never stored as typed (it is shown in pages and the owners’ e-mail)', async () => {
		const ws = await newWorkspace(deps)
		const lure = 'https://hooks.example.com/c?code=410\n\nWhy: your Benchline password expired. Reset it at https://evil.example/reset\n\n'
		for (const url of [
			lure,
			'https://hooks.example.com/a\tb',
			'https://hooks.example.com/a b',
			'https://hooks.example.com/\u202egnp.exe',
			'https://hooks.example.com/\u2028x',
		]) {
			const error = await addEndpoint(deps, operatorActor(ws), { url, events: ['job.published'] }).catch((e) => e)
			expect(error, url).toBeInstanceOf(AppError)
			expect(error.fields, url).toEqual([{ field: 'url', message: 'must not hold spaces, line breaks or other invisible characters' }])
		}
		const described = await addEndpoint(deps, operatorActor(ws), {
			url: 'http://127.0.0.1:9/x',
			events: ['job.published'],
			description: 'CRM\nWhy: reset your password',
		}).catch((e) => e)
		expect(described.fields).toEqual([{ field: 'description', message: 'must be one line, without control characters' }])
		const [n] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${webhookEndpoints} where workspace_id = ${ws.id}`)
		expect(n!.n).toBe(0)
		// Direction controls and zero-width characters are dropped from the description, as from every name typed.
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), {
			url: 'http://127.0.0.1:9/x',
			events: ['job.published'],
			description: 'Our \u202eMRC\u202c\u200b',
		})
		expect(endpoint.description).toBe('Our MRC')
		// Half a character (a lone surrogate) is refused in both, never stored as U+FFFD and then called or shown.
		const broken = await addEndpoint(deps, operatorActor(ws), {
			url: 'http://127.0.0.1:9/sur?q=\udfff',
			events: ['job.published'],
			description: 'a\ud800',
		}).catch((e) => e)
		expect(broken.fields).toEqual([
			{ field: 'url', message: 'holds a broken character (a lone surrogate)' },
			{ field: 'description', message: 'holds a broken character (a lone surrogate)' },
		])
	})

	test('an address is stored and shown as the URL parser reads it, the address that is called (a backslash is a slash): through the API, the portal and the CLI', async () => {
		const { app } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' })
		const ws = await newWorkspace(deps)
		const r = receiver()
		const port = new URL(r.url).port
		// Reads as an address at evil.example to a person; the parser calls 127.0.0.1 with the path /@evil.example/…
		const typed = (path: string) => `http://127.0.0.1:${port}\\@evil.example/${path}`
		const called = (path: string) => `http://127.0.0.1:${port}/@evil.example/${path}`
		const stored = async (id: string) => (await deps.database.rows<{ url: string }>(sql`select url from ${webhookEndpoints} where id = ${id}`))[0]!.url

		const viaApi = await callOn(app, 'POST', '/api/v1/webhooks', {
			key: (await newVendor(ws, 'Acme', deps)).apiKey,
			body: { url: typed('api'), events: ['job.published'] },
		})
		expect(viaApi.status).toBe(201)
		expect(viaApi.json.url).toBe(called('api'))
		expect(await stored(viaApi.json.id)).toBe(called('api'))

		const page = await signedIn(await newPerson(ws, 'owner', {}, deps), { overrides: { WEBHOOKS_ALLOW_PRIVATE: 'on' } })
		const viaPortal = await page.submit('/settings/webhooks', { url: typed('portal'), description: '', events: ['job.published'] })
		const portalId = viaPortal.redirectedTo!.split('/').pop()!
		expect(await stored(portalId)).toBe(called('portal'))
		expect(viaPortal.text).not.toContain('\\@evil')

		const viaCli = (await runCommand(deps, 'webhook add', { workspace: ws.slug, url: typed('cli'), events: 'job.published' })).json
		expect(await stored(String(viaCli.endpointId))).toBe(called('cli'))
		const listed = (await runCommand(deps, 'webhook list', { workspace: ws.slug })).json as { endpoints: { url: string }[] }
		expect(listed.endpoints.map((e) => e.url).sort()).toEqual([called('api'), called('cli'), called('portal')])

		// The limit on its length holds for the form stored: 400 typed é are 2,400 characters percent-encoded.
		const long = await addEndpoint(deps, operatorActor(ws), { url: `http://127.0.0.1:${port}/${'é'.repeat(400)}`, events: ['job.published'] }).catch((e) => e)
		expect(long.fields).toEqual([{ field: 'url', message: expect.stringContaining('at most 2000 characters') }])

		// What is stored is what is called.
		await sendTestEvent(deps, operatorActor(ws), String(viaCli.endpointId))
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		r.stop()
		expect(r.got).toHaveLength(1)
	})

	test('event types that are not text (an object, a nested list) are refused with 422 naming events, never a failed request', async () => {
		const ws = await newWorkspace(deps)
		const { apiKey } = await newVendor(ws, 'Hostile Vendor', deps)
		let deep: unknown = 'job.published'
		for (let i = 0; i < 7000; i++) deep = [deep]
		for (const events of [[{ toString: 1 }], [deep], [42, 'job.published']]) {
			const res = await call('POST', '/api/v1/webhooks', { key: apiKey, raw: JSON.stringify({ url: 'https://hooks.example.com/x', events }) })
			expect(res.status).toBe(422)
			expect(res.json.fields).toContainEqual({ field: 'events', message: 'must list event types as text' })
		}
	})

	test('the address is checked again at each delivery: an endpoint that is private now gets nothing', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		// Added while private addresses were allowed; the server then runs without the switch.
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		await sendTestEvent(deps, operatorActor(ws), endpoint.id)
		expect(await deliverDueWebhooks(await refusing(), { workspaceId: ws.id })).toMatchObject({ retried: 1 })
		r.stop()
		expect(r.got).toHaveLength(0)
		// Here the plain http:// is refused first; a private address is refused the same way (outbound.ts).
		expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'pending', lastStatus: null, lastError: 'the address must start with https://' }])
	})
})

describe('CLI', () => {
	test('webhook add, list, replay (same webhook-id) and remove, with the documented --json shapes', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const added = (await runCommand(deps, 'webhook add', { workspace: ws.slug, url: r.url, events: 'job.published,job.closed', description: 'CRM' })).json
		expect(Object.keys(added).sort()).toEqual(['endpointId', 'secret', 'warnings'])
		const listed = (await runCommand(deps, 'webhook list', { workspace: ws.slug })).json as { endpoints: Record<string, unknown>[] }
		expect(listed.endpoints).toEqual([
			{ endpointId: added.endpointId, url: r.url, events: ['job.published', 'job.closed'], enabled: true, createdAt: expect.any(String), vendorId: null },
		])
		expect(JSON.stringify(listed)).not.toContain('whsec_')
		await publish((await newVendor(ws, 'Acme', deps)).apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		const id = r.got[0]!.id
		expect((await runCommand(deps, 'webhook replay', { delivery: id })).json).toMatchObject({ deliveryId: id, status: 'pending' })
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(r.got.map((g) => g.id)).toEqual([id, id])
		verify(String(added.secret), r.got[1]!)
		const bad = await runCommand(deps, 'webhook add', { workspace: ws.slug, url: r.url, events: 'job.published,job.nope' }).catch((e) => e)
		expect(bad.fields).toEqual([expect.objectContaining({ field: 'events', message: expect.stringContaining('job.nope') })])
		expect((await runCommand(deps, 'webhook remove', { endpoint: String(added.endpointId) })).json).toEqual({ endpointId: added.endpointId, removed: true })
		expect(((await runCommand(deps, 'webhook list', { workspace: ws.slug })).json as { endpoints: unknown[] }).endpoints).toEqual([])
		r.stop()
	})
})

describe('REST API (vendor endpoints)', () => {
	test('POST, GET and DELETE /api/v1/webhooks with the vendor’s key: the secret only in the 201, another vendor’s endpoint out of reach, errors in the API’s shape', async () => {
		const { app } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' })
		const ws = await newWorkspace(deps)
		const a = await newVendor(ws, 'Vendor A', deps)
		const b = await newVendor(ws, 'Vendor B', deps)
		const r = receiver()
		const created = await callOn(app, 'POST', '/api/v1/webhooks', { key: a.apiKey, body: { url: r.url, events: ['job.published', 'submission.created'] } })
		expect(created.status).toBe(201)
		expect(Object.keys(created.json).sort()).toEqual(['createdAt', 'description', 'disabledReason', 'enabled', 'events', 'id', 'secret', 'url'])
		expect(created.json.secret).toMatch(/^whsec_/)
		const listed = await callOn(app, 'GET', '/api/v1/webhooks', { key: a.apiKey })
		expect(listed.json).toEqual({
			webhooks: [
				{
					id: created.json.id,
					url: r.url,
					events: ['job.published', 'submission.created'],
					description: null,
					enabled: true,
					disabledReason: null,
					createdAt: created.json.createdAt,
				},
			],
		})
		expect(listed.text).not.toContain('whsec_')
		expect((await callOn(app, 'GET', '/api/v1/webhooks', { key: b.apiKey })).json).toEqual({ webhooks: [] })
		expect((await callOn(app, 'DELETE', `/api/v1/webhooks/${created.json.id}`, { key: b.apiKey })).status).toBe(404)

		// The vendor's publish reaches its endpoint, signed with the secret the 201 gave.
		await publish(a.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(verify(created.json.secret, r.got[0]!).type).toBe('job.published')
		r.stop()

		const other = await callOn(app, 'POST', '/api/v1/webhooks', { key: a.apiKey, body: { url: r.url, events: ['application.created'] } })
		expect(other.status).toBe(422)
		expect(other.json.fields).toEqual([expect.objectContaining({ field: 'events' })])
		const missing = await callOn(app, 'POST', '/api/v1/webhooks', { key: a.apiKey, body: { events: ['job.closed'], secret: 'mine' } })
		expect(missing.status).toBe(422)
		// The address is required; the secret is the service's to make (ignored with a warning when the rest holds).
		expect(missing.json.fields.map((f: { field: string }) => f.field)).toEqual(['url'])
		// Thousands of wrong event types (a 16 KB body): each distinct one named once, a few at most, not megabytes.
		const many = await callOn(app, 'POST', '/api/v1/webhooks', {
			key: a.apiKey,
			body: { url: r.url, events: [...Array(5_000).fill(0), ...Array.from({ length: 40 }, (_, i) => `x${i}`)] },
		})
		expect(many.status).toBe(422)
		expect(many.json.fields).toHaveLength(7)
		expect(many.json.fields[0]).toEqual({ field: 'events', message: 'must list event types as text' })
		expect(many.json.fields[6]).toEqual({ field: 'events', message: 'and 35 more values that are not event types' })
		expect(many.text.length).toBeLessThan(8_000)
		// Without the development switch: a private address is refused, naming url.
		const refused = await call('POST', '/api/v1/webhooks', { key: a.apiKey, body: { url: 'https://[::ffff:10.0.0.1]/hook', events: ['job.closed'] } })
		expect(refused.status).toBe(422)
		expect(refused.json.fields).toEqual([expect.objectContaining({ field: 'url' })])

		const deleted = await callOn(app, 'DELETE', `/api/v1/webhooks/${created.json.id}`, { key: a.apiKey })
		expect(deleted.status).toBe(204)
		expect(deleted.text).toBe('')
		expect((await callOn(app, 'GET', '/api/v1/webhooks', { key: a.apiKey })).json).toEqual({ webhooks: [] })
	})
})

describe('why a vendor’s endpoint is off', () => {
	test('GET /api/v1/webhooks says why each is off (disabledReason, null while on), and the vendor can do what the reason says', async () => {
		const { app } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' })
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Curious Staffing', deps)
		const leaked = await createKey(deps, operatorActor(ws), vendor.vendorId)
		const r = receiver((_, request) => new Response('', { status: new URL(request.url).pathname.endsWith('/gone') ? 410 : 200 }))
		const add = async (path: string, key = vendor.apiKey) => {
			const res = await callOn(app, 'POST', '/api/v1/webhooks', { key, body: { url: `${r.url}/${path}`, events: ['job.published'] } })
			expect(res.status).toBe(201)
			return res.json.id as string
		}
		const on = await add('on')
		const firm = await add('firm')
		const revoked = await add('revoked', leaked.apiKey)
		const gone = await add('gone')
		const failing = await add('failing')
		await setEndpointEnabled(deps, operatorActor(ws), firm, false)
		await runCommand(deps, 'vendor key-revoke', { key: leaked.keyId })
		await publish(vendor.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		r.stop()
		// Five days of failures, as the worker leaves them (the delivery tests above drive the clock through them).
		await deps.db
			.update(webhookEndpoints)
			.set(switchedOff('deliveries_failing', 'Every delivery has failed for 5 days'))
			.where(eq(webhookEndpoints.id, failing))
		const shown = async () => {
			const res = await callOn(app, 'GET', '/api/v1/webhooks', { key: vendor.apiKey })
			return Object.fromEntries(
				(res.json.webhooks as { id: string; enabled: boolean; disabledReason: unknown }[]).map((w) => [w.id, [w.enabled, w.disabledReason]]),
			)
		}
		expect(await shown()).toEqual({
			[on]: [true, null],
			[firm]: [false, 'switched_off_by_firm'],
			[revoked]: [false, 'api_key_revoked'],
			[gone]: [false, 'answered_410_gone'],
			[failing]: [false, 'deliveries_failing'],
		})
		// The firm's reasons: the vendor asks the firm (deleting is refused); Benchline's: it deletes and adds again.
		for (const id of [firm, revoked]) expect((await callOn(app, 'DELETE', `/api/v1/webhooks/${id}`, { key: vendor.apiKey })).status).toBe(409)
		for (const id of [gone, failing]) expect((await callOn(app, 'DELETE', `/api/v1/webhooks/${id}`, { key: vendor.apiKey })).status).toBe(204)
		await add('gone')
		// Switched on again by the firm: no reason left.
		await setEndpointEnabled(deps, operatorActor(ws), firm, true)
		expect((await shown())[firm]).toEqual([true, null])

		// The API's description names every reason, what it means and what the vendor may do.
		const doc = (await callOn(app, 'GET', '/api/v1/openapi.json')).json
		const schema = doc.components.schemas.Webhook
		expect(schema.required).toContain('disabledReason')
		expect(schema.properties.disabledReason.anyOf).toEqual([{ type: 'string', enum: [...DISABLED_CAUSES] }, { type: 'null' }])
		const docsPage = (await callOn(app, 'GET', '/api/v1/docs')).text
		for (const cause of DISABLED_CAUSES) {
			expect(schema.properties.disabledReason.description).toContain(`\`${cause}\`: ${CAUSES[cause].forVendor}`)
			expect(docsPage).toContain(cause)
		}
	})

	test('whatever switches an endpoint off says why: the database refuses an endpoint off without a reason', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		r.stop()
		const silently = deps.db.update(webhookEndpoints).set({ enabled: false, disabledBy: 'workspace' }).where(eq(webhookEndpoints.id, endpoint.id))
		expect(
			await silently.then(
				() => 'stored',
				(e) => String(e.cause ?? e),
			),
		).toContain('webhook_endpoints_off_says_why')
		expect((await getEndpoint(deps, operatorActor(ws), endpoint.id)).enabled).toBe(true)
	})

	test('the migration gives every endpoint already off its reason, from who switched it off and the words kept', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const migration = await Bun.file(new URL('./migrations/0006_endpoint_disabled_cause.sql', import.meta.url)).text()
		const [update] = migration.split('--> statement-breakpoint').filter((statement) => /^\s*(--.*\n)*\s*UPDATE/i.test(statement))
		const before = [
			['workspace', null, 'switched_off_by_firm'],
			['workspace', 'the vendor’s API key …abcd that added it was revoked', 'api_key_revoked'],
			['benchline', 'The endpoint answered 410 Gone: it asked to receive nothing more', 'answered_410_gone'],
			['benchline', 'Every delivery has failed for 5 days', 'deliveries_failing'],
		] as const
		const ids: string[] = []
		for (const [i] of before.entries()) ids.push((await addEndpoint(deps, operatorActor(ws), { url: `${r.url}/m${i}`, events: ['job.published'] })).endpoint.id)
		r.stop()
		const rollback = new Error('rolled back')
		let after: { id: string; cause: string | null }[] = []
		await deps.db
			.transaction(async (tx) => {
				// As the code before it left them: off, by whom, with its words and no cause (the checks come after the update).
				await deps.database.rows(sql.raw('alter table webhook_endpoints drop constraint webhook_endpoints_off_says_why'), tx)
				for (const [i, [by, reason]] of before.entries())
					await tx
						.update(webhookEndpoints)
						.set({ enabled: false, disabledBy: by, disabledReason: reason, disabledCause: null })
						.where(eq(webhookEndpoints.id, ids[i]!))
				await deps.database.rows(sql.raw(update!), tx)
				after = await deps.database.rows(sql`select id, disabled_cause as cause from ${webhookEndpoints} where id = any(${sql.param(ids)}::text[])`, tx)
				throw rollback
			})
			.catch((e) => {
				if (e !== rollback) throw e
			})
		expect(Object.fromEntries(after.map((a) => [a.id, a.cause]))).toEqual(Object.fromEntries(before.map(([, , cause], i) => [ids[i]!, cause])))
	})
})

describe('a firm’s switch-off of a vendor’s endpoint', () => {
	test('sticks: the vendor adding the same address again, or deleting the endpoint, is 409 until the firm switches it on; Benchline’s own switch-off (410) does not', async () => {
		const { app } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' })
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Pushy Staffing', deps)
		const r = receiver((_, request) => new Response('', { status: new URL(request.url).pathname.endsWith('/gone') ? 410 : 200 }))
		const add = (url = r.url) => callOn(app, 'POST', '/api/v1/webhooks', { key: vendor.apiKey, body: { url, events: ['job.published'] } })
		const first = await add()
		expect(first.status).toBe(201)
		await setEndpointEnabled(deps, operatorActor(ws), first.json.id, false)

		const again = await add()
		expect(again.status).toBe(409)
		expect(again.json.error).toContain('the firm switched off your endpoint at this address')
		const deleted = await callOn(app, 'DELETE', `/api/v1/webhooks/${first.json.id}`, { key: vendor.apiKey })
		expect(deleted.status).toBe(409)
		expect((await callOn(app, 'GET', '/api/v1/webhooks', { key: vendor.apiKey })).json.webhooks).toEqual([
			expect.objectContaining({ id: first.json.id, enabled: false }),
		])
		await publish(vendor.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(r.got).toHaveLength(0)

		// Switched off by revoking the key that added it: the vendor's next key may not add it again either.
		const next = await createKey(deps, operatorActor(ws), vendor.vendorId)
		await setEndpointEnabled(deps, operatorActor(ws), first.json.id, true)
		await runCommand(deps, 'vendor key-revoke', { key: vendor.keyId })
		const withNext = await callOn(app, 'POST', '/api/v1/webhooks', { key: next.apiKey, body: { url: r.url, events: ['job.published'] } })
		expect(withNext.status).toBe(409)

		// Once the firm switches it on, the vendor manages it again.
		await setEndpointEnabled(deps, operatorActor(ws), first.json.id, true)
		expect((await callOn(app, 'DELETE', `/api/v1/webhooks/${first.json.id}`, { key: next.apiKey })).status).toBe(204)

		// Benchline switched it off (410 Gone): the vendor fixes its receiver and adds it again.
		const gone = await callOn(app, 'POST', '/api/v1/webhooks', { key: next.apiKey, body: { url: `${r.url}/gone`, events: ['job.published'] } })
		await publish(next.apiKey)
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(await endpointRow(gone.json.id)).toEqual({ enabled: false, disabledReason: expect.stringContaining('410'), disabledCause: 'answered_410_gone' })
		expect((await callOn(app, 'POST', '/api/v1/webhooks', { key: next.apiKey, body: { url: `${r.url}/gone`, events: ['job.published'] } })).status).toBe(201)
		r.stop()
	})

	test('the same address written with an empty query is the same address (the request sent is the same): refused too, and stored as it is called; one with a fragment is refused', async () => {
		const { app } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' })
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Pushy Staffing', deps)
		const r = receiver(() => new Response('', { status: 200 }))
		const add = (url: string) => callOn(app, 'POST', '/api/v1/webhooks', { key: vendor.apiKey, body: { url, events: ['job.published'] } })
		const first = await add(`${r.url}/hook`)
		expect(first.status).toBe(201)
		await setEndpointEnabled(deps, operatorActor(ws), first.json.id, false)
		expect((await add(`${r.url}/hook?`)).status).toBe(409)
		// A fragment is refused outright (never sent: it cannot be part of a receiver's address).
		for (const url of [`${r.url}/hook#again`, `${r.url}/hook?#x`]) {
			const again = await add(url)
			expect({ url, status: again.status }).toEqual({ url, status: 422 })
		}
		// Stored as called: nothing the request does not carry.
		const other = await add(`${r.url}/other?`)
		expect(other.status).toBe(201)
		expect(other.json.url).toBe(`${r.url}/other`)
		// An endpoint stored with a fragment before is at its address too.
		await deps.db
			.update(webhookEndpoints)
			.set({ url: `${r.url}/old#kept` })
			.where(eq(webhookEndpoints.id, other.json.id))
		await setEndpointEnabled(deps, operatorActor(ws), other.json.id, false)
		expect((await add(`${r.url}/old`)).status).toBe(409)
		r.stop()
	})
})

describe('events from the portal', () => {
	test('a stage move and a submission to a vendor reach the endpoints subscribed to them: the workspace’s, and that vendor’s only', async () => {
		const ws = await newWorkspace(deps)
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		const vendorId = await newSubmissionVendor(ws, { name: 'Bright Staffing', rules: { always: [], byWorkAuthorization: {} } }, deps)
		const otherVendor = await newVendor(ws, 'Other Staffing', deps)
		const job = await newVendorJob(ws, { vendorId }, deps)
		const candidateId = await newCandidate(ws, { name: 'Ada Move' }, deps)
		const applicationId = await newApplication(ws, candidateId, job, {}, deps)
		const firm = receiver()
		const theirs = receiver()
		const others = receiver()
		const { secret } = await addEndpoint(deps, operatorActor(ws), { url: firm.url, events: ['application.stage_changed', 'submission.created'] })
		await addEndpoint(deps, await vendorActor(ws, vendorId), { url: theirs.url, events: ['submission.created'] })
		await addEndpoint(deps, await vendorActor(ws, otherVendor.vendorId), { url: others.url, events: ['submission.created'] })
		await moveToStage(deps, recruiter, { applicationId, stageKey: 'screening' })
		await submitToVendor(deps, recruiter, { applicationId, documents: [] })
		await drain()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		for (const r of [firm, theirs, others]) r.stop()
		const firmGot = firm.got.map((g) => verify(secret, g))
		expect(firmGot.map((p) => p.type)).toEqual(['application.stage_changed', 'submission.created'])
		expect(firmGot[0]!.data).toMatchObject({ applicationId, candidateId, jobId: job, to: 'screening', jobTitle: expect.any(String) })
		expect(firmGot[1]!.data).toMatchObject({ applicationId, candidateId, jobId: job, vendorId, documents: [], vendorJobId: expect.any(String) })
		expect(theirs.got.map((g) => JSON.parse(g.body).type)).toEqual(['submission.created'])
		expect(others.got).toHaveLength(0)
		// Nothing in a payload names the candidate or carries a link.
		for (const g of [...firm.got, ...theirs.got]) expect(g.body).not.toMatch(/Ada|https?:|bl_/)
	})
})

describe('the delivery log', () => {
	test('delivered and failed deliveries older than 30 days are pruned; one still to send is kept however old', async () => {
		const ws = await newWorkspace(deps)
		const r = receiver()
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		for (let i = 0; i < 3; i++) await sendTestEvent(deps, operatorActor(ws), endpoint.id)
		const [a, b, c] = await deliveries(endpoint.id)
		await deps.database.rows(
			sql`update ${webhookDeliveries} set created_at = now() - interval '31 days', status = case id when ${a!.id} then 'delivered' when ${b!.id} then 'failed' else 'pending' end where endpoint_id = ${endpoint.id}`,
		)
		await pruneDeliveries(deps)
		r.stop()
		expect((await deliveries(endpoint.id)).map((d) => d.id)).toEqual([c!.id])
	})
})

describe('the queue on /metrics', () => {
	test('its oldest age is how long a due delivery has waited since it became due: a replayed old delivery, and one that waited while its endpoint was off, start at 0', async () => {
		// Its own database: the age is the whole queue's, and a server another test file runs on the
		// shared database sends due deliveries (and re-times them) whatever their workspace.
		const scratch = await emptyDatabase()
		await scratch.database.migrate(modules)
		const own = await createDeps({ config: deps.config, log: deps.log, database: scratch.database, now: clock.now })
		try {
			const ws = await newWorkspace(own)
			const { endpoint } = await addEndpoint(own, operatorActor(ws), { url: 'http://127.0.0.1:9/queue-age', events: ['job.published'] })
			const { deliveryId } = await sendTestEvent(own, operatorActor(ws), endpoint.id)
			const set = (what: ReturnType<typeof sql>) => own.database.rows(sql`update ${webhookDeliveries} set ${what} where id = ${deliveryId}`)
			const oldest = async () => (await webhookQueue.measure(own)).oldestAgeSeconds
			// An event of 400 days ago whose delivery failed then, replayed now: due now, not 400 days late.
			await set(sql`status = 'failed', created_at = now() - interval '400 days', next_attempt_at = now() - interval '400 days'`)
			await replayDelivery(own, operatorActor(ws), deliveryId)
			expect(await oldest()).toBeLessThan(60)
			// Due three hours ago and not yet sent: the workers are hours behind.
			await set(sql`next_attempt_at = now() - interval '3 hours'`)
			const late = await oldest()
			expect(late).toBeGreaterThanOrEqual(3 * 3_600)
			expect(late).toBeLessThan(3 * 3_600 + 60)
			// Waiting while its endpoint was off (a queue the workers were not behind on): due from when it is switched on.
			await setEndpointEnabled(own, operatorActor(ws), endpoint.id, false)
			await set(sql`next_attempt_at = now() - interval '400 days'`)
			await setEndpointEnabled(own, operatorActor(ws), endpoint.id, true)
			expect(await oldest()).toBeLessThan(60)
		} finally {
			await closeDeps(own)
			await scratch.close()
		}
	})
})
