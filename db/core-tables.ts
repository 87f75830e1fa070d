/** Tables owned by the platform itself rather than by a domain module. */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Server-wide settings shared by every instance (e.g. the HMAC secret). */
export const serverSettings = pgTable('server_settings', {
	key: text('key').primaryKey(),
	value: text('value').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})
