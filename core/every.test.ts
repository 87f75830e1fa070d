import { expect, test } from 'bun:test'
import { runEvery } from './every.ts'
import type { Logger } from './log.ts'

function recordingLog() {
	const warnings: { message: string; fields?: Record<string, unknown> }[] = []
	const log: Logger = { debug() {}, info() {}, error() {}, warn: (message, fields) => void warnings.push({ message, fields }) }
	return { log, warnings }
}

test('a pass never overlaps the one before: ticks while it runs are skipped, and the next tick after it starts another', async () => {
	const { log } = recordingLog()
	let open!: () => void
	const gate = new Promise<void>((resolve) => (open = resolve))
	let started = 0
	let running = 0
	let most = 0
	const stop = runEvery(log, { everyMs: 5, failure: 'x' }, async () => {
		started++
		most = Math.max(most, ++running)
		if (started === 1) await gate
		running--
	})
	while (started === 0) await Bun.sleep(2)
	await Bun.sleep(60) // a dozen ticks, all while the first pass waits
	expect(started).toBe(1)
	open()
	while (started < 2) await Bun.sleep(2)
	await stop()
	expect(most).toBe(1)
})

test('a failed pass is logged with its error and the next tick tries again; a synchronous throw too', async () => {
	const { log, warnings } = recordingLog()
	let calls = 0
	const stop = runEvery(log, { everyMs: 10, failure: 'the sweep failed' }, () => {
		calls++
		if (calls === 1) throw new Error('thrown at once')
		if (calls === 2) return Promise.reject(new Error('rejected'))
		return Promise.resolve()
	})
	while (calls < 3) await Bun.sleep(5)
	await stop()
	expect(warnings.map((w) => [w.message, (w.fields!.error as Error).message])).toEqual([
		['the sweep failed', 'thrown at once'],
		['the sweep failed', 'rejected'],
	])
})

test('the first pass comes after firstAfterMs, not a whole period; stop waits for the pass in progress and no pass follows', async () => {
	const { log } = recordingLog()
	let finished = 0
	let started = 0
	const stop = runEvery(log, { everyMs: 60_000, firstAfterMs: 0, failure: 'x' }, async () => {
		started++
		await Bun.sleep(50)
		finished++
	})
	while (started === 0) await Bun.sleep(2)
	await stop()
	expect(finished).toBe(1)
	await Bun.sleep(20)
	expect(started).toBe(1)
})

test('its timers do not keep a process alive', async () => {
	const child = Bun.spawn(
		[
			'bun',
			'-e',
			`import { runEvery } from '${import.meta.dir}/every.ts'; runEvery(console, { everyMs: 60_000, firstAfterMs: 30_000, failure: 'x' }, async () => {}); console.log('started')`,
		],
		{
			stdout: 'pipe',
		},
	)
	const exited = await Promise.race([child.exited.then(() => 'exited'), Bun.sleep(10_000).then(() => 'still running')])
	if (exited !== 'exited') child.kill()
	expect(exited).toBe('exited')
	expect((await new Response(child.stdout).text()).trim()).toBe('started')
})
