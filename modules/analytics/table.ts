import { sql } from 'drizzle-orm'
import { check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core'
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

/*
 * The per-day counters of careers events, kept by statement triggers on `careers_events`
 * (migrations/0002_careers_daily_counts_trigger.sql, this module's), so every writer (the careers
 * pages, the demo seed, imports) keeps them right. A whole workspace's analytics read these for the
 * days wholly inside a period, and the events themselves only for the partial days at its ends: at
 * ~860,000 events in 30 days, counting the events took 1–2 s per page.
 *
 * `shard` spreads one day's counter over a few rows (the writing connection's process id, mod 16
 * for sources, which every view updates, mod 4 for jobs): a burst of views would otherwise queue
 * every insert behind one row lock until its commit, across every instance of the server. Readers
 * sum the shards.
 */

/** Events by UTC day, source and kind: the totals, the traffic per day and the sources. */
export const careersDailySources = pgTable(
	'careers_daily_sources',
	{
		workspaceId: text('workspace_id').notNull(),
		day: date('day', { mode: 'string' }).notNull(),
		source: text('source').notNull(),
		kind: text('kind').notNull(),
		shard: smallint('shard').notNull(),
		n: integer('n').notNull(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.day, t.source, t.kind, t.shard] })],
)

/** Views and applications by UTC day and job: the ranking of jobs. */
export const careersDailyJobs = pgTable(
	'careers_daily_jobs',
	{
		workspaceId: text('workspace_id').notNull(),
		day: date('day', { mode: 'string' }).notNull(),
		jobId: text('job_id').notNull(),
		shard: smallint('shard').notNull(),
		views: integer('views').notNull(),
		applications: integer('applications').notNull(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.day, t.jobId, t.shard] })],
)
