/**
 * `runChild` and `TaskSlots` with real child processes (small scripts written to a temp folder):
 * the child is killed past its memory bound or its deadline, an over-long answer is cut, the server's
 * settings never reach it, and at most `size` tasks run at once with a bounded queue.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runChild, SlotsBusy, TaskSlots } from './child-task.ts'

const dir = mkdtempSync(join(tmpdir(), 'bl-child-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const script = (name: string, source: string) => {
	const path = join(dir, name)
	writeFileSync(path, source)
	return path
}
const MB = 1024 * 1024
const roomy = { timeoutMs: 20_000, maxRssBytes: 512 * MB, maxOutputBytes: MB }

describe('runChild', () => {
	test('hands the input on stdin and returns what the child wrote; the child sees none of the server’s settings', async () => {
		process.env.BL_CHILD_TEST_SECRET = 'not for children'
		const echo = script(
			'echo.ts',
			`const input = await Bun.stdin.text(); process.stdout.write(JSON.stringify({ input, args: process.argv.slice(2), env: Object.keys(process.env).filter((k) => k.startsWith('BL_') || k === 'DATABASE_URL') }))`,
		)
		const outcome = await runChild(echo, ['a', 'b'], new TextEncoder().encode('hello'), roomy)
		delete process.env.BL_CHILD_TEST_SECRET
		expect(outcome.kind).toBe('done')
		expect(JSON.parse((outcome as { output: string }).output)).toEqual({ input: 'hello', args: ['a', 'b'], env: [] })
	}, 30_000)

	test('a child that never ends is killed at its deadline', async () => {
		const spin = script('spin.ts', 'for (;;) {}')
		const started = Date.now()
		const outcome = await runChild(spin, [], new Uint8Array(), { ...roomy, timeoutMs: 1000 })
		expect(outcome).toEqual({ kind: 'timeout' })
		expect(Date.now() - started).toBeLessThan(5000)
	}, 30_000)

	test('the child has a CPU-time limit of its own (so it ends even when nothing watches it any more)', async () => {
		const limit = script('limit.ts', 'process.stdout.write(String(Bun.spawnSync(["/bin/sh", "-c", "ulimit -t"]).stdout).trim())')
		expect(await runChild(limit, [], new Uint8Array(), { ...roomy, timeoutMs: 3000 })).toEqual({ kind: 'done', output: String(2 * 3 + 5) })
	}, 30_000)

	test('a child whose memory passes the bound is killed before it gets far past it', async () => {
		// Fills 16 MB blocks as fast as it can, up to 4 GB.
		const hog = script(
			'hog.ts',
			'const keep = []; for (let i = 0; i < 256; i++) keep.push(new Uint8Array(16 * 1024 * 1024).fill(1)); process.stdout.write("survived")',
		)
		const outcome = await runChild(hog, [], new Uint8Array(), { ...roomy, maxRssBytes: 200 * MB })
		expect(outcome.kind).toBe('memory')
		const rss = (outcome as { rssBytes: number }).rssBytes
		expect(rss).toBeGreaterThan(200 * MB)
		expect(rss).toBeLessThan(400 * MB)
	}, 30_000)

	test('the bound holds while the server’s event loop is busy: the guard inside the child kills it', async () => {
		// Fills 16 MB blocks as fast as it can, up to 704 MB, then ends; meanwhile this thread spins for
		// 1.5 s, so no timer of this process (the server's own watcher) fires until the child is done.
		const hog = script(
			'fast-hog.ts',
			'const keep = []; for (let i = 0; i < 44; i++) keep.push(new Uint8Array(16 * 1024 * 1024).fill(1)); process.stdout.write("survived")',
		)
		const running = runChild(hog, [], new Uint8Array(), { ...roomy, maxRssBytes: 150 * MB })
		const busyUntil = Date.now() + 1500
		while (Date.now() < busyUntil) {}
		const outcome = await running
		expect(outcome.kind).toBe('memory')
		const rss = (outcome as { rssBytes: number }).rssBytes
		expect(rss).toBeGreaterThan(150 * MB)
		expect(rss).toBeLessThan(150 * MB + 48 * MB)
	}, 30_000)

	test('a child that writes 200 MB to stderr: the server keeps only its end (the error that ended it), never the whole', async () => {
		const noisy = script(
			'noisy.ts',
			'import { writeSync } from "node:fs"; const warning = "Warning: bad object\\n".repeat(52429); for (let i = 0; i < 200; i++) writeSync(2, warning); writeSync(2, "the end"); process.exit(3)',
		)
		// What the server holds: its live memory after a full collection (heap and array buffers), sampled
		// while the child writes. Resident memory also counts garbage not yet collected, which depends on
		// when the collector runs (95 MB once on a busy machine) rather than on what is kept; keeping the
		// whole stream measures 200 MB here, keeping its end about 1.
		const live = () => {
			Bun.gc(true)
			const { heapUsed, arrayBuffers } = process.memoryUsage()
			return heapUsed + arrayBuffers
		}
		const start = live()
		let peak = start
		// A full collection of a test worker's heap (400 MB and more late in a pass) can take longer than any
		// fixed interval: sampled every 250 ms, collections ran back to back and the reader starved until the
		// child timed out (alone the run takes 0.3 s). So each sample waits three times as long as the last
		// one took (at least 100 ms): the reader always has three quarters of the time, and a kept stream,
		// which grows the whole run, is still seen by the samples taken during it.
		let sampling = true
		const sampler = (async () => {
			while (sampling) {
				const began = performance.now()
				peak = Math.max(peak, live())
				await Bun.sleep(Math.max(100, 3 * (performance.now() - began)))
			}
		})()
		const outcome = await runChild(noisy, [], new Uint8Array(), roomy)
		sampling = false
		await sampler
		peak = Math.max(peak, live())
		expect(outcome.kind).toBe('failed')
		expect((outcome as { detail: string }).detail).toMatch(/^exit 3: (Warning: bad object\n)*.*the end$/s)
		expect(Math.round((peak - start) / MB)).toBeLessThan(64)
	}, 30_000)

	test('an answer longer than the bound kills the child; a failing child is reported with its exit, and logged without its stderr', async () => {
		const chatty = script('chatty.ts', 'for (;;) process.stdout.write("x".repeat(65536))')
		const outcome = await runChild(chatty, [], new Uint8Array(), { ...roomy, maxOutputBytes: MB })
		expect(outcome).toEqual({ kind: 'failed', detail: `answered more than ${MB} bytes`, logged: `answered more than ${MB} bytes` })
		// What it read can be in its error's message: the log gets the exit and the error's name only.
		const thrower = script('thrower.ts', 'throw new TypeError("bad line: SUMMARY:Ann Lee, oncology appointment")')
		const failed = await runChild(thrower, [], new Uint8Array(), roomy)
		expect(failed.kind).toBe('failed')
		expect((failed as { detail: string }).detail).toMatch(/^exit 1: [\s\S]*Ann Lee/)
		expect((failed as { logged: string }).logged).toBe('exit 1: TypeError')
	}, 30_000)
})

describe('TaskSlots', () => {
	const gate = () => {
		let open!: () => void
		const opened = new Promise<void>((r) => (open = r))
		return { open, opened }
	}

	test('runs at most `size` tasks at once, queues up to `maxWaiting` more, refuses the rest at once', async () => {
		const slots = new TaskSlots(2, 3)
		let running = 0
		let most = 0
		const release = gate()
		const task = async () => {
			running++
			most = Math.max(most, running)
			await release.opened
			running--
			return 'ok'
		}
		const results = Array.from({ length: 8 }, () => slots.run(10_000, task).catch((e) => e))
		await Bun.sleep(20)
		expect(running).toBe(2)
		release.open()
		const settled = await Promise.all(results)
		expect(settled.filter((r) => r === 'ok')).toHaveLength(5)
		expect(settled.filter((r) => r instanceof SlotsBusy)).toHaveLength(3)
		expect(most).toBe(2)
		// Every slot is free again.
		expect(await Promise.all([slots.run(100, async () => 1), slots.run(100, async () => 2)])).toEqual([1, 2])
	})

	test('a task that gets no slot within its wait is refused, and leaves the queue', async () => {
		const slots = new TaskSlots(1, 5)
		const release = gate()
		const holder = slots.run(10_000, () => release.opened)
		const started = Date.now()
		const late = await slots.run(200, async () => 'ran').catch((e) => e)
		expect(late).toBeInstanceOf(SlotsBusy)
		expect(Date.now() - started).toBeLessThan(2000)
		release.open()
		await holder
		expect(await slots.run(100, async () => 'next')).toBe('next')
	})

	test('a task that throws frees its slot', async () => {
		const slots = new TaskSlots(1, 0)
		await expect(slots.run(100, async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file')
		expect(await slots.run(100, async () => 'free')).toBe('free')
	})
})
