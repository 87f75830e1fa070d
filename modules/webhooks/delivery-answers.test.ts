/**
 * Answers real receivers give beyond 2xx, 5xx and 410: a redirect (never followed, and the log says
 * what to do), and a 429 or 503 asking to be left alone for a while (`Retry-After`), honoured up to the
 * schedule's longest wait.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newWorkspace, testDeps } from '../../tests/helpers.ts'
import { operatorActor } from '../auth/index.ts'
import { askedWaitMs, waitBeforeRetry } from './answer.ts'
import { addEndpoint, sendTestEvent } from './service.ts'
import { webhookDeliveries } from './table.ts'
import { deliverDueWebhooks } from './worker.ts'

let deps: AppDeps
beforeAll(async () => {
	deps = await testDeps({ WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_SCHEDULE: '1s,1h,2h' })
})

/** A receiver answering every delivery with `answer`. */
function receiver(answer: () => Response) {
	const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => answer() })
	return { url: `http://127.0.0.1:${server.port}/hooks`, stop: () => server.stop(true) }
}

/** One delivery to a receiver answering `answer`: where it stands after the attempt. */
async function attemptAgainst(answer: () => Response) {
	const ws = await newWorkspace(deps)
	const r = receiver(answer)
	try {
		const { endpoint } = await addEndpoint(deps, operatorActor(ws), { url: r.url, events: ['job.published'] })
		const { deliveryId } = await sendTestEvent(deps, operatorActor(ws), endpoint.id)
		const before = deps.now().getTime()
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		const [d] = await deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId))
		return { status: d!.status, lastStatus: d!.lastStatus, lastError: d!.lastError, waitS: Math.round((d!.nextAttemptAt.getTime() - before) / 1000) }
	} finally {
		r.stop()
	}
}

describe('a redirect', () => {
	test('is not followed, and the delivery log says so and what to do, for every 3xx', async () => {
		for (const status of [301, 302, 307, 308]) {
			const got = await attemptAgainst(() => new Response(null, { status, headers: { location: 'https://elsewhere.example/hooks' } }))
			expect(got).toMatchObject({ status: 'pending', lastStatus: status })
			expect(got.lastError).toBe(`answered ${status}, a redirect, which is not followed: give the endpoint the address it redirects to`)
		}
	})
})

describe('Retry-After', () => {
	test('on a 429 or 503 puts the next attempt off as asked, in seconds or as a date, never beyond the schedule’s longest wait', async () => {
		expect((await attemptAgainst(() => new Response(null, { status: 429, headers: { 'retry-after': '600' } }))).waitS).toBe(600)
		const inHalfAnHour = new Date(deps.now().getTime() + 1_800_000).toUTCString()
		const dated = await attemptAgainst(() => new Response(null, { status: 503, headers: { 'retry-after': inHalfAnHour } }))
		expect(Math.abs(dated.waitS - 1800)).toBeLessThanOrEqual(2)
		// A month is asked: the schedule's longest wait (2 h) is the most.
		expect((await attemptAgainst(() => new Response(null, { status: 429, headers: { 'retry-after': String(30 * 86_400) } }))).waitS).toBe(7200)
	})

	test('is not a reason to retry sooner, and means nothing on other statuses or in other forms', async () => {
		// The schedule's first wait is 1 s (plus up to 20 %).
		for (const [status, header] of [
			[429, '0'],
			[500, '600'],
			[429, '-5'],
			[429, 'soon'],
			[429, '1.5'],
		] as const) {
			const got = await attemptAgainst(() => new Response(null, { status, headers: { 'retry-after': header } }))
			expect([status, header, got.waitS <= 2]).toEqual([status, header, true])
		}
		expect(askedWaitMs(429, 'Sun, 06 Nov 1994 08:49:37 GMT', new Date())).toBe(0)
		expect(askedWaitMs(503, 'Sunday, 06-Nov-94 08:49:37 GMT', new Date('1994-11-06T08:49:00Z'))).toBe(37_000)
		expect(askedWaitMs(503, 'Sun Nov  6 08:49:37 1994', new Date('1994-11-06T08:49:00Z'))).toBe(37_000)
		expect(askedWaitMs(429, '2026', new Date())).toBe(2_026_000)
		expect(waitBeforeRetry(5_000, null, [5_000])).toBe(5_000)
	})
})
