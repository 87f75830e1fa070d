import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'

export interface OutboxAttachment {
	/** File name shown to the recipient. */
	filename: string
	contentType: string
	/** Key of the stored file in the file store (`core/files.ts`, under DATA_DIR/files). */
	path: string
}

/** An iCalendar invitation sent with an e-mail (`METHOD:REQUEST` or `METHOD:CANCEL`): calendar apps offer to accept it. */
export interface OutboxCalendar {
	method: 'REQUEST' | 'CANCEL'
	/** The whole VCALENDAR text. */
	content: string
}

/**
 * Durable outbox for everything the portal sends (e-mail and messaging-app messages). Rows are
 * written in the same transaction as the change that causes them and delivered by a worker that
 * retries with backoff; a failure that persists stays visible (`failed`, `lastError`).
 */
export const outbox = pgTable(
	'outbox',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		/** email or message. */
		channel: text('channel').notNull(),
		to: text('to').notNull(),
		subject: text('subject'),
		text: text('text').notNull(),
		html: text('html'),
		attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
		/** What caused it, e.g. { type: 'application', id } — the inbox threads messages with it. */
		relatedType: text('related_type'),
		relatedId: text('related_id'),
		/**
		 * Whom it is for, e.g. { type: 'candidate', id }: the inbox files it in that person's
		 * conversation. An address alone cannot say (two candidates may share a phone number).
		 */
		recipientType: text('recipient_type'),
		recipientId: text('recipient_id'),
		/**
		 * The person it is sent for (a document request, a submission, an invitation they made): the
		 * inbox's copy is their message (`self` to them, a colleague's to others). Null: the portal's own.
		 */
		sentByUserId: text('sent_by_user_id').references(() => users.id),
		/** Message-ID header of the e-mail (for threading replies). */
		messageId: text('message_id'),
		/**
		 * The text had a value only the recipient may see (an upload link): `text` shows a marker in its
		 * place, and `privateSealed` holds it sealed until the row is sent or given up on (`private.ts`).
		 */
		carriesPrivate: boolean('carries_private').notNull().default(false),
		/** That value sealed with a key derived from the server secret; erased (null) after the final outcome. */
		privateSealed: text('private_sealed'),
		/**
		 * The private value may be shown to an owner or admin while the row is held in the dev mailbox
		 * (a candidate's upload link, so the upload page can be tried without a mail catcher); never a
		 * credential to someone's account (a password reset link).
		 */
		privateRevealable: boolean('private_revealable').notNull().default(false),
		/**
		 * Queued while `SMTP_URL` was not set: it stays in the dev mailbox and is never sent, even once
		 * SMTP_URL is set, unless an operator releases it (`outbox release`).
		 */
		held: boolean('held').notNull().default(false),
		/**
		 * A marketing-type message (a job alert): it carries `List-Unsubscribe` and is not sent to a
		 * recipient who unsubscribed. Transactional mail (a reply, an invitation) never does.
		 */
		marketing: boolean('marketing').notNull().default(false),
		/** An invitation sent with the e-mail (nodemailer's `icalEvent`: a text/calendar part and an `invite.ics` attachment). */
		calendar: jsonb('calendar').$type<OutboxCalendar>(),
		/** pending, sending, sent, failed, not_sent. */
		status: text('status').notNull().default('pending'),
		attempts: integer('attempts').notNull().default(0),
		nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
		lastError: text('last_error'),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		sentAt: timestamp('sent_at', { withTimezone: true }),
		/**
		 * When a delivery report said this sent e-mail could not be delivered (`recordBounce`): the
		 * outbox page shows it "Not delivered" rather than sent. Null: no such report.
		 */
		bouncedAt: timestamp('bounced_at', { withTimezone: true, precision: 3 }),
		/** What that report gave as the reason (its Diagnostic-Code or Status): text from outside, shown escaped. */
		bounceReason: text('bounce_reason'),
		/**
		 * Insertion order, the tie-break of rows with the same time (`createdAt` has milliseconds, and rows
		 * queued in one transaction share `nextAttemptAt`): ids are random. Written by the database, never in an insert.
		 */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [
		index('outbox_due').on(t.status, t.nextAttemptAt, t.seq),
		index('outbox_workspace_created').on(t.workspaceId, t.createdAt.desc(), t.seq.desc()),
		index('outbox_related').on(t.relatedType, t.relatedId),
	],
)

/**
 * Recipients who unsubscribed from marketing-type messages (job alerts), by the link in those
 * messages or their `List-Unsubscribe` header: such messages to them are recorded as not sent.
 */
export const outboxUnsubscribes = pgTable(
	'outbox_unsubscribes',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		/**
		 * candidate, or job_alert (a careers-site alert's subscriber): the alert is deleted as they
		 * unsubscribe, and this row with it (careers alerts.ts), so only candidates' stay.
		 */
		recipientType: text('recipient_type').notNull(),
		recipientId: text('recipient_id').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.recipientType, t.recipientId] })],
)
