/** Applicant counts and counts per stage for the job tools (`list_jobs`, `get_job`). */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { JobFacts } from '../jobs/index.ts'
import { inList } from '../../core/sql-list.ts'

/**
 * Counts over the applications that are not archived: `applicantCount` counts applicants (not
 * leads); `applicationsByStage` counts both. The job tools pass only jobs the actor can see, and
 * counts reveal no candidate, so every role that reads jobs gets them.
 */
export async function candidateJobFacts(deps: AppDeps, actor: Actor, jobIds: string[]): Promise<Map<string, JobFacts>> {
	const facts = new Map<string, { applicantCount: number; applicationsByStage: Record<string, number> }>()
	if (!jobIds.length) return facts
	const rows = await deps.database.rows<{ jobId: string; stageKey: string; kind: string; n: number }>(
		sql`select job_id as "jobId", stage_key as "stageKey", kind, count(*)::int as n from applications where workspace_id = ${actor.workspaceId} and job_id in ${inList(jobIds)} and archived = false group by job_id, stage_key, kind`,
	)
	for (const id of jobIds) facts.set(id, { applicantCount: 0, applicationsByStage: {} })
	for (const r of rows) {
		const f = facts.get(r.jobId)!
		if (r.kind === 'applicant') f.applicantCount += r.n
		f.applicationsByStage[r.stageKey] = (f.applicationsByStage[r.stageKey] ?? 0) + r.n
	}
	return facts
}
