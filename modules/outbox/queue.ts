/**
 * The outbox as a queue on `/metrics` (`benchline_queue_depth{queue="outbox"}` and its oldest entry's
 * age): rows waiting to be delivered or being delivered now. Held rows (queued while `SMTP_URL` was
 * unset) are not waiting for the worker, and finished ones (sent, failed, not sent) are not waiting.
 */
import { sql } from 'drizzle-orm'
import type { QueueDef } from '../../core/metrics.ts'
import { outbox } from './table.ts'

export const outboxQueue: QueueDef = {
	name: 'outbox',
	description: 'E-mail and messages waiting to be delivered (retries included)',
	async measure(deps) {
		const [row] = await deps.database.rows<{ depth: number; oldest: number | string }>(sql`select count(*)::int as depth,
			coalesce(extract(epoch from now() - min(${outbox.createdAt})), 0)::float8 as oldest
			from ${outbox} where ${outbox.status} in ('pending', 'sending') and not ${outbox.held}`)
		return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) }
	},
}
