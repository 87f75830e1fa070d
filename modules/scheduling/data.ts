/** This module's part of a candidate's data: the interviews scheduled with people, and who was to interview them. */
import { sql } from 'drizzle-orm'
import type { CandidateDataSource } from '../candidates/index.ts'
import { cancelErasedInterviews } from './erasure.ts'

export const schedulingData: CandidateDataSource = {
	key: 'scheduledInterviews',
	tables: ['scheduled_interviews', 'scheduled_interviewers'],
	async export(deps, db, s) {
		const data = await deps.database.rows(
			sql`select i.id, i.application_id as "applicationId", i.job_id as "jobId", i.starts_at as "startsAt", i.duration_minutes as "durationMinutes",
				i.time_zone as "timeZone", i.video_url as "videoUrl", i.status, i.created_at as "createdAt",
				array(select u.name from scheduled_interviewers x join users u on u.id = x.user_id where x.interview_id = i.id order by u.name) as interviewers
			from scheduled_interviews i where i.candidate_id = ${s.candidateId} and i.workspace_id = ${s.workspaceId} order by i.starts_at, i.id`,
			db,
		)
		return { data }
	},
	async activeSince(deps, workspaceId, ids, since) {
		const rows = await deps.database.rows<{ id: string }>(
			sql`select distinct candidate_id as id from scheduled_interviews where workspace_id = ${workspaceId} and candidate_id = any(${sql.param([...ids])}::text[])
				and greatest(starts_at, updated_at) >= ${since.toISOString()}::timestamptz`,
		)
		return new Set(rows.map((r) => r.id))
	},
	async erase(deps, tx, s) {
		await cancelErasedInterviews(deps, tx, s)
		const mine = sql`(select id from scheduled_interviews where candidate_id = ${s.candidateId} and workspace_id = ${s.workspaceId})`
		await deps.database.rows(sql`delete from scheduled_interviewers where interview_id in ${mine}`, tx)
		await deps.database.rows(sql`delete from scheduled_interviews where candidate_id = ${s.candidateId} and workspace_id = ${s.workspaceId}`, tx)
		return undefined
	},
}
