/**
 * Sending mail and messages: callers enqueue inside their own transaction; delivery happens later
 * (see `worker.ts`), so a down SMTP server or provider loses nothing.
 */
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { cleanText } from '../../core/untrusted.ts'
import { keysetPage, newestWrittenFirst } from '../../core/paging.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { contributionsTo } from '../../core/registry.ts'
import { footerFor, privacyLineFor, unsubscribeUrl, withFooter } from './footer.ts'
import { unsubscribedPort } from './port.ts'
import { sealPrivate, type RecipientOnly } from './private.ts'
import { outbox, outboxUnsubscribes, type OutboxAttachment, type OutboxCalendar } from './table.ts'

export interface NewMail {
	workspaceId: string
	to: string
	subject: string
	text: string
	html?: string
	attachments?: OutboxAttachment[]
	related?: { type: string; id: string }
	/** Whom it is for (a candidate, a vendor): the inbox files it in their conversation whatever the address. */
	recipient?: Recipient
	/** A value in `text` only the recipient may see (an upload link): kept sealed, never in plain text (`private.ts`). */
	recipientOnly?: RecipientOnly
	/**
	 * A marketing-type message (a job alert): it needs a candidate `recipient`, carries
	 * `List-Unsubscribe` and an unsubscribe line, and is recorded as not sent to one who unsubscribed.
	 */
	marketing?: boolean
	/** An iCalendar invitation or cancellation sent with it. */
	calendar?: OutboxCalendar
	/** The person it is sent for (a document request, a submission, an invitation they made); omitted: the portal's own mail. */
	sentBy?: string | null
}

/** The person or organisation a message is for; `job_alert`: a careers-site job alert's subscriber (its id is the alert's). */
export interface Recipient {
	type: 'candidate' | 'vendor' | 'job_alert'
	id: string
}

/** Recipients who get the firm's footer, and whose marketing mail carries their own unsubscribe link: people, not vendors. */
export const PERSON_RECIPIENTS: readonly string[] = ['candidate', 'job_alert']

/** What sending needs of the app: settings, the modules (the firm's footer) and the secret (unsubscribe addresses). */
export type SendingDeps = Pick<AppDeps, 'config' | 'registry' | 'secret'>

export const UNSUBSCRIBED = 'The candidate unsubscribed from job alerts and other marketing messages'

async function unsubscribed(db: Db, workspaceId: string, recipient: Recipient): Promise<boolean> {
	const [row] = await db
		.select({ id: outboxUnsubscribes.recipientId })
		.from(outboxUnsubscribes)
		.where(
			and(
				eq(outboxUnsubscribes.workspaceId, workspaceId),
				eq(outboxUnsubscribes.recipientType, recipient.type),
				eq(outboxUnsubscribes.recipientId, recipient.id),
			),
		)
	return Boolean(row)
}

/**
 * The text as it goes out: a candidate's message ends with the firm's footer, the line to the page
 * where they ask for their data or its erasure, and a marketing one with the line to unsubscribe (also in the `List-Unsubscribe` header, mail.ts).
 */
async function textFor(
	deps: SendingDeps,
	db: Db,
	workspaceId: string,
	channel: 'email' | 'text',
	text: string,
	recipient: Recipient | undefined,
	marketing: boolean,
) {
	if (!recipient || !PERSON_RECIPIENTS.includes(recipient.type)) return text
	const footer = await footerFor(deps, db, workspaceId, channel)
	const privacy = await privacyLineFor(deps, db, workspaceId, channel)
	const unsubscribe = marketing ? `Unsubscribe from job alerts: ${unsubscribeUrl(deps, workspaceId, recipient)}` : ''
	return withFooter(text, [footer, privacy, unsubscribe].filter(Boolean).join('\n'), channel)
}

/**
 * The subject on one line: each run of line breaks (and the spaces around it) becomes one space. Then
 * what is not text goes (`cleanText`: other control characters, direction overrides, half
 * characters): nodemailer encodes them, but a reader showed an ESC's colours or a reversed name, and
 * a NUL could not be stored at all.
 */
const oneLineSubject = (subject: string) => cleanText(subject.replace(/\s*[\r\n\u0085\u2028\u2029]+\s*/g, ' '))

/**
 * Puts an e-mail in the outbox; returns its id and Message-ID. Call inside the caller's transaction.
 * Without `SMTP_URL` the mail is held in the dev mailbox: it is never sent, not even once SMTP_URL is
 * set, unless an operator releases it (`releaseHeld`), so mail written while trying things out never
 * reaches real people by surprise. A marketing mail to a candidate who unsubscribed is recorded as
 * not sent, with the reason.
 */
export async function enqueueMail(
	db: Db,
	mail: NewMail,
	deps: SendingDeps,
): Promise<{ id: string; messageId: string; held: boolean; status: 'pending' | 'not_sent' }> {
	if (/[\r\n]/.test(mail.to)) throw new Error('mail headers must not contain line breaks')
	// A subject is one line. Callers build it from stored text (a job title or a name saved before a
	// one-line rule existed): a line break there becomes a space, never a second header or a lost mail.
	mail = { ...mail, subject: oneLineSubject(mail.subject) }
	if (mail.marketing && !PERSON_RECIPIENTS.includes(mail.recipient?.type ?? ''))
		throw new Error('a marketing message goes to a candidate or a job alert’s subscriber (its unsubscribe link is theirs)')
	const id = newId('out')
	const messageId = `<${id}@${new URL(deps.config.baseUrl).hostname}>`
	const held = !deps.config.smtpUrl
	const notSent = mail.marketing && (await unsubscribed(db, mail.workspaceId, mail.recipient!)) ? UNSUBSCRIBED : null
	const body = await textFor(deps, db, mail.workspaceId, 'email', mail.text, mail.recipient, Boolean(mail.marketing))
	const text = mail.recipientOnly ? await sealPrivate(id, body, mail.recipientOnly, [mail.subject, mail.html]) : { text: body, sealed: null }
	await db.insert(outbox).values({
		id,
		workspaceId: mail.workspaceId,
		channel: 'email',
		to: mail.to,
		subject: mail.subject,
		text: text.text,
		html: mail.html ?? null,
		attachments: mail.attachments ?? [],
		relatedType: mail.related?.type ?? null,
		relatedId: mail.related?.id ?? null,
		recipientType: mail.recipient?.type ?? null,
		recipientId: mail.recipient?.id ?? null,
		sentByUserId: mail.sentBy ?? null,
		messageId,
		carriesPrivate: Boolean(mail.recipientOnly),
		privateSealed: notSent ? null : text.sealed,
		privateRevealable: Boolean(mail.recipientOnly?.revealable),
		held,
		marketing: Boolean(mail.marketing),
		calendar: mail.calendar ?? null,
		...(notSent ? { status: 'not_sent', lastError: notSent } : {}),
	})
	return { id, messageId, held, status: notSent ? 'not_sent' : 'pending' }
}

export interface NewMessage {
	workspaceId: string
	/** Phone number (E.164) or the provider's address for the person. */
	to: string
	text: string
	related?: { type: string; id: string }
	/** Whom it is for (a candidate): the inbox files it in their conversation, even when others share the number. */
	recipient?: Recipient
	/**
	 * Why the message cannot be sent (no provider configured, no phone number): it is then recorded
	 * as `not_sent` with this reason instead of being queued, so the record says what happened.
	 */
	notSent?: string
	/** A value in `text` only the recipient may see (an upload link): kept sealed, never in plain text (`private.ts`). */
	recipientOnly?: RecipientOnly
	/** The person it is sent for (a document request they made); omitted: the portal's own message. */
	sentBy?: string | null
}

/** Puts a messaging-app message in the outbox (a candidate's with the firm's footer). Call inside the caller's transaction. */
export async function enqueueMessage(db: Db, message: NewMessage, deps: SendingDeps): Promise<{ id: string; status: 'pending' | 'not_sent' }> {
	const id = newId('out')
	const status = message.notSent ? 'not_sent' : 'pending'
	const body = await textFor(deps, db, message.workspaceId, 'text', message.text, message.recipient, false)
	const text = message.recipientOnly ? await sealPrivate(id, body, message.recipientOnly) : { text: body, sealed: null }
	// A message that will not be sent keeps nothing to send: its private value is not kept even sealed.
	await db.insert(outbox).values({
		id,
		workspaceId: message.workspaceId,
		channel: 'message',
		to: message.to,
		text: text.text,
		relatedType: message.related?.type ?? null,
		relatedId: message.related?.id ?? null,
		recipientType: message.recipient?.type ?? null,
		recipientId: message.recipient?.id ?? null,
		sentByUserId: message.sentBy ?? null,
		status,
		lastError: message.notSent ?? null,
		carriesPrivate: Boolean(message.recipientOnly),
		privateSealed: status === 'pending' ? text.sealed : null,
		privateRevealable: Boolean(message.recipientOnly?.revealable),
	})
	return { id, status }
}

/** `bounced`: sent, then a delivery report said it did not arrive (bounces.ts). */
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'bounced' | 'failed' | 'not_sent'

export interface DeliveryState {
	status: DeliveryStatus
	attempts: number
	lastError: string | null
	sentAt: Date | null
}

/** A row's delivery status: its own, except a sent row a delivery report came back for, which is `bounced`. */
const deliveryStatus = sql<DeliveryStatus>`case when ${outbox.status} = 'sent' and ${outbox.bouncedAt} is not null then 'bounced' else ${outbox.status} end`

/** Delivery state of outbox rows by id (other modules show whether their mail went out). */
export async function deliveryStates(db: Db, ids: string[]): Promise<Map<string, DeliveryState>> {
	if (!ids.length) return new Map()
	const rows = await db
		.select({ id: outbox.id, status: deliveryStatus, attempts: outbox.attempts, lastError: outbox.lastError, sentAt: outbox.sentAt })
		.from(outbox)
		.where(inArray(outbox.id, [...new Set(ids)]))
	return new Map(rows.map(({ id, ...state }) => [id, state]))
}

/** A message's delivery in three words, for a line that says whether it went out: sent (and not bounced), failed (bounced, failed or not sent), or still queued. */
export function deliveryOutcome(status: DeliveryStatus | undefined): 'queued' | 'sent' | 'failed' {
	if (status === 'sent') return 'sent'
	return status === 'bounced' || status === 'failed' || status === 'not_sent' ? 'failed' : 'queued'
}

export interface OutboxRow {
	id: string
	channel: string
	to: string
	subject: string | null
	text: string
	attachments: OutboxAttachment[]
	status: string
	attempts: number
	lastError: string | null
	nextAttemptAt: Date
	createdAt: Date
	sentAt: Date | null
	/** The text had a value only the recipient may see: it shows a marker in its place. */
	carriesPrivate: boolean
	/** That value was erased (sent or given up on): the row cannot be sent again. */
	privateErased: boolean
	/** An owner or admin may reveal that value while the row is held (an upload link). */
	privateRevealable: boolean
	/** A marketing-type message (a job alert's digest): never sent to one who unsubscribed. */
	marketing: boolean
	/** Queued while SMTP_URL was unset: kept in the dev mailbox until an operator releases it (held.ts). */
	held: boolean
	/** When a delivery report said this sent e-mail did not arrive (bounces.ts); null when none did. */
	bouncedAt: Date | null
	/** That report's reason: text from outside (the remote server's words), shown escaped. */
	bounceReason: string | null
	/** The status as the page shows, filters and counts it (`OUTBOX_STATUSES`: held and bounced apart). */
	shownStatus: OutboxStatus
	/** Insertion order: the tie-break of rows created in the same millisecond (ids are random). */
	seq: number
}

/**
 * The outbox page's statuses: `held` (in the dev mailbox until released) is a pending row apart, and
 * `bounced` (sent, then a delivery report said it did not arrive: "Not delivered") a sent row apart.
 */
export const OUTBOX_STATUSES = ['held', 'pending', 'sending', 'sent', 'bounced', 'failed', 'not_sent'] as const
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]

/** A row's status as the page shows, filters and counts it (see `OUTBOX_STATUSES`): its delivery status, held rows apart. */
const shownStatus = sql<OutboxStatus>`case when ${outbox.held} and ${outbox.status} = 'pending' then 'held' else ${deliveryStatus} end`

const columns = {
	id: outbox.id,
	channel: outbox.channel,
	to: outbox.to,
	subject: outbox.subject,
	text: outbox.text,
	attachments: outbox.attachments,
	status: outbox.status,
	attempts: outbox.attempts,
	lastError: outbox.lastError,
	nextAttemptAt: outbox.nextAttemptAt,
	createdAt: outbox.createdAt,
	sentAt: outbox.sentAt,
	carriesPrivate: outbox.carriesPrivate,
	privateErased: sql<boolean>`(${outbox.carriesPrivate} and ${outbox.privateSealed} is null)`.mapWith(Boolean),
	privateRevealable: outbox.privateRevealable,
	marketing: outbox.marketing,
	held: outbox.held,
	bouncedAt: outbox.bouncedAt,
	bounceReason: outbox.bounceReason,
	shownStatus,
	seq: outbox.seq,
}

function statusIs(status: string) {
	if (status === 'held') return and(eq(outbox.status, 'pending'), eq(outbox.held, true))!
	if (status === 'pending') return and(eq(outbox.status, 'pending'), eq(outbox.held, false))!
	if (status === 'sent') return and(eq(outbox.status, 'sent'), isNull(outbox.bouncedAt))!
	if (status === 'bounced') return and(eq(outbox.status, 'sent'), isNotNull(outbox.bouncedAt))!
	return eq(outbox.status, status)
}

// Newest first; rows of the same millisecond in the reverse of the order they were queued in.
const NEWEST = newestWrittenFirst<OutboxRow>(outbox.createdAt, outbox.seq, (r) => r.createdAt)

/** The workspace's outbox, newest first (the dev mailbox and failure page); the cursor is bound to the workspace and the status. */
export async function listOutbox(deps: AppDeps, workspaceId: string, options: { limit: number; cursor?: string; status?: string }) {
	return keysetPage(deps, {
		scope: `outbox:${workspaceId}:${options.status ?? ''}`,
		cursor: options.cursor,
		limit: options.limit,
		order: NEWEST,
		read: (after, order, size) =>
			deps.db
				.select(columns)
				.from(outbox)
				.where(and(eq(outbox.workspaceId, workspaceId), options.status ? statusIs(options.status) : undefined, after))
				.orderBy(order)
				.limit(size),
	})
}

export async function getOutboxRow(db: Db, workspaceId: string, id: string): Promise<OutboxRow> {
	const [row] = await db
		.select(columns)
		.from(outbox)
		.where(and(eq(outbox.workspaceId, workspaceId), eq(outbox.id, id)))
	if (!row) throw new AppError('NOT_FOUND', 'No outbox entry with this id')
	return row
}

/** Counts by status for the workspace (the page's summary line); held rows count as `held`, not `pending`, bounced ones as `bounced`, not `sent`. */
export async function outboxCounts(db: Db, workspaceId: string): Promise<Record<string, number>> {
	const rows = await db
		.select({ status: shownStatus, n: sql<number>`count(*)::int` })
		.from(outbox)
		.where(eq(outbox.workspaceId, workspaceId))
		.groupBy(shownStatus)
	return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
}

export const PRIVATE_ERASED =
	'It carried a private link for its recipient, erased when it was given up on, so it cannot be sent again: send a new one (for an upload link, request the documents again).'

export const MARKETING_NOT_SENT =
	'A job alert (or other marketing message) that was not sent is never sent again: its recipient unsubscribed, or the alert or their data is gone. New mail goes to them only if they ask again.'

/** Why a failed or unsent entry cannot be put back in the queue (null: it can), said on its page and by `retryOutboxRow`. */
export function retryRefused(row: Pick<OutboxRow, 'status' | 'privateErased' | 'marketing'>): string | null {
	if (row.status !== 'failed' && row.status !== 'not_sent') return null
	if (row.privateErased) return PRIVATE_ERASED
	// Not sent to someone who unsubscribed, or whose alert or data was deleted: nothing stays to check a retry against.
	if (row.marketing && row.status === 'not_sent') return MARKETING_NOT_SENT
	return null
}

/** Puts a failed (or not sent) entry back in the queue, with a fresh set of attempts; not one `retryRefused` refuses. */
export async function retryOutboxRow(deps: AppDeps, actor: Actor, id: string): Promise<void> {
	await deps.db.transaction(async (tx) => {
		const updated = await tx
			.update(outbox)
			.set({ status: 'pending', attempts: 0, nextAttemptAt: deps.now(), lastError: null })
			.where(
				and(
					eq(outbox.workspaceId, actor.workspaceId),
					eq(outbox.id, id),
					inArray(outbox.status, ['failed', 'not_sent']),
					or(eq(outbox.carriesPrivate, false), isNotNull(outbox.privateSealed)),
					or(eq(outbox.marketing, false), eq(outbox.status, 'failed')),
				),
			)
			.returning({ id: outbox.id })
		if (!updated.length) {
			const row = await getOutboxRow(tx, actor.workspaceId, id)
			throw new AppError('CONFLICT', retryRefused(row) ?? 'Only a failed or unsent entry can be retried')
		}
		await recordActivity(tx, actor, { action: 'outbox.retried', targetType: 'outbox', targetId: id })
	})
}

/** Records that a recipient unsubscribed from marketing-type messages (the unsubscribe page, `List-Unsubscribe`); once is enough. */
export async function unsubscribe(deps: Pick<AppDeps, 'registry'>, db: Db, target: { workspaceId: string; type: string; id: string }): Promise<void> {
	await db.transaction(async (tx) => {
		await tx.insert(outboxUnsubscribes).values({ workspaceId: target.workspaceId, recipientType: target.type, recipientId: target.id }).onConflictDoNothing()
		// The module that keeps what was subscribed to (a job alert) forgets it.
		for (const listener of contributionsTo(deps.registry, unsubscribedPort)) await listener.unsubscribed(tx, target)
	})
}

/** Whether the recipient unsubscribed from marketing-type messages (shown before a job alert is sent). */
export const isUnsubscribed = (db: Db, workspaceId: string, recipient: Recipient) => unsubscribed(db, workspaceId, recipient)
