/**
 * The debug request log says the status the client got, also for answers a handler builds as its
 * own Response or an error turns into one (redirects, error pages, the MCP door's 401): the app's
 * after-response hook logged 200 for a 404 and 401 for a redirect.
 */
import { expect, test } from 'bun:test'
import type { Logger } from '../core/log.ts'
import { createApp, listen } from '../core/main.ts'
import { testDeps } from './helpers.ts'

test('each request is logged once, with the status it was answered with', async () => {
	const lines: Record<string, unknown>[] = []
	const log: Logger = { debug: (message, fields) => void lines.push({ message, ...fields }), info() {}, warn() {}, error() {} }
	const deps = { ...(await testDeps({ LOG_LEVEL: 'debug' })), log }
	const server = listen(deps, createApp(deps), { port: 0, hostname: '127.0.0.1' })
	try {
		const answered: Record<string, number> = {}
		for (const [method, path] of [
			['GET', '/portal'], // not signed in: a redirect to the sign-in page
			['GET', '/health'],
			['GET', '/no-such-page'],
			['POST', '/api/mcp'], // no credential
			['PUT', '/health'], // a known address, the wrong method
		] as const) {
			const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method, redirect: 'manual' })
			await res.arrayBuffer()
			answered[`${method} ${path}`] = res.status
		}
		expect(answered).toEqual({ 'GET /portal': 303, 'GET /health': 200, 'GET /no-such-page': 404, 'POST /api/mcp': 401, 'PUT /health': 405 })
		const logged = lines.filter((l) => l.message === 'request')
		expect(Object.fromEntries(logged.map((l) => [`${l.method} ${l.path}`, l.status]))).toEqual(answered)
		expect(logged).toHaveLength(5)
		for (const l of logged) expect(l.ms).toBeGreaterThanOrEqual(0)
	} finally {
		server.stop(true)
	}
})
