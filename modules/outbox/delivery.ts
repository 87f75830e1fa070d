/**
 * What the worker hands a channel (mail.ts, messaging.ts) and what a channel throws back. Kept apart
 * from the worker so that the channels do not import the worker that imports them.
 */
import type { OutboxAttachment, OutboxCalendar } from './table.ts'

export interface ClaimedRow {
	id: string
	channel: 'email' | 'message'
	to: string
	subject: string | null
	text: string
	html: string | null
	attachments: OutboxAttachment[]
	messageId: string | null
	attempts: number
	carriesPrivate: boolean
	privateSealed: string | null
	workspaceId: string
	recipientType: string | null
	recipientId: string | null
	marketing: boolean
	calendar: OutboxCalendar | null
}

/**
 * A failed delivery; `permanent` failures are not retried. `message` is kept in the row's `last_error`
 * and may hold an outside service's own words (an SMTP server's reply names the recipient's address, a
 * messaging provider's the phone number); `logged` is what a log line may say: our own words, status
 * codes and error codes only. Without it, `message` is taken to be our own words.
 */
export interface DeliveryError extends Error {
	permanent: boolean
	logged?: string
	/** Not attempted: the row is recorded `not_sent` with the message (a recipient who unsubscribed). */
	notSent?: boolean
}

export const deliveryError = (message: string, permanent: boolean, logged?: string): DeliveryError =>
	Object.assign(new Error(message), { permanent }, logged === undefined ? {} : { logged })
export const isDeliveryError = (error: unknown): error is DeliveryError =>
	error instanceof Error && typeof (error as Partial<DeliveryError>).permanent === 'boolean'
