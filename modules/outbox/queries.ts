/**
 * Reading the outbox in the order rows were written, for modules that keep their own copy of what
 * was sent (the inbox threads every e-mail and message into its conversation). Added for the
 * inbox (issue 7); the worker and enqueueing stay in `service.ts` / `worker.ts`.
 */
import { and, eq, gte, inArray, sql, type SQL } from 'drizzle-orm'
import { afterKeys, BIGINT, orderBy, TIME, type OrderKey } from '../../core/paging.ts'
import type { Db } from '../../db/client.ts'
import { outbox } from './table.ts'

/**
 * The related type of mail about a person's own account (a password reset link): it is theirs
 * alone, not a conversation of the workspace, so `outboxSince` leaves it out (the inbox never
 * copies it where colleagues and assistants read).
 */
export const ACCOUNT_MAIL = 'account'

/**
 * The related type of a careers-site job alert's mail (its confirmation, its digests): sent to a
 * subscriber, not a conversation with a candidate, so the inbox leaves it out too.
 */
export const JOB_ALERT_MAIL = 'job_alert'

export interface OutboxEntry {
	id: string
	workspaceId: string
	channel: string
	to: string
	subject: string | null
	text: string
	relatedType: string | null
	relatedId: string | null
	/** Whom it is for, when the sender said (`candidate` or `vendor`). */
	recipientType: string | null
	recipientId: string | null
	/** The person it was sent for; null for the portal's own mail. */
	sentByUserId: string | null
	messageId: string | null
	status: string
	createdAt: Date
	/** Insertion order: the tie-break of rows created in the same millisecond (ids are random). */
	seq: number
}

/** The order rows were written in: `(createdAt, seq)`, oldest first. */
const WRITTEN_ORDER: readonly OrderKey[] = [{ expr: outbox.createdAt }, { expr: outbox.seq }]

/**
 * Rows created at or after `since` (all when omitted), optionally of one workspace, account mail left out, oldest first
 * by `(createdAt, seq)` (the order they were written in), strictly after `after` when given (to page through), at most `limit`.
 */
export async function outboxSince(
	db: Db,
	options: { workspaceId?: string; since?: Date; after?: { at: Date; seq: number }; limit: number },
): Promise<OutboxEntry[]> {
	const conditions: SQL[] = [sql`coalesce(${outbox.relatedType}, '') not in (${ACCOUNT_MAIL}, ${JOB_ALERT_MAIL})`]
	if (options.workspaceId) conditions.push(eq(outbox.workspaceId, options.workspaceId))
	if (options.since) conditions.push(gte(outbox.createdAt, options.since))
	if (options.after) conditions.push(afterKeys(WRITTEN_ORDER, [TIME.param(options.after.at), BIGINT.param(options.after.seq)]))
	return db
		.select({
			id: outbox.id,
			workspaceId: outbox.workspaceId,
			channel: outbox.channel,
			to: outbox.to,
			subject: outbox.subject,
			text: outbox.text,
			relatedType: outbox.relatedType,
			relatedId: outbox.relatedId,
			recipientType: outbox.recipientType,
			recipientId: outbox.recipientId,
			sentByUserId: outbox.sentByUserId,
			messageId: outbox.messageId,
			status: outbox.status,
			createdAt: outbox.createdAt,
			seq: outbox.seq,
		})
		.from(outbox)
		.where(and(...conditions))
		.orderBy(orderBy(WRITTEN_ORDER))
		.limit(options.limit)
}

/**
 * The workspace of each outbox row among `ids` (account and job-alert mail left out, as above): a
 * reply naming one of our Message-IDs (`<id@host>`) belongs to that row's workspace only. Looked up by
 * primary key; at most as many rows as ids.
 */
export async function outboxWorkspaces(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
	if (!ids.length) return new Map()
	const rows = await db
		.select({ id: outbox.id, workspaceId: outbox.workspaceId })
		.from(outbox)
		.where(and(inArray(outbox.id, [...new Set(ids)]), sql`coalesce(${outbox.relatedType}, '') not in (${ACCOUNT_MAIL}, ${JOB_ALERT_MAIL})`))
	return new Map(rows.map((r) => [r.id, r.workspaceId]))
}
