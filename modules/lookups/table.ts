import { sql } from 'drizzle-orm'
import { check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'

/**
 * The workspace's staffing lookup values: the vendors, implementation partners and clients its
 * people pick from. A removed value keeps its row (`removedAt`), so paging cursors stay valid and
 * the name can be added again.
 */
export const staffingLookups = pgTable(
	'staffing_lookups',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		/** vendor, implementation_partner or client. */
		kind: text('kind').notNull(),
		name: text('name').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [
		uniqueIndex('staffing_lookups_live_name').on(t.workspaceId, t.kind, sql`lower(${t.name})`).where(sql`${t.removedAt} is null`),
		index('staffing_lookups_order').on(t.workspaceId, t.kind, sql`lower(${t.name})`, t.id),
		check('staffing_lookups_kind_valid', sql`${t.kind} in ('vendor', 'implementation_partner', 'client')`),
	],
)
