/** The outbox module's settings: the messaging-app provider (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'
import type { AppDeps } from '../../core/deps.ts'

export interface MessagingConfig {
	/** API origin, e.g. https://api.twilio.com (the default). */
	readonly url: string
	/** Account id (Twilio: the Account SID); also the basic-auth user. */
	readonly account: string
	/** API secret (Twilio: the Auth Token); the basic-auth password. */
	readonly token: string
	/** Sender, e.g. `+15550100` or `whatsapp:+15550100` (the recipient gets the same channel prefix). */
	readonly from: string
}

export interface OutboxSettings {
	/**
	 * Messaging-app provider (Twilio Messages API shape: `MESSAGING_URL`, `MESSAGING_ACCOUNT`,
	 * `MESSAGING_TOKEN`, `MESSAGING_FROM`); undefined when not configured: messages are then
	 * recorded as not sent, with the reason.
	 */
	readonly messaging: MessagingConfig | undefined
	/** Seconds one request to the messaging provider may take, its answer included (`MESSAGING_TIMEOUT`, 1–240; default 15). */
	readonly messagingTimeout: number
}

const REQUIRED = ['MESSAGING_ACCOUNT', 'MESSAGING_TOKEN', 'MESSAGING_FROM'] as const

export const outboxSettings = defineSettings<OutboxSettings>({
	variables: ['MESSAGING_URL', ...REQUIRED, 'MESSAGING_TIMEOUT'],
	parse(env) {
		let messaging: MessagingConfig | undefined
		const set = REQUIRED.filter((n) => env.value(n) !== undefined)
		const url = env.url('MESSAGING_URL', ['https:', 'http:'])
		if (set.length > 0 && set.length < REQUIRED.length)
			env.problem(
				`${REQUIRED.filter((n) => env.value(n) === undefined).join(', ')} must be set too: the messaging provider needs MESSAGING_ACCOUNT, MESSAGING_TOKEN and MESSAGING_FROM`,
			)
		else if (set.length === REQUIRED.length) {
			const from = env.value('MESSAGING_FROM')!
			if (!/^(whatsapp:)?\+[1-9]\d{6,14}$/.test(from))
				env.problem('MESSAGING_FROM must be a phone number in E.164 form such as +15550100, optionally prefixed with "whatsapp:"')
			messaging = {
				url: (url ?? 'https://api.twilio.com').replace(/\/+$/, ''),
				account: env.value('MESSAGING_ACCOUNT')!,
				token: env.value('MESSAGING_TOKEN')!,
				from,
			}
		} else if (url !== undefined) env.problem('MESSAGING_URL is set but MESSAGING_ACCOUNT, MESSAGING_TOKEN and MESSAGING_FROM are not')
		return { messaging, messagingTimeout: env.integer('MESSAGING_TIMEOUT', 15, 1, 240) }
	},
})

/** Whether messages can go out at all (a provider is configured). */
export const messagingConfigured = (deps: Pick<AppDeps, 'config'>) => deps.config.settings.of(outboxSettings).messaging !== undefined
