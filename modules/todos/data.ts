/** This module's part of a candidate's data: the to-dos and follow-ups about them or their applications. */
import { sql } from 'drizzle-orm'
import { eraseMentions, withoutMentionsIn } from '../../core/erased-text.ts'
import { anyId, type CandidateDataSource, type CandidateSubject } from '../candidates/index.ts'

const about = (s: CandidateSubject) => sql`workspace_id = ${s.workspaceId} and (candidate_id = ${s.candidateId} or application_id = ${anyId(s.applicationIds)})`

export const todosData: CandidateDataSource = {
	key: 'todos',
	tables: ['todos'],
	freeText: ['todos.title', 'todos.notes'],
	async export(deps, db, s) {
		const data = await deps.database.rows(
			sql`select id, application_id as "applicationId", title, notes, due_at as "dueAt", done_at as "doneAt", created_at as "createdAt" from todos where ${about(s)} order by created_at, id`,
			db,
		)
		return { data }
	},
	async erase(deps, tx, s) {
		await deps.database.rows(sql`delete from todos where ${about(s)}`, tx)
		// Other to-dos that name them ("Ask Ann about Ottoline's notice period").
		await eraseMentions(deps.database, tx, [withoutMentionsIn('todos', ['title', 'notes'], sql`workspace_id = ${s.workspaceId}`, s.needles)])
		return undefined
	},
}
