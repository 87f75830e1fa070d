/**
 * A completed AI video interview as a scorecard of its own (the scorecards module shows it beside
 * people's): each question's competency rated 1 to 5 from its 0–100 score, and the provider's
 * verdict as the overall recommendation. Reading it is not opening the result: the interview stays
 * in the person's review queue until they open it (`getInterview`).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { jobAuthor, jobRequirements } from '../jobs/index.ts'
import type { Verdict } from './questions.ts'
import { interviewReach } from './service.ts'
import { interviewQuestions, interviews } from './table.ts'

export interface AiScorecard {
	interviewId: string
	applicationId: string
	completedAt: Date
	overallScore: number | null
	verdict: Verdict | null
	/** One per question, in the interview's order: what it assessed, and the score as 1 to 5 (null when unscored). */
	ratings: { attribute: UntrustedText; rating: number | null }[]
}

/** 0–20 → 1, 21–40 → 2, 41–60 → 3, 61–80 → 4, 81–100 → 5. */
export const ratingOfScore = (score: number | null) => (score === null ? null : Math.min(5, Math.max(1, Math.ceil(score / 20))))

/** Completed AI interviews of these applications the actor may see, newest first; nothing without `interviews:read`. */
export async function aiScorecardsOf(deps: AppDeps, actor: Actor, applicationIds: string[]): Promise<AiScorecard[]> {
	if (!applicationIds.length || !deps.permissions.can(actor, 'interviews:read')) return []
	const rows = await deps.database.rows<{
		id: string
		applicationId: string
		jobId: string
		completedAt: Date | string
		overallScore: number | null
		verdict: Verdict | null
	}>(
		sql`select i.id, i.application_id as "applicationId", i.job_id as "jobId", i.completed_at as "completedAt", i.overall_score as "overallScore", i.verdict
from ${interviews} i where ${await interviewReach(deps, actor)} and i.status = 'completed' and i.completed_at is not null
and i.application_id = any(${sql.param(applicationIds)}::text[]) order by i.completed_at desc, i.id`,
	)
	if (!rows.length) return []
	const [questions, jobs] = await Promise.all([
		deps.database.rows<{ interviewId: string; prompt: string; competency: string | null; score: number | null }>(
			sql`select q.interview_id as "interviewId", q.prompt, q.competency, q.score from ${interviewQuestions} q
where q.interview_id = any(${sql.param(rows.map((r) => r.id))}::text[]) order by q.interview_id, q.position`,
		),
		jobRequirements(deps, actor.workspaceId, [...new Set(rows.map((r) => r.jobId))]),
	])
	return rows.map((r) => {
		// Questions are made from the job's must-haves: their author's words.
		const job = jobs.get(r.jobId)
		const by = jobAuthor({ vendorId: job?.vendorId ?? null, createdByUserId: job?.createdByUserId ?? null }, actor)
		return {
			interviewId: r.id,
			applicationId: r.applicationId,
			completedAt: new Date(r.completedAt),
			overallScore: r.overallScore,
			verdict: r.verdict,
			ratings: questions
				.filter((q) => q.interviewId === r.id)
				.map((q) => ({ attribute: untrustedLine(q.competency ?? q.prompt, by, 300), rating: ratingOfScore(q.score) })),
		}
	})
}
