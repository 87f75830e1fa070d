import { date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { users, workspaces } from '../auth/table.ts'
import { candidates } from '../candidates/table.ts'
import { jobs } from '../jobs/table.ts'

/** A candidate on the bench of a role family (java, dotnet, …), possibly for one job. */
export const benchEntries = pgTable(
	'bench_entries',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		candidateId: text('candidate_id')
			.notNull()
			.references(() => candidates.id),
		roleFamily: text('role_family').notNull(),
		jobId: text('job_id').references(() => jobs.id),
		addedByUserId: text('added_by_user_id').references(() => users.id),
		/** When the person can start (null: now). */
		availableFrom: date('available_from', { mode: 'string' }),
		/** Expected hourly rate in the workspace currency. */
		hourlyRate: integer('hourly_rate'),
		addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('bench_candidate_family').on(t.workspaceId, t.candidateId, t.roleFamily),
		index('bench_workspace_added').on(t.workspaceId, t.addedAt.desc(), t.id.desc()),
		index('bench_workspace_family_added').on(t.workspaceId, t.roleFamily, t.addedAt.desc(), t.id.desc()),
	],
)

/**
 * What a bench person's résumé meets, requirement by requirement, as the bench ranking (match.ts)
 * checked it: valid while it exists (a changed résumé deletes it in its own transaction: trigger in
 * migrations/0002) and has this `basis` (method version and month: years of experience count to the
 * current month). `checks` holds one element per requirement, by its number in the workspace
 * (`bench_requirements`): 2 when the résumé meets it, 1 when it does not, 0 or absent when not
 * checked. Requirements recur across jobs ("Java", "Spring Boot"), so a job ranked for the first
 * time usually finds every check here and is ranked in SQL. Narrow (a requirement is 2 bytes: the
 * ranking reads every person's row, 5,000 at a bench of 5,000; a jsonb of requirement texts was
 * 2.4 KB a person and a key lookup each) and kept uncompressed up to a page (`toast_tuple_target`,
 * migrations/0001_bench_checks.sql): the ranking reads `checks` several times a row.
 */
export const benchChecks = pgTable('bench_checks', {
	candidateId: text('candidate_id')
		.primaryKey()
		.references(() => candidates.id, { onDelete: 'cascade' }),
	workspaceId: text('workspace_id')
		.notNull()
		.references(() => workspaces.id),
	resumeHash: text('resume_hash').notNull(),
	basis: text('basis').notNull(),
	checks: smallint('checks').array().notNull().default(sql`'{}'::smallint[]`),
})

/** A number for each requirement text the bench ranking has checked in a workspace (from 1; never changes). */
export const benchRequirements = pgTable(
	'bench_requirements',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		requirement: text('requirement').notNull(),
		ordinal: integer('ordinal').notNull(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.requirement] }), uniqueIndex('bench_requirements_ordinal').on(t.workspaceId, t.ordinal)],
)
