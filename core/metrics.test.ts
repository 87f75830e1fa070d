/**
 * The queue gauges of `/metrics`: each scrape measures every module's queue once (depth and the
 * oldest entry's age from the same measurement) and never reports an earlier scrape's measurement.
 */
import { expect, test } from 'bun:test'
import type { AppDeps } from './deps.ts'
import { createMetrics, MEASURE_TIMEOUT_MS } from './metrics.ts'
import type { QueueDef } from './module.ts'

/** A module's queue whose depth is whatever the test last put in it; counts its measurements. */
function queueOf(state: { depth: number; measured: number }): QueueDef {
	return {
		name: 'letters',
		description: 'Letters waiting',
		measure: async () => {
			state.measured++
			return { depth: state.depth, oldestAgeSeconds: state.depth * 60 }
		},
	}
}

const gauge = (text: string, name: string) => Number(new RegExp(`^${name}\\{queue="letters"\\} (\\S+)$`, 'm').exec(text)?.[1])

test('a scrape right after another measures the queue again, once for both gauges', async () => {
	const state = { depth: 0, measured: 0 }
	const deps = { registry: { modules: [{ name: 'post', description: 'Post', queues: [queueOf(state)] }] }, database: {} } as unknown as AppDeps
	const metrics = createMetrics(() => deps)
	const first = (await metrics.render()).text
	expect([gauge(first, 'benchline_queue_depth'), gauge(first, 'benchline_queue_oldest_age_seconds'), state.measured]).toEqual([0, 0, 1])
	// No timer runs between the two scrapes (only promises settle): the second must still measure anew.
	state.depth = 3
	const second = (await metrics.render()).text
	expect([gauge(second, 'benchline_queue_depth'), gauge(second, 'benchline_queue_oldest_age_seconds'), state.measured]).toEqual([3, 180, 2])
})

test('a queue whose measurement never answers (a stalled database) is left out; the scrape answers with everything else', async () => {
	const state = { depth: 2, measured: 0 }
	const hung: QueueDef = { name: 'stuck', description: 'Never measured', measure: () => new Promise(() => {}) }
	const deps = {
		registry: { modules: [{ name: 'post', description: 'Post', queues: [hung, queueOf(state)] }] },
		database: { pool: () => ({ size: 10, inUse: 10, waiting: 57 }) },
	} as unknown as AppDeps
	const metrics = createMetrics(() => deps)
	const started = performance.now()
	const answer = await Promise.race([metrics.render(), Bun.sleep(MEASURE_TIMEOUT_MS + 1500).then(() => null)])
	expect(answer).not.toBeNull()
	expect(performance.now() - started).toBeLessThan(MEASURE_TIMEOUT_MS + 1000)
	const text = answer!.text
	expect(gauge(text, 'benchline_queue_depth')).toBe(2)
	expect(text).not.toContain('queue="stuck"')
	expect(text).toContain('benchline_db_pool_connections{state="waiting"} 57')
	expect(text).toContain('process_resident_memory_bytes')
}, 10_000)
