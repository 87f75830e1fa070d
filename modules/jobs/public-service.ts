/** Jobs as the public careers site sees them: only open jobs are live. */
import { type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { JOB_COLUMNS, type JobRow } from './rows.ts'
import { jobRanking } from './search.ts'
import { jobs } from './table.ts'

export type PublicJob = JobRow

/** A workspace's open jobs, newest published first, all of them (the demo's analytics seed; the careers list pages through `findOpenJobs`). */
export async function listOpenJobs(deps: AppDeps, workspaceId: string): Promise<PublicJob[]> {
	return deps.database.rows<PublicJob>(
		sql`select ${JOB_COLUMNS} from ${jobs} j where workspace_id = ${workspaceId} and status = 'Open' order by published_at desc, id desc`,
	)
}

/** The job behind a public address, whatever its status (a closed job answers 410, not 404). */
export async function findJobBySlug(deps: AppDeps, workspaceId: string, slug: string): Promise<PublicJob | null> {
	const [row] = await deps.database.rows<PublicJob>(sql`select ${JOB_COLUMNS} from ${jobs} j where workspace_id = ${workspaceId} and slug = ${slug}`)
	return row ?? null
}

/** The job of a workspace with this id (an address by id: `jobAddress`), or null. */
export async function findJobById(deps: AppDeps, workspaceId: string, id: string): Promise<PublicJob | null> {
	const [row] = await deps.database.rows<PublicJob>(sql`select ${JOB_COLUMNS} from ${jobs} j where workspace_id = ${workspaceId} and id = ${id}`)
	return row ?? null
}

export interface OpenJobQuery {
	/** What was typed: matched and ranked as the `search` tool does (`jobRanking`); '' for none. */
	q: string
	/** More conditions on the job `j` (the careers site's filters). */
	where: readonly SQL[]
	limit: number
	offset?: number
	/** Only jobs published in (after, through]: the new jobs of a job alert's digest. */
	publishedAfter?: Date
	publishedThrough?: Date
}

/**
 * A workspace's open jobs that match, in one statement with their total (`count(*) over ()`): by
 * relevance when something was typed (ties: the latest change, as in the `search` tool), else
 * newest published first. `db`: the caller's transaction, when it has one.
 */
export async function findOpenJobs(deps: AppDeps, workspaceId: string, o: OpenJobQuery, db?: Db): Promise<{ jobs: PublicJob[]; total: number }> {
	const ranked = o.q.trim() ? jobRanking(o.q) : null
	const where = [sql`j.workspace_id = ${workspaceId}`, sql`j.status = 'Open'`, ...o.where]
	if (ranked) where.push(ranked.matches)
	if (o.publishedAfter) where.push(sql`j.published_at > ${o.publishedAfter.toISOString()}`)
	if (o.publishedThrough) where.push(sql`j.published_at <= ${o.publishedThrough.toISOString()}`)
	const order = ranked ? sql`${ranked.score} desc, j.updated_at desc, j.id` : sql`j.published_at desc, j.id desc`
	const rows = await deps.database.rows<PublicJob & { total: number | string }>(
		sql`select ${JOB_COLUMNS}, count(*) over () as total from ${jobs} j ${ranked?.lateral ?? sql``}
		where ${sql.join(where, sql` and `)} order by ${order} limit ${o.limit} offset ${o.offset ?? 0}`,
		db,
	)
	return { jobs: rows.map(({ total: _, ...job }) => job as PublicJob), total: Number(rows[0]?.total ?? 0) }
}
