/**
 * Work a module repeats in the background (sweeps, syncs, prunes), run one way everywhere:
 * - A pass never overlaps the one before: a tick while a pass runs is skipped, so a slow pass over
 *   many rows is not joined by a second over the same rows.
 * - A failed pass is logged (`failure`, with the error) and the next tick tries again; nothing throws.
 * - Its timers never keep a process alive. `firstAfterMs` runs the first pass sooner than a whole
 *   period after the start (0: at once).
 * - The stop function clears the timers and waits for the pass in progress: the server closes the
 *   database only after it.
 */
import type { Logger } from './log.ts'

export interface Every {
	readonly everyMs: number
	readonly firstAfterMs?: number
	/** The log line when a pass fails: what did not happen ("old events could not be pruned"). */
	readonly failure: string
}

export function runEvery(log: Logger, every: Every, pass: () => Promise<unknown>): () => Promise<void> {
	let running: Promise<void> | null = null
	const tick = () => {
		running ??= Promise.resolve()
			.then(pass)
			.then(
				() => {},
				(error: unknown) => log.warn(every.failure, { error }),
			)
			.finally(() => {
				running = null
			})
	}
	const timer = setInterval(tick, every.everyMs)
	timer.unref?.()
	const first = every.firstAfterMs === undefined ? null : setTimeout(tick, every.firstAfterMs)
	first?.unref?.()
	return async () => {
		clearInterval(timer)
		if (first) clearTimeout(first)
		await running
	}
}
