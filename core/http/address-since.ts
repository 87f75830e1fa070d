/**
 * Since when the portal has been served at its address (`BASE_URL`). Every address a sitemap or a
 * feed lists is under it, so a move changes all of them: their Last-Modified is never earlier than
 * this (a crawler's If-Modified-Since from before the move got a 304 for the old addresses).
 *
 * Kept in `server_settings` (shared by every instance, and across restarts: a restart at the same
 * address is no change) and read once per configuration. Dated by the database's clock, as the
 * jobs' changes are.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../deps.ts'

/** Per database, per configuration (tests run several of each in one process). */
const known = new WeakMap<AppDeps['database'], WeakMap<AppDeps['config'], Promise<Date>>>()

export function addressSince(deps: Pick<AppDeps, 'config' | 'database'>): Promise<Date> {
	let byConfig = known.get(deps.database)
	if (!byConfig) known.set(deps.database, (byConfig = new WeakMap()))
	let since = byConfig.get(deps.config)
	if (!since) {
		const read = readSince(deps)
		byConfig.set(deps.config, read)
		read.catch(() => byConfig.delete(deps.config))
		since = read
	}
	return since
}

async function readSince(deps: Pick<AppDeps, 'config' | 'database'>): Promise<Date> {
	const [row] = await deps.database.rows<{ since: Date | string }>(
		sql`insert into server_settings (key, value, created_at) values ('base_url', ${deps.config.baseUrl}, now())
		on conflict (key) do update set value = excluded.value,
			created_at = case when server_settings.value = excluded.value then server_settings.created_at else excluded.created_at end
		returning created_at as since`,
	)
	const since = row!.since
	return since instanceof Date ? since : new Date(since)
}
