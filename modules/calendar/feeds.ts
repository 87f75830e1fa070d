/**
 * External calendars: a person sets the address of their iCalendar feed; its busy times are
 * read at once and then every 15 minutes by whichever instance claims the feed first
 * (`FOR UPDATE SKIP LOCKED`, so instances never fetch the same feed together). A failed refresh
 * keeps the busy times already known and shows the problem on the settings page.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import type { MembershipChange } from '../auth/index.ts'
import type { Db } from '../../db/client.ts'
import { fetchFeed, FeedFetchError, normalizeFeedUrl } from './fetch.ts'
import { FeedAddressError, openAddress, sealPlainAddresses, storedAddress } from './feed-secret.ts'
import { readBusyBlocks } from './feed-read.ts'
import { FeedFormatError } from './ical.ts'
import { calendarSettings } from './settings.ts'
import { calendarBusy, calendarFeeds } from './table.ts'

export const REFRESH_MS = 15 * 60_000
/** Busy times are kept from a week back to 120 days ahead. */
const WINDOW_BACK_MS = 7 * 86_400_000
const WINDOW_AHEAD_MS = 120 * 86_400_000

export interface FeedView {
	/** The address masked (host and last characters): the full one is never shown again once set. */
	masked: string
	/** Its keyed hash: which address a refresh is for (`refreshFeed`). */
	urlHash: string
	status: 'pending' | 'ok' | 'error'
	lastError: string | null
	lastFetchedAt: Date | null
	busyCount: number
}

const person = (actor: Actor) => {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'A calendar belongs to a person')
	return actor.userId
}

export async function feedOf(deps: AppDeps, actor: Actor): Promise<FeedView | null> {
	const [row] = await deps.db
		.select()
		.from(calendarFeeds)
		.where(and(eq(calendarFeeds.workspaceId, actor.workspaceId), eq(calendarFeeds.userId, person(actor))))
	return row
		? {
				masked: row.urlHint ?? '(hidden address)',
				urlHash: row.urlHash ?? '',
				status: row.status as FeedView['status'],
				lastError: row.lastError,
				lastFetchedAt: row.lastFetchedAt,
				busyCount: row.busyCount,
			}
		: null
}

/** Sets (or replaces) the person's feed and reads it at once; the result says whether that worked. */
export async function setFeed(deps: AppDeps, actor: Actor, address: string): Promise<FeedView> {
	const userId = person(actor)
	const normalized = normalizeFeedUrl(address)
	if ('error' in normalized) throw invalid([{ field: 'url', message: normalized.error }], normalized.error)
	// Sealed before it is stored: the plain address is kept nowhere.
	const stored = await storedAddress(deps.secret, actor.workspaceId, userId, normalized.url)
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(calendarFeeds)
			.values({ workspaceId: actor.workspaceId, userId, ...stored, status: 'pending', nextRefreshAt: new Date(deps.now().getTime() + REFRESH_MS) })
			.onConflictDoUpdate({
				target: [calendarFeeds.workspaceId, calendarFeeds.userId],
				set: { ...stored, status: 'pending', lastError: null, nextRefreshAt: new Date(deps.now().getTime() + REFRESH_MS) },
			})
		// The address may carry a secret token: the log keeps only the host.
		await recordActivity(tx, actor, { action: 'calendar.feed_set', targetType: 'user', targetId: userId, detail: { host: new URL(normalized.url).host } })
	})
	await refreshFeed(deps, actor.workspaceId, userId, stored.urlHash)
	return (await feedOf(deps, actor))!
}

/** Removes the feed and every busy time read from it. */
export async function clearFeed(deps: AppDeps, actor: Actor): Promise<void> {
	const userId = person(actor)
	await deps.db.transaction(async (tx) => {
		await tx.delete(calendarBusy).where(and(eq(calendarBusy.workspaceId, actor.workspaceId), eq(calendarBusy.userId, userId)))
		const gone = await tx
			.delete(calendarFeeds)
			.where(and(eq(calendarFeeds.workspaceId, actor.workspaceId), eq(calendarFeeds.userId, userId)))
			.returning({ userId: calendarFeeds.userId })
		if (gone.length) await recordActivity(tx, actor, { action: 'calendar.feed_removed', targetType: 'user', targetId: userId })
	})
}

/**
 * Reads one feed (the address whose keyed hash is `urlHash`, unsealed just before the fetch) and
 * replaces the person's busy times. When the address changed meanwhile (the person set another),
 * the result is dropped: the newer address wins. An address that no longer unseals (the server
 * secret was replaced) is an error asking the person to reconnect, like any other failed read.
 */
export async function refreshFeed(deps: AppDeps, workspaceId: string, userId: string, urlHash: string): Promise<'ok' | 'error' | 'stale'> {
	const now = deps.now()
	const current = and(eq(calendarFeeds.workspaceId, workspaceId), eq(calendarFeeds.userId, userId), eq(calendarFeeds.urlHash, urlHash))
	const [row] = await deps.db.select({ sealed: calendarFeeds.urlSealed }).from(calendarFeeds).where(current)
	if (!row?.sealed) return 'stale'
	const settings = deps.config.settings.of(calendarSettings)
	// Fetching and reading share CALENDAR_FEED_TIMEOUT: the settings page waits for both.
	const deadline = { at: Date.now() + settings.calendarFeedTimeout * 1000, seconds: settings.calendarFeedTimeout }
	try {
		const text = await fetchFeed(settings, await openAddress(deps.secret, workspaceId, userId, row.sealed))
		const window = { from: new Date(now.getTime() - WINDOW_BACK_MS), to: new Date(now.getTime() + WINDOW_AHEAD_MS) }
		const blocks = await readBusyBlocks(deps, text, window, deadline)
		return await deps.db.transaction(async (tx) => {
			const claimed = await tx
				.update(calendarFeeds)
				.set({ status: 'ok', lastError: null, lastFetchedAt: now, busyCount: blocks.length })
				.where(current)
				.returning({ userId: calendarFeeds.userId })
			if (!claimed.length) return 'stale' as const
			await tx.delete(calendarBusy).where(and(eq(calendarBusy.workspaceId, workspaceId), eq(calendarBusy.userId, userId)))
			for (let i = 0; i < blocks.length; i += 500)
				await tx
					.insert(calendarBusy)
					.values(blocks.slice(i, i + 500).map((b) => ({ id: newId('busy'), workspaceId, userId, startsAt: b.start, endsAt: b.end, allDay: b.allDay })))
			return 'ok' as const
		})
	} catch (error) {
		const told = error instanceof FeedFetchError || error instanceof FeedFormatError || error instanceof FeedAddressError
		// The person and workspace identify the feed in the log, never its address.
		if (error instanceof FeedAddressError)
			deps.log.warn('calendar feed address could not be unsealed (was the server secret replaced?)', { workspaceId, userId })
		else if (!told) deps.log.warn('calendar feed refresh failed', { workspaceId, userId, error })
		const message = told ? (error as Error).message : 'The feed could not be read'
		await deps.db.update(calendarFeeds).set({ status: 'error', lastError: message, lastFetchedAt: now }).where(current)
		return 'error'
	}
}

/**
 * A person who leaves the workspace, or whose new role has no calendar, keeps no feed there (in the
 * change's transaction, `membershipPort`): its address often carries a secret token of their own
 * calendar, the sweep would go on reading it every 15 minutes for no one, and their busy times would
 * still show on colleagues' calendars.
 */
export async function dropFeedWithMembership(deps: AppDeps, tx: Db, change: MembershipChange): Promise<void> {
	if (change.role && deps.permissions.roleHas(change.role, 'calendar:read')) return
	const theirs = (table: typeof calendarBusy | typeof calendarFeeds) => and(eq(table.workspaceId, change.workspaceId), eq(table.userId, change.userId))
	await tx.delete(calendarBusy).where(theirs(calendarBusy))
	await tx.delete(calendarFeeds).where(theirs(calendarFeeds))
}

/**
 * How many due feeds one pass reads at once. A feed whose server never answers holds its reader for
 * the whole CALENDAR_FEED_TIMEOUT: read one after another, 20 such feeds would hold the pass (and
 * every healthy feed behind them) for 20 timeouts. A few readers let healthy feeds through while
 * some hang, and keep the outbound connections and database connections one instance uses small.
 */
export const FEEDS_AT_ONCE = 4

/**
 * Claims the feeds that are due (pushing their next refresh 15 minutes ahead in the same
 * statement) and refreshes them, oldest due first, `FEEDS_AT_ONCE` at a time. Safe on several
 * instances at once: a claimed row is skipped by the others (`SKIP LOCKED`) and, once committed, is
 * no longer due. `workspaceId` limits the pass to one workspace (tests on a shared database).
 */
export async function refreshDueFeeds(deps: AppDeps, batch = 20, workspaceId?: string): Promise<number> {
	await sealPlainAddresses(deps, workspaceId)
	const now = deps.now()
	const inWorkspace = workspaceId ? sql` and workspace_id = ${workspaceId}` : sql``
	const claimed = await deps.database.rows<{ workspaceId: string; userId: string; urlHash: string; dueAt: Date | string }>(
		sql`update ${calendarFeeds} f set next_refresh_at = ${new Date(now.getTime() + REFRESH_MS).toISOString()}::timestamptz
from (select workspace_id, user_id, next_refresh_at from ${calendarFeeds} where next_refresh_at <= ${now.toISOString()}::timestamptz and url_hash is not null${inWorkspace} order by next_refresh_at limit ${batch} for update skip locked) d
where f.workspace_id = d.workspace_id and f.user_id = d.user_id
returning f.workspace_id as "workspaceId", f.user_id as "userId", f.url_hash as "urlHash", d.next_refresh_at as "dueAt"`,
	)
	// RETURNING keeps no order of its own.
	const due = claimed.sort((a, b) => new Date(a.dueAt).getTime() - new Date(b.dueAt).getTime())
	let next = 0
	const reader = async () => {
		while (next < due.length) {
			const f = due[next++]!
			// refreshFeed records a feed's own failure; this catches the database failing while it does, so the other feeds are still read.
			await refreshFeed(deps, f.workspaceId, f.userId, f.urlHash).catch((error) =>
				deps.log.warn('calendar feed refresh failed', { workspaceId: f.workspaceId, userId: f.userId, error }),
			)
		}
	}
	await Promise.all(Array.from({ length: Math.min(FEEDS_AT_ONCE, due.length) }, reader))
	return due.length
}
