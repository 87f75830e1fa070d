/** Follow-ups on the calendar: to-dos with a due time, shown for half an hour from it. */
import { sql } from 'drizzle-orm'
import type { CalendarSource } from '../calendar/index.ts'
import { afterPosition } from '../../core/source-merge.ts'
import { shownLines, visibleTo } from './service.ts'
import { todos } from './table.ts'
import { inList } from '../../core/sql-list.ts'

const LENGTH_MS = 30 * 60_000
export const followupSource: CalendarSource = {
	type: 'followup',
	async entries(deps, actor, q) {
		const conditions = [
			sql`t.workspace_id = ${actor.workspaceId}`,
			sql`t.due_at is not null`,
			sql`t.due_at < ${q.to.toISOString()}::timestamptz`,
			sql`t.due_at > ${new Date(q.from.getTime() - LENGTH_MS).toISOString()}::timestamptz`,
			afterPosition(sql`t.due_at`, sql`t.id`, q.after),
		]
		if (q.userIds) conditions.push(sql`t.assignee_user_id in ${inList(q.userIds)}`)
		// Follow-ups the person may see, by the to-dos' own rule (their jobs' and candidates' only, for a hiring manager).
		conditions.push(await visibleTo(deps, actor))
		const rows = await deps.database.rows<{
			id: string
			title: string
			source: string
			createdByUserId: string | null
			dueAt: Date | string
			doneAt: Date | string | null
			userId: string
			candidateId: string | null
			jobId: string | null
		}>(
			sql`select t.id, t.title, t.source, t.due_at as "dueAt", t.done_at as "doneAt", t.assignee_user_id as "userId", t.created_by_user_id as "createdByUserId", t.candidate_id as "candidateId", t.job_id as "jobId"
from ${todos} t where ${sql.join(conditions, sql` and `)} order by t.due_at, t.id collate "C" limit ${q.limit}`,
		)
		const lines = await shownLines(deps, actor, rows)
		return rows.map((r) => {
			const start = new Date(r.dueAt)
			return {
				type: 'followup',
				id: r.id,
				start,
				end: new Date(start.getTime() + LENGTH_MS),
				allDay: false,
				title: lines.get(r.id)!.title,
				userId: r.userId,
				status: r.doneAt ? 'done' : 'open',
				candidateId: r.candidateId,
				jobId: r.jobId,
			}
		})
	},
}
