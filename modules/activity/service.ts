/**
 * The activity log: who changed what, through which door and credential, and when.
 * Writers call `recordActivity` inside the same transaction as the change.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { keysetPage, newestWrittenFirst } from '../../core/paging.ts'
import type { Db } from '../../db/client.ts'
import { activity } from './table.ts'

export interface ActivityEntry {
	action: string
	targetType: string
	targetId: string
	detail?: Record<string, unknown>
}

function actorColumns(actor: Actor) {
	return {
		workspaceId: actor.workspaceId,
		actorUserId: actor.userId,
		actorVendorId: actor.vendorId,
		actorName: actor.name,
		credentialKind: actor.credential.kind,
		credentialId: actor.credential.id,
		credentialName: actor.credential.name,
	}
}

export async function recordActivity(db: Db, actor: Actor, entry: ActivityEntry): Promise<void> {
	await db.insert(activity).values({ id: newId('act'), ...actorColumns(actor), ...entry, detail: entry.detail ?? null })
}

/** Who acts, as SQL: the activity columns that name the actor and the credential. */
export type ActorSql = Record<keyof ReturnType<typeof actorColumns>, SQL>

/**
 * An `INSERT … SELECT` into the activity log for a statement that writes through a CTE, so the
 * change and its log line are one statement (one round trip, atomic without BEGIN/COMMIT).
 * `from` names the CTE; `targetId`, `action` and `where` are SQL over it. The statement is
 * compiled once (see `compile`): the line's id is the placeholder `activityId`, and the actor is
 * either placeholders (run with `activityValues(actor)`) or SQL over the statement's own CTEs.
 */
export function activityInsertFrom(from: SQL, parts: { action: SQL; targetType: string; targetId: SQL; where: SQL }, actor: ActorSql = actorPlaceholders): SQL {
	return sql`insert into ${activity} (id, workspace_id, actor_user_id, actor_vendor_id, actor_name, credential_kind, credential_id, credential_name, action, target_type, target_id)
select ${sql.placeholder('activityId')}, ${actor.workspaceId}, ${actor.actorUserId}, ${actor.actorVendorId}, ${actor.actorName}, ${actor.credentialKind}, ${actor.credentialId}, ${actor.credentialName}, ${parts.action}, ${parts.targetType}, ${parts.targetId}
from ${from} where ${parts.where}`
}

const actorPlaceholders = Object.fromEntries(
	(['workspaceId', 'actorUserId', 'actorVendorId', 'actorName', 'credentialKind', 'credentialId', 'credentialName'] as const).map((name) => [
		name,
		sql`${sql.placeholder(name)}`,
	]),
) as ActorSql

/** The placeholder values of `activityInsertFrom`: who acts, and a fresh id for the line. */
export function activityValues(actor: Actor) {
	return { activityId: newId('act'), ...actorColumns(actor) }
}

export interface ActivityRow {
	id: string
	at: Date
	seq: number
	actorName: string
	credentialKind: string
	credentialName: string
	action: string
	targetType: string
	targetId: string
}

/**
 * Newest first on `(at, seq)`: lines of the same millisecond in the reverse of the order they were
 * written (the index `activity_workspace_at`). A cursor carries the time and the `seq`; one from
 * before `seq` (time and id) is refused as not valid.
 */
const NEWEST = newestWrittenFirst<ActivityRow>(activity.at, activity.seq, (r) => r.at)

/** Newest first, keyset-paged; the cursor is bound to the workspace. Only owners and admins read it (checked by the route). */
export async function listActivity(deps: AppDeps, workspaceId: string, options: { limit: number; cursor?: string }) {
	return keysetPage(deps, {
		scope: `activity:${workspaceId}`,
		cursor: options.cursor,
		limit: options.limit,
		order: NEWEST,
		read: (after, order, size) =>
			deps.db
				.select({
					id: activity.id,
					at: activity.at,
					seq: activity.seq,
					actorName: activity.actorName,
					credentialKind: activity.credentialKind,
					credentialName: activity.credentialName,
					action: activity.action,
					targetType: activity.targetType,
					targetId: activity.targetId,
				})
				.from(activity)
				.where(and(eq(activity.workspaceId, workspaceId), after))
				.orderBy(order)
				.limit(size),
	})
}

/** Activity lines about one record, oldest first, in the order they were written (tests and record pages). */
export async function activityFor(db: Db, workspaceId: string, targetType: string, targetId: string) {
	return db
		.select()
		.from(activity)
		.where(and(eq(activity.workspaceId, workspaceId), eq(activity.targetType, targetType), eq(activity.targetId, targetId)))
		.orderBy(activity.at, activity.seq)
}
