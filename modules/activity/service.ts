/**
 * The activity log: who changed what, through which door and credential, and when.
 * Writers call `recordActivity` inside the same transaction as the change.
 */
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
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
	detail: Record<string, unknown> | null
}

/** What /activity narrows the log to: one person (their user id), one record type, a time range `[since, until)`. */
export interface ActivityFilters {
	person?: string
	recordType?: string
	since?: Date
	until?: Date
}

/**
 * Newest first on `(at, seq)`: lines of the same millisecond in the reverse of the order they were
 * written (the index `activity_workspace_at`). A cursor carries the time and the `seq`; one from
 * before `seq` (time and id) is refused as not valid.
 */
const NEWEST = newestWrittenFirst<ActivityRow>(activity.at, activity.seq, (r) => r.at)

/** Newest first, keyset-paged; the cursor is bound to the workspace. Only owners and admins read it (checked by the route). */
export async function listActivity(deps: AppDeps, workspaceId: string, options: { limit: number; cursor?: string; filters?: ActivityFilters }) {
	const f = options.filters ?? {}
	const narrowed = [
		f.person ? eq(activity.actorUserId, f.person) : undefined,
		f.recordType ? eq(activity.targetType, f.recordType) : undefined,
		f.since ? gte(activity.at, f.since) : undefined,
		f.until ? lt(activity.at, f.until) : undefined,
	]
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
					detail: activity.detail,
				})
				.from(activity)
				.where(and(eq(activity.workspaceId, workspaceId), ...narrowed, after))
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

/**
 * What the filters of /activity offer: the people who acted in the workspace (by their latest name in
 * the log) and the record types the log holds, with every type a module names (a link filtering for
 * applications works before the first application line, and answers an empty list, not an error). Each is a skip scan over its index (one index probe
 * per distinct value), so a log of millions of lines answers as fast as a small one.
 */
export async function activityChoices(deps: AppDeps, workspaceId: string) {
	const [people, types] = await Promise.all([
		deps.database.rows<{ id: string; name: string }>(sql`with recursive p(id) as (
			(select actor_user_id from activity where workspace_id = ${workspaceId} and actor_user_id is not null order by actor_user_id limit 1)
			union all
			select (select a.actor_user_id from activity a where a.workspace_id = ${workspaceId} and a.actor_user_id > p.id order by a.actor_user_id limit 1) from p where p.id is not null
		)
		select p.id, (select a.actor_name from activity a where a.workspace_id = ${workspaceId} and a.actor_user_id = p.id order by a.at desc, a.seq desc limit 1) as name
		from p where p.id is not null`),
		deps.database.rows<{ type: string }>(sql`with recursive t(type) as (
			(select target_type from activity where workspace_id = ${workspaceId} order by target_type limit 1)
			union all
			select (select a.target_type from activity a where a.workspace_id = ${workspaceId} and a.target_type > t.type order by a.target_type limit 1) from t where t.type is not null
		)
		select type from t where type is not null`),
	])
	return {
		people: people.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
		types: [...new Set([...types.map((t) => t.type), ...deps.registry.modules.flatMap((m) => m.recordNames ?? []).map((n) => n.type)])].sort(),
	}
}
