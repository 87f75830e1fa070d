/**
 * Work on untrusted bytes (parsing uploaded files) in a child process of its own, so that a hostile
 * input can exhaust that process and never the server: the child gets the bytes on stdin and answers
 * on stdout; it is killed (SIGKILL) when its resident memory passes a bound or when it runs past a
 * deadline, and at most a bounded answer is read. The child inherits no settings (no database
 * address, no secrets): only PATH, and its memory bound for the guard below.
 *
 * Why a process and not a Worker, nor an rlimit: a Worker shares the server's heap and allocator
 * (memory it took stays with the server after it ends), and Bun 1.4.5 has no `resourceLimits` for
 * Workers. RLIMIT_AS and RLIMIT_DATA (measured with `prlimit`) make Bun either fail at start for some
 * values (AS 1.2 GB, DATA 200 MB) or abort on its own heap growth; so the bound is kept by watching
 * the child's VmRSS in /proc every few milliseconds, which works the same for every value.
 *
 * Why the watching is done inside the child: a timer on the server's event loop fires late whenever
 * that loop is busy (a 10 MB upload being parsed, password hashing, other requests) or the machine is
 * loaded, and a hostile file that inflates fast got 100 MB past the bound meanwhile. So every child
 * is started with `child-memory-guard.ts` preloaded: a Worker of the child's own, on a thread of its
 * own, that kills the child past the bound and says so on stderr. The server still watches too, as
 * a second guard (should the child's guard not have started yet, or not run at all).
 *
 * `TaskSlots` bounds how many children run at once; a task waits for a slot for a bounded time, and
 * is refused at once when too many already wait.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readLimitedText } from './http/body.ts'

export interface ChildLimits {
	/** Wall-clock time the child may run, start-up included. */
	timeoutMs: number
	/** Resident memory (VmRSS) past which the child is killed. */
	maxRssBytes: number
	/** Bytes of answer read at most; a longer answer kills the child. */
	maxOutputBytes: number
}

export type ChildOutcome =
	| { kind: 'done'; output: string }
	| { kind: 'timeout' }
	| { kind: 'memory'; rssBytes: number }
	/**
	 * It exited with an error, was killed by something else, or answered too much. `detail` holds the end
	 * of its stderr, which can quote what it read (a line of a résumé, an event of someone's calendar):
	 * for a test or a person debugging, never for the log; `logged` says what a log line may (the exit,
	 * the signal, the name of the error).
	 */
	| { kind: 'failed'; detail: string; logged: string }

const WATCH_EVERY_MS = 5
const GUARD = fileURLToPath(new URL('./child-memory-guard.ts', import.meta.url))
/** The line the child's guard writes to stderr before it kills the child (spelt the same in the guard). */
const MEMORY_MARKER = /^benchline-child-memory (\d+)$/m

/** Bytes of the child's stderr kept (its end: the guard's line, the error that ended it); a parser's warnings can run to megabytes. */
const STDERR_KEPT = 64 * 1024

/** The last `keep` bytes of a stream, as text, however long it runs. */
async function lastBytes(stream: ReadableStream<Uint8Array>, keep: number): Promise<string> {
	let tail = new Uint8Array(0)
	for await (const chunk of stream) {
		const joined = new Uint8Array(Math.min(tail.length + chunk.length, keep))
		const fromChunk = Math.min(chunk.length, keep)
		const fromTail = joined.length - fromChunk
		joined.set(tail.subarray(tail.length - fromTail), 0)
		joined.set(chunk.subarray(chunk.length - fromChunk), fromTail)
		tail = joined
	}
	return new TextDecoder().decode(tail)
}

/** The name of the last error a child's stderr reports (`TypeError`, `InvalidPDFException`), or null: never its message. */
function errorName(stderr: string): string | null {
	const names = stderr.match(/\b[A-Z][A-Za-z]*(?:Error|Exception)\b/g)
	return names?.at(-1) ?? null
}

/** The resident memory of a process in bytes, or null when /proc does not have it (gone, or not Linux). */
export function residentBytes(pid: number): number | null {
	try {
		const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
		return line ? Number(line[1]) * 1024 : null
	} catch {
		return null
	}
}

/**
 * Runs `bun <script> ...args` with `input` on stdin, within `limits`, the memory guard preloaded.
 * The child also gets a CPU-time limit (RLIMIT_CPU, through the shell's `ulimit -t`, then `exec`, so
 * the pid watched is Bun's): should the server die while a child runs, the kernel still ends it.
 */
export async function runChild(script: string, args: string[], input: Uint8Array, limits: ChildLimits): Promise<ChildOutcome> {
	// Bun's own threads (JIT, GC) can add CPU time beyond the wall-clock time: twice that, and some.
	const cpuSeconds = 2 * Math.ceil(limits.timeoutMs / 1000) + 5
	const child = Bun.spawn(['/bin/sh', '-c', 'ulimit -t "$0" && exec "$@"', String(cpuSeconds), process.execPath, '--preload', GUARD, script, ...args], {
		stdin: input,
		stdout: 'pipe',
		stderr: 'pipe',
		env: { PATH: process.env.PATH ?? '/usr/bin:/bin', BENCHLINE_CHILD_MAX_RSS: String(limits.maxRssBytes) },
	})
	let verdict: ChildOutcome | null = null
	const kill = (why: ChildOutcome) => {
		verdict ??= why
		child.kill('SIGKILL')
	}
	const deadline = setTimeout(() => kill({ kind: 'timeout' }), limits.timeoutMs)
	const watch = setInterval(() => {
		const rss = residentBytes(child.pid)
		if (rss !== null && rss > limits.maxRssBytes) kill({ kind: 'memory', rssBytes: rss })
	}, WATCH_EVERY_MS)
	try {
		const tooMuch = () => new Error(`answered more than ${limits.maxOutputBytes} bytes`)
		const output = readLimitedText(new Response(child.stdout), limits.maxOutputBytes, tooMuch).catch((error: Error) => {
			kill({ kind: 'failed', detail: error.message, logged: error.message })
			return ''
		})
		const errors = lastBytes(child.stderr, STDERR_KEPT).catch(() => '')
		const code = await child.exited
		const [text, stderr] = await Promise.all([output, errors])
		if (verdict) return verdict
		if (code === 0) return { kind: 'done', output: text }
		const guarded = child.signalCode === 'SIGKILL' ? MEMORY_MARKER.exec(stderr) : null
		if (guarded) return { kind: 'memory', rssBytes: Number(guarded[1]) }
		const exit = `exit ${code}${child.signalCode ? ` (${child.signalCode})` : ''}`
		return { kind: 'failed', detail: `${exit}: ${stderr.slice(-500)}`, logged: errorName(stderr) ? `${exit}: ${errorName(stderr)}` : exit }
	} finally {
		clearTimeout(deadline)
		clearInterval(watch)
	}
}

/** Refused because every slot is taken and the queue is full, or no slot came free in time. */
export class SlotsBusy extends Error {}

/** At most `size` tasks at once; up to `maxWaiting` more wait (each at most `waitMs`), the rest are refused. */
export class TaskSlots {
	private running = 0
	private readonly waiting: (() => void)[] = []

	constructor(
		readonly size: number,
		readonly maxWaiting: number,
	) {}

	/** Tasks running now, and waiting for a slot (the metrics read them: `PoolDef`). */
	get busy(): number {
		return this.running
	}

	get queued(): number {
		return this.waiting.length
	}

	async run<T>(waitMs: number, task: () => Promise<T>): Promise<T> {
		await this.acquire(waitMs)
		try {
			return await task()
		} finally {
			this.release()
		}
	}

	private acquire(waitMs: number): Promise<void> {
		if (this.running < this.size) {
			this.running++
			return Promise.resolve()
		}
		if (this.waiting.length >= this.maxWaiting) return Promise.reject(new SlotsBusy(`${this.running} running and ${this.waiting.length} waiting`))
		return new Promise((resolve, reject) => {
			const turn = () => {
				clearTimeout(timer)
				resolve()
			}
			const timer = setTimeout(() => {
				this.waiting.splice(this.waiting.indexOf(turn), 1)
				reject(new SlotsBusy(`no slot came free within ${waitMs} ms`))
			}, waitMs)
			this.waiting.push(turn)
		})
	}

	private release() {
		// The slot passes straight to the first waiter, so `running` stays counted for it.
		const next = this.waiting.shift()
		if (next) next()
		else this.running--
	}
}
