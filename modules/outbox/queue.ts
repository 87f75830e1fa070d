/**
 * The outbox as a queue on `/metrics` (`benchline_queue_depth{queue="outbox"}` and its oldest entry's
 * age): rows waiting to be delivered or being delivered now. Held rows (queued while `SMTP_URL` was
 * unset) are not waiting for the worker, and finished ones (sent, failed, not sent) are not waiting.
 * The age is since a row became due (core/queue-age.ts): mail released from the dev mailbox starts at 0.
 */
import { sql } from 'drizzle-orm'
import type { QueueDef } from '../../core/metrics.ts'
import { dueAgeSeconds } from '../../core/queue-age.ts'
import { outbox } from './table.ts'

export const outboxQueue: QueueDef = {
	name: 'outbox',
	description: 'E-mail and messages waiting to be delivered (retries included)',
	async measure(deps) {
		const [row] = await deps.database.rows<{ depth: number; oldest: number | string }>(sql`select count(*)::int as depth,
			${dueAgeSeconds(outbox.nextAttemptAt)} as oldest
			from ${outbox} where ${outbox.status} in ('pending', 'sending') and not ${outbox.held}`)
		return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) }
	},
}
