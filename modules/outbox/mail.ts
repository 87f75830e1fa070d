/** The e-mail channel: nodemailer over `SMTP_URL`, attachments read from the file store. */
import nodemailer, { type Transporter } from 'nodemailer'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import { deliveryError as failure, type ClaimedRow } from './delivery.ts'
import { unsubscribeUrl } from './footer.ts'
import { PERSON_RECIPIENTS } from './service.ts'

const transports = new Map<string, Transporter>()

/**
 * The waits of one send: connecting and the server's greeting get at most 10 s, a silence at most
 * 30 s, and the whole send at most `SMTP_TIMEOUT` (a deadline the idle timeouts cannot give: a
 * server that trickles a byte at a time is never silent).
 */
export function smtpTimeouts(totalSeconds: number) {
	const total = totalSeconds * 1000
	return { connectionTimeout: Math.min(10_000, total), greetingTimeout: Math.min(10_000, total), socketTimeout: Math.min(30_000, total), total }
}

function transportFor(smtpUrl: string, timeouts: ReturnType<typeof smtpTimeouts>): Transporter {
	const key = `${timeouts.total} ${smtpUrl}`
	let transport = transports.get(key)
	if (!transport) {
		// No pool: every message opens its own connection, so a restarted SMTP server is picked up at
		// once, and a connection that hangs holds up only its own message.
		const { connectionTimeout, greetingTimeout, socketTimeout } = timeouts
		transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout, greetingTimeout, socketTimeout })
		transports.set(key, transport)
	}
	return transport
}

/** Sends one outbox e-mail; throws a `DeliveryError`-shaped error on failure. */
/**
 * A marketing mail's unsubscribe headers (RFC 2369, and RFC 8058's one-click POST, which mail apps
 * show as an Unsubscribe button); transactional mail has none.
 */
function unsubscribeHeaders(deps: AppDeps, row: ClaimedRow): Record<string, string> {
	if (!row.marketing || !row.recipientType || !PERSON_RECIPIENTS.includes(row.recipientType) || !row.recipientId) return {}
	const url = unsubscribeUrl(deps, row.workspaceId, { type: row.recipientType, id: row.recipientId })
	return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

export async function sendMail(deps: AppDeps, row: ClaimedRow): Promise<void> {
	const smtpUrl = deps.config.smtpUrl
	if (!smtpUrl) throw failure('SMTP_URL is not set', false)
	const store = fileStore(deps.config)
	const attachments = []
	for (const a of row.attachments) {
		const content = await store.get(a.path)
		// A file that is gone will not come back: retrying cannot help.
		if (!content) throw failure(`the attachment "${a.filename}" is missing from the file store`, true, 'an attachment is missing from the file store')
		attachments.push({ filename: a.filename, contentType: a.contentType, content: Buffer.from(content) })
	}
	const timeouts = smtpTimeouts(deps.config.smtpTimeout)
	// Aborting closes the connection; the row is retried (at least once: a server that took the
	// message but never said so gets it again, with the same Message-ID).
	const deadline = AbortSignal.timeout(timeouts.total)
	try {
		await transportFor(smtpUrl, timeouts).sendMail({
			from: deps.config.mailFrom,
			to: row.to,
			subject: row.subject ?? '',
			text: row.text,
			html: row.html ?? undefined,
			messageId: row.messageId ?? undefined,
			headers: unsubscribeHeaders(deps, row),
			// An invitation: a text/calendar part with its METHOD (what calendar apps act on) and the same as invite.ics.
			icalEvent: row.calendar ? { method: row.calendar.method, content: row.calendar.content, filename: 'invite.ics' } : undefined,
			attachments,
			signal: deadline,
		})
	} catch (error) {
		if (deadline.aborted) throw failure(`SMTP: no complete answer within ${deps.config.smtpTimeout} s (SMTP_TIMEOUT)`, false)
		const e = error as { responseCode?: number; message?: string; code?: string }
		// 5xx answers are permanent (unknown mailbox, message refused); anything else is worth retrying.
		const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500
		// The server's own words go to the row only: they name the recipient's address. A log line says
		// the status, the enhanced status code (RFC 3463) and nodemailer's error code.
		const enhanced = /\b[245]\.\d{1,3}\.\d{1,3}\b/.exec(e.message ?? '')?.[0]
		const code = typeof e.code === 'string' && /^[A-Z0-9_]{1,32}$/.test(e.code) ? e.code : undefined
		const logged = [e.responseCode, enhanced, code].filter(Boolean).join(' ') || 'sending failed'
		throw failure(`SMTP: ${e.responseCode ? `${e.responseCode} ` : ''}${e.message ?? e.code ?? 'sending failed'}`, permanent, `SMTP: ${logged}`)
	}
}
