/**
 * Which door answers a path is read as the router reads it (`normalisePath`, core/http/request-path.ts):
 * the router ignores one trailing slash, so `/metrics/` is the metrics door and `/ready/` the readiness
 * one; a doubled slash (`//api/v1/jobs`) is answered in the API's format. Every check of a door goes
 * through it: the error format, 405 with Allow, `Cache-Control: no-store`, what answers while the
 * database is down, while the instance starts, and on the metrics port. The exact paths were compared:
 * `/metrics/` sent a scraper to the sign-in page, `POST /ready/` was an HTML 404.
 */
import { beforeAll, expect, test } from 'bun:test'
import { createApp, starting } from '../core/main.ts'
import { metricsOnly } from '../core/http/metrics-route.ts'
import { testDeps } from './helpers.ts'

beforeAll(() => testDeps(), 60_000)

const json = (res: Response) => /^application\/(scim\+)?json/.test(res.headers.get('content-type') ?? '')

test('a trailing or doubled slash is answered by the door the path names', async () => {
	const deps = await testDeps({ METRICS_TOKEN: 'm'.repeat(32) })
	const app = createApp(deps)
	const ask = (method: string, path: string) => app.handle(new Request(`http://localhost${path}`, { method }))

	const metrics = await ask('GET', '/metrics/')
	expect({ status: metrics.status, json: json(metrics) }).toEqual({ status: 401, json: true })
	const ready = await ask('POST', '/ready/')
	expect({ status: ready.status, allow: ready.headers.get('allow'), json: json(ready) }).toEqual({ status: 405, allow: 'GET, HEAD, OPTIONS', json: true })
	for (const path of ['//api/v1/jobs', '/api//v1/no-such/', '//scim/v2/Users']) {
		const res = await ask('GET', path)
		expect({ path, json: json(res), cache: res.headers.get('cache-control') }).toEqual({ path, json: true, cache: 'no-store' })
	}
})

test('while the database is down or the instance starts, /health/ answers as /health; the metrics port serves /metrics/', async () => {
	const deps = await testDeps()
	const down = createApp({ ...deps, availability: { ...deps.availability, up: () => false } })
	expect((await down.handle(new Request('http://localhost/health/'))).status).toBe(200)
	expect((await down.handle(new Request('http://localhost/static/app.css?x=1'))).status).toBe(200)
	expect((await down.handle(new Request('http://localhost/portal?/static/'))).status).toBe(503)

	const answer = starting(deps.config)
	for (const path of ['/ready/', '/health/']) expect(await answer(new Request(`http://localhost${path}`)).json()).toEqual({ status: 'starting' })

	expect((await metricsOnly(deps)(new Request('http://127.0.0.1:9464/metrics/'))).status).toBe(200)
})
