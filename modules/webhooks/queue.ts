/**
 * The webhook deliveries as a queue on `/metrics` (`benchline_queue_depth{queue="webhooks"}` and its
 * oldest entry's age): deliveries waiting or being sent to endpoints that are switched on. The age is
 * since a delivery became due (core/queue-age.ts), not since its event: a replay starts at 0.
 */
import { sql } from 'drizzle-orm'
import type { QueueDef } from '../../core/metrics.ts'
import { dueAgeSeconds } from '../../core/queue-age.ts'
import { webhookDeliveries, webhookEndpoints } from './table.ts'

export const webhookQueue: QueueDef = {
	name: 'webhooks',
	description: 'Webhook deliveries waiting to be sent (retries included) to endpoints that are on',
	async measure(deps) {
		const [row] = await deps.database.rows<{ depth: number; oldest: number | string }>(sql`select count(*)::int as depth,
			${dueAgeSeconds(sql`d.next_attempt_at`)} as oldest
			from ${webhookDeliveries} d join ${webhookEndpoints} e on e.id = d.endpoint_id
			where d.status in ('pending', 'sending') and e.enabled`)
		return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) }
	},
}
