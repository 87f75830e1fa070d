import { bigint, customType, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

/**
 * A 64-bit transaction id (`xid8`). Read as text (it may pass 2^53), compared in SQL only.
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })

/**
 * Domain events: what happened, for machines (webhooks, search-engine pings, notifications). Written in
 * the same transaction as the change that caused it. `data` holds record ids and enumerations only, never
 * free text: erasing a person then leaves nothing about them here.
 *
 * Consumers read events in `(txid, seq)` order, and only those of transactions older than every
 * transaction still running (`pg_snapshot_xmin`): an event committed late by a long transaction can
 * never fall behind a consumer's position (see consumers.ts).
 */
export const events = pgTable(
	'events',
	{
		/** Insertion order within a transaction (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().primaryKey(),
		/** `evt_…`: the event's identity, kept by every consumer (a webhook's `webhook-id` derives from it). */
		id: text('id').notNull().unique(),
		/** The writing transaction. */
		txid: xid8('txid').notNull().default(sql`pg_current_xact_id()`),
		workspaceId: text('workspace_id').notNull(),
		/** Declared by the module that owns the record, e.g. `job.published`. */
		type: text('type').notNull(),
		data: jsonb('data').$type<Record<string, unknown>>().notNull(),
		/** Who acted: the credential's kind (`session`, `token`, `oauth`, `vendor_key`, `public`, `operator`…) and the person or vendor. */
		actorKind: text('actor_kind').notNull(),
		actorUserId: text('actor_user_id'),
		actorVendorId: text('actor_vendor_id'),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [index('events_position').on(t.txid, t.seq), index('events_at').on(t.at)],
)

/** Each consumer's position: the last event it has handled, in `(txid, seq)` order. */
export const eventConsumers = pgTable('event_consumers', {
	name: text('name').primaryKey(),
	txid: xid8('txid').notNull().default(sql`'0'::xid8`),
	seq: bigint('seq', { mode: 'number' }).notNull().default(0),
	/** The last failure of its handler (cleared by the next success): the batch is tried again. */
	lastError: text('last_error'),
	failingSince: timestamp('failing_since', { withTimezone: true }),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
