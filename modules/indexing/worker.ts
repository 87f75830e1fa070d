/**
 * Sends the queued notices: every instance runs one worker; each round claims the due notices with
 * `FOR UPDATE SKIP LOCKED` under a lease, in a short transaction that commits before anything is sent
 * (no transaction waits on a search engine; a worker that dies leaves rows claimed again once the lease
 * passes). IndexNow gets one request per host a round, with every waiting page of that host (a round
 * every few seconds: the protocol asks for batches, not a request per page); the Indexing API one per
 * page. Sent notices are removed unless they changed meanwhile; each failed notice waits the next
 * step of RETRY_SCHEDULE_MS by its own count of attempts (one request may carry new and old ones)
 * and is dropped, with a warning, after the last step or when the engine refuses.
 * Never in the way of a publish: the events consumer queues, this sends later.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { INDEXNOW_MAX_URLS, sendGoogle, sendIndexNow, type SendOutcome } from './senders.ts'
import { indexingNotices } from './table.ts'
import { runEvery } from '../../core/every.ts'

export const RETRY_SCHEDULE_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]
const LEASE_MS = 60_000
const CLAIM_LIMIT = 2_000
export const DEFAULT_POLL_MS = 3_000

interface Claimed {
	id: string
	target: 'indexnow' | 'google'
	url: string
	action: 'updated' | 'deleted'
	version: number
	attempts: number
}

async function claim(deps: AppDeps, workspaceId?: string): Promise<Claimed[]> {
	const only = workspaceId ? sql`and workspace_id = ${workspaceId}` : sql``
	return deps.database.rows<Claimed>(sql`update ${indexingNotices} set next_attempt_at = now() + ${LEASE_MS} * interval '1 millisecond'
		where id in (select id from ${indexingNotices} where next_attempt_at <= now() ${only} order by next_attempt_at limit ${CLAIM_LIMIT} for update skip locked)
		returning id, target, url, action, version, attempts`)
}

/** Removes the notices that were not changed since they were claimed (a change is announced on its own). */
async function removeUnchanged(deps: AppDeps, notices: readonly Claimed[]) {
	const pairs = sql.join(
		notices.map((n) => sql`(${n.id}, ${n.version})`),
		sql`, `,
	)
	await deps.db.delete(indexingNotices).where(sql`(${indexingNotices.id}, ${indexingNotices.version}) in (${pairs})`)
}

/**
 * Puts off the notices that failed until the next step of each one's own schedule (its attempts so
 * far pick the wait: a batch mixes new notices and old ones). Like `removeUnchanged`, a notice
 * changed meanwhile is left alone: the change made it due at once with its attempts started over.
 */
async function retryUnchanged(deps: AppDeps, notices: readonly Claimed[]) {
	const rows = sql.join(
		notices.map((n) => sql`(${n.id}, ${n.version}::int, ${n.attempts + 1}::int, ${RETRY_SCHEDULE_MS[n.attempts]}::int)`),
		sql`, `,
	)
	await deps.database.rows(sql`update ${indexingNotices} as n set attempts = v.attempts, next_attempt_at = now() + v.wait * interval '1 millisecond'
		from (values ${rows}) as v(id, version, attempts, wait) where n.id = v.id and n.version = v.version`)
}

/** What becomes of the notices one request carried, each by its own count of attempts. */
async function settle(deps: AppDeps, notices: readonly Claimed[], result: SendOutcome) {
	if (!notices.length) return
	if (result.outcome === 'sent') return removeUnchanged(deps, notices)
	// A refusal is dropped whatever the count; a failure only past the last step of the schedule.
	const hasNextStep = (n: Claimed) => result.outcome === 'retry' && RETRY_SCHEDULE_MS[n.attempts] !== undefined
	const later = notices.filter(hasNextStep)
	const dropped = notices.filter((n) => !hasNextStep(n))
	const about = { target: notices[0]!.target, reason: result.reason }
	if (dropped.length) {
		deps.log.warn('search engine notices dropped', { ...about, pages: dropped.length, attempts: Math.max(...dropped.map((n) => n.attempts + 1)) })
		await removeUnchanged(deps, dropped)
	}
	if (later.length) {
		deps.log.info('search engine notices will be tried again', { ...about, pages: later.length })
		await retryUnchanged(deps, later)
	}
}

/** One round: claims what is due and sends it. Returns how many notices were handled. */
export async function sendDueNotices(deps: AppDeps, options: { workspaceId?: string } = {}): Promise<number> {
	const claimed = await claim(deps, options.workspaceId)
	const byHost = new Map<string, Claimed[]>()
	for (const n of claimed.filter((c) => c.target === 'indexnow')) {
		const host = new URL(n.url).host
		byHost.set(host, [...(byHost.get(host) ?? []), n])
	}
	for (const [host, notices] of byHost)
		for (let i = 0; i < notices.length; i += INDEXNOW_MAX_URLS) {
			const batch = notices.slice(i, i + INDEXNOW_MAX_URLS)
			await settle(
				deps,
				batch,
				await sendIndexNow(
					deps,
					host,
					batch.map((n) => n.url),
				),
			)
		}
	for (const n of claimed.filter((c) => c.target === 'google')) await settle(deps, [n], await sendGoogle(deps, n.url, n.action))
	return claimed.length
}

export function startIndexingWorker(deps: AppDeps, pollMs = DEFAULT_POLL_MS): () => Promise<void> {
	return runEvery(deps.log, { everyMs: pollMs, failure: 'search engine notices could not be sent this round' }, () => sendDueNotices(deps))
}
