/** Which database a `bun test --parallel` worker runs on (tests/databases.ts, used by tests/setup.ts). */
import { describe, expect, test } from 'bun:test'
import { workerDatabaseName } from './databases.ts'

const URL_ = 'postgres://postgres@127.0.0.1:5432/benchline_ci_1_2'

describe('a test worker’s database', () => {
	test('worker 1, a run without workers and the embedded database keep what they were given', () => {
		expect(workerDatabaseName({ DATABASE_URL: URL_, BUN_TEST_WORKER_ID: '1' })).toBeNull()
		expect(workerDatabaseName({ DATABASE_URL: URL_ })).toBeNull()
		expect(workerDatabaseName({ BUN_TEST_WORKER_ID: '2' })).toBeNull()
	})

	test('every other worker on PostgreSQL gets one named after DATABASE_URL’s and its number', () => {
		expect(workerDatabaseName({ DATABASE_URL: URL_, BUN_TEST_WORKER_ID: '2' })).toBe('benchline_ci_1_2_w2')
		expect(workerDatabaseName({ DATABASE_URL: 'postgres://h/my%20db', BUN_TEST_WORKER_ID: '3' })).toBe('my db_w3')
	})

	test('a bun test started inside a worker keeps the worker’s database (no <db>_w2_w2)', () => {
		expect(workerDatabaseName({ DATABASE_URL: `${URL_}_w2`, BUN_TEST_WORKER_ID: '2', BENCHLINE_TEST_WORKER_DATABASE: 'benchline_ci_1_2_w2' })).toBeNull()
	})
})
