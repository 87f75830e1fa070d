/** This module's part of a candidate's data: the interviewers' scorecards of their applications. */
import { sql } from 'drizzle-orm'
import { eraseMentions, withoutMentionsIn } from '../../core/erased-text.ts'
import { anyId, type CandidateDataSource } from '../candidates/index.ts'

export const scorecardsData: CandidateDataSource = {
	key: 'scorecards',
	tables: ['scorecards'],
	freeText: ['scorecards.notes'],
	async export(deps, db, s) {
		const data = await deps.database.rows(
			sql`select s.id, s.application_id as "applicationId", u.name as author, s.ratings, s.recommendation, s.notes, s.created_at as "createdAt", s.updated_at as "updatedAt"
			from scorecards s join users u on u.id = s.author_user_id where s.application_id = ${anyId(s.applicationIds)} order by s.created_at, s.seq`,
			db,
		)
		return { data }
	},
	async erase(deps, tx, s) {
		await deps.database.rows(sql`delete from scorecards where application_id = ${anyId(s.applicationIds)}`, tx)
		// Other applicants' scorecards that compare them with the person.
		await eraseMentions(deps.database, tx, [withoutMentionsIn('scorecards', ['notes'], sql`workspace_id = ${s.workspaceId}`, s.needles)])
		return undefined
	},
}
