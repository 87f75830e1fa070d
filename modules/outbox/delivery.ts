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

/** A failed delivery; `permanent` failures are not retried. */
export interface DeliveryError extends Error {
	permanent: boolean
}

export const deliveryError = (message: string, permanent: boolean): DeliveryError => Object.assign(new Error(message), { permanent })
export const isDeliveryError = (error: unknown): error is DeliveryError =>
	error instanceof Error && typeof (error as Partial<DeliveryError>).permanent === 'boolean'
