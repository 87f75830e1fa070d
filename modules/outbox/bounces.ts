/**
 * Delivery reports on what we sent. The outbox sends; whether a message then arrived only a report
 * that comes back can say, and the inbox reads those (inbound mail, `modules/inbox/automatic.ts`,
 * which decides whether the report is to be believed). It tells the outbox here, and the outbox page
 * shows the message "Not delivered" with the report's reason.
 *
 * Rules:
 * - Only a sent e-mail can bounce: a report naming a row that was never handed to the mail server
 *   (held, waiting, failed, not sent) or a text message changes nothing.
 * - The first report counts: a later one for the same row keeps its time and reason.
 * - The reason is text from outside (the remote server's words, often naming the recipient): kept to
 *   one line by the inbox, escaped on the page, erased with the recipient (`erasure.ts`).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { outbox } from './table.ts'

export interface Bounce {
	workspaceId: string
	/** The outbox rows the report is about (ids, as the inbox's copies name them). */
	ids: readonly string[]
	/** The report's reason (one line), or null when it gave none. */
	reason: string | null
	at: Date
}

/** Records that a delivery report said these sent e-mails did not arrive; returns the ids newly marked. */
export async function recordBounce(db: Db, b: Bounce): Promise<string[]> {
	if (!b.ids.length) return []
	const marked = await db
		.update(outbox)
		.set({ bouncedAt: sql`${b.at.toISOString()}::timestamptz`, bounceReason: b.reason })
		.where(
			and(
				eq(outbox.workspaceId, b.workspaceId),
				inArray(outbox.id, [...new Set(b.ids)]),
				eq(outbox.channel, 'email'),
				eq(outbox.status, 'sent'),
				isNull(outbox.bouncedAt),
			),
		)
		.returning({ id: outbox.id })
	return marked.map((r) => r.id)
}
