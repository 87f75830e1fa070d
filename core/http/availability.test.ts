/**
 * The availability watcher's verdict, with the database's answers scripted (the real database
 * stalled, restarted and cut off is tests/reliability/faults.test.ts): one unanswered probe is
 * confirmed at once by a second before requests get 503; a second silence calls it down.
 */
import { expect, test } from 'bun:test'
import type { Database } from '../../db/client.ts'
import { createLogger } from '../log.ts'
import { watchDatabase } from './availability.ts'

function scripted(answers: boolean[]) {
	const asked: boolean[] = []
	const database = {
		kind: 'postgres',
		ping: async () => {
			asked.push(true)
			return answers.shift() ?? true
		},
	} as unknown as Database
	return { database, asked }
}

const quiet = createLogger('error', () => {})

test('one silent probe is confirmed at once and, answered, changes nothing', async () => {
	const { database, asked } = scripted([true, false, true, true])
	const watch = watchDatabase(database, quiet, 20)
	let everDown = false
	watch.whenDown().then(() => (everDown = true))
	// Until the four scripted answers are used (a fixed sleep saw only three on a loaded machine's late timers).
	for (let i = 0; i < 500 && asked.length < 4; i++) await Bun.sleep(10)
	watch.stop()
	expect(asked.length).toBeGreaterThanOrEqual(4)
	expect(everDown).toBe(false)
	expect(watch.up()).toBe(true)
})

test('two silent probes in a row call the database down; the next answer calls it up', async () => {
	const { database } = scripted([true, false, false, true])
	const watch = watchDatabase(database, quiet, 20)
	await watch.whenDown()
	expect(watch.up()).toBe(false)
	for (let i = 0; i < 50 && !watch.up(); i++) await Bun.sleep(10)
	watch.stop()
	expect(watch.up()).toBe(true)
})
