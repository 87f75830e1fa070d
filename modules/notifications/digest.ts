/**
 * The daily e-mail digest, for people who chose it on their profile: once a day, from 07:00 in the
 * person's own time zone, what waits for them (unread notifications, and the counts beside the
 * navigation: unread conversations, overdue to-dos), through the outbox. Nothing waiting, no mail.
 *
 * Several instances may run the sweep: a person's day is claimed (`last_digest_day` moved on in the
 * same statement that checks it) in the transaction that queues the mail, so one digest a day is sent.
 */
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { navCountsFor } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { dayKey, formatDateTime, localInputValue } from '../../core/time.ts'
import { listPeople, personActor, timeZonesOf, workspacesById } from '../auth/index.ts'
import { ACCOUNT_MAIL, enqueueMail } from '../outbox/index.ts'
import { unreadNotifications } from './service.ts'
import { notificationSettings } from './table.ts'
import { runEvery } from '../../core/every.ts'

/** The local hour from which the day's digest is sent. */
export const DIGEST_HOUR = 7
const LISTED = 20

/** Sends the digests that are due at `now`; returns how many were queued. */
export async function sendDigests(deps: AppDeps, now: Date = deps.now()): Promise<number> {
	const wanted = await deps.db.select().from(notificationSettings).where(eq(notificationSettings.dailyDigest, true))
	const zones = await timeZonesOf(
		deps.db,
		wanted.map((w) => w.userId),
	)
	const workspaces = await workspacesById(deps.db, [...new Set(wanted.map((w) => w.workspaceId))])
	let sent = 0
	for (const w of wanted) {
		const zone = zones.get(w.userId) ?? 'UTC'
		const today = dayKey(now, zone)
		const hour = Number(localInputValue(now, zone).slice(11, 13))
		const ws = workspaces.get(w.workspaceId)
		if (!ws || hour < DIGEST_HOUR || (w.lastDigestDay !== null && w.lastDigestDay >= today)) continue
		try {
			if (await digestFor(deps, { workspaceId: ws.id, slug: ws.slug, name: ws.name, userId: w.userId, zone, today, now })) sent++
		} catch (error) {
			deps.log.warn('daily digest failed', { userId: w.userId, error })
		}
	}
	return sent
}

async function digestFor(
	deps: AppDeps,
	p: { workspaceId: string; slug: string; name: string; userId: string; zone: string; today: string; now: Date },
): Promise<boolean> {
	const member = (await listPeople(deps.db, p.workspaceId)).find((m) => m.userId === p.userId)
	if (!member) return false
	const actor = await personActor(deps, p.slug, member.email)
	// The counts a page would show beside its navigation, asked of the same modules.
	const session: PageSession = { actor, csrf: '', sessionId: '', timeZone: p.zone }
	const counts = await navCountsFor(deps, session)
	const links = deps.registry.modules.flatMap((m) => m.nav ?? []).filter((n) => (counts[n.href] ?? 0) > 0 && n.href !== '/notifications')
	// Named through the person's reach as it is this morning (role, hiring teams), like the page.
	const unread = await unreadNotifications(deps, actor, LISTED)
	if (!unread.length && !links.length) {
		await claimDay(deps.db, p)
		return false
	}
	const base = deps.config.baseUrl
	const lines = [
		`Good morning ${member.name.split(/\s+/)[0] ?? ''},`,
		'',
		`What waits for you in ${p.name} (${formatDateTime(p.now, p.zone)}):`,
		'',
		...(unread.length
			? [
					`${counts['/notifications'] ?? unread.length} unread notification${(counts['/notifications'] ?? unread.length) === 1 ? '' : 's'}:`,
					...unread.map((n) => `- ${n.sentence} (${formatDateTime(new Date(n.createdAt), p.zone)})${n.href ? `\n  ${base}${n.href}` : ''}`),
					'',
				]
			: []),
		...links.map((n) => `${n.label}: ${counts[n.href]} ${n.countLabel ?? ''} — ${base}${n.href}`),
		'',
		`All your notifications: ${base}/notifications`,
		`You get this e-mail because you chose a daily digest; change it on your profile: ${base}/settings/profile`,
	]
	return deps.db.transaction(async (tx) => {
		if (!(await claimDay(tx, p))) return false
		await enqueueMail(
			tx,
			{
				workspaceId: p.workspaceId,
				to: member.email,
				subject: `Your day in ${p.name}: ${unread.length ? `${unread.length} unread` : 'what waits for you'}`,
				text: lines.join('\n'),
				// A person's own mail, not a conversation of the workspace: never copied into the inbox.
				related: { type: ACCOUNT_MAIL, id: p.userId },
			},
			deps,
		)
		return true
	})
}

/** Moves the person's digest day to today unless it is there already; true when this call moved it. */
async function claimDay(db: AppDeps['db'], p: { workspaceId: string; userId: string; today: string }): Promise<boolean> {
	const claimed = await db
		.update(notificationSettings)
		.set({ lastDigestDay: p.today })
		.where(
			and(
				eq(notificationSettings.workspaceId, p.workspaceId),
				eq(notificationSettings.userId, p.userId),
				eq(notificationSettings.dailyDigest, true),
				or(isNull(notificationSettings.lastDigestDay), lt(notificationSettings.lastDigestDay, p.today)),
			),
		)
		.returning({ day: notificationSettings.lastDigestDay })
	return claimed.length > 0
}

/** Whether the person chose the daily digest in the workspace. */
export async function digestChosen(db: AppDeps['db'], workspaceId: string, userId: string): Promise<boolean> {
	const [row] = await db
		.select({ on: notificationSettings.dailyDigest })
		.from(notificationSettings)
		.where(and(eq(notificationSettings.workspaceId, workspaceId), eq(notificationSettings.userId, userId)))
	return row?.on ?? false
}

export async function chooseDigest(deps: AppDeps, workspaceId: string, userId: string, on: boolean): Promise<void> {
	await deps.db
		.insert(notificationSettings)
		.values({ workspaceId, userId, dailyDigest: on })
		.onConflictDoUpdate({ target: [notificationSettings.workspaceId, notificationSettings.userId], set: { dailyDigest: on } })
}

/** Runs the sweep every few minutes (a person's 07:00 comes at any minute of the UTC day); returns the stop function. */
export function startDigests(deps: AppDeps, everyMs = 5 * 60_000): () => Promise<void> {
	return runEvery(deps.log, { everyMs, failure: 'daily digests failed' }, () => sendDigests(deps))
}
