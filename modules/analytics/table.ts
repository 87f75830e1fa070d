import { sql } from 'drizzle-orm'
import { check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'
import { jobs } from '../jobs/table.ts'

/** One careers-site event: a job page viewed or an application sent, with where the visitor came from. */
export const careersEvents = pgTable(
	'careers_events',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		jobId: text('job_id')
			.notNull()
			.references(() => jobs.id),
		/** view or application. */
		kind: text('kind').notNull(),
		/** utm_source, else the referring site (linkedin, google, …), else `direct`. */
		source: text('source').notNull(),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [
		index('careers_events_workspace_at').on(t.workspaceId, t.at),
		index('careers_events_job_at').on(t.jobId, t.at),
		check('careers_events_kind_valid', sql`${t.kind} in ('view', 'application')`),
	],
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

/**
 * Events by UTC hour, source and kind: the parts of days at a period's ends (a period is `now − N
 * days .. now`, so its first and last days are partial), so only the minutes of the hour at each
 * end are read from the events. Kept by the same triggers as the per-day counters.
 */
export const careersHourlySources = pgTable(
	'careers_hourly_sources',
	{
		workspaceId: text('workspace_id').notNull(),
		hour: timestamp('hour', { withTimezone: true, mode: 'string' }).notNull(),
		source: text('source').notNull(),
		kind: text('kind').notNull(),
		shard: smallint('shard').notNull(),
		n: integer('n').notNull(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.hour, t.source, t.kind, t.shard] })],
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

/*
 * The jobs ranking's cache: per workspace and window of whole UTC hours (`span` hours from
 * `first_at` to `end_at`), each job's views and applications. With traffic over ~80,000 jobs a month
 * of `careers_daily_jobs` is ~600,000 rows, 1.5 s to sum per view; the cache is summed once an hour
 * and read by index (modules/analytics/ranking.ts says how it stays right).
 *
 * `version` is bumped by the counters' trigger on any change to an hour of the window, and by every
 * rebuild; `built` is the version the rows under it were summed at. The cache is good only while
 * `built = version` (a late write racing a rebuild leaves it stale, never wrong).
 */
export const careersWindowCache = pgTable(
	'careers_window_cache',
	{
		workspaceId: text('workspace_id').notNull(),
		span: smallint('span').notNull(),
		/** The window: whole UTC hours, `span` of them. */
		firstAt: timestamp('first_at', { withTimezone: true, mode: 'string' }).notNull(),
		endAt: timestamp('end_at', { withTimezone: true, mode: 'string' }).notNull(),
		version: integer('version').notNull(),
		built: integer('built'),
		/** Jobs with `MIN_VIEWS` views and no application in the window, counted at the rebuild. */
		silentCount: integer('silent_count').notNull().default(0),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.span] })],
)

/** A job's totals in a cached window; `rate` (applications per 1,000 views, rounded) only where the best conversion may come from. */
export const careersWindowTotals = pgTable(
	'careers_window_totals',
	{
		workspaceId: text('workspace_id').notNull(),
		span: smallint('span').notNull(),
		version: integer('version').notNull(),
		jobId: text('job_id').notNull(),
		views: integer('views').notNull(),
		applications: integer('applications').notNull(),
		rate: integer('rate'),
	},
	(t) => [
		primaryKey({ columns: [t.workspaceId, t.span, t.version, t.jobId] }),
		index('careers_window_totals_top').on(t.workspaceId, t.span, t.version, t.applications, t.views),
		index('careers_window_totals_best').on(t.workspaceId, t.span, t.version, t.rate, t.applications, t.views).where(sql`rate is not null`),
	],
)
