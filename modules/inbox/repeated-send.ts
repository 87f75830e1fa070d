/**
 * A message sent twice by mistake (a double click on Send, a form sent again, a bulk send run twice)
 * goes once (core/repeats.ts). The same message again within `REPEAT_WINDOW_MS` — same sender, counterpart, channel,
 * address, subject and text — is the one already sent: nothing is written or sent again, and the
 * caller says so. Decided under a lock on the counterpart's conversation until the transaction
 * ends, so two submissions at once see each other (as scheduling does for an interview).
 */
import { sql } from 'drizzle-orm'
import { lockUntilCommit, type Db } from '../../db/client.ts'
import type { AppDeps } from '../../core/deps.ts'
import { repeatWindowStart } from '../../core/repeats.ts'

export interface OutgoingMessage {
	workspaceId: string
	/** The counterpart's key (`candidate:cand_…`): one conversation per counterpart. */
	counterpartKey: string
	userId: string
	channel: 'email' | 'message'
	to: string
	subject: string | null
	text: string
	/** The time the new message would be stamped with (the database's clock, `threadClock`). */
	at: Date
}

/** Takes the counterpart's lock, then the message already sent moments ago that this one repeats, or null. */
export async function repeatedSend(deps: AppDeps, tx: Db, m: OutgoingMessage): Promise<{ messageId: string; threadId: string; outboxId: string } | null> {
	await lockUntilCommit(tx, `inbox_send:${m.workspaceId}:${m.counterpartKey}`)
	const since = repeatWindowStart(m.at).toISOString()
	const [row] = await deps.database.rows<{ messageId: string; threadId: string; outboxId: string }>(
		sql`select m.id as "messageId", m.thread_id as "threadId", m.outbox_id as "outboxId" from inbox_messages m join inbox_threads t on t.id = m.thread_id
			where t.workspace_id = ${m.workspaceId} and t.counterpart_key = ${m.counterpartKey} and m.direction = 'out' and m.outbox_id is not null
			and m.sent_by_user_id = ${m.userId} and m.channel = ${m.channel} and m.to_address = ${m.to}
			and m.subject is not distinct from ${m.subject} and m.text = ${m.text} and m.at > ${since}::timestamptz
			order by m.at desc limit 1`,
		tx,
	)
	return row ?? null
}
