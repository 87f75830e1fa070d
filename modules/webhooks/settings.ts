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
/** The most retries a schedule may list. */
const MAX_RETRIES = 50

/** `5s,5m,30m,2h` → milliseconds, or null when a part is not a number with a unit (ms, s, m, h, d) of at most 30 days, or there are more than 50. */
export function parseSchedule(raw: string): number[] | null {
	const parts = raw.split(',').map((p) => p.trim())
	const out: number[] = []
	for (const p of parts) {
		const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(p)
		if (!m) return null
		const wait = Math.round(Number(m[1]) * UNIT_MS[m[2]!]!)
		if (wait > MAX_RETRY_WAIT_MS) return null
		out.push(wait)
	}
	return out.length && out.length <= MAX_RETRIES ? out : null
}

export const webhookSettings = defineSettings<WebhookSettings>({
	variables: ['WEBHOOKS_ALLOW_PRIVATE', 'WEBHOOK_RETRY_SCHEDULE'],
	parse(env) {
		const raw = env.value('WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE
		let schedule = parseSchedule(raw)
		if (!schedule) {
			env.problem(
				`WEBHOOK_RETRY_SCHEDULE must be a comma list of at most ${MAX_RETRIES} waits with a unit (ms, s, m, h, d), each at most 30d, such as ${DEFAULT_RETRY_SCHEDULE} (got ${JSON.stringify(raw)})`,
			)
			schedule = parseSchedule(DEFAULT_RETRY_SCHEDULE)!
		}
		return { webhooksAllowPrivate: env.onOff('WEBHOOKS_ALLOW_PRIVATE', false), webhookRetryScheduleMs: schedule }
	},
})
