/** The e-mail channel: nodemailer over `SMTP_URL`, attachments read from the file store. */
import nodemailer, { type Transporter } from 'nodemailer'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import type { ClaimedRow, DeliveryError } from './worker.ts'

const transports = new Map<string, Transporter>()

function transportFor(smtpUrl: string): Transporter {
	let transport = transports.get(smtpUrl)
	if (!transport) {
		// No pool: every message opens its own connection, so a restarted SMTP server is picked up at once.
		transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
		transports.set(smtpUrl, transport)
	}
	return transport
}

/** Sends one outbox e-mail; throws a `DeliveryError`-shaped error on failure. */
export async function sendMail(deps: AppDeps, row: ClaimedRow): Promise<void> {
	const smtpUrl = deps.config.smtpUrl
	if (!smtpUrl) throw failure('SMTP_URL is not set', false)
	const store = fileStore(deps.config)
	const attachments = []
	for (const a of row.attachments) {
		const content = await store.get(a.path)
		// A file that is gone will not come back: retrying cannot help.
		if (!content) throw failure(`the attachment "${a.filename}" is missing from the file store`, true)
		attachments.push({ filename: a.filename, contentType: a.contentType, content: Buffer.from(content) })
	}
	try {
		await transportFor(smtpUrl).sendMail({
			from: deps.config.mailFrom,
			to: row.to,
			subject: row.subject ?? '',
			text: row.text,
			html: row.html ?? undefined,
			messageId: row.messageId ?? undefined,
			attachments,
		})
	} catch (error) {
		const e = error as { responseCode?: number; message?: string; code?: string }
		// 5xx answers are permanent (unknown mailbox, message refused); anything else is worth retrying.
		const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500
		throw failure(`SMTP: ${e.responseCode ? `${e.responseCode} ` : ''}${e.message ?? e.code ?? 'sending failed'}`, permanent)
	}
}

function failure(message: string, permanent: boolean): DeliveryError {
	return Object.assign(new Error(message), { permanent })
}
