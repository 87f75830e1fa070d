/**
 * Writing an event: in the transaction of the change that caused it (`recordEvent`), or, for a change
 * made by one SQL statement, as a CTE of that statement (`eventInsertFrom`), as the activity log does.
 */
import { sql, type SQL } from 'drizzle-orm'
import { Value } from '@sinclair/typebox/value'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { Db } from '../../db/client.ts'
import type { EventData, EventType } from './define.ts'
import { events } from './table.ts'

/** Who acted, as the event stores it. */
function actorColumns(actor: Actor) {
	return { workspaceId: actor.workspaceId, actorKind: actor.credential.kind, actorUserId: actor.userId, actorVendorId: actor.vendorId }
}

/** Data that does not fit its declared schema is a bug of the writer: refused before anything is written. */
function checked<E extends EventType<any>>(event: E, data: EventData<E>): EventData<E> {
	if (!Value.Check(event.data, data)) {
		const first = [...Value.Errors(event.data, data)][0]
		throw new Error(`event ${event.type}: data does not fit its schema (${first?.path || '/'}: ${first?.message ?? 'invalid'})`)
	}
	return data
}

/** Records `event` about a change made by `actor`; call it with the change's transaction. Returns the event's id. */
export async function recordEvent<E extends EventType<any>>(db: Db, event: E, actor: Actor, data: EventData<E>): Promise<string> {
	const id = newId('evt')
	await db.insert(events).values({ id, type: event.type, data: checked(event, data), ...actorColumns(actor) })
	return id
}

/** Who acted, as SQL over a statement's own rows (e.g. the vendor key it looked up). */
export type EventActorSql = Record<'workspaceId' | 'credentialKind' | 'actorUserId' | 'actorVendorId', SQL>

const actorPlaceholders: EventActorSql = {
	workspaceId: sql`${sql.placeholder('workspaceId')}`,
	credentialKind: sql`${sql.placeholder('credentialKind')}`,
	actorUserId: sql`${sql.placeholder('actorUserId')}`,
	actorVendorId: sql`${sql.placeholder('actorVendorId')}`,
}

/**
 * An `INSERT … SELECT` into the events for a statement that writes through a CTE, so the change and
 * its event are one statement. `type` is SQL giving one of the declared types in `of` (checked
 * when the statement is built) or null for no event; `data` is SQL building the jsonb (ids and
 * enumerations only); the event's id is the placeholder `eventId` (see `eventValues`). The actor is
 * placeholders, or SQL over the statement's own CTEs (the activity log's `ActorSql` fits).
 */
export function eventInsertFrom(
	from: SQL,
	parts: { type: SQL; of: readonly EventType<any>[]; data: SQL; where: SQL },
	actor: EventActorSql = actorPlaceholders,
): SQL {
	if (!parts.of.length) throw new Error('eventInsertFrom: name the event types the statement may write')
	return sql`insert into ${events} (id, type, data, workspace_id, actor_kind, actor_user_id, actor_vendor_id)
select ${sql.placeholder('eventId')}, ${parts.type}, ${parts.data}, ${actor.workspaceId}, ${actor.credentialKind}, ${actor.actorUserId}, ${actor.actorVendorId}
from ${from} where ${parts.where} and ${parts.type} in (${sql.join(
		parts.of.map((e) => sql.raw(`'${e.type}'`)),
		sql`, `,
	)})`
}

/** The placeholder values of `eventInsertFrom`: a fresh id, and (for the placeholder actor) who acts. */
export function eventValues(actor?: Actor) {
	if (!actor) return { eventId: newId('evt') }
	const c = actorColumns(actor)
	return { eventId: newId('evt'), workspaceId: c.workspaceId, credentialKind: c.actorKind, actorUserId: c.actorUserId, actorVendorId: c.actorVendorId }
}
