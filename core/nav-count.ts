/**
 * The counts beside navigation links (unread conversations, overdue to-dos…). A badge shows up to 99,
 * then "99+", so a counter never counts past `NAV_COUNT_CAP`: every portal page shows the badges, and
 * an exact count of 100,000 unread conversations cost 70 ms of every page (bench/scale.ts).
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'

export const NAV_COUNT_CAP = 100

/** How many rows `rows` (a `select 1 from … where …`) finds, counted up to `NAV_COUNT_CAP`. */
export async function navCount(database: Pick<Database, 'rows'>, rows: SQL): Promise<number> {
	const [row] = await database.rows<{ n: number }>(sql`select count(*)::int as n from (${rows} limit ${NAV_COUNT_CAP}) counted`)
	return Number(row?.n ?? 0)
}

/** A badge's text: the count, or "99+" from `NAV_COUNT_CAP` on. */
export const badgeText = (count: number) => (count >= NAV_COUNT_CAP ? `${NAV_COUNT_CAP - 1}+` : String(count))
