/**
 * What a receiver's answer means beyond its status, as real receivers use HTTP: a redirect is an
 * address that moved (never followed: the address was checked, the one it names was not), and
 * `Retry-After` on a 429 or 503 is how long the receiver asks to be left alone (RFC 9110 §10.2.3).
 */

/** The delivery log's words for an answer that is not a 2xx. */
export function answerWords(status: number): string {
	if (status >= 300 && status < 400) return `answered ${status}, a redirect, which is not followed: give the endpoint the address it redirects to`
	return `answered ${status}`
}

/** Statuses whose `Retry-After` a receiver sends to say when to come back. */
const ASKS_TO_WAIT = new Set([429, 503])

/**
 * How long the receiver asks to wait (ms), from `Retry-After` on a 429 or 503: seconds, or an HTTP
 * date; null when it asks nothing, or the header is not one of those forms (a negative number, words).
 */
export function askedWaitMs(status: number, retryAfter: string | null, now: Date): number | null {
	if (!ASKS_TO_WAIT.has(status) || !retryAfter) return null
	const value = retryAfter.trim()
	if (/^\d{1,10}$/.test(value)) return Number(value) * 1000
	// An HTTP date: IMF-fixdate and RFC 850 end in GMT; asctime names no zone, and is GMT too (RFC 9110 §5.6.7).
	const asctime = /\d{2}:\d{2}:\d{2} \d{4}$/.test(value)
	if (!asctime && !/ GMT$/.test(value)) return null
	const at = Date.parse(asctime ? `${value} GMT` : value)
	return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}

/**
 * The wait before the next attempt: the schedule's, or longer when the receiver asked for longer, but
 * never beyond the schedule's longest wait (a receiver's "come back in a month" does not stop its
 * deliveries: the schedule's end, and the 5-day switch-off, still come).
 */
export const waitBeforeRetry = (scheduled: number, asked: number | null, schedule: readonly number[]) =>
	asked === null ? scheduled : Math.max(scheduled, Math.min(asked, Math.max(0, ...schedule)))
