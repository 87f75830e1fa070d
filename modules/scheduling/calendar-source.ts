/**
 * Scheduled interviews on the calendar (`calendarSources`, type `interview`): one entry per
 * interviewer, on their calendar, for interviews not cancelled; hiring managers see only their
 * jobs'. Entry ids are `<interview id>.<interviewer's user id>` (unique per calendar entry).
 */
import { sql } from 'drizzle-orm'
import type { CalendarSource } from '../calendar/index.ts'
import { afterPosition } from '../../core/source-merge.ts'
import { reachableJobIds } from '../jobs/index.ts'
import { MAX_MINUTES } from './service.ts'
import { scheduledInterviewers, scheduledInterviews } from './table.ts'
import { inList } from '../../core/sql-list.ts'

export const scheduledCalendarSource: CalendarSource = {
	type: 'interview',
	async entries(deps, actor, q) {
		const jobs = await reachableJobIds(deps, actor)
		const entryId = sql`(s.id || '.' || p.user_id)`
		const entryKey = sql`('sch' || left(md5(s.id || '.' || p.user_id), 24))`
		const conditions = [
			sql`s.workspace_id = ${actor.workspaceId}`,
			sql`s.status = 'scheduled'`,
			sql`s.starts_at < ${q.to.toISOString()}::timestamptz`,
			// Both ends of the index range: one running into the window began at most MAX_MINUTES before it.
			sql`s.starts_at > ${new Date(q.from.getTime() - MAX_MINUTES * 60_000).toISOString()}::timestamptz`,
			sql`s.starts_at + make_interval(mins => s.duration_minutes) > ${q.from.toISOString()}::timestamptz`,
			afterPosition(sql`s.starts_at`, entryKey, q.after),
		]
		if (jobs !== 'all') conditions.push(sql`s.job_id in ${inList(jobs)}`)
		if (q.userIds) conditions.push(sql`p.user_id in ${inList(q.userIds)}`)
		const rows = await deps.database.rows<{
			id: string
			key: string
			start: Date | string
			minutes: number
			userId: string
			candidateId: string
			jobId: string
		}>(
			sql`select ${entryId} as id, ${entryKey} as "key", s.starts_at as start, s.duration_minutes as minutes, p.user_id as "userId", s.candidate_id as "candidateId", s.job_id as "jobId"
from ${scheduledInterviews} s join ${scheduledInterviewers} p on p.interview_id = s.id
where ${sql.join(conditions, sql` and `)} order by s.starts_at, ${entryKey} collate "C" limit ${q.limit}`,
		)
		return rows.map((r) => {
			const start = new Date(r.start)
			return {
				type: 'interview',
				id: r.id,
				key: r.key,
				start,
				end: new Date(start.getTime() + r.minutes * 60_000),
				allDay: false,
				title: 'Interview',
				userId: r.userId,
				status: 'scheduled',
				candidateId: r.candidateId,
				jobId: r.jobId,
			}
		})
	},
}
