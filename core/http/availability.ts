/**
 * Fail fast while the database is down. A background probe asks the database every second (with a
 * short timeout, on a connection of its own — see `Database.ping`); once it has gone unanswered twice
 * in a row, requests that need it get 503 with `Retry-After` at once instead of queueing on a stalled pool,
 * and the process keeps running. When the probe answers again, traffic flows again. (The embedded
 * database lives in the process and is always up.)
 *
 * Requests already waiting on the database when it stops answering are answered 503 at once too
 * (`answerWhileAvailable`): without that, a stalled PostgreSQL (SIGSTOP, a hung disk, a network
 * black hole) held them for as long as the stall lasted (measured by tests/reliability/faults.test.ts).
 * Their work goes on in the background and may still commit: a 503 is "not acknowledged", and the
 * client retries (publishing is idempotent by vendorJobId).
 */
import type { Database } from '../../db/client.ts'
import { AppError } from '../errors.ts'
import type { Logger } from '../log.ts'
import { errorResponse } from './errors.ts'
import { normalisePath } from './request-path.ts'
import type { Availability } from '../types/availability.ts'

export type { Availability }

const never = new Promise<void>(() => {})

/**
 * What answers while the database does not: liveness (`/health`, the process only), `/metrics`,
 * whose pool and process series are what an operator looks at during the outage, and the static
 * files. Read as the router reads a path (`normalisePath`: `/health/` is `/health`).
 */
export function servedWhileDatabaseDown(pathname: string): boolean {
	const path = normalisePath(pathname)
	return path === '/health' || path === '/metrics' || path.startsWith('/static/')
}

export function watchDatabase(database: Database, log: Logger, intervalMs = 1000): Availability {
	if (database.kind === 'pglite') return { up: () => true, whenDown: () => never, stop: () => {} }
	let up = true
	let running = false
	let signalDown: () => void = () => {}
	let down = new Promise<void>((r) => (signalDown = r))
	const timer = setInterval(async () => {
		if (running) return
		running = true
		const started = performance.now()
		const limit = Math.min(intervalMs, 1500)
		let ok = await database.ping(limit)
		// One silent probe can be the machine, not the database (a burst of CPU starving both): a second
		// probe at once confirms it before every request is answered 503. Detection takes 2-3 s.
		if (!ok && up) ok = await database.ping(limit)
		running = false
		if (ok !== up) {
			up = ok
			if (ok) log.info('database answers again; serving requests')
			else {
				// How long the probe waited tells a timeout (about the probe's limit) from a refusal (at once).
				log.warn('database does not answer; requests get 503 until it is back', { probeMs: Math.round(performance.now() - started) })
				signalDown()
				down = new Promise<void>((r) => (signalDown = r))
			}
		}
	}, intervalMs)
	timer.unref?.()
	return { up: () => up, whenDown: () => down, stop: () => clearInterval(timer) }
}

/** The 503 of an unavailable database, in the door's format, with the security headers of every response. */
export function unavailableResponse(request: Request, headers: Record<string, string>): Response {
	const res = errorResponse(new AppError('UNAVAILABLE', 'The service is temporarily unavailable; retry shortly', { retryAfter: 5 }), request)
	for (const [k, v] of Object.entries(headers)) res.headers.set(k, v)
	return res
}

/**
 * The app's answer, or a 503 at once if the database stops answering before the answer is ready
 * (except for what is served while it is down: its answer is waited for).
 */
export async function answerWhileAvailable(
	availability: Availability,
	request: Request,
	handling: Promise<Response>,
	unavailable: () => Response,
): Promise<Response> {
	if (!availability.up()) return handling // the app's own gate answers 503 already
	const winner = await Promise.race([handling, availability.whenDown().then(() => null)])
	if (winner) return winner
	if (servedWhileDatabaseDown(new URL(request.url).pathname)) return handling
	handling.catch(() => {}) // finishes in the background; its answer is dropped
	return unavailable()
}
