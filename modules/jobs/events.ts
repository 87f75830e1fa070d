/**
 * The events about jobs (read by webhooks, search-engine pings and job alerts), and the one rule that
 * names what a write did to a job, in TypeScript for the portal and assistant doors and in SQL for the
 * vendor's single-statement publish and change.
 */
import { Type as T } from '@sinclair/typebox'
import { sql, type SQL } from 'drizzle-orm'
import { defineEvent, eventInsertFrom, type EventActorSql, type EventType } from '../events/index.ts'
import type { JobStatus } from './model.ts'

const jobData = T.Object({
	jobId: T.String(),
	/** The vendor whose job it is (null for a job made in the portal): a vendor's endpoints hear only of their own. */
	vendorId: T.Union([T.String(), T.Null()]),
	status: T.Union([T.Literal('Open'), T.Literal('Draft'), T.Literal('Closed')]),
})

export const jobPublished = defineEvent({ type: 'job.published', description: 'A job went live for the first time', data: jobData })
export const jobReopened = defineEvent({ type: 'job.reopened', description: 'A job that had been live went live again', data: jobData })
export const jobClosed = defineEvent({ type: 'job.closed', description: 'A live job was taken down (closed, or moved back to draft)', data: jobData })
export const jobChanged = defineEvent({ type: 'job.changed', description: 'A job’s fields changed without it going live or down', data: jobData })

export const JOB_EVENTS: readonly EventType<typeof jobData>[] = [jobPublished, jobReopened, jobClosed, jobChanged]

/**
 * What a write did: going live names `job.published` the first time and `job.reopened` after, going
 * down from live names `job.closed`; any other change of the row is `job.changed`; no change, nothing.
 */
export function jobEventOf(before: { status: string; publishedAt: Date | string | null }, after: JobStatus, changed: boolean) {
	if (after === 'Open' && before.status !== 'Open') return before.publishedAt === null ? jobPublished : jobReopened
	if (before.status === 'Open' && after !== 'Open') return jobClosed
	return changed ? jobChanged : null
}

/** The same rule in SQL, inside the row's own UPDATE (its columns are the row as it was). `after` null: the status stays. */
export function jobEventSql(after: 'Open' | 'Closed' | null, changed: SQL, row = sql``): SQL {
	const status = sql`${row}status`
	const publishedAt = sql`${row}published_at`
	const goingLive = sql`when ${status} <> 'Open' then case when ${publishedAt} is null then 'job.published' else 'job.reopened' end`
	const goingDown = sql`when ${status} = 'Open' then 'job.closed'`
	const transition = after === 'Open' ? goingLive : after === 'Closed' ? goingDown : sql``
	return sql`case ${transition} when ${changed} then 'job.changed' else null end`
}

/** The event of a vendor's publish or change statement, over its CTE `j` (the job as written, with `last_write_event`). */
export function jobEventInsert(from: SQL, actor?: EventActorSql): SQL {
	return eventInsertFrom(
		from,
		{
			type: sql`j.last_write_event`,
			of: JOB_EVENTS,
			data: sql`jsonb_build_object('jobId', j.id, 'vendorId', j.vendor_id, 'status', j.status)`,
			where: sql`j.last_write_event is not null`,
		},
		actor,
	)
}
