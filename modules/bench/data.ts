/** This module's part of a candidate's data: their bench entries (role family, availability, rate) and the bench's checks of their résumé. */
import { sql } from 'drizzle-orm'
import type { CandidateDataSource } from '../candidates/index.ts'

export const benchData: CandidateDataSource = {
	key: 'bench',
	tables: ['bench_entries', 'bench_checks'],
	async export(deps, db, s) {
		const data = await deps.database.rows(
			sql`select id, role_family as "roleFamily", job_id as "jobId", available_from as "availableFrom", hourly_rate as "hourlyRate", added_at as "addedAt"
			from bench_entries where candidate_id = ${s.candidateId} order by added_at, id`,
			db,
		)
		return { data }
	},
	async erase(deps, tx, s) {
		await deps.database.rows(sql`delete from bench_checks where candidate_id = ${s.candidateId}`, tx)
		await deps.database.rows(sql`delete from bench_entries where candidate_id = ${s.candidateId}`, tx)
		return undefined
	},
}
