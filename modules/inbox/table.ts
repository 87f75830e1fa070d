import { sql } from 'drizzle-orm'
import { bigint, boolean, customType, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { candidates } from '../candidates/table.ts'
import { vendors } from '../vendors/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/**
 * A conversation with one counterpart: a candidate, a vendor, or an address we know nothing else
 * about (`counterpartKey` is `candidate:<id>`, `vendor:<id>` or `address:<address>`).
 */
export const inboxThreads = pgTable(
	'inbox_threads',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		counterpartKey: text('counterpart_key').notNull(),
		/** candidate, vendor or other. */
		counterpartType: text('counterpart_type').notNull(),
		candidateId: text('candidate_id').references(() => candidates.id),
		vendorId: text('vendor_id').references(() => vendors.id),
		counterpartName: text('counterpart_name').notNull(),
		/** E-mail address or phone number last used. */
		counterpartAddress: text('counterpart_address').notNull(),
		subject: text('subject').notNull(),
		messageCount: integer('message_count').notNull().default(0),
		lastMessageAt: at('last_message_at').notNull(),
		/**
		 * When the counterpart themselves last wrote (from their own address): the review queue's
		 * "wrote back". Unread for a person whose read time is older than it or `lastOutsideAt`.
		 */
		lastInboundAt: at('last_inbound_at'),
		/** When someone else last wrote in the thread (answering our mail to the counterpart from another address). */
		lastOutsideAt: at('last_outside_at'),
		/** The start of the latest message, one line. */
		snippet: text('snippet').notNull().default(''),
		/** in or out: who wrote the latest message (the snippet): the counterpart or our side. Null before the first. */
		lastMessageDirection: text('last_message_direction'),
		/** Who wrote the snippet (a `TextAuthor`: colleague, candidate, vendor or outside). Null: as `lastMessageDirection` says. */
		snippetBy: text('snippet_by'),
		createdAt: at('created_at').notNull().defaultNow(),
		/**
		 * The name and subject as `search` finds them: they weigh like a person's name and headline.
		 * Folded, and technology names' symbols spelled as letters (`bl_terms`: "C#" is csharp), as what
		 * is asked is (core/text-search.ts).
		 */
		searchVector: tsvector('search_vector').generatedAlwaysAs(
			sql`setweight(to_tsvector('english', bl_terms(counterpart_name)), 'A') || setweight(to_tsvector('english', bl_terms(subject)), 'B')`,
		),
	},
	(t) => [
		uniqueIndex('inbox_threads_counterpart').on(t.workspaceId, t.counterpartKey),
		index('inbox_threads_recent').on(t.workspaceId, t.lastMessageAt.desc(), t.id.desc()),
		index('inbox_threads_candidate').on(t.candidateId),
		// The review queue's replies waiting (contributions.ts): candidates' replies oldest first, in the byte order of ids the merged sources page by.
		index('inbox_threads_inbound').on(t.workspaceId, t.lastInboundAt, sql`id collate "C"`).where(sql`candidate_id is not null and last_inbound_at is not null`),
		// The search's address branch (contributions.ts). The trigram indexes on the name and subject: migration 0006.
		index('inbox_threads_address').on(t.workspaceId, sql`lower(counterpart_address)`),
		index('inbox_threads_search').using('gin', t.searchVector),
	],
)

/** One message of a thread: sent by the portal (copied from the outbox) or received (inbound webhook). */
export const inboxMessages = pgTable(
	'inbox_messages',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		threadId: text('thread_id')
			.notNull()
			.references(() => inboxThreads.id),
		/** out or in. */
		direction: text('direction').notNull(),
		/** email or message. */
		channel: text('channel').notNull(),
		fromAddress: text('from_address').notNull(),
		/**
		 * Who wrote a received message, as its own From says (a `TextAuthor`): candidate or vendor only
		 * when it came from that person's own address, else outside. Null for what we sent (colleague).
		 */
		writtenBy: text('written_by'),
		toAddress: text('to_address').notNull(),
		subject: text('subject'),
		text: text('text').notNull(),
		/** RFC 822 Message-ID, angle brackets included. */
		messageId: text('message_id'),
		inReplyTo: text('in_reply_to'),
		/** The outbox row it was copied from (each is copied once). */
		outboxId: text('outbox_id'),
		relatedType: text('related_type'),
		relatedId: text('related_id'),
		sentByUserId: text('sent_by_user_id').references(() => users.id),
		/**
		 * For a received message, whether its From was verified by the receiving mail server's results
		 * (`authentication-results.ts`): verified or not_verified; null when senders are not checked
		 * (`INBOUND_MAIL_AUTHSERV_ID` unset, or received before they were).
		 */
		senderCheck: text('sender_check'),
		/** Why, in our own words (never text of the message). */
		senderCheckReason: text('sender_check_reason'),
		/** A received message no person wrote (`automatic.ts`): automatic (an auto-reply, list or bulk mail) or delivery_report. */
		automatic: text('automatic'),
		/** For a message we sent: when a delivery report said it could not be delivered. */
		bouncedAt: at('bounced_at'),
		at: at('at').notNull().defaultNow(),
		/**
		 * Insertion order, the tie-break of messages with the same `at` (milliseconds): ids are random.
		 * Written by the database, never in an insert.
		 */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
		search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('english', bl_terms(coalesce(subject, '') || ' ' || text))`),
	},
	(t) => [
		index('inbox_messages_thread').on(t.threadId, t.at, t.seq),
		uniqueIndex('inbox_messages_message_id').on(t.workspaceId, t.messageId),
		index('inbox_messages_message_id_any').on(t.messageId),
		uniqueIndex('inbox_messages_outbox').on(t.outboxId),
		index('inbox_messages_synced').on(t.workspaceId, t.at).where(sql`outbox_id is not null`),
		index('inbox_messages_related').on(t.relatedType, t.relatedId),
		index('inbox_messages_search').using('gin', t.search),
	],
)

/** A person's state of a thread: when they last read it, and whether they starred it. */
export const inboxStates = pgTable(
	'inbox_states',
	{
		threadId: text('thread_id')
			.notNull()
			.references(() => inboxThreads.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		readAt: at('read_at'),
		starred: boolean('starred').notNull().default(false),
	},
	(t) => [primaryKey({ columns: [t.threadId, t.userId] }), index('inbox_states_starred').on(t.userId).where(sql`starred`)],
)
