import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Every change made through any door. Names are snapshots taken at the time of the change
 * (the person, the token or app name), so renaming or revoking later does not rewrite history.
 * Lines are read in `(at, seq)` order: `seq` numbers them in insertion order, so two lines written
 * in the same millisecond keep the order they were written in (the random id would not).
 */
export const activity = pgTable(
	'activity',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id').notNull(),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		/** Insertion order, the tie-break of `at` (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
		actorUserId: text('actor_user_id'),
		actorVendorId: text('actor_vendor_id'),
		actorName: text('actor_name').notNull(),
		credentialKind: text('credential_kind').notNull(),
		credentialId: text('credential_id').notNull(),
		credentialName: text('credential_name').notNull(),
		action: text('action').notNull(),
		targetType: text('target_type').notNull(),
		targetId: text('target_id').notNull(),
		detail: jsonb('detail').$type<Record<string, unknown>>(),
	},
	(t) => [
		index('activity_workspace_at').on(t.workspaceId, t.at.desc(), t.seq.desc()),
		index('activity_target').on(t.targetType, t.targetId),
		// The filters of /activity (one person, one record type), newest first, and their choices.
		index('activity_workspace_actor_at').on(t.workspaceId, t.actorUserId, t.at.desc(), t.seq.desc()),
		index('activity_workspace_type_at').on(t.workspaceId, t.targetType, t.at.desc(), t.seq.desc()),
	],
)
