/** This module's part of a candidate's data: their AI video interviews, with each question's transcript and score. */
import { sql } from 'drizzle-orm'
import { eraseMentions, withoutMentionsIn } from '../../core/erased-text.ts'
import type { CandidateDataSource } from '../candidates/index.ts'

export const interviewsData: CandidateDataSource = {
	key: 'interviews',
	tables: ['interviews', 'interview_questions', 'interview_events', 'interview_views'],
	freeText: ['interviews.summary', 'interview_questions.transcript'],
	async export(deps, db, s) {
		const interviews = await deps.database.rows<{ id: string }>(
			sql`select id, job_id as "jobId", application_id as "applicationId", status, scheduled_at as "scheduledAt", duration_minutes as "durationMinutes",
				invited_at as "invitedAt", started_at as "startedAt", completed_at as "completedAt", expired_at as "expiredAt",
				overall_score as "overallScore", verdict, summary
			from interviews where candidate_id = ${s.candidateId} order by created_at, seq`,
			db,
		)
		const questions = await deps.database.rows<{ interviewId: string }>(
			sql`select interview_id as "interviewId", position, prompt, competency, transcript, score, duration_seconds as "durationSeconds"
			from interview_questions where interview_id in (select id from interviews where candidate_id = ${s.candidateId}) order by interview_id, position`,
			db,
		)
		return { data: interviews.map((i) => ({ ...i, questions: questions.filter((q) => q.interviewId === i.id).map(({ interviewId: _, ...q }) => q) })) }
	},
	async activeSince(deps, workspaceId, ids, since) {
		const rows = await deps.database.rows<{ id: string }>(
			sql`select distinct candidate_id as id from interviews where workspace_id = ${workspaceId} and candidate_id = any(${sql.param([...ids])}::text[])
				and greatest(invited_at, scheduled_at, coalesce(completed_at, invited_at)) >= ${since.toISOString()}::timestamptz`,
		)
		return new Set(rows.map((r) => r.id))
	},
	async erase(deps, tx, s) {
		const mine = sql`(select id from interviews where candidate_id = ${s.candidateId})`
		for (const table of ['interview_questions', 'interview_events', 'interview_views'])
			await deps.database.rows(sql`delete from ${sql.identifier(table)} where interview_id in ${mine}`, tx)
		await deps.database.rows(sql`delete from interviews where candidate_id = ${s.candidateId}`, tx)
		// Another candidate's answers (and their summary) that name the person.
		await eraseMentions(deps.database, tx, [
			withoutMentionsIn('interviews', ['summary'], sql`workspace_id = ${s.workspaceId}`, s.needles),
			withoutMentionsIn(
				'interview_questions',
				['transcript'],
				sql`interview_id in (select id from interviews where workspace_id = ${s.workspaceId})`,
				s.needles,
			),
		])
		return undefined
	},
}
