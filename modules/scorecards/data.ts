/** This module's part of a candidate's data: the interviewers' scorecards of their applications. */
import { sql } from 'drizzle-orm'
import { anyId, type CandidateDataSource } from '../candidates/index.ts'

export const scorecardsData: CandidateDataSource = {
	key: 'scorecards',
	tables: ['scorecards'],
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
		return undefined
	},
}
