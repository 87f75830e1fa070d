/** The interviews module's settings (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'

export const interviewSettings = defineSettings({
	variables: ['INTERVIEW_WEBHOOK_SECRET'],
	parse: (env) => ({
		/** Shared secret of the AI interview provider's signed callbacks; unset: callbacks are refused. */
		webhookSecret: env.secret('INTERVIEW_WEBHOOK_SECRET'),
	}),
})
