/**
 * The notices waiting for a search engine, as a queue on `/metrics` (`benchline_queue_depth{queue="indexing"}`;
 * the age since a notice became due, core/queue-age.ts).
 */
import { sql } from 'drizzle-orm'
import type { QueueDef } from '../../core/metrics.ts'
import { dueAgeSeconds } from '../../core/queue-age.ts'
import { indexingNotices } from './table.ts'

export const indexingQueue: QueueDef = {
	name: 'indexing',
	description: 'Job pages waiting to be announced to search engines (IndexNow, the Google Indexing API), retries included',
	async measure(deps) {
		const [row] = await deps.database.rows<{ depth: number; oldest: number | string }>(
			sql`select count(*)::int as depth, ${dueAgeSeconds(indexingNotices.nextAttemptAt)} as oldest from ${indexingNotices}`,
		)
		return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) }
	},
}
