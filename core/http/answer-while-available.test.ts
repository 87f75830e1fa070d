/**
 * A request in flight when the database stops answering gets 503 at once, except what is served while
 * it is down (liveness, metrics): their answer is waited for, as it is for one arriving during the
 * outage (the stalled database itself is tests/reliability/faults.test.ts).
 */
import { expect, test } from 'bun:test'
import type { Availability } from '../types/availability.ts'
import { answerWhileAvailable } from './availability.ts'

/** A database that goes down as soon as it is asked about, and answers that come after it. */
function goingDown(): Availability {
	return { up: () => true, whenDown: () => Promise.resolve(), stop: () => {} }
}

const late = (status: number) => Bun.sleep(30).then(() => new Response('late', { status }))
const unavailable = () => new Response('unavailable', { status: 503 })

test('a page in flight when the database goes down is answered 503 at once', async () => {
	const res = await answerWhileAvailable(goingDown(), new Request('http://localhost/jobs'), late(200), unavailable)
	expect(res.status).toBe(503)
})

test('liveness and metrics in flight when the database goes down get their own answer', async () => {
	for (const path of ['/health', '/metrics']) {
		const res = await answerWhileAvailable(goingDown(), new Request(`http://localhost${path}`), late(200), unavailable)
		expect(res.status).toBe(200)
	}
})
