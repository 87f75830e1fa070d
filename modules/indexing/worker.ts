/**
 * Sends the queued notices: every instance runs one worker; each round claims the due notices with
 * `FOR UPDATE SKIP LOCKED` under a lease, in a short transaction that commits before anything is sent
 * (no transaction waits on a search engine; a worker that dies leaves rows claimed again once the lease
 * passes). IndexNow gets one request per host a round, with every waiting page of that host (a round
 * every few seconds: the protocol asks for batches, not a request per page); the Indexing API one per
 * page. Sent notices are removed unless they changed meanwhile; failures wait the next step of
 * RETRY_SCHEDULE_MS and are dropped, with a warning, after its last step or when the engine refuses.
 * Never in the way of a publish: the events consumer queues, this sends later.
 */
import { inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { INDEXNOW_MAX_URLS, sendGoogle, sendIndexNow, type SendOutcome } from './senders.ts'
import { indexingNotices } from './table.ts'

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

async function settle(deps: AppDeps, notices: readonly Claimed[], result: SendOutcome) {
	if (result.outcome === 'sent') return removeUnchanged(deps, notices)
	const attempts = (notices[0]?.attempts ?? 0) + 1
	const wait = result.outcome === 'retry' ? RETRY_SCHEDULE_MS[attempts - 1] : undefined
	const target = notices[0]?.target
	if (wait === undefined) {
		deps.log.warn('search engine notices dropped', { target, pages: notices.length, reason: result.reason, attempts })
		return removeUnchanged(deps, notices)
	}
	deps.log.info('search engine notices will be tried again', { target, pages: notices.length, reason: result.reason, attempts })
	await deps.db
		.update(indexingNotices)
		.set({ attempts, nextAttemptAt: sql`now() + ${wait} * interval '1 millisecond'` })
		.where(
			inArray(
				indexingNotices.id,
				notices.map((n) => n.id),
			),
		)
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
	let running: Promise<unknown> | null = null
	const timer = setInterval(() => {
		if (running) return
		running = sendDueNotices(deps)
			.catch((error) => deps.log.warn('search engine notices could not be sent this round', { error }))
			.finally(() => (running = null))
	}, pollMs)
	timer.unref?.()
	return async () => {
		clearInterval(timer)
		await running
	}
}
