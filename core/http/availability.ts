/**
 * Fail fast while the database is down. A background probe asks the database every second (with a
 * short timeout); while it does not answer, requests that need it get 503 with `Retry-After` at once
 * instead of queueing on a stalled pool, and the process keeps running. When the probe answers again,
 * traffic flows again. (The embedded database lives in the process and is always up.)
 */
import type { Database } from '../../db/client.ts'
import type { Logger } from '../log.ts'

export interface Availability {
	/** False while the database does not answer. */
	up(): boolean
	stop(): void
}

export function watchDatabase(database: Database, log: Logger, intervalMs = 1000): Availability {
	if (database.kind === 'pglite') return { up: () => true, stop: () => {} }
	let up = true
	let running = false
	const timer = setInterval(async () => {
		if (running) return
		running = true
		const ok = await database.ping(Math.min(intervalMs, 1500))
		running = false
		if (ok !== up) {
			up = ok
			if (ok) log.info('database answers again; serving requests')
			else log.warn('database does not answer; requests get 503 until it is back')
		}
	}, intervalMs)
	timer.unref?.()
	return { up: () => up, stop: () => clearInterval(timer) }
}
