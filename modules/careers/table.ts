import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * Job alerts of the careers site: a person (no account) asked to get new jobs matching a search by
 * e-mail. `pending` until they open the confirmation link (double opt-in: nothing else is sent
 * before); `active` after. `digestedThrough` is the time up to which new jobs were considered for
 * them (their confirmation, then each digest's run): the next digest holds jobs published after it.
 * Unsubscribing removes the row, and deleting one stops its digests still queued and takes the
 * outbox's record of its unsubscribe with it (alerts.ts, `deleteAlerts`).
 */
export const jobAlerts = pgTable(
	'job_alerts',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		/** Lower case, as typed otherwise. */
		email: text('email').notNull(),
		/** The search: keywords, location, remote only, employment type ('' for none). */
		q: text('q').notNull().default(''),
		location: text('location').notNull().default(''),
		remote: boolean('remote').notNull().default(false),
		type: text('type').notNull().default(''),
		/** pending or active. */
		status: text('status').notNull().default('pending'),
		/** SHA-256 of the confirmation link's token (never the token): null once confirmed. */
		confirmHash: text('confirm_hash'),
		/** When the confirmation link stops working; a pending alert past it is deleted by the sweep. */
		confirmExpiresAt: at('confirm_expires_at'),
		createdAt: at('created_at').notNull().defaultNow(),
		confirmedAt: at('confirmed_at'),
		digestedThrough: at('digested_through'),
		/** When the last digest was queued: the next comes a day later at the soonest. */
		lastSentAt: at('last_sent_at'),
	},
	(t) => [
		uniqueIndex('job_alerts_confirm_hash').on(t.confirmHash),
		index('job_alerts_workspace_email').on(t.workspaceId, t.email),
		index('job_alerts_due').on(t.status, t.lastSentAt),
	],
)

/**
 * Where each job location text is, as `jobPlace` reads it (the one reading the job page, its JobPosting
 * data and the feeds show), stored so the careers search filters on the same answer in SQL instead of
 * a second reading of the text. Keyed by the text itself (many jobs share one), and by the version of
 * the reading (`PLACE_RULE`): a row of an older rule is read again. Filled before each search from the
 * workspace's open jobs' locations not yet read (modules/careers/places.ts), whoever wrote the job.
 */
export const jobLocationPlaces = pgTable('job_location_places', {
	location: text('location').primaryKey(),
	rule: integer('rule').notNull(),
	/** The town, as a key: lower case, spaces of any kind as one (`placeKey`). */
	locality: text('locality'),
	/** USPS state code, or the region as written abroad, as a key. */
	region: text('region'),
	/** ISO 3166-1 alpha-2. */
	country: text('country'),
})
