/** Tables owned by the platform itself rather than by a domain module. */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Server-wide settings shared by every instance (e.g. the HMAC secret). */
export const serverSettings = pgTable('server_settings', {
	key: text('key').primaryKey(),
	value: text('value').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})

/**
 * Secrets waiting to be shown once (core/http/reveal-cookie.ts): a row per secret sealed for the
 * page after a redirect. Showing it deletes the row, so the same sealed cookie sent again shows
 * nothing: "shown once" is recorded here, not only by clearing the cookie (issue 26).
 */
export const pendingReveals = pgTable(
	'pending_reveals',
	{
		id: text('id').primaryKey(),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
	},
	(t) => [index('pending_reveals_expires').on(t.expiresAt)],
)
