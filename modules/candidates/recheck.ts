/**
 * Keeping résumé checks current without a hook in the jobs module (which the candidates module
 * requires, so it cannot call back): every stored check records the must-haves, the résumé hash and
 * the method version it was made with, and is re-run when any of them differs —
 * - lazily, whenever an application is read in full or ranked (`get_application`, `get_candidate`,
 *   `get_job_applicants`), so what a person sees is never stale;
 * - by a sweep every minute over the jobs changed since the last sweep, so scores shown in lists
 *   catch up within a minute after a vendor edits a job's must-haves.
 * Re-running is idempotent (same inputs, same result), so several instances may sweep at once.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { jobRequirements, jobsChangedSince } from '../jobs/index.ts'
import { checkResume, RESUME_CHECK_VERSION, type ResumeCheck } from './resume-check.ts'
import { inList } from './reach.ts'

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
 * A job-wide refresh reads every application of the job with its candidate's résumé (5,000 rows
 * on a busy job), and a job's page ranks its applicants and its leads at the same time: a call
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
	const filter = which.jobId ? sql`a.job_id = ${which.jobId}` : sql`a.id in ${inList(which.applicationIds!)}`
	const states = await deps.database.rows<CheckState>(
		sql`select a.id, a.job_id as "jobId", a.resume_check->>'version' as version, a.resume_check->'mustHaves' as "mustHaves", a.resume_check->>'resumeHash' as "resumeHash", md5(coalesce(c.resume_text, '')) as hash
		from applications a join candidates c on c.id = a.candidate_id where a.workspace_id = ${workspaceId} and ${filter}`,
	)
	if (!states.length) return 0
	const jobs = await jobRequirements(deps, workspaceId, [...new Set(states.map((s) => s.jobId))])
	const stale = states.filter((s) => {
		const job = jobs.get(s.jobId)
		if (!job) return false
		return Number(s.version) !== RESUME_CHECK_VERSION || !sameList(s.mustHaves, job.mustHave) || s.resumeHash !== s.hash
	})
	if (!stale.length) return 0
	const texts = await deps.database.rows<{ id: string; text: string | null }>(
		sql`select a.id, c.resume_text as text from applications a join candidates c on c.id = a.candidate_id where a.workspace_id = ${workspaceId} and a.id in ${inList(stale.map((s) => s.id))}`,
	)
	const now = deps.now()
	for (const row of texts) {
		const job = jobs.get(stale.find((s) => s.id === row.id)!.jobId)!
		await saveCheck(deps, row.id, checkResume(row.text, job.mustHave, now))
	}
	return texts.length
}

const sameList = (a: string[] | null, b: string[]) => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i])

/** Stores a check and its score on the application. */
export async function saveCheck(deps: Pick<AppDeps, 'database'>, applicationId: string, check: ResumeCheck, handle = deps.database.db): Promise<void> {
	await handle.execute(sql`update applications set resume_check = ${JSON.stringify(check)}::jsonb, resume_score = ${check.score} where id = ${applicationId}`)
}

/** Re-checks the applications of every job changed at or after `since`; returns how many were re-run. */
export async function recheckChangedJobs(deps: AppDeps, since: Date): Promise<number> {
	let n = 0
	for (const job of await jobsChangedSince(deps, since)) n += await refreshChecks(deps, job.workspaceId, { jobId: job.id })
	return n
}

/** Starts the sweep of recently changed jobs; returns the stop function. */
export function startRecheckSweep(deps: AppDeps, everyMs = 60_000): () => void {
	let since = new Date(deps.now().getTime() - 86_400_000)
	let running = false
	const tick = async () => {
		if (running) return
		running = true
		const started = deps.now()
		try {
			await recheckChangedJobs(deps, new Date(since.getTime() - 5_000))
			since = started
		} catch (error) {
			deps.log.warn('résumé re-check sweep failed; it will be retried', { error })
		} finally {
			running = false
		}
	}
	const timer = setInterval(tick, everyMs)
	void tick()
	return () => clearInterval(timer)
}
