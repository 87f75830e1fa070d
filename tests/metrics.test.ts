/**
 * `/metrics` (Prometheus text format): reachable only with `METRICS_TOKEN` or on `METRICS_PORT`, and
 * every label value is one of a bounded set (route templates, methods, statuses, tool names,
 * outcomes, doors, queue and pool names). Traffic full of ids, e-mail addresses and hostile paths is
 * driven through a real HTTP port, then every label of the exposition is checked, and none of the
 * values sent appears anywhere in it. Also: `/ready`, request ids on log lines, the queue gauges.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/client'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../core/config.ts'
import type { AppDeps } from '../core/deps.ts'
import { serveMetrics } from '../core/http/metrics-route.ts'
import { createLogger } from '../core/log.ts'
import { closeDeps, createApp, createDeps, listen, starting } from '../core/main.ts'
import { openDatabase, type Database } from '../db/client.ts'
import { enqueueMail, releaseHeld } from '../modules/outbox/index.ts'
import { createPersonalToken, personActor } from '../modules/auth/index.ts'
import { logLines, newPerson, newVendor, newWorkspace, sharedDatabase, testDeps, usingPostgres } from './helpers.ts'
import { freePort } from './reliability/processes.ts'

const TOKEN = 'metrics-token-for-the-tests-0123456789'
let deps: AppDeps
let server: ReturnType<typeof listen>
let base: string
let ownDatabase: Database | undefined
const lines: string[] = []

beforeAll(async () => {
	const shared = await testDeps()
	// On PostgreSQL the database is opened as the server opens it with metrics on: its pool is counted.
	const config = loadConfig({
		...process.env,
		BASE_URL: 'http://127.0.0.1',
		REDIS_URL: '',
		METRICS_TOKEN: TOKEN,
		TRUST_PROXY: 'on',
		SMTP_URL: 'smtp://127.0.0.1:9',
		LOG_LEVEL: 'debug',
		FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE: '3',
	})
	ownDatabase = usingPostgres() ? await openDatabase(config, { countPool: true, statement: () => undefined }) : undefined
	deps = await createDeps({
		config,
		database: ownDatabase ?? (await sharedDatabase()),
		log: createLogger('debug', (line) => {
			lines.push(line)
			logLines.push(line)
		}),
		now: shared.now,
	})
	server = listen(deps, createApp(deps), { port: 0, hostname: '127.0.0.1' })
	base = `http://127.0.0.1:${server.port}`
}, 180_000)

afterAll(async () => {
	server?.stop(true)
	if (deps) await closeDeps(deps)
	await ownDatabase?.close()
})

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => fetch(`${base}/metrics`, { headers })

/** Every sample of the exposition: name, labels, value. */
function samples(text: string) {
	const out: { name: string; labels: Record<string, string>; value: number }[] = []
	for (const line of text.split('\n')) {
		if (!line || line.startsWith('#')) continue
		const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
		if (!m) throw new Error(`not a sample line: ${line}`)
		const labels: Record<string, string> = {}
		for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!
		out.push({ name: m[1]!, labels, value: Number(m[3]) })
	}
	return out
}

describe('who may read /metrics', () => {
	test('the exposition keeps Prometheus’ naming rules (what promtool check metrics lints): only counters end in _total, every counter does, every series has HELP and TYPE', async () => {
		const text = await (await scrape()).text()
		const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]))
		const helped = new Set([...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]!))
		expect(types.size).toBeGreaterThan(20)
		const wrong = [...types].filter(([name, type]) => (type === 'counter') !== name.endsWith('_total') || !helped.has(name))
		expect(wrong).toEqual([])
	})

	test('without the token, or with another, 401; with it, the exposition', async () => {
		expect((await scrape({})).status).toBe(401)
		expect((await scrape({ authorization: 'Bearer not-the-token-at-all-0000' })).status).toBe(401)
		expect((await scrape({ authorization: `Basic ${btoa(`x:${TOKEN}`)}` })).status).toBe(401)
		const res = await scrape()
		expect(res.status).toBe(200)
		expect(res.headers.get('content-type')).toContain('text/plain')
		expect(await res.text()).toContain('process_resident_memory_bytes')
	})

	test('a wrong token counts as a failed credential of the client address: past FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE, 429 (the right token included), counted under door="metrics"', async () => {
		const from = (address: string, token?: string) =>
			scrape({ 'x-forwarded-for': address, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) })
		const guesser = '203.0.113.61'
		const statuses: number[] = []
		for (let i = 0; i < 5; i++) statuses.push((await from(guesser, `guess-${i}-0123456789abcdef`)).status)
		// FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE=3: three wrong tokens are answered, then the address waits.
		expect(statuses).toEqual([401, 401, 401, 429, 429])
		const locked = await from(guesser, TOKEN)
		expect(locked.status).toBe(429)
		expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
		// A missing token is how a scraper finds the challenge, not a guess; another address is not held up.
		expect((await from(guesser)).status).toBe(401)
		const other = await from('203.0.113.62', TOKEN)
		expect(other.status).toBe(200)
		const all = samples(await other.text())
		const value = (name: string) => all.find((s) => s.name === name && s.labels.door === 'metrics')?.value ?? 0
		expect(value('benchline_credential_failures_total')).toBeGreaterThanOrEqual(3)
		expect(value('benchline_rate_limit_refusals_total')).toBeGreaterThanOrEqual(3)
	})

	test('while the database does not answer, the token-protected /metrics is still served on the main port (other addresses 503)', async () => {
		const down: AppDeps = { ...deps, availability: { ...deps.availability, up: () => false } }
		const app = createApp(down)
		const res = await app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }))
		expect(res.status).toBe(200)
		expect(await res.text()).toContain('process_resident_memory_bytes')
		// Still behind its token; everything that needs the database answers 503.
		expect((await app.handle(new Request('http://localhost/metrics'))).status).toBe(401)
		expect((await app.handle(new Request('http://localhost/api/v1/jobs'))).status).toBe(503)
	})

	test('METRICS_TOKEN unset: /metrics is not served on the main port', async () => {
		const plain = createApp(await testDeps())
		expect((await plain.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }))).status).toBe(404)
	})

	test('METRICS_PORT: served without a token on loopback only, nothing else there', async () => {
		const port = await freePort()
		const side = serveMetrics(deps, port)
		try {
			expect(side.hostname).toBe('127.0.0.1')
			const res = await fetch(`http://127.0.0.1:${port}/metrics`)
			expect(res.status).toBe(200)
			expect(await res.text()).toContain('benchline_http_request_duration_seconds')
			expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(404)
		} finally {
			side.stop(true)
		}
	})

	test('a bad METRICS_TOKEN or METRICS_PORT stops start-up, naming it', () => {
		expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/)
		expect(() => loadConfig({ METRICS_TOKEN: 'a token with spaces in it' })).toThrow(/METRICS_TOKEN must be letters/)
		expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/)
		expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be a whole number/)
	})
})

describe('bounded labels', () => {
	test('traffic with ids, e-mail addresses and hostile paths leaves only known label values', async () => {
		const ws = await newWorkspace()
		const vendor = await newVendor(ws)
		const person = await newPerson(ws, 'recruiter')
		const actor = await personActor(deps, ws.slug, person.email)
		const { token } = await createPersonalToken(deps, { ...actor, credential: { kind: 'session', id: 't', name: 't' } }, { name: 'metrics test' })
		const secret = `job-${crypto.randomUUID()}`
		// Values only this traffic holds: none may appear anywhere in the exposition.
		const sent = [ws.slug, ws.id, vendor.vendorId, person.email, secret]

		const asked: [string, string, RequestInit?][] = [
			['GET', `/api/v1/jobs/${secret}`, { headers: { authorization: `Bearer ${vendor.apiKey}` } }],
			[
				'POST',
				'/api/v1/jobs',
				{
					headers: { authorization: `Bearer ${vendor.apiKey}`, 'content-type': 'application/json' },
					body: JSON.stringify({ vendorJobId: secret, title: 'Java developer' }),
				},
			],
			['GET', `/jobs/${secret}`],
			['GET', `/careers/${ws.slug}/jobs/${secret}`],
			['GET', `/candidates/${person.email}`],
			['GET', '/x/../../etc/passwd'],
			['GET', '/%3Cscript%3Eevil%3C/script%3E'],
			['GET', `/${'a'.repeat(3000)}`],
			['GET', `/api/v1/jobs?cursor=${secret}&q=${person.email}`, { headers: { authorization: `Bearer ${vendor.apiKey}` } }],
			['DELETE', '/health'],
			[
				'POST',
				'/sign-in',
				{ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${encodeURIComponent(person.email)}&password=wrong` },
			],
		]
		for (const [method, path, init] of asked) await (await fetch(`${base}${path}`, { method, ...init })).arrayBuffer()

		// Tool calls through the official client: one answered, one a tool error.
		const client = new Client({ name: 'metrics-test', version: '1.0.0' })
		await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }))
		expect((await client.callTool({ name: 'list_jobs', arguments: { limit: 5 } })).isError).toBeFalsy()
		expect((await client.callTool({ name: 'get_job', arguments: { jobId: secret } })).isError).toBe(true)
		await client.close()

		// Made-up keys from one address: counted failures, then 429 (FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE=3).
		const statuses: number[] = []
		for (let i = 0; i < 5; i++)
			statuses.push(
				(await fetch(`${base}/api/v1/jobs`, { headers: { authorization: `Bearer bl_vk_${secret.replace(/-/g, '')}`, 'x-forwarded-for': '203.0.113.9' } }))
					.status,
			)
		expect(statuses).toContain(429)

		const text = await (await scrape()).text()
		for (const value of sent) expect(text.includes(value), `${value} in the exposition`).toBe(false)
		const all = samples(text)
		const routes = new Set([...createApp(deps).routes.map((r) => r.path), 'unmatched'])
		const allowed: Record<string, (v: string) => boolean> = {
			method: (v) => ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'].includes(v),
			route: (v) => routes.has(v),
			status: (v) => /^[1-5]\d\d$/.test(v),
			tool: (v) => deps.registry.tools.some((t) => t.name === v),
			outcome: (v) => ['ok', 'error', 'timeout'].includes(v),
			door: (v) => ['rest', 'mcp', 'oauth', 'portal', 'metrics'].includes(v),
			queue: (v) => deps.registry.modules.some((m) => m.queues?.some((q) => q.name === v)),
			pool: (v) => deps.registry.modules.some((m) => m.pools?.some((p) => p.name === v)),
			state: (v) => ['size', 'in_use', 'waiting', 'busy', 'queued'].includes(v),
			le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
			quantile: (v) => Number.isFinite(Number(v)),
			// prom-client's own series.
			version: (v) => /^v?\d+\.\d+\.\d+/.test(v),
			major: (v) => /^\d+$/.test(v),
			minor: (v) => /^\d+$/.test(v),
			patch: (v) => /^\d+$/.test(v),
			space: (v) => /^[a-z_]+$/.test(v),
			type: (v) => /^[A-Za-z]+$/.test(v),
		}
		for (const s of all)
			for (const [label, value] of Object.entries(s.labels)) {
				expect(allowed[label], `label ${label} of ${s.name}`).toBeDefined()
				expect(allowed[label]!(value), `${s.name}{${label}="${value}"}`).toBe(true)
			}

		const count = (name: string, labels: Record<string, string>) =>
			all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0)
		expect(count('benchline_http_request_duration_seconds_count', { route: '/api/v1/jobs/:vendorJobId', method: 'GET' })).toBeGreaterThan(0)
		expect(count('benchline_http_request_duration_seconds_count', { route: 'unmatched' })).toBeGreaterThan(0)
		expect(count('benchline_mcp_tool_call_duration_seconds_count', { tool: 'list_jobs', outcome: 'ok' })).toBe(1)
		expect(count('benchline_mcp_tool_call_duration_seconds_count', { tool: 'get_job', outcome: 'error' })).toBe(1)
		expect(count('benchline_credential_failures_total', { door: 'rest' })).toBeGreaterThanOrEqual(3)
		expect(count('benchline_rate_limit_refusals_total', { door: 'rest' })).toBeGreaterThanOrEqual(1)
		expect(count('nodejs_eventloop_lag_p99_seconds', {})).toBeGreaterThanOrEqual(0)
		expect(all.some((s) => s.name === 'benchline_pool_workers' && s.labels.pool === 'resume_readers' && s.labels.state === 'busy')).toBe(true)
	}, 60_000)

	test('a wrong password at the portal’s sign-in is counted', async () => {
		const before = samples(await (await scrape()).text()).find((s) => s.name === 'benchline_sign_in_failures_total')?.value ?? 0
		const page = await fetch(`${base}/sign-in`)
		const cookie = page.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
		const res = await fetch(`${base}/sign-in`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: base },
			body: new URLSearchParams({ csrf, email: 'nobody@example.test', password: 'wrong password', next: '/portal' }),
		})
		expect(res.status).toBe(401)
		const after = samples(await (await scrape()).text()).find((s) => s.name === 'benchline_sign_in_failures_total')!.value
		expect(after).toBe(before + 1)
	})
})

describe('queues and pools contributed by modules', () => {
	test('the outbox’s depth, and how long its longest-due entry has waited since it became due (mail released from the dev mailbox starts at 0)', async () => {
		const ws = await newWorkspace()
		const { id } = await enqueueMail(deps.db, { workspaceId: ws.id, to: 'someone@example.test', subject: 'Hello', text: 'Hello' }, deps)
		// Due 400 days ago, far longer than anything else the shared test database holds has waited: the
		// gauges count every workspace, and other tests' mail comes and goes between two scrapes, so this
		// entry is told by its age, not by the count. (No worker runs here: it stays waiting.)
		await deps.database.rows(sql`update outbox set created_at = now() - interval '400 days', next_attempt_at = now() - interval '400 days' where id = ${id}`)
		const gauge = async () => {
			const all = samples(await (await scrape()).text())
			// Absent (NaN) when the queue could not be measured during this scrape.
			const of = (name: string) => all.find((s) => s.name === name && s.labels.queue === 'outbox')?.value ?? Number.NaN
			return { depth: of('benchline_queue_depth'), oldest: of('benchline_queue_oldest_age_seconds') }
		}
		const waiting = await gauge()
		expect(waiting.depth).toBeGreaterThanOrEqual(1)
		expect(waiting.oldest).toBeGreaterThanOrEqual(400 * 86_400)
		// The same mail held in the dev mailbox all along, released now: due now, not 400 days late.
		await deps.database.rows(sql`update outbox set held = true where id = ${id}`)
		await releaseHeld(deps, { id })
		// The next scrape that measures the queue says so (a scrape that could not measure it says nothing).
		let after = await gauge()
		for (let i = 0; i < 50 && !(after.oldest < 400 * 86_400); i++) {
			await Bun.sleep(100)
			after = await gauge()
		}
		expect(after.oldest).toBeLessThan(400 * 86_400)
		await deps.database.rows(sql`update outbox set status = 'sent' where id = ${id}`)
	})

	test.skipIf(!usingPostgres())('PostgreSQL: the pool’s connections in use while a transaction holds one', async () => {
		let release!: () => void
		const held = new Promise<void>((r) => (release = r))
		let started!: () => void
		const inside = new Promise<void>((r) => (started = r))
		const tx = deps.db.transaction(async (t) => {
			await t.execute(sql`select 1`)
			started()
			await held
		})
		await inside
		const pool = (all: ReturnType<typeof samples>, state: string) =>
			all.find((s) => s.name === 'benchline_db_pool_connections' && s.labels.state === state)!.value
		const during = samples(await (await scrape()).text())
		expect(pool(during, 'size')).toBe(deps.config.databasePoolSize)
		expect(pool(during, 'in_use')).toBeGreaterThanOrEqual(1)
		release()
		await tx
		// Other work of the process (the audit writer, a worker's poll) can hold a connection at either
		// scrape for a moment: the transaction's is gone once a scrape counts fewer than while it was held.
		let after = samples(await (await scrape()).text())
		for (let i = 0; i < 50 && pool(after, 'in_use') >= pool(during, 'in_use'); i++) {
			await Bun.sleep(100)
			after = samples(await (await scrape()).text())
		}
		expect(pool(after, 'in_use')).toBeLessThan(pool(during, 'in_use'))
	})

	test('a queue or pool name that is not snake_case, or declared twice, stops start-up', async () => {
		const { buildRegistry, RegistryError } = await import('../core/registry.ts')
		const measure = async () => ({ depth: 0, oldestAgeSeconds: 0 })
		const bad = () =>
			buildRegistry([
				{ name: 'one', description: 'One', queues: [{ name: 'Mail Queue', description: 'x', measure }] },
				{ name: 'two', description: 'Two', queues: [{ name: 'alerts', description: 'x', measure }] },
				{ name: 'three', description: 'Three', queues: [{ name: 'alerts', description: 'x', measure }] },
			])
		expect(bad).toThrow(RegistryError)
		expect(bad).toThrow(/queue "Mail Queue" of module "one" must be snake_case/)
		expect(bad).toThrow(/queue "alerts" of module "three" is also declared by module "two"/)
	})
})

describe('readiness and request ids', () => {
	test('/ready: 200 while the database answers, 503 once shutdown has begun; /health stays 200', async () => {
		const own = await createDeps({ config: deps.config, database: deps.database, log: createLogger('silent') })
		const app = createApp(own)
		const ask = (path: string) => app.handle(new Request(`http://localhost${path}`))
		expect((await ask('/ready')).status).toBe(200)
		own.lifecycle.drain()
		const draining = await ask('/ready')
		expect(draining.status).toBe(503)
		expect(draining.headers.get('retry-after')).toBe('5')
		expect((await ask('/health')).status).toBe(200)
		await closeDeps(own)
	})

	test('while the instance starts (migrations), every address answers 503; /health and /ready say starting', async () => {
		const answer = starting(deps.config)
		for (const path of ['/ready', '/health']) {
			const res = answer(new Request(`http://localhost${path}`))
			expect(res.status).toBe(503)
			expect(res.headers.get('retry-after')).toBe('5')
			expect(await res.json()).toEqual({ status: 'starting' })
		}
		const page = answer(new Request('http://localhost/api/v1/jobs'))
		expect(page.status).toBe(503)
		expect(page.headers.get('content-security-policy')).toBeTruthy()
	})

	test('every log line written while a request is handled carries its id', async () => {
		const res = await fetch(`${base}/no-such-page-${crypto.randomUUID()}`, { headers: { 'x-request-id': 'log-line-check-42' } })
		expect(res.headers.get('x-request-id')).toBe('log-line-check-42')
		for (let i = 0; i < 100 && !lines.some((l) => l.includes('log-line-check-42')); i++) await Bun.sleep(20)
		const mine = lines.map((l) => JSON.parse(l)).filter((l) => l.requestId === 'log-line-check-42')
		expect(mine.map((l) => l.msg)).toContain('request')
	})
})
