/**
 * The tables this module owns. `npm run db:generate` turns a change here into a migration; other
 * modules never query these tables, they call this module's `index.ts` instead.
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../../../modules/auth/table.ts'

/** One entry of sample module. Everything belongs to a workspace, so every query filters by it. */
export const sampleModule = pgTable(
	'sample_module',
	{
		/** Opaque, prefixed id (`newId('sample_module')`). */
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		title: text('title').notNull(),
		/** Null when the demo seed wrote it. */
		createdByUserId: text('created_by_user_id').references(() => users.id),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	// The list reads one workspace newest first: this index serves it (and its paging) without a sort.
	(t) => [index('sample_module_list').on(t.workspaceId, t.createdAt, t.id)],
)
