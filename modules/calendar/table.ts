import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/** A person's external calendar: the iCalendar feed address they set, refreshed periodically. */
export const calendarFeeds = pgTable(
	'calendar_feeds',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		url: text('url').notNull(),
		/** pending, ok, error. */
		status: text('status').notNull().default('pending'),
		lastError: text('last_error'),
		lastFetchedAt: at('last_fetched_at'),
		nextRefreshAt: at('next_refresh_at').notNull().defaultNow(),
		busyCount: integer('busy_count').notNull().default(0),
		createdAt: at('created_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('calendar_feeds_due').on(t.nextRefreshAt)],
)

/** Busy times read from a person's feed: only when, never what (titles are not stored). */
export const calendarBusy = pgTable(
	'calendar_busy',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		startsAt: at('starts_at').notNull(),
		endsAt: at('ends_at').notNull(),
		allDay: boolean('all_day').notNull().default(false),
	},
	(t) => [index('calendar_busy_person').on(t.workspaceId, t.userId, t.startsAt), index('calendar_busy_workspace').on(t.workspaceId, t.startsAt)],
)
