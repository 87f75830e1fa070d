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
 *   E-mail queued without `SMTP_URL` is `held` (service.ts) and never claimed, with or without it,
 *   until an operator releases it (held.ts).
 *   Without a messaging provider, queued messages are marked `not_sent` with the reason.
 * - A marketing message (a job alert) is checked against the unsubscribes just before it is sent, and
 *   recorded `not_sent` for one who unsubscribed since it was queued: no path into the queue can reach them.
 * - Every send has a deadline (`SMTP_TIMEOUT`, `MESSAGING_TIMEOUT`, both below the lease), and the
 *   running worker does not wait for a slow send before claiming more: each channel has `batchSize`
 *   sends in flight at most, and a free slot is filled at once. A hung SMTP server or provider
 *   holds up only its own rows, until their deadline; the other channel and the other rows go on.
 * - A value only the recipient may see (an upload link) is unsealed into the text just before each
 *   attempt and never written back; the row's sealed copy is erased when it is sent, failed or not
 *   sent (`private.ts`). A retry sends the same value again. Links queued in plain text before
 *   sealing existed are sealed once when the running worker starts (`legacy-links.ts`).
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { SpanKind, SpanStatusCode } from '../../core/tracing.ts'
import type { ClaimedRow, DeliveryError } from './delivery.ts'
import { sealWaitingLinks } from './legacy-links.ts'
import { sendMail } from './mail.ts'
import { NO_PROVIDER, sendMessage } from './messaging.ts'
import { messagingConfigured } from './settings.ts'
import { textToSend } from './private.ts'
import { isUnsubscribed, type Recipient, UNSUBSCRIBED } from './service.ts'
import { outbox } from './table.ts'

export interface WorkerOptions {
	/** How often to look for due rows (ms). */
	pollMs: number
	/** Rows claimed per round (the running worker: sends in flight per channel). */
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

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
	pollMs: 2_000,
	batchSize: 20,
	baseDelayMs: 15_000,
	maxDelayMs: 3_600_000,
	maxAttempts: 10,
	leaseMs: 300_000,
}

export const retryDelay = (attempt: number, o: Pick<WorkerOptions, 'baseDelayMs' | 'maxDelayMs'>) =>
	Math.min(o.baseDelayMs * 2 ** Math.max(0, attempt - 1), o.maxDelayMs)

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`

type Channel = ClaimedRow['channel']

/** Claims up to `limit` due rows of the given channels (both when omitted). */
async function claimDue(deps: AppDeps, o: WorkerOptions, limit: number, only?: Channel): Promise<ClaimedRow[]> {
	const now = deps.now()
	const sendable = deps.config.smtpUrl ? (['email', 'message'] as const) : (['message'] as const)
	const wanted = sendable.filter((c) => !only || c === only)
	if (!wanted.length || limit <= 0) return []
	const channels = sql`o.channel in (${sql.join(
		wanted.map((c) => sql`${c}`),
		sql`, `,
	)})`
	const workspace = o.workspaceId ? sql` and o.workspace_id = ${o.workspaceId}` : sql``
	return deps.database.rows<ClaimedRow>(sql`
with due as (
	select o.id from ${outbox} o
	-- Rows are enqueued with the database's clock (microseconds) and retried on the app's (milliseconds):
	-- "due" is whichever is later, so a row enqueued in this very millisecond is not skipped.
	where o.status in ('pending', 'sending') and not o.held and o.next_attempt_at <= greatest(now(), ${at(now)}) and ${channels}${workspace}
	order by o.next_attempt_at, o.seq
	limit ${limit}
	for update skip locked
)
update ${outbox} o set status = 'sending', attempts = o.attempts + 1, next_attempt_at = ${at(new Date(now.getTime() + o.leaseMs))}
from due where o.id = due.id
returning o.id, o.channel, o."to", o.subject, o.text, o.html, o.attachments, o.message_id as "messageId", o.attempts, o.carries_private as "carriesPrivate", o.private_sealed as "privateSealed",
	o.workspace_id as "workspaceId", o.recipient_type as "recipientType", o.recipient_id as "recipientId", o.marketing, o.calendar`)
}

async function settle(deps: AppDeps, o: WorkerOptions, row: ClaimedRow, error: DeliveryError | null): Promise<void> {
	const now = deps.now()
	const mine = sql`id = ${row.id} and status = 'sending' and attempts = ${row.attempts}`
	if (!error) {
		await deps.database.rows(sql`update ${outbox} set status = 'sent', sent_at = ${at(now)}, last_error = null, private_sealed = null where ${mine}`)
		return
	}
	const message = error.message.slice(0, 1000)
	if (error.notSent) {
		await deps.database.rows(sql`update ${outbox} set status = 'not_sent', last_error = ${message}, private_sealed = null where ${mine}`)
		return
	}
	if (error.permanent || row.attempts >= o.maxAttempts) {
		await deps.database.rows(sql`update ${outbox} set status = 'failed', last_error = ${message}, private_sealed = null where ${mine}`)
		// Not the message: an SMTP server's or messaging provider's words name the recipient (delivery.ts).
		deps.log.warn('outbox delivery failed for good', { id: row.id, channel: row.channel, attempts: row.attempts, reason: error.logged ?? error.name })
		return
	}
	const next = new Date(now.getTime() + retryDelay(row.attempts, o))
	await deps.database.rows(sql`update ${outbox} set status = 'pending', next_attempt_at = ${at(next)}, last_error = ${message} where ${mine}`)
}

async function deliver(deps: AppDeps, row: ClaimedRow): Promise<DeliveryError | null> {
	try {
		await refuseUnsubscribed(deps, row)
		const sending = { ...row, text: await privateFilledIn(deps, row) }
		if (row.channel === 'email') await sendMail(deps, sending)
		else await sendMessage(deps, sending)
		return null
	} catch (error) {
		const e = error as Partial<DeliveryError>
		return Object.assign(error instanceof Error ? error : new Error(String(error)), { permanent: e.permanent ?? false, notSent: e.notSent }) as DeliveryError
	}
}

/**
 * A marketing message is checked again just before it goes: whatever put it in the queue (queued before the
 * unsubscribe, a retry, a row put back by hand, another instance's claim), one who unsubscribed never gets it.
 */
async function refuseUnsubscribed(deps: AppDeps, row: ClaimedRow): Promise<void> {
	if (!row.marketing || !row.recipientType || !row.recipientId) return
	if (await isUnsubscribed(deps.db, row.workspaceId, { type: row.recipientType as Recipient['type'], id: row.recipientId }))
		throw Object.assign(new Error(UNSUBSCRIBED), { permanent: true, notSent: true } satisfies Partial<DeliveryError>)
}

/** The text as the recipient gets it; the value only they may see goes into this copy, never into the row. */
async function privateFilledIn(deps: AppDeps, row: ClaimedRow): Promise<string> {
	if (!row.carriesPrivate) return row.text
	// Erased already (a row put back in the queue by hand): sending the marker would reach the recipient without the link.
	if (row.privateSealed === null) throw Object.assign(new Error('its private link was erased when it was given up on; send a new one'), { permanent: true })
	try {
		return await textToSend(deps.secret, row)
	} catch {
		throw Object.assign(new Error('its private link could not be unsealed (was the server secret replaced?); send a new one'), { permanent: true })
	}
}

export interface RoundResult {
	sent: number
	retried: number
	failed: number
}

type Outcome = keyof RoundResult

/** Sends one claimed row and records the result (one span when tracing is on: `outbox deliver email`). */
async function deliverAndSettle(deps: AppDeps, o: WorkerOptions, row: ClaimedRow): Promise<Outcome> {
	const attributes = {
		'messaging.system': 'benchline-outbox',
		'messaging.operation.type': 'send',
		'benchline.outbox.channel': row.channel,
		'benchline.outbox.attempt': row.attempts,
	}
	return deps.tracing.inSpan(`outbox deliver ${row.channel}`, { kind: SpanKind.PRODUCER, attributes }, async (span) => {
		const error = await deliver(deps, row)
		await settle(deps, o, row, error)
		const outcome: Outcome = !error ? 'sent' : error.permanent || row.attempts >= o.maxAttempts ? 'failed' : 'retried'
		if (error) span?.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', outcome)
		return outcome
	})
}

/** Without a provider, queued messages will never go: they are recorded as not sent. */
async function markUnsendableMessages(deps: AppDeps, o: WorkerOptions): Promise<void> {
	if (messagingConfigured(deps)) return
	const workspace = o.workspaceId ? sql` and workspace_id = ${o.workspaceId}` : sql``
	await deps.database.rows(
		sql`update ${outbox} set status = 'not_sent', last_error = ${NO_PROVIDER}, private_sealed = null where channel = 'message' and status = 'pending'${workspace}`,
	)
}

/** One round: claims due rows, delivers them and waits for every send. Returns what happened (tests and logs). */
export async function deliverDue(deps: AppDeps, options: Partial<WorkerOptions> = {}): Promise<RoundResult> {
	const o = { ...DEFAULT_WORKER_OPTIONS, ...options }
	await markUnsendableMessages(deps, o)
	const rows = await claimDue(deps, o, o.batchSize)
	const result: RoundResult = { sent: 0, retried: 0, failed: 0 }
	await Promise.all(rows.map(async (row) => result[await deliverAndSettle(deps, o, row)]++))
	return result
}

/**
 * Starts polling; returns a stop function that waits for the sends in flight. Claims never overlap;
 * when a claim filled a channel's free slots, the next claim follows as soon as one of them is free.
 */
export function startOutboxWorker(deps: AppDeps, options: Partial<WorkerOptions> = {}): () => Promise<void> {
	const o = { ...DEFAULT_WORKER_OPTIONS, ...options }
	const channels = ['email', 'message'] as const
	const inFlight: Record<Channel, Set<Promise<void>>> = { email: new Set(), message: new Set() }
	/** The channel's last claim took all it could: more of its rows may be due. */
	const backlog: Record<Channel, boolean> = { email: false, message: false }
	const free = (channel: Channel) => o.batchSize - inFlight[channel].size
	let stopped = false
	let timer: ReturnType<typeof setTimeout> | undefined
	let claiming: Promise<void> | null = null
	/** Links queued before they were sealed are sealed once, before the first claim. */
	let legacySealed = false

	const schedule = (ms: number) => {
		// A claim in progress schedules the next one when it ends.
		if (stopped || claiming) return
		if (timer) clearTimeout(timer)
		timer = setTimeout(() => {
			timer = undefined
			claiming = claim().finally(() => {
				claiming = null
				schedule(channels.some((c) => backlog[c] && free(c) > 0) ? 0 : o.pollMs)
			})
		}, ms)
	}

	const send = (channel: Channel, row: ClaimedRow) => {
		const sending: Promise<void> = deliverAndSettle(deps, o, row)
			.then(
				() => {},
				// The row stays `sending` and is claimed again once its lease has passed.
				(error) => deps.log.warn('outbox delivery could not be recorded', { id: row.id, error }),
			)
			.finally(() => {
				inFlight[channel].delete(sending)
				if (backlog[channel]) schedule(0)
			})
		inFlight[channel].add(sending)
	}

	const claim = async () => {
		try {
			if (!legacySealed) {
				const n = await sealWaitingLinks(deps, o.workspaceId)
				if (n) deps.log.info('outbox: sealed upload links queued before links were sealed', { rows: n })
				legacySealed = true
			}
			await markUnsendableMessages(deps, o)
			for (const channel of channels) {
				const limit = free(channel)
				const rows = await claimDue(deps, o, limit, channel)
				backlog[channel] = rows.length >= limit
				for (const row of rows) send(channel, row)
			}
		} catch (error) {
			// The database may be restarting: try again next round.
			deps.log.warn('outbox round failed', { error })
		}
	}

	schedule(0)
	return async () => {
		stopped = true
		if (timer) clearTimeout(timer)
		await claiming
		await Promise.all([...inFlight.email, ...inFlight.message])
	}
}
