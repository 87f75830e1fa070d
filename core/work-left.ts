/**
 * Work a request or a command leaves behind to run a little later (an erasure's second scrub of the
 * audit trail, a second after it). Its timer never keeps a server alive on its own; `settle`, which
 * `closeDeps` calls before the database closes, waits for what is still due, so a CLI command or a
 * stopping server does not exit before that work ran (the CLI's process exits as soon as its
 * command returns, and a scrub due a second later was simply never done).
 */
import type { Logger } from './log.ts'

interface Due {
	timer: ReturnType<typeof setTimeout>
	done: Promise<void>
}

export function workLeftBehind(log: Logger) {
	const due = new Set<Due>()
	return {
		/** Runs `task` `ms` from now; resolves once it ran (a failure is logged, never thrown). */
		later(ms: number, task: () => Promise<void>): Promise<void> {
			let timer!: ReturnType<typeof setTimeout>
			const done = new Promise<void>((resolve) => {
				timer = setTimeout(() => {
					task()
						.catch((error: unknown) => log.warn('work left behind failed', { error }))
						.finally(resolve)
				}, ms)
			})
			timer.unref()
			const entry = { timer, done }
			due.add(entry)
			void done.finally(() => due.delete(entry))
			return done
		},
		/** Resolves once everything `later` was given has run: the timers now keep the process alive until then. */
		async settle(): Promise<void> {
			while (due.size) {
				const waiting = [...due]
				for (const entry of waiting) entry.timer.ref()
				await Promise.all(waiting.map((entry) => entry.done))
			}
		},
	}
}
