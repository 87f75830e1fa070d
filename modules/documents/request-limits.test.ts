/**
 * The hourly limit on document requests, decided alone (`hourlyLimitRefusal`): the times of one
 * person's requests to one candidate in the last hour decide whether another may go, and when.
 */
import { expect, test } from 'bun:test'
import { hourlyLimitRefusal, MAX_REQUESTS_PER_CANDIDATE_HOUR } from './requests.ts'

const now = new Date('2026-03-02T10:00:00Z')
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000)

test('under the limit, a request may go', () => {
	expect(hourlyLimitRefusal([], now)).toBeNull()
	expect(hourlyLimitRefusal([minutesAgo(50), minutesAgo(5)], now)).toBeNull()
})

test('at the limit, the refusal says when the oldest of the hour stops counting', () => {
	const sent = [minutesAgo(50), minutesAgo(20), minutesAgo(5)]
	expect(sent.length).toBe(MAX_REQUESTS_PER_CANDIDATE_HOUR)
	const refusal = hourlyLimitRefusal(sent, now)
	expect(refusal).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 600 })
	expect(refusal!.message).toContain(
		`already sent this candidate 3 document requests in the last hour (the limit is ${MAX_REQUESTS_PER_CANDIDATE_HOUR}); nothing was sent`,
	)
	expect(refusal!.message).toContain('another request can go in 10 minutes (at 2026-03-02T10:10:00.000Z)')
})

test('the wait is at least one minute, said in the singular', () => {
	const refusal = hourlyLimitRefusal([new Date(now.getTime() - 3_599_500), minutesAgo(30), minutesAgo(1)], now)
	expect(refusal).toMatchObject({ retryAfter: 60 })
	expect(refusal!.message).toContain('another request can go in 1 minute (at')
})
