/**
 * Sending mail and messages: callers enqueue inside their own transaction; delivery happens later
 * (see `worker.ts`), so a down SMTP server or provider loses nothing.
 */
import { newId } from '../../core/credentials.ts'
import type { Db } from '../../db/client.ts'
import { outbox, type OutboxAttachment } from './table.ts'

export interface NewMail {
	workspaceId: string
	to: string
	subject: string
	text: string
	html?: string
	attachments?: OutboxAttachment[]
	related?: { type: string; id: string }
}

/** Puts an e-mail in the outbox; returns its id and Message-ID. Call inside the caller's transaction. */
export async function enqueueMail(db: Db, mail: NewMail, domain: string): Promise<{ id: string; messageId: string }> {
	if (/[\r\n]/.test(mail.to) || /[\r\n]/.test(mail.subject)) throw new Error('mail headers must not contain line breaks')
	const id = newId('out')
	const messageId = `<${id}@${domain}>`
	await db.insert(outbox).values({ id, workspaceId: mail.workspaceId, channel: 'email', to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null, attachments: mail.attachments ?? [], relatedType: mail.related?.type ?? null, relatedId: mail.related?.id ?? null, messageId })
	return { id, messageId }
}

export interface NewMessage {
	workspaceId: string
	/** Phone number (E.164) or the provider's address for the person. */
	to: string
	text: string
	related?: { type: string; id: string }
}

/** Puts a messaging-app message in the outbox. Call inside the caller's transaction. */
export async function enqueueMessage(db: Db, message: NewMessage): Promise<{ id: string }> {
	const id = newId('out')
	await db.insert(outbox).values({ id, workspaceId: message.workspaceId, channel: 'message', to: message.to, text: message.text, relatedType: message.related?.type ?? null, relatedId: message.related?.id ?? null })
	return { id }
}
