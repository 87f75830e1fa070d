/**
 * The retention rule: in each workspace that set "erase candidates with no activity for N months",
 * the daily sweep erases the candidates with no activity for that long in any module that holds
 * something about them (each contribution to the candidate-data port says what counts: profile,
 * applications and notes, messages, interviews, documents and vendor submissions, the bench,
 * scorecards, to-dos; modules/privacy/retention.test.ts fails when a contribution says nothing).
 * Each is its own erasure (legal hold included); then the rule e-mails the
 * workspace's owners a summary through the outbox (how many were erased, and how many erasures failed
 * and wait for their retry: counts, never names). At most `PER_RUN` a workspace a day, so a first
 * run on a large old database spreads over days instead of holding the database for hours. An
 * erasure that fails is recorded and tried again after a backoff (retention-failures.ts): the rule
 * passes over that candidate meanwhile, so one that always fails (the oldest, first in every run)
 * takes no place from the others, and the operator sees it in the log and on `/metrics`.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { monthsBefore } from '../../core/time.ts'
import { plural } from '../../core/ui.ts'
import { listPeople, operatorActor, workspacesById } from '../auth/index.ts'
import { contributionsTo } from '../../core/registry.ts'
import { candidateData, candidateWorkspace, type InactiveCursor, inactiveCandidates } from '../candidates/index.ts'
import { enqueueMail } from '../outbox/index.ts'
import { MAX_RETRY_DAYS, recordRetentionFailure, retentionFailureCount, waitingToRetry } from './retention-failures.ts'
import { eraseCandidate } from './service.ts'

export const PER_RUN = 500

/** Who the activity log and the audit trail name for the rule's erasures. */
const ruleActor = (ws: { id: string; slug: string }): Actor => ({
	...operatorActor(ws),
	name: 'Retention rule',
	credential: { kind: 'cli', id: '', name: 'retention rule' },
})

export interface RetentionRun {
	workspaceId: string
	erased: number
	/** Candidates whose erasure failed in this run: recorded, and tried again after their backoff. */
	failed: number
	/** True when more inactive candidates are left for the next run. */
	more: boolean
}

export async function runRetention(deps: AppDeps, perRun = PER_RUN): Promise<RetentionRun[]> {
	const rules = await deps.database.rows<{ workspaceId: string; months: number }>(
		sql`select workspace_id as "workspaceId", inactive_months as months from privacy_settings where inactive_months is not null order by workspace_id`,
	)
	const workspaces = await workspacesById(
		deps.db,
		rules.map((r) => r.workspaceId),
	)
	const runs: RetentionRun[] = []
	for (const rule of rules) {
		const ws = workspaces.get(rule.workspaceId)
		if (!ws) continue
		const before = monthsBefore(deps.now(), rule.months)
		const ids = await quietCandidates(deps, ws.id, before, perRun + 1)
		let erased = 0
		let failed = 0
		for (const id of ids.slice(0, perRun)) {
			const outcome = await eraseOne(deps, ws, id)
			if (outcome === 'erased') erased++
			if (outcome === 'failed') failed++
		}
		const more = ids.length > perRun
		if (erased || failed) await tellOwners(deps, ws, { months: rule.months, erased, failed, more })
		runs.push({ workspaceId: ws.id, erased, failed, more })
	}
	return runs
}

/**
 * Erases one candidate for the rule. One erased meanwhile (by another instance's run, an owner) is
 * gone, not failed; a failure is recorded with its backoff and logged, and the run goes on.
 */
async function eraseOne(deps: AppDeps, ws: { id: string; slug: string }, candidateId: string): Promise<'erased' | 'gone' | 'failed'> {
	try {
		await eraseCandidate(deps, ruleActor(ws), candidateId, 'retention')
		return 'erased'
	} catch (error) {
		if ((await candidateWorkspace(deps, candidateId))?.id !== ws.id) return 'gone'
		const retry = await recordRetentionFailure(deps, ws.id, candidateId, deps.now()).catch((recordError) => {
			deps.log.error('the retention rule could not record a failed erasure', { candidateId, error: recordError })
			return null
		})
		deps.log.warn('the retention rule could not erase a candidate; it tries again later', {
			workspaceId: ws.id,
			candidateId,
			failures: retry?.failures,
			retryAt: retry?.retryAt.toISOString(),
			error,
		})
		return 'failed'
	}
}

/**
 * Candidates with no activity since `before`: none in the candidates module's records (profile,
 * applications, notes), nor in any other module holding candidate data (its `activeSince`), and not
 * waiting out the backoff of a failed erasure. Read a page at a time until `limit` are found: the
 * oldest inactive ones there may be kept by activity elsewhere (a bench entry, a message) or be
 * waiting to be tried again, and they stay oldest every day, so one page alone would never reach the
 * quiet candidates behind them.
 */
async function quietCandidates(deps: AppDeps, workspaceId: string, before: Date, limit: number): Promise<string[]> {
	const quiet: string[] = []
	let after: InactiveCursor | undefined
	while (quiet.length < limit) {
		const page = await inactiveCandidates(deps, workspaceId, before, limit, after)
		if (!page.ids.length) break
		const passedOver = await waitingToRetry(deps, workspaceId, page.ids, deps.now())
		for (const source of contributionsTo(deps.registry, candidateData))
			for (const id of (await source.activeSince?.(deps, workspaceId, page.ids, before)) ?? []) passedOver.add(id)
		quiet.push(...page.ids.filter((id) => !passedOver.has(id)))
		if (page.ids.length < limit || !page.last) break
		after = page.last
	}
	return quiet.slice(0, limit)
}

/**
 * The run's summary to the workspace's owners: how many candidates it erased, and how many erasures
 * failed (in this run, and in all, waiting for their retry): counts only, never who (mail leaves the
 * system; the operator's log names them). Sent when the run erased or failed to erase someone.
 */
async function tellOwners(deps: AppDeps, ws: { id: string; slug: string }, o: { months: number; erased: number; failed: number; more: boolean }) {
	await deps.db.transaction(async (tx) => {
		const owners = (await listPeople(tx, ws.id)).filter((p) => p.role === 'owner')
		// At least this run's: one whose failure could not be recorded is still one that failed.
		const retrying = Math.max(o.failed, await retentionFailureCount(tx, ws.id))
		const who = plural(o.erased, 'candidate')
		const subject = [o.erased ? `${who} erased` : '', o.failed ? `${plural(o.failed, 'erasure')} failed` : ''].filter(Boolean).join(', ')
		const erasedText = o.erased
			? `The workspace's retention rule erased ${who} with no activity for ${o.months} months (no change to their profile, their applications or their notes, no message, interview, document, vendor submission, bench entry, scorecard or to-do).${
					o.more ? ' More remain: they are erased in the next daily runs.' : ''
				}\n\n`
			: ''
		for (const owner of owners)
			await enqueueMail(
				tx,
				{
					workspaceId: ws.id,
					to: owner.email,
					subject: `Retention: ${subject}`,
					text: `${erasedText}${failedText(o.failed, retrying)}${o.erased ? 'Each erasure is in the activity log and the audit trail. ' : ''}The rule is set at ${deps.config.baseUrl}/settings/privacy.\n`,
				},
				deps,
			)
	})
}

/**
 * The failed erasures, counted: those of this run and all those waiting to be tried again (the
 * backoff of retention-failures.ts). Their data stays until an erasure succeeds.
 */
function failedText(failed: number, retrying: number): string {
	if (!retrying) return ''
	const now = failed ? `The rule could not erase ${plural(failed, 'candidate')} in this run. ` : ''
	const waiting = `${plural(retrying, 'candidate')} the rule could not erase ${retrying === 1 ? 'is' : 'are'} kept until a later try succeeds`
	return `${now}${waiting}: each is tried again after a wait that doubles with each failure (1, 2, 4… up to ${MAX_RETRY_DAYS} days). The server's log says which, for the operator.\n\n`
}
