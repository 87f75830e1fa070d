/**
 * Keeping résumé checks current without a hook in the jobs module (which the candidates module
 * requires, so it cannot call back): every stored check records the must-haves, the résumé hash and
 * the method version it was made with, and is re-run when any of them differs. A changed résumé
 * removes the `resumeHash` of its applications' checks in the transaction that changes it, whatever
 * writes it (trigger `candidates_resume_changed`, migrations/0003), so a job-wide re-check decides
 * from the application rows alone. Checks are re-run —
 * - lazily, whenever an application is read in full or ranked (`get_application`, `get_candidate`,
 *   `get_job_applicants`), so what a person sees is never stale;
 * - by a sweep every minute over the jobs changed since the last sweep, so scores shown in lists
 *   catch up within a minute after a vendor edits a job's must-haves.
 * Re-running is idempotent (same inputs, same result), so several instances may sweep at once.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { type ChangedJobsCursor, jobRequirements, jobsChangedSince } from '../jobs/index.ts'
import { applicationResumeHashSql, applicationResumeTextSql, checkResume, RESUME_CHECK_VERSION, type ResumeCheck } from './resume-check.ts'
import { inList } from '../../core/sql-list.ts'
import { runEvery } from '../../core/every.ts'

interface CheckState {
	id: string
	jobId: string
	version: string | null
	mustHaves: string[] | null
	resumeHash: string | null
	hash: string
}

/** Job-wide refreshes under way in this process, by workspace and job. */
const jobRefreshes = new Map<string, Promise<number>>()

/**
 * Re-runs the stale checks among some applications of one workspace (by id, or all of one job's).
 * Returns how many were re-run.
 *
 * A job-wide refresh reads every application of the job (5,000 rows on a busy job), and a job's
 * page ranks its applicants and its leads at the same time: a call
 * for a job whose refresh is already under way waits for that one instead of reading it all again
 * (it sees checks as of a moment before it was made, as if it had come a few milliseconds earlier).
 */
export function refreshChecks(deps: AppDeps, workspaceId: string, which: { applicationIds?: string[]; jobId?: string }): Promise<number> {
	if (!which.jobId) return refreshSome(deps, workspaceId, which)
	const key = `${workspaceId}:${which.jobId}`
	let running = jobRefreshes.get(key)
	if (!running) {
		running = refreshSome(deps, workspaceId, which).finally(() => jobRefreshes.delete(key))
		jobRefreshes.set(key, running)
	}
	return running
}

async function refreshSome(deps: AppDeps, workspaceId: string, which: { applicationIds?: string[]; jobId?: string }): Promise<number> {
	if (which.applicationIds && !which.applicationIds.length) return 0
	let stale: { id: string; jobId: string }[]
	let jobs: Awaited<ReturnType<typeof jobRequirements>>
	if (which.jobId) {
		// Job-wide: decided from the application rows alone. A changed résumé has already removed the
		// `resumeHash` of its applications' checks (trigger `candidates_resume_changed`, in the
		// transaction that changed it), so only the method version and the job's must-haves are
		// compared: no applicant's résumé is read (5,000 on a busy job).
		jobs = await jobRequirements(deps, workspaceId, [which.jobId])
		const job = jobs.get(which.jobId)
		if (!job) return 0
		stale = await deps.database.rows<{ id: string; jobId: string }>(
			sql`select a.id, a.job_id as "jobId" from applications a where a.workspace_id = ${workspaceId} and a.job_id = ${which.jobId}
			and ${staleCheck(sql`${JSON.stringify(job.mustHave)}::jsonb`)}`,
		)
	} else {
		const states = await deps.database.rows<CheckState>(
			sql`select a.id, a.job_id as "jobId", a.resume_check->>'version' as version, a.resume_check->'mustHaves' as "mustHaves", a.resume_check->>'resumeHash' as "resumeHash", ${applicationResumeHashSql('a', 'c')} as hash
			from applications a join candidates c on c.id = a.candidate_id where a.workspace_id = ${workspaceId} and a.id in ${inList(which.applicationIds!)}`,
		)
		if (!states.length) return 0
		jobs = await jobRequirements(deps, workspaceId, [...new Set(states.map((s) => s.jobId))])
		stale = states.filter((s) => {
			const job = jobs.get(s.jobId)
			if (!job) return false
			return Number(s.version) !== RESUME_CHECK_VERSION || !sameList(s.mustHaves, job.mustHave) || s.resumeHash !== s.hash
		})
	}
	if (!stale.length) return 0
	const jobOf = new Map(stale.map((s) => [s.id, s.jobId]))
	const texts = await deps.database.rows<{ id: string; text: string | null }>(
		sql`select a.id, ${applicationResumeTextSql('a', 'c')} as text from applications a join candidates c on c.id = a.candidate_id where a.workspace_id = ${workspaceId} and a.id in ${inList(stale.map((s) => s.id))}`,
	)
	const now = deps.now()
	for (const row of texts) {
		const job = jobs.get(jobOf.get(row.id)!)!
		await saveCheck(deps, row.id, checkResume(row.text, job.mustHave, now))
	}
	return texts.length
}

/** Whether application `a`'s stored check is not the one its job's must-haves (`mustHaves`, jsonb) and the current method give, or lost its résumé hash (the résumé changed). */
const staleCheck = (mustHaves: SQL) =>
	sql`not coalesce(a.resume_check->'version' = ${String(RESUME_CHECK_VERSION)}::jsonb and a.resume_check->'mustHaves' = ${mustHaves} and a.resume_check ? 'resumeHash', false)`

/**
 * The jobs of a page of changed jobs (of any workspaces) with an application to re-check, told in
 * one statement by the same rule as a job-wide refresh, with the must-haves the page read. After a
 * vendor changes thousands of jobs every instance sweeps them, and nearly all are found up to date
 * (another instance, or a read, re-checked them): asking job by job made that thousands of round
 * trips each minute for nothing.
 */
function jobsToRecheck(deps: AppDeps, page: { id: string; workspaceId: string; mustHave: string[] | null }[]) {
	if (!page.length) return Promise.resolve([])
	const column = <T>(f: (job: (typeof page)[number]) => T) => sql.param(page.map(f))
	return deps.database.rows<{ id: string; workspaceId: string }>(
		sql`select j.id, j.workspace_id as "workspaceId"
from unnest(${column((j) => j.id)}::text[], ${column((j) => j.workspaceId)}::text[], ${column((j) => JSON.stringify(j.mustHave ?? []))}::text[]) j(id, workspace_id, must_have)
where exists (select 1 from applications a where a.job_id = j.id and a.workspace_id = j.workspace_id and ${staleCheck(sql`j.must_have::jsonb`)})`,
	)
}

const sameList = (a: string[] | null, b: string[]) => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i])

/**
 * Stores a check and its score on the application, unless the candidate's résumé is no longer the
 * one checked (changed since it was read): the application then keeps its check marked stale, and
 * the next read checks it again. The candidate's row is locked for share, so a résumé change either
 * waits for this write (and then marks it stale) or is seen by it.
 */
export async function saveCheck(deps: Pick<AppDeps, 'database'>, applicationId: string, check: ResumeCheck, handle = deps.database.db): Promise<void> {
	await handle.execute(
		sql`update applications a set resume_check = ${JSON.stringify(check)}::jsonb, resume_score = ${check.score} where a.id = ${applicationId}
		and exists (select 1 from candidates c where c.id = a.candidate_id and ${applicationResumeHashSql('a', 'c')} = ${check.resumeHash} for share)`,
	)
}

/**
 * Re-checks the applications of every job changed at or after `since`, a page of jobs at a time
 * (a vendor may change thousands at once); returns how many were re-run.
 */
export async function recheckChangedJobs(deps: AppDeps, since: Date, pageSize = 500): Promise<number> {
	let n = 0
	let after: ChangedJobsCursor | undefined
	for (;;) {
		const page = await jobsChangedSince(deps, since, { after, limit: pageSize })
		for (const job of await jobsToRecheck(deps, page)) n += await refreshChecks(deps, job.workspaceId, { jobId: job.id })
		if (page.length < pageSize) return n
		after = page.at(-1)
	}
}

/** Starts the sweep of recently changed jobs; returns the stop function. */
export function startRecheckSweep(deps: AppDeps, everyMs = 60_000): () => Promise<void> {
	let since = new Date(deps.now().getTime() - 86_400_000)
	return runEvery(deps.log, { everyMs, firstAfterMs: 0, failure: 'résumé re-check sweep failed; it will be retried' }, async () => {
		const started = deps.now()
		await recheckChangedJobs(deps, new Date(since.getTime() - 5_000))
		since = started
	})
}
