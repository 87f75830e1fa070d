import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The audit trail: who read what, through which door and app. Tool calls (every one, refused and
 * failed included), portal views of a candidate's, an application's or a document's page, and
 * searches of the candidate database (41 CFR 60-1.12). Changes stay in the activity log. Names are
 * snapshots taken at the time, like the activity log's; `seq` orders lines of one millisecond.
 */
export const auditLog = pgTable(
	'audit_log',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id').notNull(),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
		/** `tool_call`, `view` or `search`. */
		kind: text('kind').notNull(),
		/** The tool's name (`list_candidates`) or the event (`candidate.viewed`, `candidates.searched`). */
		action: text('action').notNull(),
		/** `ok`, `refused` (the role may not, or the record is out of reach) or `error`. */
		outcome: text('outcome').notNull(),
		actorUserId: text('actor_user_id'),
		actorName: text('actor_name').notNull(),
		credentialKind: text('credential_kind').notNull(),
		credentialId: text('credential_id').notNull(),
		/** The app (OAuth client) or personal token's name; "portal session" in the browser. */
		credentialName: text('credential_name').notNull(),
		/** The ids of the records the call returned or changed, or the page showed. */
		recordIds: text('record_ids').array().notNull(),
		/** A search's criteria (what was typed, the filters); null otherwise. */
		criteria: jsonb('criteria').$type<Record<string, unknown>>(),
		/** The job a search was made for, when it named one. */
		jobId: text('job_id'),
		address: text('address').notNull(),
	},
	(t) => [
		index('audit_log_workspace_at').on(t.workspaceId, t.at.desc(), t.seq.desc()),
		index('audit_log_records').using('gin', t.recordIds),
		// The retention sweep deletes by age across workspaces.
		index('audit_log_at').on(t.at),
	],
)
