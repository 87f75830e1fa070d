/**
 * The delivery worker: every instance runs one; each delivery is claimed by one of them.
 *
 * Rules:
 * - Due rows are claimed with `FOR UPDATE SKIP LOCKED` and marked `sending` with a lease (their
 *   `next_attempt_at` moves past it) in a short transaction that commits before anything is sent: no
 *   transaction waits on a receiver, and a worker that dies mid-send leaves a row that is claimed
 *   again once its lease has passed (at least once, never lost).
 * - Per endpoint, at most `perEndpoint` deliveries are in flight (counted from the rows `sending`
 *   under a live lease, so across instances too, give or take a claim racing another), and the
 *   worker's slots are filled as soon as one frees: an endpoint that hangs holds its own few slots
 *   until the 10-second deadline, never the others'.
 * - Each attempt is signed anew (`webhook-timestamp` is the attempt's time) with the endpoint's
 *   secret and every replaced one whose end has not passed; the `webhook-id` and the body never change.
 * - A 2xx is delivered. 410 Gone switches the endpoint off at once. Anything else (another status, no
 *   answer within 10 s, a refused address) waits the next step of the retry schedule plus up to 20 %
 *   jitter, or longer when a 429 or 503 asks for longer (`Retry-After`, up to the schedule's longest
 *   wait), then is tried again; a redirect is not followed (its log line says so); past the last step the delivery has failed. An endpoint whose
 *   attempts have all failed for 5 days is switched off and its workspace's owners are e-mailed
 *   (through the outbox, in the same transaction). Those 5 days are one unbroken run of failed
 *   attempts: days with no attempt at all (no event, the schedule ended) are not failures, so a
 *   silence longer than the schedule's longest wait starts the run again at the next failure.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { OutboundError, outboundFetch, type OutboundNetwork } from '../../core/http/outbound.ts'
import { SpanKind, SpanStatusCode } from '../../core/tracing.ts'
import { listPeople } from '../auth/index.ts'
import { enqueueMail } from '../outbox/index.ts'
import { webhookPolicy } from './address.ts'
import { answerWords, askedWaitMs, waitBeforeRetry } from './answer.ts'
import { openSecret, signatureHeader } from './secrets.ts'
import { webhookSettings } from './settings.ts'
import { liveSecrets } from './service.ts'
import { CAUSES, switchedOff, type DisabledCause } from './switch-off.ts'
import { webhookDeliveries, webhookEndpoints, type PreviousSecret } from './table.ts'

export interface WebhookWorkerOptions {
	/** How often to look for due deliveries (ms). */
	pollMs: number
	/** Deliveries in flight at once on this instance. */
	slots: number
	/** Deliveries in flight at once per endpoint. */
	perEndpoint: number
	/** How long a claimed delivery is reserved for the instance sending it (ms); above the 10 s deadline. */
	leaseMs: number
	/** Only deliveries of this workspace (tests, the benchmark). */
	workspaceId?: string
	/** Name look-ups and the address rule (tests). */
	network?: OutboundNetwork
}

export const DEFAULT_WEBHOOK_WORKER: WebhookWorkerOptions = { pollMs: 500, slots: 32, perEndpoint: 4, leaseMs: 60_000 }

/** Five days of nothing but failures switch an endpoint off. */
export const FAILING_DISABLES_AFTER_MS = 5 * 86_400_000

/** A retry waits its step of the schedule plus up to this share of it, so that retries spread out. */
const JITTER = 0.2

/**
 * Beyond the wait itself, how late a failure may follow the one before and still continue its run:
 * the attempt's 10-second deadline, the worker's poll and the claim. A retry later than that (a
 * backlog) starts a new run: the endpoint is switched off later, never sooner.
 */
const RUN_SLACK_MS = 60_000

/**
 * The longest silence between two failed attempts of one run: the schedule's longest wait with its
 * whole jitter, plus the slack. While an endpoint fails, each delivery is retried within it; longer,
 * and nothing was tried meanwhile, which is no evidence that the endpoint was down.
 */
export const failureRunGapMs = (schedule: readonly number[]) => Math.max(0, ...schedule) * (1 + JITTER) + RUN_SLACK_MS

interface Claimed {
	id: string
	endpointId: string
	workspaceId: string
	type: string
	body: string
	attempts: number
	url: string
	secretSealed: string
	/** jsonb: parsed by the drivers, though a string is read too. */
	previousSecrets: PreviousSecret[] | string
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`

async function claimDue(deps: AppDeps, o: WebhookWorkerOptions, limit: number): Promise<Claimed[]> {
	if (limit <= 0) return []
	const now = deps.now()
	// Rows are queued on the database's clock and retried on the app's: due is whichever is later.
	const due = sql`greatest(now(), ${at(now)})`
	const workspace = o.workspaceId ? sql` and x.workspace_id = ${o.workspaceId}` : sql``
	// Per endpoint, its oldest due deliveries up to its free slots (an index walk each, however long the
	// backlog); then the oldest of those up to the instance's free slots.
	return deps.database.rows<Claimed>(sql`
with busy as (
	select endpoint_id, count(*)::int as n from ${webhookDeliveries}
	where status = 'sending' and next_attempt_at > ${due} group by endpoint_id
), picked as (
	select d.id from ${webhookEndpoints} e
	left join busy b on b.endpoint_id = e.id
	cross join lateral (
		select x.id, x.next_attempt_at, x.seq from ${webhookDeliveries} x
		where x.endpoint_id = e.id and x.status in ('pending', 'sending') and x.next_attempt_at <= ${due}${workspace}
		order by x.next_attempt_at, x.seq
		limit greatest(0, ${o.perEndpoint}::int - coalesce(b.n, 0))
		for update of x skip locked
	) d
	where e.enabled
	order by d.next_attempt_at, d.seq
	limit ${limit}
)
update ${webhookDeliveries} d set status = 'sending', attempts = d.attempts + 1, next_attempt_at = ${at(new Date(now.getTime() + o.leaseMs))}, last_attempt_at = ${at(now)}
from picked, ${webhookEndpoints} e
where d.id = picked.id and e.id = d.endpoint_id
returning d.id, d.endpoint_id as "endpointId", d.workspace_id as "workspaceId", d.type, d.body, d.attempts, e.url,
	e.secret_sealed as "secretSealed", e.previous_secrets as "previousSecrets"`)
}

/** Opened secrets by sealed value: opening one per delivery would cost an AES operation each time. */
const opened = new Map<string, Promise<string>>()
function open(deps: AppDeps, endpointId: string, sealed: string): Promise<string> {
	let secret = opened.get(sealed)
	if (!secret) {
		if (opened.size >= 1000) opened.clear()
		opened.set(sealed, (secret = openSecret(deps.secret, endpointId, sealed)))
		secret.catch(() => opened.delete(sealed))
	}
	return secret
}

/** The secrets that sign now, newest first: the current one, then each replaced one until its end. */
async function signingSecrets(deps: AppDeps, row: Claimed): Promise<string[]> {
	const previous: PreviousSecret[] = typeof row.previousSecrets === 'string' ? JSON.parse(row.previousSecrets) : row.previousSecrets
	const live = liveSecrets(previous, deps.now()).sort((a, b) => b.until.localeCompare(a.until))
	return Promise.all([row.secretSealed, ...live.map((p) => p.sealed)].map((sealed) => open(deps, row.endpointId, sealed)))
}

export interface Attempt {
	status: number | null
	error: string | null
	/** How long the receiver asked to wait before the next attempt (`Retry-After` on a 429 or 503), ms. */
	askedWaitMs?: number | null
}

async function attempt(deps: AppDeps, o: WebhookWorkerOptions, row: Claimed): Promise<Attempt> {
	const timestamp = Math.floor(deps.now().getTime() / 1000)
	try {
		const headers = {
			'content-type': 'application/json',
			'webhook-id': row.id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': signatureHeader(await signingSecrets(deps, row), row.id, timestamp, row.body),
		}
		const response = await outboundFetch(row.url, { method: 'POST', headers, body: row.body }, webhookPolicy(deps, o.network))
		await response.body?.cancel().catch(() => {})
		if (response.ok) return { status: response.status, error: null }
		return {
			status: response.status,
			error: answerWords(response.status),
			askedWaitMs: askedWaitMs(response.status, response.headers.get('retry-after'), deps.now()),
		}
	} catch (error) {
		if (error instanceof OutboundError) return { status: null, error: error.message }
		return { status: null, error: 'the delivery could not be sent' }
	}
}

export type Outcome = 'delivered' | 'retried' | 'failed' | 'disabled'

/** The wait before the retry after attempt number `attempts` (1-based), with jitter; null past the schedule. */
export function retryDelay(schedule: readonly number[], attempts: number, random = Math.random()): number | null {
	const base = schedule[attempts - 1]
	return base === undefined ? null : Math.round(base * (1 + JITTER * random))
}

async function settle(deps: AppDeps, row: Claimed, result: Attempt): Promise<Outcome> {
	const now = deps.now()
	const mine = and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, 'sending'), eq(webhookDeliveries.attempts, row.attempts))
	const delivered = result.status !== null && result.status >= 200 && result.status < 300
	if (delivered) {
		// One statement (one round trip): the delivery, and the endpoint's failing time cleared if it had one.
		await deps.database.rows(sql`with done as (
	update ${webhookDeliveries} set status = 'delivered', delivered_at = ${at(now)}, last_status = ${result.status}, last_error = null
	where id = ${row.id} and status = 'sending' and attempts = ${row.attempts} returning endpoint_id
)
update ${webhookEndpoints} set failing_since = null where id in (select endpoint_id from done) and failing_since is not null`)
		return 'delivered'
	}
	return deps.db.transaction(async (tx) => {
		const error = (result.error ?? 'failed').slice(0, 500)
		if (result.status === 410) {
			await tx.update(webhookDeliveries).set({ status: 'failed', lastStatus: 410, lastError: error }).where(mine)
			await disable(deps, tx, row, 'answered_410_gone')
			return 'disabled'
		}
		const schedule = deps.config.settings.of(webhookSettings).webhookRetryScheduleMs
		const scheduled = retryDelay(schedule, row.attempts)
		const delay = scheduled === null ? null : waitBeforeRetry(scheduled, result.askedWaitMs ?? null, schedule)
		await tx
			.update(webhookDeliveries)
			.set(
				delay === null
					? { status: 'failed', lastStatus: result.status, lastError: error }
					: { status: 'pending', lastStatus: result.status, lastError: error, nextAttemptAt: new Date(now.getTime() + delay) },
			)
			.where(mine)
		const failingSince = await recordFailure(deps, tx, row.endpointId, now)
		if (failingSince && now.getTime() - failingSince.getTime() >= FAILING_DISABLES_AFTER_MS) {
			await disable(deps, tx, row, 'deliveries_failing')
			return 'disabled'
		}
		return delay === null ? 'failed' : 'retried'
	})
}

/**
 * Records a failed attempt on its endpoint; returns since when its attempts have failed. The run goes
 * on when the failure before was recent enough to be part of it (`failureRunGapMs`), else it starts now.
 */
async function recordFailure(deps: AppDeps, tx: Db, endpointId: string, now: Date): Promise<Date | null> {
	const e = webhookEndpoints
	const runFrom = new Date(now.getTime() - failureRunGapMs(deps.config.settings.of(webhookSettings).webhookRetryScheduleMs))
	const [endpoint] = await tx
		.update(e)
		.set({
			failingSince: sql`case when ${e.failingSince} is not null and ${e.lastFailureAt} >= ${at(runFrom)} then ${e.failingSince} else ${at(now)} end`,
			// Attempts settle out of order across instances: the latest failure is kept.
			lastFailureAt: sql`greatest(${e.lastFailureAt}, ${at(now)})`,
		})
		.where(eq(e.id, endpointId))
		.returning({ failingSince: e.failingSince })
	return endpoint?.failingSince ? new Date(endpoint.failingSince) : null
}

/** Switches the endpoint off (once) and tells the workspace's owners by e-mail. */
async function disable(deps: AppDeps, tx: Db, row: Claimed, cause: DisabledCause) {
	const reason = CAUSES[cause].forFirm
	const [endpoint] = await tx
		.update(webhookEndpoints)
		.set(switchedOff(cause, reason))
		.where(and(eq(webhookEndpoints.id, row.endpointId), eq(webhookEndpoints.enabled, true)))
		.returning({ id: webhookEndpoints.id, url: webhookEndpoints.url, vendorId: webhookEndpoints.vendorId })
	if (!endpoint) return
	deps.log.warn('webhook endpoint switched off', { endpointId: endpoint.id, reason })
	const owners = (await listPeople(tx, row.workspaceId)).filter((p) => p.role === 'owner')
	const page = `${deps.config.baseUrl}/settings/webhooks/${endpoint.id}`
	for (const owner of owners)
		await enqueueMail(
			tx,
			{
				workspaceId: row.workspaceId,
				to: owner.email,
				subject: 'A webhook endpoint was switched off',
				text: `Benchline switched off the webhook endpoint ${endpoint.url}${endpoint.vendorId ? ` (added by vendor ${endpoint.vendorId})` : ''}.\n\nWhy: ${reason}.\n\nEvents are not sent to it until it is switched on again: ${page}${endpoint.vendorId ? ' (the vendor may switch it on through the API too)' : ''}.\n`,
			},
			deps,
		)
}

/** Sends one claimed delivery and records the result (one span when tracing is on: `webhook deliver <type>`). */
async function deliverAndSettle(deps: AppDeps, o: WebhookWorkerOptions, row: Claimed): Promise<Outcome> {
	const attributes = {
		'messaging.system': 'benchline-webhooks',
		'messaging.operation.type': 'send',
		'messaging.message.id': row.id,
		'benchline.webhook.event_type': row.type,
		'benchline.webhook.attempt': row.attempts,
	}
	return deps.tracing.inSpan(`webhook deliver ${row.type}`, { kind: SpanKind.PRODUCER, attributes }, async (span) => {
		const result = await attempt(deps, o, row)
		const outcome = await settle(deps, row, result)
		if (result.status !== null) span?.setAttribute('http.response.status_code', result.status)
		if (outcome !== 'delivered') span?.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', outcome)
		return outcome
	})
}

export type RoundResult = Record<Outcome, number>

/** One round: claims what is due (up to `slots`), sends it all and waits (tests, the CLI). */
export async function deliverDueWebhooks(deps: AppDeps, options: Partial<WebhookWorkerOptions> = {}): Promise<RoundResult> {
	const o = { ...DEFAULT_WEBHOOK_WORKER, ...options }
	const rows = await claimDue(deps, o, o.slots)
	const result: RoundResult = { delivered: 0, retried: 0, failed: 0, disabled: 0 }
	await Promise.all(rows.map(async (row) => result[await deliverAndSettle(deps, o, row)]++))
	return result
}

/** Claims without sending (tests: an instance that dies mid-send). */
export const claimForTest = (deps: AppDeps, options: Partial<WebhookWorkerOptions> = {}) => claimDue(deps, { ...DEFAULT_WEBHOOK_WORKER, ...options }, 1000)

/**
 * Starts the worker; returns a stop function that waits for the sends in flight. A claim fills the
 * free slots; when it took all it could, the next claim follows as soon as a slot frees.
 */
export function startWebhookWorker(deps: AppDeps, options: Partial<WebhookWorkerOptions> = {}): () => Promise<void> {
	const o = { ...DEFAULT_WEBHOOK_WORKER, ...options }
	const inFlight = new Set<Promise<void>>()
	let backlog = false
	/** A slot or an endpoint freed while a claim was running: claim again at once after it. */
	let again = false
	let stopped = false
	let timer: ReturnType<typeof setTimeout> | undefined
	let claiming: Promise<void> | null = null

	const schedule = (ms: number) => {
		if (stopped) return
		if (claiming) {
			if (ms === 0) again = true
			return
		}
		if (timer) clearTimeout(timer)
		timer = setTimeout(() => {
			timer = undefined
			again = false
			claiming = claim().finally(() => {
				claiming = null
				schedule((backlog || again) && inFlight.size < o.slots ? 0 : o.pollMs)
			})
		}, ms)
	}

	const send = (row: Claimed) => {
		const sending: Promise<void> = deliverAndSettle(deps, o, row)
			.then(
				() => {},
				// The row stays `sending` and is claimed again once its lease has passed.
				(error) => deps.log.warn('webhook delivery could not be recorded', { id: row.id, error }),
			)
			.finally(() => {
				inFlight.delete(sending)
				// A freed slot, or a freed endpoint: look again at once.
				schedule(0)
			})
		inFlight.add(sending)
	}

	const claim = async () => {
		try {
			const limit = o.slots - inFlight.size
			const rows = await claimDue(deps, o, limit)
			backlog = rows.length >= limit
			for (const row of rows) send(row)
		} catch (error) {
			// The database may be restarting: try again next round.
			deps.log.warn('webhook delivery round failed', { error })
		}
	}

	schedule(0)
	return async () => {
		stopped = true
		if (timer) clearTimeout(timer)
		await claiming
		await Promise.all([...inFlight])
	}
}

/** Delivery log rows kept this long after they were delivered or failed (a replay needs the row). */
export const KEEP_DELIVERIES_DAYS = 30

/** Deletes delivered and failed deliveries older than `days`, a batch at a time (no long lock); never one still to send. */
export async function pruneDeliveries(deps: AppDeps, days = KEEP_DELIVERIES_DAYS, batch = 5_000): Promise<number> {
	let total = 0
	for (;;) {
		const rows = await deps.database.rows<{ n: number }>(sql`with old as (
	select id from ${webhookDeliveries} where status in ('delivered', 'failed') and created_at < ${at(deps.now())} - make_interval(days => ${days}) limit ${batch}
), gone as (delete from ${webhookDeliveries} where id in (select id from old) returning 1)
select count(*)::int as n from gone`)
		const n = Number(rows[0]?.n ?? 0)
		total += n
		if (n < batch) return total
	}
}
