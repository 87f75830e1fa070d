import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { vendors } from '../vendors/table.ts'

/**
 * One table serves both doors. Status is `Draft | Open | Closed`; the REST API shows `open` for
 * `Open` and `closed` otherwise. REST `summary` is MCP `pitch`; REST `mustHave` is MCP `requirements`.
 * The table also has a stored, generated `search_vector` (tsvector) that this schema does not model:
 * see modules/jobs/migrations/0007_search_refolded.sql, its latest definition (`select *` and `returning *` include it).
 */
export const jobs = pgTable(
	'jobs',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		vendorId: text('vendor_id').references(() => vendors.id),
		vendorJobId: text('vendor_job_id'),
		/** Public address segment, fixed at creation so a re-opened job is live at the same address. */
		slug: text('slug').notNull(),
		title: text('title').notNull(),
		location: text('location'),
		employment: text('employment'),
		contractType: text('contract_type'),
		summary: text('summary'),
		/** Sanitised HTML (allowlist only). */
		description: text('description'),
		mustHave: text('must_have').array().notNull().default(sql`'{}'::text[]`),
		niceToHave: text('nice_to_have').array().notNull().default(sql`'{}'::text[]`),
		visa: text('visa'),
		interview: text('interview'),
		schedule: text('schedule'),
		minYears: integer('min_years'),
		department: text('department').notNull().default('Technologies'),
		salaryMin: integer('salary_min'),
		salaryMax: integer('salary_max'),
		status: text('status').notNull(),
		activelyHiring: boolean('actively_hiring').notNull().default(false),
		createdByUserId: text('created_by_user_id').references(() => users.id),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		/**
		 * Set and read only by the REST publish and change statements: whether the write just made
		 * changed the row, so that they log a line only then (other writers leave it stale; nothing
		 * else reads it). `updated_at = now()` cannot tell, as two transactions can share a clock
		 * reading (the embedded database's clock moves in whole milliseconds).
		 */
		lastWriteChanged: boolean('last_write_changed').notNull().default(true),
		/**
		 * Set and read only by the REST publish and change statements, like `last_write_changed`: the
		 * event the write just made (`job.published`, `job.reopened`, `job.closed`, `job.changed`), or
		 * null. Decided in the row's own update, on the row as it was, so two writes racing on one job
		 * each name what they really did.
		 */
		lastWriteEvent: text('last_write_event'),
		publishedAt: timestamp('published_at', { withTimezone: true }),
		closedAt: timestamp('closed_at', { withTimezone: true }),
	},
	(t) => [
		uniqueIndex('jobs_vendor_job').on(t.vendorId, t.vendorJobId),
		uniqueIndex('jobs_workspace_slug').on(t.workspaceId, t.slug),
		index('jobs_vendor_created').on(t.vendorId, t.createdAt.desc(), t.id.desc()),
		index('jobs_workspace_created').on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
		// A job's label looks for another job of its title (modules/jobs/label.ts).
		index('jobs_workspace_title').on(t.workspaceId, t.title),
		index('jobs_workspace_status_created').on(t.workspaceId, t.status, t.createdAt.desc(), t.id.desc()),
		// The feeds read a workspace's open jobs newest published first, by keyset (modules/jobs/public-feed.ts).
		index('jobs_workspace_open_published').on(t.workspaceId, t.publishedAt.desc(), t.id.desc()).where(sql`${t.status} = 'Open'`),
		check('jobs_status_valid', sql`${t.status} in ('Draft', 'Open', 'Closed')`),
		check('jobs_open_published', sql`${t.status} <> 'Open' or ${t.publishedAt} is not null`),
		// A job has a closing time exactly while it is closed: re-opening (REST) or drafting (MCP) clears it.
		check('jobs_closed_at_iff_closed', sql`(${t.status} = 'Closed') = (${t.closedAt} is not null)`),
	],
)

/** People on a job's hiring team (hiring managers see only the jobs they are on). */
export const jobTeam = pgTable(
	'job_team',
	{
		jobId: text('job_id')
			.notNull()
			.references(() => jobs.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		teamRole: text('team_role').notNull().default('hiring_manager'),
		addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.jobId, t.userId] }), index('job_team_user').on(t.userId)],
)

/** Screening questions asked on the careers apply form. */
export const jobQuestions = pgTable(
	'job_questions',
	{
		id: text('id').primaryKey(),
		jobId: text('job_id')
			.notNull()
			.references(() => jobs.id),
		position: integer('position').notNull(),
		prompt: text('prompt').notNull(),
		/** `text` (free answer) or `yes_no`. */
		kind: text('kind').notNull().default('text'),
		required: boolean('required').notNull().default(false),
	},
	(t) => [index('job_questions_job').on(t.jobId, t.position)],
)
