/**
 * The debug request log says the status the client got, also for answers a handler builds as its
 * own Response or the error handler makes (redirects to sign in, error pages, 405s): the log said
 * 200 for a 404 and 401 for a redirect. Tests of what the log must never hold (secrets) read it too.
 */
import { expect, test } from 'bun:test'
import type { Logger } from '../core/log.ts'
import { createApp } from '../core/main.ts'
import { testDeps } from './helpers.ts'

test('each request is logged once, with the status it was answered with and its time', async () => {
	const lines: Record<string, unknown>[] = []
	const log: Logger = { debug: (message, fields) => void lines.push({ message, ...fields }), info() {}, warn() {}, error() {} }
	const app = createApp({ ...(await testDeps({ LOG_LEVEL: 'debug' })), log })
	const asked = [
		['GET', '/portal'], // not signed in: a redirect to the sign-in page
		['GET', '/health'],
		['GET', '/no-such-page'],
		['POST', '/api/mcp'], // no credential
		['PUT', '/health'], // a known address, the wrong method
		['POST', '/sign-in'], // an empty form: refused
	] as const
	const answered: Record<string, number> = {}
	for (const [method, path] of asked) answered[`${method} ${path}`] = (await app.handle(new Request(`http://localhost${path}`, { method }))).status
	expect(answered).toEqual({ 'GET /portal': 303, 'GET /health': 200, 'GET /no-such-page': 404, 'POST /api/mcp': 401, 'PUT /health': 405, 'POST /sign-in': 422 })
	// The log line is written once the answer is out.
	const requests = () => lines.filter((l) => l.message === 'request')
	for (let i = 0; i < 100 && requests().length < asked.length; i++) await Bun.sleep(10)
	expect(Object.fromEntries(requests().map((l) => [`${l.method} ${l.path}`, l.status]))).toEqual(answered)
	expect(requests()).toHaveLength(asked.length)
	for (const l of requests()) expect(l.ms).toBeGreaterThanOrEqual(0)
})
