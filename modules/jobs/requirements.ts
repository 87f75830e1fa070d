/**
 * What other modules read of jobs without reaching into the jobs table: requirements (résumé checks,
 * bench matching), recently changed jobs (re-check sweeps) and screening questions (the apply form,
 * application answers). Callers check the actor's reach first (`reachableJobIds`).
 */
import { asc, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { afterKeys, orderBy } from '../../core/paging.ts'
import { jobQuestions } from './table.ts'
import { inList } from '../../core/sql-list.ts'

/** What other modules need to know of jobs' requirements (résumé checks, bench matching). */
export interface JobRequirements {
	id: string
	title: string
	status: string
	/** Set when a vendor published the job (its texts are the vendor's words). */
	vendorId: string | null
	/** Who made the job in the portal or with create_job (its texts are their words: `jobAuthor`). */
	createdByUserId: string | null
	mustHave: string[]
	niceToHave: string[]
}

/** Requirements of jobs by id, within one workspace (callers have already checked reach). */
export async function jobRequirements(deps: AppDeps, workspaceId: string, ids: string[]): Promise<Map<string, JobRequirements>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<JobRequirements>(
		sql`select id, title, status, vendor_id as "vendorId", created_by_user_id as "createdByUserId", must_have as "mustHave", nice_to_have as "niceToHave" from jobs where workspace_id = ${workspaceId} and id in ${inList([...new Set(ids)])}`,
	)
	return new Map(rows.map((r) => [r.id, { ...r, mustHave: r.mustHave ?? [], niceToHave: r.niceToHave ?? [] }]))
}

/**
 * The distinct requirements (must-haves and nice-to-haves) of the workspace's `jobs` newest open
 * jobs, at most `max`: what the bench ranking checks résumés against while it has them at hand.
 */
export async function recentOpenRequirements(deps: AppDeps, workspaceId: string, o: { jobs: number; max: number }): Promise<string[]> {
	const rows = await deps.database.rows<{ r: string }>(
		sql`select distinct r from (select must_have, nice_to_have from jobs where workspace_id = ${workspaceId} and status = 'Open' order by created_at desc nulls last, id desc nulls last limit ${o.jobs}) j
cross join unnest(coalesce(j.must_have, '{}') || coalesce(j.nice_to_have, '{}')) r limit ${o.max}`,
	)
	return rows.map((x) => x.r)
}

/** The sweep's order (core/paging.ts keys); its cursor never leaves the process, so it is not signed. */
const CHANGED_ORDER = [{ expr: sql`updated_at` }, { expr: sql`id` }]

/** Where a page of `jobsChangedSince` ended: its last job's change time (exact, as text) and id. */
export interface ChangedJobsCursor {
	updatedAt: string
	id: string
}

/**
 * Jobs (of any workspace) changed at or after `since`, with their must-haves (sweeps re-check
 * résumés with it), a page at a time in (change time, id) order: pass the last row back as `after`
 * for the next page. The time goes as text, to the microsecond a JavaScript Date would lose.
 */
export async function jobsChangedSince(
	deps: AppDeps,
	since: Date,
	o: { after?: ChangedJobsCursor; limit?: number } = {},
): Promise<{ id: string; workspaceId: string; mustHave: string[]; updatedAt: string }[]> {
	const after = o.after ? sql` and ${afterKeys(CHANGED_ORDER, [sql`${o.after.updatedAt}::timestamptz`, sql`${o.after.id}`])}` : sql``
	return deps.database.rows(
		sql`select id, workspace_id as "workspaceId", must_have as "mustHave", updated_at::text as "updatedAt" from jobs
where updated_at >= ${since.toISOString()}::timestamptz${after} order by ${orderBy(CHANGED_ORDER)} limit ${o.limit ?? 500}`,
	)
}

export interface JobQuestion {
	id: string
	position: number
	prompt: string
	/** `text` or `yes_no`. */
	kind: string
	required: boolean
}

/** A job's screening questions in order. */
export async function jobQuestionsOf(deps: AppDeps, jobId: string): Promise<JobQuestion[]> {
	return deps.db
		.select({ id: jobQuestions.id, position: jobQuestions.position, prompt: jobQuestions.prompt, kind: jobQuestions.kind, required: jobQuestions.required })
		.from(jobQuestions)
		.where(eq(jobQuestions.jobId, jobId))
		.orderBy(asc(jobQuestions.position))
}

/** Requirements of every job of a workspace, oldest first (demo data draws on them). */
export async function workspaceJobs(deps: AppDeps, workspaceId: string): Promise<(JobRequirements & { openedAt: Date })[]> {
	const rows = await deps.database.rows<JobRequirements & { openedAt: string | Date }>(
		sql`select id, title, status, vendor_id as "vendorId", created_by_user_id as "createdByUserId", must_have as "mustHave", nice_to_have as "niceToHave",
			coalesce(published_at, created_at) as "openedAt" from jobs where workspace_id = ${workspaceId} order by created_at, id`,
	)
	return rows.map((r) => ({ ...r, mustHave: r.mustHave ?? [], niceToHave: r.niceToHave ?? [], openedAt: new Date(r.openedAt) }))
}
