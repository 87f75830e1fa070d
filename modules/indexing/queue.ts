/** The notices waiting for a search engine, as a queue on `/metrics` (`benchline_queue_depth{queue="indexing"}`). */
import { sql } from 'drizzle-orm'
import type { QueueDef } from '../../core/metrics.ts'
import { indexingNotices } from './table.ts'

export const indexingQueue: QueueDef = {
	name: 'indexing',
	description: 'Job pages waiting to be announced to search engines (IndexNow, the Google Indexing API), retries included',
	async measure(deps) {
		const [row] = await deps.database.rows<{ depth: number; oldest: number | string }>(
			sql`select count(*)::int as depth, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest from ${indexingNotices}`,
		)
		return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) }
	},
}
