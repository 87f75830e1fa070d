/** The inbox module's settings (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'

/** An authserv-id is a token (RFC 8601 §2.5: most often the receiving server's host name). */
const AUTHSERV_ID = /^[A-Za-z0-9!#$%&'*+\-.^_`{|}~]{1,255}$/

export interface InboxSettings {
	/** Shared secret of the inbound-mail provider's signed webhook; unset: inbound mail is refused. */
	inboundMailSecret: string | undefined
	/**
	 * The authserv-id of the server that receives the firm's mail and writes `Authentication-Results`
	 * (SPF, DKIM, DMARC) into it. Set: a received message's sender is verified by that server's results
	 * (`authentication-results.ts`), and one that is not verified is never credited to the candidate or
	 * vendor its From names. Unset: senders are not checked; messages are filed by their From as they
	 * say, labelled "sender not checked".
	 */
	inboundMailAuthservId?: string
}

export const inboxSettings = defineSettings<InboxSettings>({
	variables: ['INBOUND_MAIL_SECRET', 'INBOUND_MAIL_AUTHSERV_ID'],
	parse: (env) => {
		const authservId = env.value('INBOUND_MAIL_AUTHSERV_ID')
		if (authservId !== undefined && !AUTHSERV_ID.test(authservId))
			env.problem(
				`INBOUND_MAIL_AUTHSERV_ID must be the receiving mail server's authserv-id, one token such as mx.example.com (got "${authservId.slice(0, 80)}")`,
			)
		return { inboundMailSecret: env.secret('INBOUND_MAIL_SECRET'), inboundMailAuthservId: authservId }
	},
})
