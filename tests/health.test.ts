/**
 * GET /health is liveness: 200 {"status":"ok"} while the process runs, whether or not the database
 * answers (an orchestrator told to restart on /health would otherwise restart every instance during a
 * database outage, which the process rides out by itself). /ready is the one that answers 503 while
 * the database does not (README "Liveness and readiness", issue 33).
 */
import { beforeAll, expect, test } from 'bun:test'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { closeDeps, createApp, createDeps } from '../core/main.ts'
import { call, callOn, logLines, openScratchDatabase, testApp } from './helpers.ts'

// Opening the shared test database can take seconds on a busy machine: do it before the first test.
beforeAll(() => testApp(), 60_000)

test('200 {"status":"ok"} when the database answers; no credentials needed', async () => {
	const res = await call('GET', '/health')
	expect(res.status).toBe(200)
	expect(res.headers.get('content-type')).toContain('application/json')
	expect(res.json.status).toBe('ok')
	expect(res.headers.get('ratelimit')).toBeNull()
})

test('the database closed: /health still 200 (liveness is the process), /ready 503 with an error body', async () => {
	// A real database of the same kind as the run's, closed after the app was built on it.
	// Was: /health answered 503 here, which made an orchestrator restarting on /health restart every instance in an outage.
	const config = loadConfig({ ...process.env, BASE_URL: 'http://localhost:3000', REDIS_URL: '' })
	const database = await openScratchDatabase()
	const deps = await createDeps({ config, database, log: createLogger('warn', (line) => logLines.push(line)) })
	const app = createApp(deps)
	expect((await callOn(app, 'GET', '/health')).status).toBe(200)
	expect((await callOn(app, 'GET', '/ready')).status).toBe(200)

	await database.close()
	const health = await callOn(app, 'GET', '/health')
	expect(health.status).toBe(200)
	expect(health.json.status).toBe('ok')
	const res = await callOn(app, 'GET', '/ready')
	expect(res.status).toBe(503)
	expect(res.headers.get('content-type')).toContain('application/json')
	expect(res.json).toEqual({ error: expect.any(String) })
	expect(res.json.error.length).toBeGreaterThan(0)
	expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
	await closeDeps(deps)
}, 60_000)

test('while the availability probe says the database is down: /health 200, /ready and every other address 503', async () => {
	const { deps } = await testApp()
	const app = createApp({ ...deps, availability: { ...deps.availability, up: () => false } })
	expect((await callOn(app, 'GET', '/health')).status).toBe(200)
	for (const path of ['/ready', '/api/v1/jobs', '/portal']) {
		const res = await callOn(app, 'GET', path)
		expect({ path, status: res.status }).toEqual({ path, status: 503 })
		expect(res.headers.get('retry-after')).toBe('5')
	}
})

test('a busy process does not call a healthy database down: the probe’s timer firing late is not a silent database', async () => {
	const { deps } = await testApp()
	for (let round = 0; round < 5; round++) {
		const answer = deps.database.ping(150)
		// The event loop is held for longer than the probe's timeout before the query is even written.
		const until = performance.now() + 400
		while (performance.now() < until) {}
		expect(await answer).toBe(true)
	}
})
