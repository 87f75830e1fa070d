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

/** `5s,5m,30m,2h` → milliseconds, or null when a part is not a number with a unit (ms, s, m, h, d). */
export function parseSchedule(raw: string): number[] | null {
	const parts = raw.split(',').map((p) => p.trim())
	const out: number[] = []
	for (const p of parts) {
		const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(p)
		if (!m) return null
		out.push(Math.round(Number(m[1]) * UNIT_MS[m[2]!]!))
	}
	return out.length && out.length <= 50 ? out : null
}

export const webhookSettings = defineSettings<WebhookSettings>({
	variables: ['WEBHOOKS_ALLOW_PRIVATE', 'WEBHOOK_RETRY_SCHEDULE'],
	parse(env) {
		const raw = env.value('WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE
		let schedule = parseSchedule(raw)
		if (!schedule) {
			env.problem(`WEBHOOK_RETRY_SCHEDULE must be a comma list of waits with a unit, such as ${DEFAULT_RETRY_SCHEDULE} (got "${raw}")`)
			schedule = parseSchedule(DEFAULT_RETRY_SCHEDULE)!
		}
		return { webhooksAllowPrivate: env.onOff('WEBHOOKS_ALLOW_PRIVATE', false), webhookRetryScheduleMs: schedule }
	},
})
