/**
 * The age a queue reports on `/metrics` (`QueueDef.measure`, `benchline_queue_oldest_age_seconds`):
 * how long the entry that became due longest ago has waited since then; 0 when none is due. It is
 * read from the entry's due time (`next_attempt_at`), never from when the entry was made: a retry
 * waiting out its backoff, or an entry being sent under a lease, is not late, and an old entry made
 * due again (a replayed webhook delivery, released mail) starts at 0, not at the age of the change
 * behind it. An alert on this age then means "the workers are behind", nothing else.
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm'

/** Seconds (float8) since the longest-due of the rows became due; 0 when none is. An aggregate: use it in a select over the queue's rows. */
export const dueAgeSeconds = (dueAt: AnyColumn | SQL): SQL =>
	sql`coalesce(extract(epoch from now() - min(${dueAt}) filter (where ${dueAt} <= now())), 0)::float8`
