import { sql } from 'drizzle-orm'
import { check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'
import { jobs } from '../jobs/table.ts'

/** One careers-site event: a job page viewed or an application sent, with where the visitor came from. */
export const careersEvents = pgTable(
	'careers_events',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
		jobId: text('job_id').notNull().references(() => jobs.id),
		/** view or application. */
		kind: text('kind').notNull(),
		/** utm_source, else the referring site (linkedin, google, …), else `direct`. */
		source: text('source').notNull(),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [index('careers_events_workspace_at').on(t.workspaceId, t.at), index('careers_events_job_at').on(t.jobId, t.at), check('careers_events_kind_valid', sql`${t.kind} in ('view', 'application')`)],
)
