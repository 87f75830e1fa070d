/**
 * The debug request log says the status the client got, also for answers a handler builds as its
 * own Response or the error handler makes (redirects to sign in, error pages, 405s): the log said
 * 200 for a 404 and 401 for a redirect. Tests of what the log must never hold (secrets) read it too.
 *
 * No log line holds the path asked for, only the route template that matched (`unmatched` when none
 * did): the job-alert confirmation link and the unsubscribe link carry their only credential in the
 * path, in a shape the log's masking (core/log.ts) cannot know.
 */
import { expect, test } from 'bun:test'
import { newId, randomToken } from '../core/credentials.ts'
import { toAppError } from '../core/http/errors.ts'
import { createLogger, type Logger } from '../core/log.ts'
import { createApp } from '../core/main.ts'
import { withRequest } from '../core/request-context.ts'
import { unsubscribeUrl } from '../modules/outbox/index.ts'
import { unsubscribeTarget } from '../modules/outbox/footer.ts'
import { newWorkspace, testDeps } from './helpers.ts'

test('each request is logged once, with its route template, the status it was answered with and its time', async () => {
	const lines: Record<string, unknown>[] = []
	const log: Logger = { debug: (message, fields) => void lines.push({ message, ...fields }), info() {}, warn() {}, error() {} }
	const app = createApp({ ...(await testDeps({ LOG_LEVEL: 'debug' })), log })
	const asked = [
		['GET', '/portal', '/portal'], // not signed in: a redirect to the sign-in page
		['GET', '/health', '/health'],
		['GET', '/no-such-page', 'unmatched'],
		['POST', '/api/mcp', '/api/mcp'], // no credential
		['PUT', '/health', 'unmatched'], // a known address, the wrong method
		['POST', '/sign-in', '/sign-in'], // an empty form: refused
	] as const
	const answered: Record<string, number> = {}
	for (const [method, path] of asked) answered[`${method} ${path}`] = (await app.handle(new Request(`http://localhost${path}`, { method }))).status
	expect(answered).toEqual({ 'GET /portal': 303, 'GET /health': 200, 'GET /no-such-page': 404, 'POST /api/mcp': 401, 'PUT /health': 405, 'POST /sign-in': 422 })
	// The log line is written once the answer is out.
	const requests = () => lines.filter((l) => l.message === 'request')
	for (let i = 0; i < 100 && requests().length < asked.length; i++) await Bun.sleep(10)
	const expected = asked.map(([method, path, route]) => [method, route, answered[`${method} ${path}`]])
	const sort = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort()
	expect(sort(requests().map((l) => [l.method, l.route, l.status]))).toEqual(sort(expected))
	expect(requests()).toHaveLength(asked.length)
	for (const l of requests()) {
		expect(l.ms).toBeGreaterThanOrEqual(0)
		expect(l).not.toHaveProperty('path')
	}
})

test('the links whose path is their credential (job-alert confirmation, unsubscribe) are logged by their route template only', async () => {
	const lines: string[] = []
	const base = await testDeps({ LOG_LEVEL: 'debug' })
	const deps = { ...base, log: createLogger('debug', (l) => void lines.push(l)) }
	const app = createApp(deps)
	const ws = await newWorkspace(deps)
	const alertToken = randomToken() // what a confirmation link carries (modules/careers/alerts.ts)
	const unsubToken = unsubscribeUrl(deps, ws.id, { type: 'candidate', id: newId('cand') }).split('/unsubscribe/')[1]!
	expect(unsubscribeTarget(deps, unsubToken)).not.toBeNull() // a working link
	for (const path of [`/careers/${ws.slug}/alerts/confirm/${alertToken}`, `/unsubscribe/${unsubToken}`])
		await (await app.handle(new Request(`http://localhost${path}`))).text()
	const requests = () => lines.filter((l) => l.includes('"msg":"request"'))
	for (let i = 0; i < 100 && requests().length < 2; i++) await Bun.sleep(10)
	expect(requests().map((l) => JSON.parse(l).route)).toEqual(['/careers/:workspace/alerts/confirm/:token', '/unsubscribe/:token'])
	expect(lines.filter((l) => l.includes(alertToken) || l.includes(unsubToken) || l.includes(ws.slug))).toEqual([])
})

test('an unexpected error or a database outage is logged with the route template, not the path', () => {
	const lines: string[] = []
	const log = createLogger('info', (l) => void lines.push(l))
	const secret = 'ws_abc~candidate~cand_xyz.SiGnAtUrE0123456789'
	const request = new Request(`http://localhost/unsubscribe/${secret}`)
	expect(toAppError(new Error('boom'), 'UNKNOWN', log, request, '/unsubscribe/:token').code).toBe('INTERNAL')
	// Without the route handed in: the one the request's context holds.
	const unavailable = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
	withRequest({ requestId: 'r1', route: '/unsubscribe/:token' }, () => toAppError(unavailable, 'UNKNOWN', log, request))
	expect(lines).toHaveLength(2)
	for (const line of lines) {
		expect(JSON.parse(line).route).toBe('/unsubscribe/:token')
		expect(line).not.toContain(secret)
		expect(line).not.toContain('SiGnAtUrE')
	}
})
