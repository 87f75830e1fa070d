/**
 * The memory guard inside a child of `runChild` (child-task.ts), loaded with `bun --preload` before
 * the child's script: on the main thread it starts this same file as a Worker and waits until it
 * watches; in the Worker it reads the process's VmRSS from /proc every 2 ms and, past the bound,
 * writes `benchline-child-memory <bytes>` to stderr and kills the whole process (SIGKILL).
 *
 * The Worker has an event loop of its own, so it keeps watching while the script's thread allocates,
 * and whatever the server's event loop is doing. The bound comes in BENCHLINE_CHILD_MAX_RSS, taken
 * out of the environment before the script runs. The Worker is unref'd: it never keeps a finished
 * child alive.
 */
import { readFileSync, writeSync } from 'node:fs'

// Spelt as child-task.ts spells them (not imported: this file runs in the child, and importing it starts a guard).
const MEMORY_MARKER = 'benchline-child-memory'
const MAX_RSS_VARIABLE = 'BENCHLINE_CHILD_MAX_RSS'
const WATCH_EVERY_MS = 2

function residentBytes(): number {
	const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
	return line ? Number(line[1]) * 1024 : 0
}

if (Bun.isMainThread) {
	const bound = Number(process.env[MAX_RSS_VARIABLE])
	delete process.env[MAX_RSS_VARIABLE]
	if (!(bound > 0)) throw new Error(`${MAX_RSS_VARIABLE} must be a number of bytes`)
	const guard = new Worker(import.meta.url) as Bun.Worker // Bun's Worker: it has unref()
	const watching = new Promise((resolve) => guard.addEventListener('message', resolve, { once: true }))
	guard.postMessage(bound)
	await watching
	guard.unref()
} else {
	self.onmessage = (event: MessageEvent<number>) => {
		const bound = event.data
		setInterval(() => {
			const rss = residentBytes()
			if (rss <= bound) return
			writeSync(2, `${MEMORY_MARKER} ${rss}\n`)
			process.kill(process.pid, 'SIGKILL')
		}, WATCH_EVERY_MS)
		postMessage('watching')
	}
}
