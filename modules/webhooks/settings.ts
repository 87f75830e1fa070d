/** The webhooks module's settings (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'

/** Standard Webhooks' schedule: about 27 hours from the first attempt to the last, so at least 24 hours of retries. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h'

export interface WebhookSettings {
	/** Endpoints may be `http://` and private, loopback or link-local addresses (`WEBHOOKS_ALLOW_PRIVATE`; development and tests only). */
	readonly webhooksAllowPrivate: boolean
	/** The waits before each retry, in milliseconds (`WEBHOOK_RETRY_SCHEDULE`); after the last, the delivery has failed. */
	readonly webhookRetryScheduleMs: readonly number[]
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** The longest wait before a retry: 30 days (a longer one would date the next attempt past what PostgreSQL stores). */
export const MAX_RETRY_WAIT_MS = 30 * UNIT_MS.d!
/**
 * The shortest: 1 second. A wait of 0 retries a receiver that has just failed as fast as the worker
 * polls (every 500 ms), using the whole schedule up in moments.
 */
export const MIN_RETRY_WAIT_MS = UNIT_MS.s!
/** The most retries a schedule may list. */
const MAX_RETRIES = 50

const FORMAT = `must be a comma list of at most ${MAX_RETRIES} waits with a unit (ms, s, m, h, d), each at most 30d and at least 1s, such as ${DEFAULT_RETRY_SCHEDULE}`

/** `5s,5m,30m,2h` → milliseconds, or what is wrong: a part that is not a number with a unit (ms, s, m, h, d), a wait under 1 second or over 30 days, more than 50. */
export function parseSchedule(raw: string): { waits: number[] } | { problem: string } {
	const waits: number[] = []
	for (const part of raw.split(',').map((p) => p.trim())) {
		const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(part)
		if (!m) return { problem: FORMAT }
		const wait = Math.round(Number(m[1]) * UNIT_MS[m[2]!]!)
		if (wait < MIN_RETRY_WAIT_MS) return { problem: `${FORMAT}: ${JSON.stringify(part)} is shorter than 1s` }
		if (wait > MAX_RETRY_WAIT_MS) return { problem: `${FORMAT}: ${JSON.stringify(part)} is longer than 30d` }
		waits.push(wait)
	}
	return waits.length <= MAX_RETRIES ? { waits } : { problem: FORMAT }
}

export const webhookSettings = defineSettings<WebhookSettings>({
	variables: ['WEBHOOKS_ALLOW_PRIVATE', 'WEBHOOK_RETRY_SCHEDULE'],
	parse(env) {
		const raw = env.value('WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE
		const parsed = parseSchedule(raw)
		// A problem stops start-up (with every other problem found), so the empty schedule is never used.
		if ('problem' in parsed) env.problem(`WEBHOOK_RETRY_SCHEDULE ${parsed.problem} (got ${JSON.stringify(raw)})`)
		return { webhooksAllowPrivate: env.onOff('WEBHOOKS_ALLOW_PRIVATE', false), webhookRetryScheduleMs: 'waits' in parsed ? parsed.waits : [] }
	},
})
