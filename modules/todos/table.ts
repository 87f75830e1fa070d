import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { applications, candidates } from '../candidates/table.ts'
import { jobs } from '../jobs/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * A person's to-do, optionally about a candidate (and one of their applications). A to-do with a
 * due time is a follow-up and shows in the calendar. Flows (a document received, a completed
 * interview) create them with `source` and `sourceRef`, once per record and person.
 */
export const todos = pgTable(
	'todos',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		assigneeUserId: text('assignee_user_id')
			.notNull()
			.references(() => users.id),
		/** null when a flow created it. */
		createdByUserId: text('created_by_user_id').references(() => users.id),
		candidateId: text('candidate_id').references(() => candidates.id),
		applicationId: text('application_id').references(() => applications.id),
		jobId: text('job_id').references(() => jobs.id),
		title: text('title').notNull(),
		notes: text('notes'),
		dueAt: at('due_at'),
		doneAt: at('done_at'),
		/** person, document, interview, … */
		source: text('source').notNull().default('person'),
		/** The record that caused it, e.g. the interview id. */
		sourceRef: text('source_ref'),
		createdAt: at('created_at').notNull().defaultNow(),
	},
	(t) => [
		index('todos_assignee').on(t.workspaceId, t.assigneeUserId, t.createdAt),
		index('todos_candidate').on(t.candidateId, t.createdAt),
		index('todos_due').on(t.workspaceId, t.dueAt),
		uniqueIndex('todos_source_ref').on(t.workspaceId, t.source, t.sourceRef, t.assigneeUserId),
	],
)
