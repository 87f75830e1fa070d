/**
 * The queue gauges of `/metrics`: each scrape measures every module's queue once (depth and the
 * oldest entry's age from the same measurement) and never reports an earlier scrape's measurement.
 */
import { expect, test } from 'bun:test'
import type { AppDeps } from './deps.ts'
import { createMetrics } from './metrics.ts'
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
