import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { calendarSources } from '../calendar/index.ts'
import { reviewSources } from '../review/index.ts'
import { todosHomeSection } from './home.ts'
import { followupSource } from './calendar.ts'
import { candidateTodoRoutes } from './candidate-routes.ts'
import { todosSection } from './candidate-section.ts'
import { documentsReceivedSource } from './review.ts'
import { todoRoutes } from './routes.ts'
import { seedTodos } from './seed.ts'
import { myDayPrompt } from './prompts.ts'
import { todoTools } from './tools.ts'
import { overdueCount } from './service.ts'
import * as tables from './table.ts'
import { todosData } from './data.ts'
import { candidateData, type CandidateDataSource } from '../candidates/index.ts'

export { createTodo, flowAssignee, type NewTodo } from './service.ts'

/** For the retention rule: a to-do about them or one of their applications added or done since `since`. */
const todosActiveSince: CandidateDataSource['activeSince'] = async (deps: AppDeps, workspaceId, ids, since) => {
	const rows = await deps.database.rows<{ id: string }>(
		sql`select distinct coalesce(t.candidate_id, a.candidate_id) as id from todos t left join applications a on a.id = t.application_id
		where t.workspace_id = ${workspaceId} and coalesce(t.candidate_id, a.candidate_id) = any(${sql.param([...ids])}::text[])
			and greatest(t.created_at, t.done_at) >= ${since.toISOString()}::timestamptz`,
	)
	return new Set(rows.map((r) => r.id))
}

export default defineModule({
	name: 'todos',
	description: 'To-dos: a person’s own, and those flows create (documents received, completed interviews); follow-ups on the calendar.',
	requires: ['auth', 'activity', 'jobs', 'candidates', 'calendar', 'review'],
	checks: ['todos:write', 'todos:read', 'documents:read', 'interviews:read'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'todos:read',
			description: 'See your to-dos and the to-dos on candidates you can see',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
		{ key: 'todos:write', description: 'Add to-dos and mark them done', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'] },
	],
	tools: todoTools,
	prompts: [myDayPrompt],
	routes: (deps, kit) => todoRoutes(deps, kit).use(candidateTodoRoutes(deps, kit)),
	paths: ['/todos', '/candidates'],
	contributes: [
		contribute(candidateData, { ...todosData, activeSince: todosActiveSince }),
		contribute(calendarSources, followupSource),
		contribute(reviewSources, documentsReceivedSource),
	],
	seed: seedTodos,
	nav: [
		{
			href: '/todos',
			label: 'To-dos',
			permission: 'todos:write',
			section: 'work',
			order: 50,
			countLabel: 'overdue',
			counter: (deps, session) => overdueCount(deps, session.actor),
		},
	],
	pageSections: [todosHomeSection, todosSection],
	activityLabels: { 'todo.created': 'added the to-do' },
	recordNames: [recordNamesFrom('todo', 'todos', 'r.title')],
})
