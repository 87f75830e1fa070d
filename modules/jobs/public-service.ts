/** Jobs as the public careers site sees them: only open jobs are live. */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { JOB_COLUMNS, type JobRow } from './rows.ts'
import { jobs } from './table.ts'

export type PublicJob = JobRow

/** A workspace's open jobs, newest published first (no cap: the careers list shows them all). */
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
