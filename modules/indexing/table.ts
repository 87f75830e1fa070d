import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

/**
 * Job pages waiting to be announced to a search engine (`indexnow` or `google`): one row per page and
 * target, so a job changed three times in a second is announced once, with its latest `action`
 * (`updated`, or `deleted` once it is closed). `version` grows at each change: the worker removes a
 * row after sending only if it was not changed meanwhile.
 */
export const indexingNotices = pgTable(
	'indexing_notices',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id').notNull(),
		target: text('target').notNull(),
		url: text('url').notNull(),
		action: text('action').notNull(),
		version: integer('version').notNull().default(1),
		attempts: integer('attempts').notNull().default(0),
		nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [uniqueIndex('indexing_notices_target_url').on(t.target, t.url), index('indexing_notices_due').on(t.nextAttemptAt)],
)
