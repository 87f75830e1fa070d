/**
 * "Documents received" in the review queue: the open to-dos the document flow gave the person
 * (one per kind uploaded on a request they made), oldest first. Marking the to-do done takes
 * the entry off the queue.
 */
import { sql } from 'drizzle-orm'
import type { ReviewSource } from '../review/index.ts'
import { afterPosition } from '../../core/source-merge.ts'
import { visibleTo } from './service.ts'
import { todos } from './table.ts'

export const documentsReceivedSource: ReviewSource = {
	type: 'documents_received',
	async items(deps, actor, options) {
		if (!actor.userId) return []
		const rows = await deps.database.rows<{
			id: string
			at: Date | string
			candidateId: string
			jobId: string | null
			applicationId: string | null
			sourceRef: string | null
		}>(
			sql`select t.id, t.created_at as at, t.candidate_id as "candidateId", t.job_id as "jobId", t.application_id as "applicationId", t.source_ref as "sourceRef"
from ${todos} t
where ${await visibleTo(deps, actor)} and t.assignee_user_id = ${actor.userId} and t.source = 'document' and t.done_at is null and t.candidate_id is not null
and ${afterPosition(sql`t.created_at`, sql`t.id`, options.after)}
order by t.created_at, t.id collate "C" limit ${options.limit}`,
		)
		// Our words only (the to-do's title names the candidate, who is shown beside the reason): the
		// document kind comes from the flow's reference, `<request id>:<kind>`.
		return rows.map((r) => {
			const kind = /:(dl|visa|i94|workAuth)$/.exec(r.sourceRef ?? '')?.[1]
			return {
				type: 'documents_received',
				id: r.id,
				at: new Date(r.at),
				candidateId: r.candidateId,
				jobId: r.jobId,
				applicationId: r.applicationId,
				reason: `Documents received${kind ? ` (${kind})` : ''}.`,
			}
		})
	},
}
