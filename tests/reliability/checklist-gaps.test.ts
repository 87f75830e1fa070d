/**
 * Security checklist rows (../shared/reference/security-checklist.md) that had no test of their own
 * elsewhere; SECURITY.md at the repository root maps every row to its tests. Each test names its row.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { newCredential } from '../../core/credentials.ts'
import { createApp } from '../../core/main.ts'
import { operatorActor } from '../../modules/auth/index.ts'
import { jobs } from '../../modules/jobs/table.ts'
import { createKey, revokeKey } from '../../modules/vendors/index.ts'
import { awayFromMinuteEdge, call, callOn, newPersonWithToken, newVendor, newWorkspace, testApp, testDeps } from '../helpers.ts'
import { MCP_HEADERS, messageOf } from '../mcp/rpc.ts'

setDefaultTimeout(60_000)

// Opening the shared test database can take seconds on a busy machine: do it before the first test.
beforeAll(() => testApp(), 60_000)

const path = (id: string) => `/api/v1/jobs/${encodeURIComponent(id)}`
const listBody = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
/** What the core serves itself (core/app.ts, core/mcp/handler.ts); modules declare theirs (`ModuleDef.paths`). */
const CORE_PATHS = ['/health', '/ready', '/metrics', '/static', '/favicon.ico', '/api/mcp']

describe('I. Job Publish API input', () => {
	test('I10 vendorJobId with /, ?, #, %, spaces, unicode and markup round-trips through the encoded path (GET, PATCH, DELETE)', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const ids = [
			'a/b',
			'a?b=1',
			'a#b',
			'100%',
			'%2F',
			'a b',
			' pad ',
			'café',
			'cafe\u0301',
			'Ω😀',
			'../admin',
			'a\\b',
			'javascript:alert(1)',
			'"><script>x</script>',
		]
		for (const id of ids) {
			const created = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: id, title: 'Round trip' } })
			expect({ id, status: created.status }).toEqual({ id, status: 201 })
			expect(created.json.job.vendorJobId).toBe(id)
			const got = await call('GET', path(id), { key })
			expect({ id, status: got.status, vendorJobId: got.json?.job?.vendorJobId }).toEqual({ id, status: 200, vendorJobId: id })
			const changed = await call('PATCH', path(id), { key, body: { location: 'Remote' } })
			expect({ id, status: changed.status, location: changed.json?.job?.location }).toEqual({ id, status: 200, location: 'Remote' })
			const closed = await call('DELETE', path(id), { key })
			expect({ id, status: closed.status, jobStatus: closed.json?.job?.status }).toEqual({ id, status: 200, jobStatus: 'closed' })
		}
		// NFC and NFD spellings are two different ids (no normalisation): each kept as sent.
		expect((await call('GET', path('café'), { key })).json.job.vendorJobId).toBe('café')
		expect((await call('GET', path('cafe\u0301'), { key })).json.job.vendorJobId).toBe('cafe\u0301')
		// A raw (unencoded) slash names no job; an over-long id is 404; both answer JSON.
		for (const p of ['/api/v1/jobs/a/b', `/api/v1/jobs/${'x'.repeat(101)}`]) {
			const res = await call('GET', p, { key })
			expect(res.status).toBe(404)
			expect(res.json).toEqual({ error: expect.any(String) })
		}
	})

	test('I11 the public url is server-made (careers path + slug), never the vendor id; null once closed', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		for (const id of ['javascript:alert(1)', '"><script>alert(1)</script>', '//evil.example/x', 'https://evil.example/']) {
			const res = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: id, title: 'Hostile id' } })
			expect(res.status).toBe(201)
			const url = new URL(res.json.job.url)
			expect(url.origin).toBe('http://localhost:3000')
			expect(url.pathname).toMatch(new RegExp(`^/careers/${ws.slug}/jobs/[a-z0-9-]+$`))
			expect(res.json.job.url).not.toContain('evil')
			expect(res.json.job.url).not.toContain('script')
			const closed = await call('DELETE', path(id), { key })
			expect(closed.json.job).toMatchObject({ status: 'closed', url: null })
		}
	})

	test('I14 jobs created at the same instant come back in one stable order (tie-break on id)', async () => {
		const ws = await newWorkspace()
		const { apiKey: key, vendorId } = await newVendor(ws)
		const deps = await testDeps()
		const at = new Date(Date.now() - 500_000)
		const rows = Array.from({ length: 12 }, (_, i) => ({
			id: `job_tie${i.toString().padStart(2, '0')}_${vendorId.slice(-8)}`,
			workspaceId: ws.id,
			vendorId,
			vendorJobId: `T-${i}`,
			slug: `tie-${i}-${vendorId.slice(-6).toLowerCase()}`,
			title: `Tie ${i}`,
			status: 'Open',
			createdAt: at,
			updatedAt: at,
			publishedAt: at,
		}))
		// Inserted in a scrambled order so insertion order cannot pass for a tie-break.
		await deps.db
			.insert(jobs)
			.values(
				[...rows].sort(
					(a, b) =>
						((a.vendorJobId.length * 7 + Number(a.vendorJobId.slice(2)) * 5) % 12) - ((b.vendorJobId.length * 7 + Number(b.vendorJobId.slice(2)) * 5) % 12),
				),
			)
		const orders: string[][] = []
		for (let i = 0; i < 3; i++) {
			const res = await call('GET', '/api/v1/jobs', { key })
			expect(res.status).toBe(200)
			orders.push(res.json.jobs.map((j: { vendorJobId: string }) => j.vendorJobId))
		}
		expect(orders[0]).toEqual(Array.from({ length: 12 }, (_, i) => `T-${11 - i}`)) // id descending
		expect(orders[1]).toEqual(orders[0]!)
		expect(orders[2]).toEqual(orders[0]!)
	})

	test('I16 unknown API routes and wrong methods: a JSON error without internals; unknown pages: no stack either', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const cases: [string, string][] = [
			['GET', '/api/v1/no-such'],
			['PUT', '/api/v1/jobs'],
			['POST', '/api/v1/jobs/J-1'],
			['GET', '/api/v2/jobs'],
			['GET', '/api/v1/jobs/..%2F..%2Fadmin'],
		]
		for (const [method, p] of cases) {
			const res = await call(method, p, { key, headers: { 'content-type': 'application/json' } })
			expect({ method, p, clientError: res.status >= 400 && res.status < 500 }).toEqual({ method, p, clientError: true })
			expect(res.headers.get('content-type')).toContain('application/json')
			expect(res.json).toEqual({ error: expect.any(String) })
		}
		for (const p of ['/no/such/page', '/careers/nobody/jobs/none']) {
			const res = await call('GET', p)
			expect(res.status).toBe(404)
			expect(res.text).not.toMatch(/\bat .*\.ts:\d+|node_modules|Error:|stack/i)
		}
	})
})

describe('K. concurrency', () => {
	test('K2 concurrent PATCHes of different fields never lose one another (20 rounds)', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		expect((await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: 'K2', title: 'Start' } })).status).toBe(201)
		for (let round = 0; round < 20; round++) {
			const answers = await Promise.all([
				call('PATCH', path('K2'), { key, body: { title: `Title ${round}` } }),
				call('PATCH', path('K2'), { key, body: { location: `City ${round}` } }),
				call('PATCH', path('K2'), { key, body: { summary: `Summary ${round}` } }),
			])
			expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
			const job = (await call('GET', path('K2'), { key })).json.job
			expect({ round, title: job.title, location: job.location, summary: job.summary }).toEqual({
				round,
				title: `Title ${round}`,
				location: `City ${round}`,
				summary: `Summary ${round}`,
			})
		}
	})
})

describe('H. credentials', () => {
	test('H3 unknown, revoked, malformed and mistyped keys get one identical 401 (status, challenge and body)', async () => {
		const ws = await newWorkspace()
		const vendor = await newVendor(ws)
		const deps = await testDeps()
		const revoked = await createKey(deps, operatorActor(ws), vendor.vendorId)
		await revokeKey(deps, revoked.keyId, operatorActor)
		const pat = await newPersonWithToken(ws, 'owner')
		const keys = {
			unknown: newCredential('vk'),
			revoked: revoked.apiKey,
			'bad checksum': `${vendor.apiKey.slice(0, -1)}${vendor.apiKey.endsWith('A') ? 'B' : 'A'}`,
			'not ours': 'sk_live_abcdef',
			'personal token': pat.token,
		}
		const answers = await Promise.all(Object.values(keys).map((key) => call('GET', '/api/v1/jobs/J-1', { key })))
		for (const a of answers) {
			expect(a.status).toBe(401)
			expect(a.headers.get('www-authenticate')).toBe(answers[0]!.headers.get('www-authenticate'))
			expect(a.text).toBe(answers[0]!.text)
		}
		// The key still valid for the vendor is not affected.
		expect((await call('GET', '/api/v1/jobs', { key: vendor.apiKey })).status).toBe(200)
	})
})

describe('J. MCP transport', () => {
	test('J1 Origin "null" is refused like any foreign origin; no Origin (native clients) is allowed', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'viewer')
		const nullOrigin = await call('POST', '/api/mcp', { key: token, body: listBody, headers: { ...MCP_HEADERS, origin: 'null' } })
		expect(nullOrigin.status).toBe(403)
		expect(messageOf(nullOrigin.text)?.result).toBeUndefined()
		expect((await call('POST', '/api/mcp', { key: token, body: listBody, headers: MCP_HEADERS })).status).toBe(200)
	})

	test('J4 an unsupported MCP-Protocol-Version header is 400 with a JSON-RPC error and no tool data', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		for (const version of ['1999-01-01', '2024-13-45']) {
			const res = await call('POST', '/api/mcp', { key: token, body: listBody, headers: { ...MCP_HEADERS, 'mcp-protocol-version': version } })
			expect(res.status).toBe(400)
			expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/unsupported protocol version/i) } })
			expect(res.text).not.toContain('list_jobs')
		}
	})

	test('J11 tools/call is rate limited per credential: 429 with Retry-After, other credentials unaffected', async () => {
		const limited = createApp(await testDeps({ RATE_LIMIT_PER_MINUTE: '3' }))
		const ws = await newWorkspace()
		const a = await newPersonWithToken(ws, 'owner')
		const b = await newPersonWithToken(ws, 'owner')
		const callJobs = (token: string, id: number) =>
			callOn(limited, 'POST', '/api/mcp', {
				key: token,
				body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_jobs', arguments: {} } },
				headers: MCP_HEADERS,
			})
		await awayFromMinuteEdge()
		for (let i = 0; i < 3; i++) expect((await callJobs(a.token, i)).status).toBe(200)
		const refused = await callJobs(a.token, 9)
		expect(refused.status).toBe(429)
		const retryAfter = Number(refused.headers.get('retry-after'))
		expect(retryAfter).toBeGreaterThanOrEqual(1)
		expect(refused.text).not.toContain('"jobs"')
		// The JSON-RPC error says to wait, and how long; it is not -32603 (internal error). Issue 17.5.
		expect(refused.json).toEqual({
			jsonrpc: '2.0',
			id: null,
			error: { code: -32029, message: `Too many requests: wait ${retryAfter} seconds`, data: { retryAfterSeconds: retryAfter } },
		})
		expect((await callJobs(b.token, 10)).status).toBe(200)
	})
})

describe('L. platform', () => {
	test('L3 route inventory: only the documented surfaces; no debug, test-hook or Swagger UI routes', async () => {
		const { app } = await testApp()
		const routes = (app.routes as { method: string; path: string }[]).map((r) => `${r.method} ${r.path}`)
		// The documented surfaces: the core's own addresses, and the paths each module declares (the
		// registry refuses a module's route outside its paths at start-up).
		const { deps } = await testApp()
		const surfaces = [...CORE_PATHS, ...deps.registry.modules.flatMap((m) => m.paths ?? [])]
		expect(surfaces).toContain('/api/v1')
		const outside = routes.filter((r) => {
			const path = r.slice(r.indexOf(' ') + 1)
			return !surfaces.some((p) => path === p || path.startsWith(`${p}/`))
		})
		expect(outside).toEqual([])
		expect(routes.filter((r) => /swagger|debug|__|test|graphql|admin|phpinfo|\.env/i.test(r))).toEqual([])
		for (const p of ['/swagger', '/swagger-ui', '/api/v1/swagger', '/debug', '/.env', '/api/v1/test']) expect((await call('GET', p)).status).toBe(404)
	})

	test('L5 sanitize-html is at or above 2.12.1 (CVE-2024-21501) and pinned in the lockfile; style and iframe never survive', async () => {
		const version = (JSON.parse(readFileSync(`${import.meta.dir}/../../node_modules/sanitize-html/package.json`, 'utf8')) as { version: string }).version
		const [major, minor, patch] = version.split('.').map(Number) as [number, number, number]
		expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(2 * 1e6 + 12 * 1e3 + 1)
		const lock = JSON.parse(readFileSync(`${import.meta.dir}/../../package-lock.json`, 'utf8')) as { packages: Record<string, { version: string }> }
		expect(lock.packages['node_modules/sanitize-html']!.version).toBe(version)
		const postcss = lock.packages['node_modules/postcss']?.version
		if (postcss) {
			const [pM, pm, pp] = postcss.split('.').map(Number) as [number, number, number]
			expect(pM * 1e6 + pm * 1e3 + pp).toBeGreaterThanOrEqual(8 * 1e6 + 5 * 1e3 + 10)
		}
		const { sanitizeDescription } = await import('../../core/sanitize.ts')
		const out = sanitizeDescription('<style>*{x:expression(alert(1))}</style><iframe src="javascript:alert(1)"></iframe><p style="color:red">ok</p>').html
		expect(out).toBe('<p>ok</p>')
	})
})

describe('bugs this checklist found, fixed', () => {
	test('J4 a JSON-RPC batch is refused (batches left MCP in 2025-06-18; they also slipped past the per-call rate limit)', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const batch = Array.from({ length: 5 }, (_, i) => ({
			jsonrpc: '2.0',
			id: i + 1,
			method: 'tools/call',
			params: { name: 'create_job', arguments: { title: `Batch ${i}` } },
		}))
		const res = await call('POST', '/api/mcp', {
			headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-03-26' },
			body: batch,
		})
		expect(res.status).toBe(400)
		expect(res.json.error.code).toBe(-32600)
		const deps = await testDeps()
		const made = await deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.workspaceId, ws.id))
		expect(made).toHaveLength(0)
	})

	test('I10 "." and ".." are refused as vendorJobId (URL parsing turns them into other addresses, so the job could never be reached)', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		for (const id of ['.', '..']) {
			const res = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: id, title: 'Dots' } })
			expect({ id, status: res.status, field: res.json.fields?.[0]?.field }).toEqual({ id, status: 422, field: 'vendorJobId' })
		}
		expect((await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: '...', title: 'Three dots are fine' } })).status).toBe(201)
	})

	test('L1 answers of the API doors are never cached (Cache-Control: no-store), errors included', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		for (const res of [await call('GET', '/api/v1/jobs', { key }), await call('GET', '/api/v1/jobs'), await call('POST', '/api/mcp', { body: listBody })])
			expect(res.headers.get('cache-control')).toBe('no-store')
	})
})

describe('K9 retried writes take effect once', () => {
	test('create_job sent twice with the same fields (a lost answer, retried) makes one Draft; different fields make another', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const create = async (args: Record<string, unknown>) => {
			const res = await call('POST', '/api/mcp', {
				key: token,
				headers: MCP_HEADERS,
				body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_job', arguments: args } },
			})
			return (messageOf(res.text) as { result: { structuredContent: { job: { id: string } } } }).result.structuredContent.job.id
		}
		const args = { title: 'Platform Engineer', location: 'Austin, TX', requirements: ['Go', 'Kubernetes'] }
		const first = await create(args)
		expect(await create(args)).toBe(first)
		expect(await create({ ...args, location: 'Dallas, TX' })).not.toBe(first)
		const deps = await testDeps()
		expect(await deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.workspaceId, ws.id))).toHaveLength(2)
	})
})
