import { sql } from 'drizzle-orm'
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * Something a person should know about (`mention`: a colleague mentioned them in a note). It holds
 * ids only, never the text: the names are read when it is shown, so an erased record leaves no copy.
 */
export const notifications = pgTable(
	'notifications',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		kind: text('kind').notNull(),
		/** Who caused it (null for the system). */
		actorUserId: text('actor_user_id').references(() => users.id),
		/** The record it is about, as the activity log names records (`candidate`, `application`…). */
		recordType: text('record_type').notNull(),
		recordId: text('record_id').notNull(),
		/** Ids that say where on the record (a note's id): never free text. */
		detail: jsonb('detail').$type<Record<string, string | null>>().notNull().default({}),
		createdAt: at('created_at').notNull().defaultNow(),
		readAt: at('read_at'),
		/** Insertion order, the tie-break of notifications of the same millisecond (written by the database). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [
		index('notifications_person').on(t.workspaceId, t.userId, t.createdAt.desc(), t.seq.desc()),
		index('notifications_unread').on(t.workspaceId, t.userId).where(sql`read_at is null`),
	],
)

/** A person's choice of the daily e-mail digest in a workspace, and the day it was last sent (in their zone). */
export const notificationSettings = pgTable(
	'notification_settings',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		dailyDigest: boolean('daily_digest').notNull().default(false),
		/** `YYYY-MM-DD` in the person's zone: at most one digest a day, whatever the clock does. */
		lastDigestDay: text('last_digest_day'),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('notification_settings_digest').on(t.dailyDigest).where(sql`daily_digest`)],
)
