/** Applicant counts and counts per stage for the job tools (`list_jobs`, `get_job`). */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { JobFacts } from '../jobs/index.ts'
import { compile } from '../../db/client.ts'
import { IN_ITS_STAGE } from './progress.ts'

/**
 * Counts over the applications that are not archived: `applicantCount` counts applicants (not
 * leads), rejected and withdrawn ones too; `applicationsByStage` counts both kinds that stand in
 * their stage (`IN_ITS_STAGE`, progress.ts: not rejected or withdrawn), the job board's column
 * counts, so a rejected application moved into Hired is no hire. The job tools pass only jobs the
 * actor can see, and counts reveal no candidate, so every role that reads jobs gets them.
 */
// One text for any number of jobs (a list's page, one job), built once: it stays prepared. Read from
// the index `applications_job_counts` alone (migrations/0009_applications_job_counts_outcome.sql).
const COUNTS = compile(
	sql`select a.job_id as "jobId", a.stage_key as "stageKey", a.kind, count(*)::int as n, (count(*) filter (where ${IN_ITS_STAGE}))::int as "inStage"
	from applications a where a.workspace_id = ${sql.placeholder('workspaceId')} and a.job_id = any(${sql.placeholder('jobIds')}::text[]) and a.archived = false group by 1, 2, 3`,
)

export async function candidateJobFacts(deps: AppDeps, actor: Actor, jobIds: string[]): Promise<Map<string, JobFacts>> {
	const facts = new Map<string, { applicantCount: number; applicationsByStage: Record<string, number> }>()
	if (!jobIds.length) return facts
	const rows = await deps.database.run<{ jobId: string; stageKey: string; kind: string; n: number; inStage: number }>(COUNTS, {
		workspaceId: actor.workspaceId,
		jobIds,
	})
	for (const id of jobIds) facts.set(id, { applicantCount: 0, applicationsByStage: {} })
	for (const r of rows) {
		const f = facts.get(r.jobId)!
		if (r.kind === 'applicant') f.applicantCount += r.n
		if (r.inStage) f.applicationsByStage[r.stageKey] = (f.applicationsByStage[r.stageKey] ?? 0) + r.inStage
	}
	return facts
}
