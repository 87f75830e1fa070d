/**
 * Job alerts of the careers site: "Get new jobs like this by e-mail" on a search, no account needed.
 * Rules:
 * - Double opt-in: asking stores a `pending` alert and e-mails a confirmation link (its token kept
 *   only as a SHA-256 hash; in the outbox it is a recipient-only value, never plain text). Nothing
 *   else is sent before the link is opened and confirmed. Asking again for the same search sends a
 *   new link (the old one stops working); an alert already confirmed is left as it is, and the answer
 *   is the same either way, so the form does not tell who subscribed. A link works for
 *   `ALERT_CONFIRM_HOURS`; a pending alert not confirmed by then is deleted by the sweep, so an
 *   address someone typed is not kept (`forgetUnconfirmedAlerts`).
 * - A digest holds the open jobs matching the alert's search published since its last digest (or its
 *   confirmation) until a minute before it is made (`PUBLISH_SETTLE_MS`: a publish committing as the
 *   digest is made comes in the next one), best first, at most `DIGEST_JOBS`; nothing is sent when
 *   there is none. At most one
 *   digest a day per alert: the alert is claimed (`for update skip locked`, and `last_sent_at` a day
 *   old) in the transaction that queues the mail, so two instances, or the daily sweep and
 *   `alerts send` together, never send one twice.
 * - Digests are marketing mail through the outbox (recipient `job_alert`): the firm's footer, an
 *   unsubscribe link and `List-Unsubscribe` with one-click POST. Unsubscribing deletes every alert
 *   of that address in the workspace (`forgetUnsubscribed`, called by the outbox), not only the one
 *   whose mail was clicked: the page promises no more job alerts from the firm.
 * - An alert deleted (unsubscribed, erased with its address or its candidate, never confirmed) takes
 *   what the outbox keeps under its id with it: digests still queued are not sent, and the record of
 *   an unsubscribe from it is deleted, so nothing stays keyed by an alert that is gone (`deleteAlerts`).
 */
import { and, eq, gt, lte, type SQL, sql } from 'drizzle-orm'
import { hashSecret, newId, randomToken } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { emailProblem, normalEmail } from '../../core/email.ts'
import { invalid } from '../../core/errors.ts'
import type { AddressColumn } from '../../core/stored-addresses.ts'
import { plural } from '../../core/ui.ts'
import { type Db, lockUntilCommit, rowsOf } from '../../db/client.ts'
import { type Workspace, workspacesById } from '../auth/index.ts'
import { enqueueMail, forgetGoneRecipients, JOB_ALERT_MAIL, UNSUBSCRIBED } from '../outbox/index.ts'
import { jobUrl } from '../jobs/index.ts'
import { criteriaQuery, criteriaWords, type JobCriteria, newMatchingJobs } from './search.ts'
import { jobAlerts } from './table.ts'

export const ALERT_RECIPIENT = 'job_alert'
export const DAY_MS = 24 * 60 * 60 * 1000
/**
 * A digest holds jobs published up to this long before it is made, and the next one starts there: a
 * publish whose transaction began before the digest read the jobs but committed after it (its
 * `published_at` is the earlier time), or came from an instance whose clock runs a little behind,
 * would otherwise fall before the next digest's start and never be sent. Publishes are short
 * (statements end within 15 s), so a minute covers them; a daily digest loses nothing by waiting it.
 */
export const PUBLISH_SETTLE_MS = 60_000
/** Jobs in one digest; the rest are one click away (the search's address is in the mail). */
export const DIGEST_JOBS = 20

/**
 * Alerts' addresses: one stored before addresses had a normal form (`ann@bücher.example`) is
 * rewritten in it at start (core/stored-addresses.ts), so asking again in either spelling finds it.
 */
export const alertAddresses: AddressColumn = { table: jobAlerts, id: jobAlerts.id, address: jobAlerts.email }

export type JobAlert = typeof jobAlerts.$inferSelect

const criteriaOf = (a: JobAlert): JobCriteria => ({ q: a.q, location: a.location, remote: a.remote, type: a.type })
const searchUrl = (deps: AppDeps, ws: { slug: string }, c: JobCriteria) => `${deps.config.baseUrl}/careers/${ws.slug}${criteriaQuery(c)}`
const described = (c: JobCriteria) => criteriaWords(c).join(', ') || 'all jobs'

/** Hours a confirmation link works (as a privacy request's). */
export const ALERT_CONFIRM_HOURS = 24

/** Asks for an alert: a pending one and its confirmation e-mail (see the rules above); returns the address as kept. */
export async function requestAlert(deps: AppDeps, ws: Workspace, emailTyped: string, criteria: JobCriteria): Promise<string> {
	const email = normalEmail(emailTyped)
	if (!email) throw invalid([{ field: 'email', message: 'Enter your e-mail address' }])
	const problem = emailProblem(email, 'Enter an e-mail address like name@example.com')
	if (problem) throw invalid([{ field: 'email', message: problem }])
	const token = randomToken()
	await deps.db.transaction(async (tx) => {
		// One request at a time per address: two at once both found no alert and made one each (a digest
		// a day for each, on PostgreSQL; the embedded database runs one transaction at a time anyway).
		await lockUntilCommit(tx, `job_alerts:${ws.id}:${email}`)
		const same = and(
			eq(jobAlerts.workspaceId, ws.id),
			eq(jobAlerts.email, email),
			eq(jobAlerts.q, criteria.q),
			eq(jobAlerts.location, criteria.location),
			eq(jobAlerts.remote, criteria.remote),
			eq(jobAlerts.type, criteria.type),
		)
		const [existing] = await tx.select({ id: jobAlerts.id, status: jobAlerts.status }).from(jobAlerts).where(same).limit(1)
		if (existing?.status === 'active') return
		const id = existing?.id ?? newId('alert')
		const confirmExpiresAt = new Date(deps.now().getTime() + ALERT_CONFIRM_HOURS * 3_600_000)
		if (existing)
			await tx
				.update(jobAlerts)
				.set({ confirmHash: hashSecret(token), confirmExpiresAt })
				.where(eq(jobAlerts.id, id))
		else
			await tx.insert(jobAlerts).values({ id, workspaceId: ws.id, email, ...criteria, confirmHash: hashSecret(token), confirmExpiresAt, createdAt: deps.now() })
		const link = `${deps.config.baseUrl}/careers/${ws.slug}/alerts/confirm/${token}`
		await enqueueMail(
			tx,
			{
				workspaceId: ws.id,
				to: email,
				subject: `Confirm your job alert from ${ws.name}`,
				text: `You asked for new jobs at ${ws.name} matching ${described(criteria)} by e-mail, at most once a day.\n\nConfirm here:\n${link}\n\nIf you did not ask for this, ignore this e-mail: nothing more will be sent.\n`,
				// The link is the confirmation's only credential: sealed in the outbox, like an upload link.
				recipientOnly: { value: link, serverSecret: deps.secret, revealable: true },
				related: { type: JOB_ALERT_MAIL, id },
			},
			deps,
		)
	})
	return email
}

/** The alert a confirmation token was made for (pending or already confirmed with it: null then). */
export async function pendingAlert(deps: AppDeps, workspaceId: string, token: string): Promise<JobAlert | null> {
	if (!/^[a-z2-7]{16,64}$/i.test(token)) return null
	const [row] = await deps.db
		.select()
		.from(jobAlerts)
		.where(
			and(
				eq(jobAlerts.workspaceId, workspaceId),
				eq(jobAlerts.confirmHash, hashSecret(token)),
				eq(jobAlerts.status, 'pending'),
				gt(jobAlerts.confirmExpiresAt, deps.now()),
			),
		)
	return row ?? null
}

/** Deletes the pending alerts (of one workspace, or all) whose link has stopped working (the sweep): the address was never confirmed. */
export async function forgetUnconfirmedAlerts(deps: AppDeps, o: { workspaceId?: string } = {}): Promise<number> {
	const stale = and(
		eq(jobAlerts.status, 'pending'),
		lte(jobAlerts.confirmExpiresAt, deps.now()),
		o.workspaceId ? eq(jobAlerts.workspaceId, o.workspaceId) : undefined,
	)
	return deps.db.transaction(async (tx) => (await deleteAlerts(tx, stale, NEVER_CONFIRMED)).length)
}

/** Confirms the alert: from now on, new matching jobs are sent. Null when the token is not (or no longer) valid. */
export async function confirmAlert(deps: AppDeps, workspaceId: string, token: string): Promise<JobAlert | null> {
	const alert = await pendingAlert(deps, workspaceId, token)
	if (!alert) return null
	const now = deps.now()
	const [row] = await deps.db
		.update(jobAlerts)
		.set({ status: 'active', confirmHash: null, confirmedAt: now, digestedThrough: now })
		.where(and(eq(jobAlerts.id, alert.id), eq(jobAlerts.status, 'pending')))
		.returning()
	return row ?? null
}

export interface DigestRun {
	/** Digests queued. */
	sent: number
	/** Jobs in them. */
	jobs: number
}

/**
 * Queues every digest that is due: active alerts (of one workspace, or all) with no digest in the
 * last day and new matching jobs. The daily sweep and `alerts send` both run it.
 */
export async function sendDigests(deps: AppDeps, o: { workspaceId?: string } = {}): Promise<DigestRun> {
	const run: DigestRun = { sent: 0, jobs: 0 }
	let after = ''
	for (;;) {
		const dueBefore = new Date(deps.now().getTime() - DAY_MS)
		const ids = await deps.database.rows<{ id: string }>(
			sql`select id from job_alerts where status = 'active' and (last_sent_at is null or last_sent_at <= ${dueBefore.toISOString()})
			${o.workspaceId ? sql`and workspace_id = ${o.workspaceId}` : sql``} and id > ${after} order by id limit 200`,
		)
		for (const { id } of ids) {
			const jobs = await sendDigest(deps, id).catch((error) => {
				deps.log.warn('a job alert digest could not be queued', { alertId: id, error })
				return 0
			})
			if (jobs) {
				run.sent++
				run.jobs += jobs
			}
		}
		if (ids.length < 200) return run
		after = ids[ids.length - 1]!.id
	}
}

/** One alert's digest, if due and there are new jobs; returns how many jobs it holds (0: none sent). */
async function sendDigest(deps: AppDeps, id: string): Promise<number> {
	return deps.db.transaction(async (tx) => {
		const now = deps.now()
		const dueBefore = new Date(now.getTime() - DAY_MS)
		const [alert] = await deps.database.rows<{ id: string }>(
			sql`select id from job_alerts where id = ${id} and status = 'active' and (last_sent_at is null or last_sent_at <= ${dueBefore.toISOString()}) for update skip locked`,
			tx,
		)
		if (!alert) return 0
		const [row] = await tx.select().from(jobAlerts).where(eq(jobAlerts.id, id))
		const ws = (await workspacesById(tx, [row!.workspaceId])).get(row!.workspaceId)
		if (!ws) return 0
		const criteria = criteriaOf(row!)
		const since = row!.digestedThrough ?? row!.confirmedAt ?? row!.createdAt
		const through = new Date(now.getTime() - PUBLISH_SETTLE_MS)
		const found = await newMatchingJobs(deps, tx, ws.id, criteria, since, through, DIGEST_JOBS)
		if (!found.jobs.length) return 0
		const lines = found.jobs.map((j) => `- ${j.title}${j.location ? ` (${j.location})` : ''}\n  ${jobUrl(deps.config.baseUrl, ws.slug, j.slug)}`)
		const more = found.total > found.jobs.length ? `\n…and ${found.total - found.jobs.length} more: ${searchUrl(deps, ws, criteria)}\n` : ''
		await enqueueMail(
			tx,
			{
				workspaceId: ws.id,
				to: row!.email,
				subject: `${plural(found.total, 'new job')} at ${ws.name}`,
				text: `New jobs at ${ws.name} matching ${described(criteria)}:\n\n${lines.join('\n\n')}\n${more}\nSee the search: ${searchUrl(deps, ws, criteria)}\n`,
				recipient: { type: ALERT_RECIPIENT, id },
				related: { type: JOB_ALERT_MAIL, id },
				marketing: true,
			},
			deps,
		)
		await tx.update(jobAlerts).set({ lastSentAt: now, digestedThrough: through }).where(eq(jobAlerts.id, id))
		return found.jobs.length
	})
}

/**
 * Someone unsubscribed (an alert's link or `List-Unsubscribe`, or a candidate's marketing mail): every
 * alert of their address in the workspace is deleted, as the unsubscribe page promises ("no more job
 * alerts from this firm"), not only the one whose mail they clicked.
 */
export async function forgetUnsubscribed(db: Db, target: { workspaceId: string; type: string; id: string }): Promise<void> {
	await deleteAlertsOf(db, target.workspaceId, await addressOf(db, target), UNSUBSCRIBED)
	// The alert whose link it was went now, or at an earlier click (a mail app's one-click POST may come
	// again): the outbox's record of this unsubscribe goes too, or it would stay keyed by a deleted id.
	if (target.type === ALERT_RECIPIENT) await forgetGoneRecipients(db, target.workspaceId, ALERT_RECIPIENT, [target.id], UNSUBSCRIBED)
}

/** The address an unsubscribe was for: the alert's, or the candidate's (read on the unsubscribe's transaction). */
async function addressOf(db: Db, target: { workspaceId: string; type: string; id: string }): Promise<string[]> {
	const query =
		target.type === ALERT_RECIPIENT
			? sql`select email from job_alerts where workspace_id = ${target.workspaceId} and id = ${target.id}`
			: target.type === 'candidate'
				? sql`select email from candidates where workspace_id = ${target.workspaceId} and id = ${target.id}`
				: null
	if (!query) return []
	return (await rowsOf<{ email: string }>(await db.execute(query))).map((r) => r.email).filter(Boolean)
}

/** The alerts of these e-mail addresses, in any spelling (compared in normal form). */
const ofAddresses = (workspaceId: string, emails: readonly string[]) =>
	and(eq(jobAlerts.workspaceId, workspaceId), sql`${jobAlerts.email} = any(${sql.param(emails.map(normalEmail))}::text[])`)

/** The alerts of these e-mail addresses (a candidate's data: exported, and deleted on erasure). */
export async function alertsOf(db: Db, workspaceId: string, emails: readonly string[]): Promise<JobAlert[]> {
	if (!emails.length) return []
	return db.select().from(jobAlerts).where(ofAddresses(workspaceId, emails)).orderBy(jobAlerts.createdAt)
}

/** How many alerts (pending or active) each of these e-mail addresses has, by normal form; those with none left out. */
export async function alertCounts(db: Db, workspaceId: string, emails: readonly string[]): Promise<Map<string, number>> {
	if (!emails.length) return new Map()
	const rows = await db
		.select({ email: jobAlerts.email, count: sql<number>`count(*)::int` })
		.from(jobAlerts)
		.where(ofAddresses(workspaceId, emails))
		.groupBy(jobAlerts.email)
	return new Map(rows.map((r) => [normalEmail(r.email), Number(r.count)]))
}

/** Deletes the alerts of these e-mail addresses (an unsubscribe, an erasure), with what the outbox keeps for them (`deleteAlerts`). */
export async function deleteAlertsOf(db: Db, workspaceId: string, emails: readonly string[], reason: string): Promise<void> {
	if (!emails.length) return
	await deleteAlerts(db, ofAddresses(workspaceId, emails), reason)
}

/** Why a digest still waiting to go is not sent when its alert is deleted (besides an unsubscribe, `UNSUBSCRIBED`). */
export const ALERT_ERASED = 'The job alert was erased with its subscriber’s data'
const NEVER_CONFIRMED = 'The job alert was never confirmed'

/**
 * The one way alerts are deleted: with them goes what the outbox keeps under their ids (their
 * recipient id in mail), in the same transaction: the record of an unsubscribe from them (nothing
 * can be sent to a deleted alert again, and a record kept would tie the person to mail sent to that
 * id forever, in nobody's export), and digests still waiting to go, not sent with `reason`. The alerts
 * go first: a digest being queued holds its alert's row (`sendDigest`), so the delete waits for it to
 * commit, and the next statement sees its mail.
 */
async function deleteAlerts(db: Db, where: SQL | undefined, reason: string): Promise<string[]> {
	if (!where) return [] // no condition is no alert, never every alert
	const gone = await db.delete(jobAlerts).where(where).returning({ id: jobAlerts.id, workspaceId: jobAlerts.workspaceId })
	for (const [workspaceId, alerts] of Map.groupBy(gone, (a) => a.workspaceId))
		await forgetGoneRecipients(
			db,
			workspaceId,
			ALERT_RECIPIENT,
			alerts.map((a) => a.id),
			reason,
		)
	return gone.map((a) => a.id)
}
