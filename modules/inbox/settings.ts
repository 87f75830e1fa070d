/** The inbox module's settings (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'

export const inboxSettings = defineSettings({
	variables: ['INBOUND_MAIL_SECRET'],
	parse: (env) => ({
		/** Shared secret of the inbound-mail provider's signed webhook; unset: inbound mail is refused. */
		inboundMailSecret: env.secret('INBOUND_MAIL_SECRET'),
	}),
})
