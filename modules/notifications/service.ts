/**
 * Notifications: what a person should know about (a colleague mentioned them in a note), listed
 * unread first on `/notifications`, counted beside the navigation link, and optionally sent as a
 * daily e-mail digest (digest.ts).
 *
 * Rules:
 * - A notification is for one person in one workspace and names its record by id; the sentence and
 *   the link are made when it is shown (or mailed in the digest), by the module that owns the record
 *   and through the reader's own reach at that moment (`notifiedRecords`, port.ts), so a record
 *   renamed or erased shows as it is now, and one the reader can no longer open (their role changed,
 *   they left the job's hiring team) is a neutral line without its name or link. It stays listed and
 *   counted: it is still theirs to read and mark as read, and a list that silently shrinks would
 *   leave the count and the digest's number disagreeing with what is shown.
 * - Nobody is notified of their own action.
 * - Opening one marks it read; **Mark all as read** marks every one shown so far.
 */
import { and, eq, isNull, lte, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { integerKey, keysetPage, timeKey } from '../../core/paging.ts'
import { textOf } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { userNames } from '../auth/index.ts'
import { notifications } from './table.ts'
import { navCount } from '../../core/nav-count.ts'
import type { Database } from '../../db/client.ts'
import { contributionsTo } from '../../core/registry.ts'
import { notifiedRecords } from './port.ts'

export const KINDS = ['mention'] as const
export type NotificationKind = (typeof KINDS)[number]

export interface NewNotification {
	workspaceId: string
	/** Whom it is for (the one acting is left out). */
	userIds: readonly string[]
	kind: NotificationKind
	actorUserId: string | null
	record: { type: string; id: string }
	/** Ids only (a note's id), never text. */
	detail?: Record<string, string | null>
}

/** Records notifications inside the caller's transaction, so they exist exactly when the change does. Returns how many. */
export async function notify(tx: Db, n: NewNotification): Promise<number> {
	const people = [...new Set(n.userIds)].filter((id) => id !== n.actorUserId)
	if (!people.length) return 0
	await tx.insert(notifications).values(
		people.map((userId) => ({
			id: newId('ntf'),
			workspaceId: n.workspaceId,
			userId,
			kind: n.kind,
			actorUserId: n.actorUserId,
			recordType: n.record.type,
			recordId: n.record.id,
			detail: n.detail ?? {},
		})),
	)
	return people.length
}

interface Row {
	id: string
	kind: string
	actorUserId: string | null
	recordType: string
	recordId: string
	detail: Record<string, string | null>
	createdAt: Date | string
	readAt: Date | string | null
	unread: number
	seq: number
}

export interface NotificationView {
	id: string
	kind: string
	/** "Dana Lee mentioned you in a note on Ava Jackson". */
	sentence: string
	/** Where it leads (the record's page); null when the record is gone. */
	href: string | null
	createdAt: string
	read: boolean
}

const person = (actor: Actor) => {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'Notifications belong to people')
	return actor.userId
}

// Unread first, then newest first; rows of one millisecond newest-written first.
const ORDER = {
	keys: [
		integerKey<Row>(sql`(n.read_at is null)::int`, (r) => r.unread, { desc: true }),
		timeKey<Row>(sql`n.created_at`, (r) => r.createdAt, { desc: true }),
		integerKey<Row>(sql`n.seq`, (r) => r.seq, { desc: true }),
	],
}

/** What a record the reader cannot open (or that is gone) is called: the two read alike. */
export const OUT_OF_REACH = 'a record you can no longer open'

/**
 * The names and pages of the records notifications are about, asked of the modules that own them
 * for this reader (`notifiedRecords`): only what the reader can open now is named.
 */
async function recordNamesOf(deps: AppDeps, reader: Actor, rows: readonly Row[]) {
	const namers = new Map(contributionsTo(deps.registry, notifiedRecords).map((n) => [n.type, n]))
	const names = new Map<string, { name: string; href?: string }>()
	for (const type of new Set(rows.map((r) => r.recordType))) {
		const namer = namers.get(type)
		if (!namer) continue
		for (const [id, name] of await namer.names(deps, reader, [...new Set(rows.filter((r) => r.recordType === type).map((r) => r.recordId))]))
			names.set(`${type}:${id}`, name)
	}
	return names
}

async function views(deps: AppDeps, reader: Actor, rows: readonly Row[]): Promise<NotificationView[]> {
	const [records, people] = await Promise.all([
		recordNamesOf(deps, reader, rows),
		userNames(
			deps.db,
			rows.map((r) => r.actorUserId).filter((id): id is string => Boolean(id)),
			reader,
		),
	])
	return rows.map((r) => {
		const record = records.get(`${r.recordType}:${r.recordId}`)
		const who = (r.actorUserId && textOf(people.get(r.actorUserId))) || 'A former colleague'
		const what = record?.name ?? OUT_OF_REACH
		const noteAnchor = r.detail.noteId ? `#note-${r.detail.noteId}` : ''
		return {
			id: r.id,
			kind: r.kind,
			sentence: r.kind === 'mention' ? `${who} mentioned you in a note on ${what}` : `${who}: ${r.kind} on ${what}`,
			href: record?.href ? `${record.href}${noteAnchor}` : null,
			createdAt: new Date(r.createdAt).toISOString(),
			read: r.readAt !== null,
		}
	})
}

/** The person's notifications, unread first, then newest first; the cursor is bound to the person. */
export async function listNotifications(deps: AppDeps, actor: Actor, o: { limit: number; cursor?: string }) {
	const userId = person(actor)
	const page = await keysetPage<Row>(deps, {
		scope: `notifications:${actor.workspaceId}:${userId}`,
		cursor: o.cursor,
		limit: o.limit,
		order: ORDER,
		from: sql`select n.id, n.kind, n.actor_user_id as "actorUserId", n.record_type as "recordType", n.record_id as "recordId", n.detail, n.created_at as "createdAt", n.read_at as "readAt", (n.read_at is null)::int as unread, n.seq from ${notifications} n`,
		where: [sql`n.workspace_id = ${actor.workspaceId}`, sql`n.user_id = ${userId}`],
	})
	return { notifications: await views(deps, actor, page.rows), nextCursor: page.nextCursor }
}

/** Unread notifications of a person in a workspace (the navigation's count). */
export async function unreadCount(database: Pick<Database, 'rows'>, workspaceId: string, userId: string): Promise<number> {
	return navCount(
		database,
		sql`select 1 from ${notifications} where ${and(eq(notifications.workspaceId, workspaceId), eq(notifications.userId, userId), isNull(notifications.readAt))}`,
	)
}

/** The unread notifications of a person, newest first (the digest), at most `limit`; named through their reach as it is now. */
export async function unreadNotifications(deps: AppDeps, reader: Actor, limit: number): Promise<NotificationView[]> {
	const workspaceId = reader.workspaceId
	const userId = person(reader)
	const rows = await deps.database.rows<Row>(
		sql`select n.id, n.kind, n.actor_user_id as "actorUserId", n.record_type as "recordType", n.record_id as "recordId", n.detail, n.created_at as "createdAt", n.read_at as "readAt", 1 as unread, n.seq
		from ${notifications} n where n.workspace_id = ${workspaceId} and n.user_id = ${userId} and n.read_at is null order by n.created_at desc, n.seq desc limit ${limit}`,
	)
	return views(deps, reader, rows)
}

/** Marks every notification of the person that exists now as read (one arriving meanwhile stays unread). */
export async function markAllRead(deps: AppDeps, actor: Actor): Promise<number> {
	const userId = person(actor)
	const now = deps.now()
	const done = await deps.db
		.update(notifications)
		.set({ readAt: now })
		.where(
			and(eq(notifications.workspaceId, actor.workspaceId), eq(notifications.userId, userId), isNull(notifications.readAt), lte(notifications.createdAt, now)),
		)
		.returning({ id: notifications.id })
	return done.length
}

/** Opens one of the person's notifications: marks it read and says where it leads (another person's is absent). */
export async function openNotification(deps: AppDeps, actor: Actor, id: string): Promise<string> {
	const userId = person(actor)
	const [row] = await deps.database.rows<Row>(
		sql`select n.id, n.kind, n.actor_user_id as "actorUserId", n.record_type as "recordType", n.record_id as "recordId", n.detail, n.created_at as "createdAt", n.read_at as "readAt", 0 as unread, n.seq
		from ${notifications} n where n.id = ${id} and n.workspace_id = ${actor.workspaceId} and n.user_id = ${userId}`,
	)
	if (!row) throw new AppError('NOT_FOUND', 'No notification with this id')
	await deps.db
		.update(notifications)
		.set({ readAt: deps.now() })
		.where(and(eq(notifications.id, id), isNull(notifications.readAt)))
	return (await views(deps, actor, [row]))[0]!.href ?? '/notifications'
}
