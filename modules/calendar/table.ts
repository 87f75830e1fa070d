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
		/**
		 * The address in plain text, as it was kept before addresses were sealed: emptied (null) by the
		 * app once it has sealed it (`feed-address.ts`); new rows never have it.
		 */
		url: text('url'),
		/** The address sealed with the server secret, bound to this person in this workspace. */
		urlSealed: text('url_sealed'),
		/** A keyed hash of the address (HMAC under the server secret): to compare addresses without reading them. */
		urlHash: text('url_hash'),
		/** What pages show: the host and the last few characters. */
		urlHint: text('url_hint'),
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
