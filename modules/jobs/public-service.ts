/** Jobs as the public careers site sees them: only open jobs are live. */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { JOB_COLUMNS, type JobRow } from './rows.ts'
import { jobs } from './table.ts'

export type PublicJob = JobRow

/** A workspace's open jobs, newest published first (no cap: the careers list and the sitemap show them all). */
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

/** Every open job of every workspace with its workspace's slug, in one query (the sitemap). */
export async function listAllOpenJobs(deps: AppDeps): Promise<(PublicJob & { workspaceSlug: string })[]> {
	return deps.database.rows<PublicJob & { workspaceSlug: string }>(
		sql`select ${JOB_COLUMNS}, w.slug as "workspaceSlug" from ${jobs} j join workspaces w on w.id = j.workspace_id where j.status = 'Open' order by w.created_at, j.published_at desc, j.id desc`,
	)
}
