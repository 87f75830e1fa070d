/** What interviews contribute elsewhere: calendar events, review-queue entries, `get_application` details. */
import { sql } from 'drizzle-orm'
import type { CalendarSource } from '../calendar/index.ts'
import type { ReviewSource } from '../review/index.ts'
import { afterPosition } from '../../core/source-merge.ts'
import { teamJobIds } from '../jobs/index.ts'
import { unseenSince } from '../review/index.ts'
import { VERDICT_LABELS, type Verdict } from './questions.ts'
import { interviewReach } from './service.ts'
import { interviews, interviewViews, MAX_INTERVIEW_MINUTES } from './table.ts'
import { inList } from '../../core/sql-list.ts'

/** An invitation puts the interview on the inviting person's calendar, from its scheduled time. */
export const interviewCalendarSource: CalendarSource = {
	type: 'interview',
	async entries(deps, actor, q) {
		const conditions = [
			await interviewReach(deps, actor),
			sql`i.scheduled_at < ${q.to.toISOString()}::timestamptz`,
			// Both ends of the index range: an interview running into the window began at most
			// MAX_INTERVIEW_MINUTES before it (without this bound the scan reads the workspace's whole history).
			sql`i.scheduled_at > ${new Date(q.from.getTime() - MAX_INTERVIEW_MINUTES * 60_000).toISOString()}::timestamptz`,
			sql`i.scheduled_at + make_interval(mins => i.duration_minutes) > ${q.from.toISOString()}::timestamptz`,
			sql`i.owner_user_id is not null`,
			afterPosition(sql`i.scheduled_at`, sql`i.id`, q.after),
		]
		if (q.userIds) conditions.push(sql`i.owner_user_id in ${inList(q.userIds)}`)
		const rows = await deps.database.rows<{
			id: string
			start: Date | string
			minutes: number
			status: string
			userId: string
			candidateId: string
			jobId: string
		}>(
			sql`select i.id, i.scheduled_at as start, i.duration_minutes as minutes, i.status, i.owner_user_id as "userId", i.candidate_id as "candidateId", i.job_id as "jobId"
from ${interviews} i where ${sql.join(conditions, sql` and `)} order by i.scheduled_at, i.id collate "C" limit ${q.limit}`,
		)
		// Our words only: the job (and the candidate) are shown beside the title, labelled.
		return rows.map((r) => {
			const start = new Date(r.start)
			return {
				type: 'interview',
				id: r.id,
				start,
				end: new Date(start.getTime() + r.minutes * 60_000),
				allDay: false,
				title: 'AI video interview',
				userId: r.userId,
				status: r.status,
				candidateId: r.candidateId,
				jobId: r.jobId,
			}
		})
	},
}

/**
 * Completed interviews the person has not opened yet, completed in the review window
 * (`modules/review/window.ts`), on interviews they sent or on jobs of their hiring teams: oldest
 * completion first.
 */
export const completedInterviewsSource: ReviewSource = {
	type: 'interview_completed',
	async items(deps, actor, options) {
		if (!actor.userId || !deps.permissions.can(actor, 'interviews:read')) return []
		const team = await teamJobIds(deps, actor.workspaceId, actor.userId)
		const rows = await deps.database.rows<{
			id: string
			at: Date | string
			candidateId: string
			jobId: string
			applicationId: string | null
			score: number | null
			verdict: Verdict | null
		}>(
			sql`select i.id, i.completed_at as at, i.candidate_id as "candidateId", i.job_id as "jobId", i.application_id as "applicationId", i.overall_score as score, i.verdict
from ${interviews} i
where ${await interviewReach(deps, actor)} and i.status = 'completed' and i.completed_at >= ${unseenSince(deps.now()).toISOString()}::timestamptz and (i.owner_user_id = ${actor.userId} or i.job_id in ${inList(team)})
and not exists (select 1 from ${interviewViews} v where v.interview_id = i.id and v.user_id = ${actor.userId})
and ${afterPosition(sql`i.completed_at`, sql`i.id`, options.after)}
order by i.completed_at, i.id collate "C" limit ${options.limit}`,
		)
		return rows.map((r) => ({
			type: 'interview_completed',
			id: r.id,
			at: new Date(r.at),
			candidateId: r.candidateId,
			jobId: r.jobId,
			applicationId: r.applicationId,
			reason: `Completed the AI video interview for the job${r.score !== null ? `: score ${r.score}/100` : ''}${r.verdict ? `, ${VERDICT_LABELS[r.verdict]}` : ''}.`,
		}))
	},
}
