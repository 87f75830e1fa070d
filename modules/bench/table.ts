import { date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
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
 * What a bench person's résumé meets, requirement by requirement (`met`: requirement text → true
 * when the résumé check finds it), as the bench ranking (match.ts) checked it: valid while the
 * résumé has this hash and the check this `basis` (method version and month: years of experience
 * count to the current month). Requirements recur across jobs ("Java", "Spring Boot"), so a job
 * ranked for the first time usually finds every check here and is ranked in SQL. Kept uncompressed
 * up to a page (`toast_tuple_target`, migrations/0001_bench_checks.sql): the ranking reads `met` several times a row.
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
	met: jsonb('met').$type<Record<string, boolean>>().notNull().default(sql`'{}'::jsonb`),
})
