/**
 * The outbox worker: delivers due e-mail and messages, retrying with exponential backoff.
 *
 * Rules:
 * - Rows are claimed with `FOR UPDATE SKIP LOCKED` and marked `sending` with a lease (their
 *   `next_attempt_at` moves past the lease) before anything is sent, and the claim commits before
 *   sending: several instances never claim the same row, and no transaction stays open while a
 *   slow SMTP server answers. A worker that dies mid-send leaves the row `sending`; it is claimed
 *   again once the lease has passed (delivery is at least once, never lost).
 * - A failure is retried after base·2^(attempt−1), capped; after `maxAttempts` attempts, or at once
 *   for a permanent failure (SMTP 5xx, provider 4xx, missing attachment), the row is `failed`
 *   with `lastError`, visible on the outbox page, and can be put back in the queue from there.
 * - Without `SMTP_URL` e-mail is not claimed: it stays `pending` in the outbox (the dev mailbox).
 *   Without a messaging provider, queued messages are marked `not_sent` with the reason.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { sendMail } from './mail.ts'
import { NO_PROVIDER, sendMessage } from './messaging.ts'
import { outbox, type OutboxAttachment } from './table.ts'

export interface WorkerOptions {
	/** How often to look for due rows (ms). */
	pollMs: number
	/** Rows claimed per round. */
	batchSize: number
	/** First retry delay (ms); doubles with every attempt. */
	baseDelayMs: number
	/** Longest retry delay (ms). */
	maxDelayMs: number
	/** Attempts before a row is marked failed. */
	maxAttempts: number
	/** How long a claimed row is reserved for the worker sending it (ms). */
	leaseMs: number
	/** Only rows of this workspace (tests; an operator draining one workspace). */
	workspaceId?: string
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = { pollMs: 2_000, batchSize: 20, baseDelayMs: 15_000, maxDelayMs: 3_600_000, maxAttempts: 10, leaseMs: 300_000 }

export interface ClaimedRow {
	id: string
	channel: 'email' | 'message'
	to: string
	subject: string | null
	text: string
	html: string | null
	attachments: OutboxAttachment[]
	messageId: string | null
	attempts: number
}

/** A failed delivery; `permanent` failures are not retried. */
export interface DeliveryError extends Error {
	permanent: boolean
}

export const retryDelay = (attempt: number, o: Pick<WorkerOptions, 'baseDelayMs' | 'maxDelayMs'>) => Math.min(o.baseDelayMs * 2 ** Math.max(0, attempt - 1), o.maxDelayMs)

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`

async function claimDue(deps: AppDeps, o: WorkerOptions): Promise<ClaimedRow[]> {
	const now = deps.now()
	const channels = deps.config.smtpUrl ? sql`o.channel in ('email', 'message')` : sql`o.channel = 'message'`
	const workspace = o.workspaceId ? sql` and o.workspace_id = ${o.workspaceId}` : sql``
	return deps.database.rows<ClaimedRow>(sql`
with due as (
	select o.id from ${outbox} o
	-- Rows are enqueued with the database's clock (microseconds) and retried on the app's (milliseconds):
	-- "due" is whichever is later, so a row enqueued in this very millisecond is not skipped.
	where o.status in ('pending', 'sending') and o.next_attempt_at <= greatest(now(), ${at(now)}) and ${channels}${workspace}
	order by o.next_attempt_at, o.id
	limit ${o.batchSize}
	for update skip locked
)
update ${outbox} o set status = 'sending', attempts = o.attempts + 1, next_attempt_at = ${at(new Date(now.getTime() + o.leaseMs))}
from due where o.id = due.id
returning o.id, o.channel, o."to", o.subject, o.text, o.html, o.attachments, o.message_id as "messageId", o.attempts`)
}

async function settle(deps: AppDeps, o: WorkerOptions, row: ClaimedRow, error: DeliveryError | null): Promise<void> {
	const now = deps.now()
	const mine = sql`id = ${row.id} and status = 'sending' and attempts = ${row.attempts}`
	if (!error) {
		await deps.database.rows(sql`update ${outbox} set status = 'sent', sent_at = ${at(now)}, last_error = null where ${mine}`)
		return
	}
	const message = error.message.slice(0, 1000)
	if (error.permanent || row.attempts >= o.maxAttempts) {
		await deps.database.rows(sql`update ${outbox} set status = 'failed', last_error = ${message} where ${mine}`)
		deps.log.warn('outbox delivery failed for good', { id: row.id, channel: row.channel, attempts: row.attempts, error: message })
		return
	}
	const next = new Date(now.getTime() + retryDelay(row.attempts, o))
	await deps.database.rows(sql`update ${outbox} set status = 'pending', next_attempt_at = ${at(next)}, last_error = ${message} where ${mine}`)
}

async function deliver(deps: AppDeps, row: ClaimedRow): Promise<DeliveryError | null> {
	try {
		if (row.channel === 'email') await sendMail(deps, row)
		else await sendMessage(deps, row)
		return null
	} catch (error) {
		const e = error as Partial<DeliveryError>
		return Object.assign(error instanceof Error ? error : new Error(String(error)), { permanent: e.permanent ?? false }) as DeliveryError
	}
}

export interface RoundResult {
	sent: number
	retried: number
	failed: number
}

/** One round: claims due rows and delivers them. Returns what happened (tests and logs). */
export async function deliverDue(deps: AppDeps, options: Partial<WorkerOptions> = {}): Promise<RoundResult> {
	const o = { ...DEFAULT_WORKER_OPTIONS, ...options }
	if (!deps.config.messaging) {
		const workspace = o.workspaceId ? sql` and workspace_id = ${o.workspaceId}` : sql``
		await deps.database.rows(sql`update ${outbox} set status = 'not_sent', last_error = ${NO_PROVIDER} where channel = 'message' and status = 'pending'${workspace}`)
	}
	const rows = await claimDue(deps, o)
	const result: RoundResult = { sent: 0, retried: 0, failed: 0 }
	await Promise.all(
		rows.map(async (row) => {
			const error = await deliver(deps, row)
			await settle(deps, o, row, error)
			if (!error) result.sent++
			else if (error.permanent || row.attempts >= o.maxAttempts) result.failed++
			else result.retried++
		}),
	)
	return result
}

/**
 * Starts polling; returns a stop function that waits for the round in progress. Rounds follow each
 * other without overlap; a full batch is followed at once by the next round.
 */
export function startOutboxWorker(deps: AppDeps, options: Partial<WorkerOptions> = {}): () => Promise<void> {
	const o = { ...DEFAULT_WORKER_OPTIONS, ...options }
	let stopped = false
	let timer: ReturnType<typeof setTimeout> | undefined
	let current: Promise<void> = Promise.resolve()
	const round = async () => {
		timer = undefined
		let busy = false
		try {
			const r = await deliverDue(deps, o)
			busy = r.sent + r.retried + r.failed >= o.batchSize
		} catch (error) {
			// The database may be restarting: try again next round.
			deps.log.warn('outbox round failed', { error })
		}
		if (!stopped) timer = setTimeout(() => (current = round()), busy ? 0 : o.pollMs)
	}
	timer = setTimeout(() => (current = round()), 0)
	return async () => {
		stopped = true
		if (timer) clearTimeout(timer)
		await current
	}
}
