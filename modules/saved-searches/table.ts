import { sql } from 'drizzle-orm'
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'

/** A person's named search on one of the portal's lists; names are unique per person and list (any case). */
export const savedSearches = pgTable(
	'saved_searches',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		/** candidates, bench, jobs, applications, pipeline, assessments, inbox, vendors, privacy, accounts. */
		list: text('list').notNull(),
		name: text('name').notNull(),
		/** The search text. */
		query: text('query').notNull().default(''),
		/** Filters of the list, e.g. { status: 'Open' }. */
		filters: jsonb('filters').$type<Record<string, string>>().notNull().default({}),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('saved_searches_name').on(t.workspaceId, t.userId, t.list, sql`lower(${t.name})`),
		index('saved_searches_person').on(t.workspaceId, t.userId, t.list),
	],
)
