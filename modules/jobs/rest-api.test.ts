/**
 * The Job Publish REST API against spec/job-publish-api.md: the status codes of every operation
 * (each "yes" cell, and the "no" cells a careless route would break), the error precedence of
 * design.md, every row of the limits table, and every state transition.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createApp } from '../../core/main.ts'
import { newCredential } from '../../core/credentials.ts'
import { awayFromMinuteEdge, call, callOn, type CallOptions, newVendor, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { operatorActor } from '../auth/index.ts'
import { createKey, revokeKey, setApiAccess } from '../vendors/index.ts'
import { jobs } from './table.ts'

type Res = Awaited<ReturnType<typeof call>>
type Op = 'publishJob' | 'listJobs' | 'getJob' | 'changeJob' | 'closeJob'
const OPERATIONS: Op[] = ['publishJob', 'listJobs', 'getJob', 'changeJob', 'closeJob']

/** The spec's "Status codes per operation" table. */
const SPEC_STATUS_CODES: Record<Op, number[]> = {
	publishJob: [400, 401, 403, 413, 422, 429],
	listJobs: [401, 403, 429],
	getJob: [401, 403, 404, 429],
	changeJob: [400, 401, 403, 404, 413, 422, 429],
	closeJob: [401, 403, 404, 429],
}

type Send = (method: string, path: string, options?: CallOptions) => Promise<Res>

/** One call of each operation on job `id` (publish and change with a valid body). */
function operation(op: Op, key: string | undefined, id: string, send: Send = call, extra: CallOptions = {}): Promise<Res> {
	const path = `/api/v1/jobs/${encodeURIComponent(id)}`
	switch (op) {
		case 'publishJob':
			return send('POST', '/api/v1/jobs', { key, body: { vendorJobId: id, title: 'Java Developer' }, ...extra })
		case 'listJobs':
			return send('GET', '/api/v1/jobs', { key, ...extra })
		case 'getJob':
			return send('GET', path, { key, ...extra })
		case 'changeJob':
			return send('PATCH', path, { key, body: { title: 'Senior Java Developer' }, ...extra })
		case 'closeJob':
			return send('DELETE', path, { key, ...extra })
	}
}

async function setup() {
	const ws = await newWorkspace()
	const vendor = await newVendor(ws)
	return { ws, ...vendor, key: vendor.apiKey }
}

const publish = (key: string, body: unknown) => call('POST', '/api/v1/jobs', { key, body })
const change = (key: string, id: string, body: unknown) => call('PATCH', `/api/v1/jobs/${encodeURIComponent(id)}`, { key, body })
const get = (key: string, id: string) => call('GET', `/api/v1/jobs/${encodeURIComponent(id)}`, { key })
const close = (key: string, id: string) => call('DELETE', `/api/v1/jobs/${encodeURIComponent(id)}`, { key })

/** Every error uses the error body: JSON with an `error` string and, optionally, `fields`. */
function expectErrorBody(res: Res, status: number) {
	expect(res.status).toBe(status)
	expect(res.headers.get('content-type')).toContain('application/json')
	expect(typeof res.json?.error).toBe('string')
	expect(res.json.error.length).toBeGreaterThan(0)
	for (const key of Object.keys(res.json)) expect(['error', 'fields']).toContain(key)
}

const json = { 'content-type': 'application/json' }

// Opening the shared test database can take seconds on a busy machine: do it before the first test.
beforeAll(() => testApp(), 60_000)

const emoji = (n: number) => '😀'.repeat(n)

describe('the status-code table, cell by cell', () => {
	let limited: ReturnType<typeof createApp>
	beforeAll(async () => {
		limited = createApp(await testDeps({ RATE_LIMIT_PER_MINUTE: '3' }))
	}, 60_000)

	/** Sends `op` in the situation that would give `code` if the operation could answer it. */
	async function trigger(op: Op, code: number): Promise<Res> {
		const { ws, key, vendorId } = await setup()
		const deps = await testDeps()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		switch (code) {
			case 400:
				return operation(op, key, 'J-1', call, { body: undefined, raw: '{"title": nope', headers: json })
			case 401:
				return operation(op, undefined, 'J-1')
			case 403:
				await setApiAccess(deps, operatorActor(ws), vendorId, false)
				return operation(op, key, 'J-1')
			case 404:
				return operation(op, key, 'ABSENT')
			case 413: {
				const raw = JSON.stringify({ vendorJobId: 'J-1', title: 'Java Developer', description: 'x'.repeat(205 * 1024) })
				return operation(op, key, 'J-1', call, { body: undefined, raw, headers: json })
			}
			case 422: {
				const raw = JSON.stringify({ vendorJobId: 'J-1', title: 'Java Developer', minYears: 99 })
				return operation(op, key, 'J-1', call, { body: undefined, raw, headers: json })
			}
			case 429: {
				const send: Send = (method, path, options) => callOn(limited, method, path, options)
				await awayFromMinuteEdge()
				for (let i = 0; i < 3; i++) expect((await send('GET', '/api/v1/jobs', { key })).status).toBe(200)
				return operation(op, key, 'J-1', send)
			}
		}
		throw new Error(`no trigger for ${code}`)
	}

	for (const op of OPERATIONS)
		for (const code of [400, 401, 403, 404, 413, 422, 429]) {
			const yes = SPEC_STATUS_CODES[op].includes(code)
			test(`${op} ${code}: ${yes ? 'yes' : 'no'}`, async () => {
				const res = await trigger(op, code)
				if (yes) expectErrorBody(res, code)
				else expect(res.status).toBeLessThan(300)
			}, 30_000)
		}
})

describe('status codes per operation', () => {
	test('401 on every operation without a key, with WWW-Authenticate: Bearer', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		for (const op of OPERATIONS) {
			const res = await operation(op, undefined, 'J-1')
			expectErrorBody(res, 401)
			expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
		}
		// Nothing was changed by the refused calls.
		expect((await get(key, 'J-1')).json.job).toMatchObject({ title: 'Java Developer', status: 'open' })
	})

	test('401 on every operation with an unknown, malformed or revoked key', async () => {
		const { ws, key, keyId, vendorId } = await setup()
		const deps = await testDeps()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		// A well-formed key with a valid checksum that was never issued, one with a broken checksum, junk.
		const unknown = newCredential('vk')
		const badChecksum = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')
		for (const bad of [unknown, badChecksum, 'not-a-key', 'bl_pat_' + 'x'.repeat(36)])
			for (const op of OPERATIONS) {
				const res = await operation(op, bad, 'J-1')
				expectErrorBody(res, 401)
				expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
			}
		await revokeKey(deps, keyId, operatorActor)
		for (const op of OPERATIONS) {
			const res = await operation(op, key, 'J-1')
			expectErrorBody(res, 401)
			expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
		}
		// The vendor's other keys keep working after one is revoked (rotation).
		const second = await createKey(deps, operatorActor(ws), vendorId)
		expect((await get(second.apiKey, 'J-1')).status).toBe(200)
	})

	test('403 on every operation while the vendor’s API access is off; 200 again once it is on', async () => {
		const { ws, key, vendorId } = await setup()
		const deps = await testDeps()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		await setApiAccess(deps, operatorActor(ws), vendorId, false)
		for (const op of OPERATIONS) expectErrorBody(await operation(op, key, 'J-1'), 403)
		expect(await titleInDatabase(vendorId, 'J-1')).toBe('Java Developer')
		await setApiAccess(deps, operatorActor(ws), vendorId, true)
		expect((await get(key, 'J-1')).status).toBe(200)
	})

	test('404 for getJob, changeJob and closeJob on an id the vendor does not have', async () => {
		const { key } = await setup()
		for (const op of ['getJob', 'changeJob', 'closeJob'] as const) expectErrorBody(await operation(op, key, 'NO-SUCH-JOB'), 404)
		// closeJob and changeJob did not create anything.
		expect((await call('GET', '/api/v1/jobs', { key })).json.jobs).toEqual([])
	})

	test('no 404 for listJobs and publishJob: an empty list, and a new id is created', async () => {
		const { key } = await setup()
		const list = await call('GET', '/api/v1/jobs', { key })
		expect(list.status).toBe(200)
		expect(list.json).toEqual({ jobs: [] })
		expect((await operation('publishJob', key, 'NEW-1')).status).toBe(201)
	})

	test('400 for publishJob and changeJob when the body is not JSON', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		expectErrorBody(await call('POST', '/api/v1/jobs', { key, raw: '{"vendorJobId": "J-2", title: oops}', headers: json }), 400)
		expectErrorBody(await call('PATCH', '/api/v1/jobs/J-1', { key, raw: 'title=Oops', headers: json }), 400)
		expect((await get(key, 'J-1')).json.job.title).toBe('Java Developer')
		expect((await get(key, 'J-2')).status).toBe(404)
	})

	test('no 400, 413 or 422 for listJobs, getJob and closeJob: a body sent with them is ignored', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		for (const raw of ['not json', '[1,2]', JSON.stringify({ title: 'x'.repeat(500) }), 'x'.repeat(300 * 1024)]) {
			for (const op of ['listJobs', 'getJob'] as const) expect((await operation(op, key, 'J-1', call, { raw, headers: json })).status).toBe(200)
		}
		const closed = await operation('closeJob', key, 'J-1', call, { raw: 'not json', headers: json })
		expect(closed.status).toBe(200)
		expect(closed.json.job.status).toBe('closed')
		expect((await operation('closeJob', key, 'J-1', call, { raw: 'x'.repeat(300 * 1024), headers: json })).status).toBe(200)
		// The list has no paging parameters: unknown query parameters change nothing.
		const listed = await call('GET', '/api/v1/jobs?limit=1&cursor=zzz&page=-1', { key })
		expect(listed.status).toBe(200)
		expect(listed.json.jobs).toHaveLength(1)
	})

	test('413 for publishJob and changeJob when the body is larger than 200 KB', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		const big = { vendorJobId: 'J-2', title: 'Too big', description: 'x'.repeat(205 * 1024) }
		expectErrorBody(await publish(key, big), 413)
		expectErrorBody(await change(key, 'J-1', { description: 'x'.repeat(205 * 1024) }), 413)
		expect((await get(key, 'J-2')).status).toBe(404)
		expect((await get(key, 'J-1')).json.job.description).toBeNull()
	})

	test('422 for publishJob and changeJob with an invalid field, naming it', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		const p = await publish(key, { vendorJobId: 'J-2', title: 'Java Developer', schedule: 'Sometimes' })
		expectErrorBody(p, 422)
		expect(p.json.fields).toEqual([{ field: 'schedule', message: expect.any(String) }])
		const c = await change(key, 'J-1', { minYears: 99 })
		expectErrorBody(c, 422)
		expect(c.json.fields).toEqual([{ field: 'minYears', message: expect.any(String) }])
		expect((await get(key, 'J-1')).json.job.minYears).toBeNull()
		expect((await get(key, 'J-2')).status).toBe(404)
	})

	test('publish requires vendorJobId and title; change requires nothing', async () => {
		const { key } = await setup()
		const p = await publish(key, { location: 'Austin, TX' })
		expectErrorBody(p, 422)
		expect(p.json.fields.map((f: { field: string }) => f.field).sort()).toEqual(['title', 'vendorJobId'])
		// A title that draws nothing (spaces, zero-width and format characters, blank glyphs) is no title.
		for (const title of ['   ', '\u200b\u200b', '\u2800\u115f', '\ufeff\u00ad'])
			expect((await publish(key, { vendorJobId: 'J-1', title })).json.fields, title).toEqual([{ field: 'title', message: 'must not be blank' }])
		expect((await publish(key, { vendorJobId: '', title: 'QA' })).status).toBe(422)
		await publish(key, { vendorJobId: 'J-1', title: 'QA' })
		const c = await change(key, 'J-1', {})
		expect(c.status).toBe(200)
		expect(c.json.job.title).toBe('QA')
		expect((await change(key, 'J-1', { title: '' })).status).toBe(422)
		expect((await change(key, 'J-1', { title: null })).status).toBe(422)
	})
})

describe('error precedence (design.md: 401, 403, 429, 413, 400, 404, 422)', () => {
	test('401 comes before the body: no key with an oversized or broken body is 401', async () => {
		expect((await call('POST', '/api/v1/jobs', { raw: 'x'.repeat(300 * 1024), headers: json })).status).toBe(401)
		expect((await call('PATCH', '/api/v1/jobs/J-1', { raw: 'not json', headers: json })).status).toBe(401)
		expect((await call('POST', '/api/v1/jobs', { key: 'bl_vk_nope', body: { vendorJobId: 'x' } })).status).toBe(401)
	})

	test('403 comes before the body and the job lookup', async () => {
		const { ws, key, vendorId } = await setup()
		await setApiAccess(await testDeps(), operatorActor(ws), vendorId, false)
		expect((await call('POST', '/api/v1/jobs', { key, raw: 'x'.repeat(300 * 1024), headers: json })).status).toBe(403)
		expect((await call('PATCH', '/api/v1/jobs/absent', { key, raw: 'nope', headers: json })).status).toBe(403)
	})

	test('413 comes before 400: an oversized body that is not JSON is 413', async () => {
		const { key } = await setup()
		expect((await call('POST', '/api/v1/jobs', { key, raw: 'x'.repeat(300 * 1024), headers: json })).status).toBe(413)
	})

	test('400 comes before 404, and 404 before 422, on changeJob', async () => {
		const { key } = await setup()
		expect((await call('PATCH', '/api/v1/jobs/absent', { key, raw: 'nope', headers: json })).status).toBe(400)
		expect((await call('PATCH', '/api/v1/jobs/absent', { key, raw: '[]', headers: json })).status).toBe(400)
		expect((await change(key, 'absent', { minYears: 'lots' })).status).toBe(404)
		expect((await change(key, 'x'.repeat(101), { minYears: 'lots' })).status).toBe(404)
	})
})

describe('429 once RATE_LIMIT_PER_MINUTE is exceeded', () => {
	let limited: ReturnType<typeof createApp>
	const send: Send = (method, path, options) => callOn(limited, method, path, options)
	beforeAll(async () => {
		limited = createApp(await testDeps({ RATE_LIMIT_PER_MINUTE: '3' }))
	}, 60_000)

	test('each operation answers 429 with Retry-After (seconds) on the request after the limit', async () => {
		const { ws, key, vendorId } = await setup()
		const deps = await testDeps()
		await publish(key, { vendorJobId: 'J-1', title: 'Java Developer' })
		for (const op of OPERATIONS) {
			// A fresh key per operation: the limit is counted per key.
			const k = op === 'publishJob' ? key : (await createKey(deps, operatorActor(ws), vendorId)).apiKey
			const remaining: string[] = []
			await awayFromMinuteEdge()
			for (let i = 0; i < 3; i++) {
				const ok = await send('GET', '/api/v1/jobs', { key: k })
				expect(ok.status).toBe(200)
				remaining.push(ok.headers.get('ratelimit')!)
			}
			expect(remaining.map((r) => r.match(/r=(\d+)/)![1])).toEqual(['2', '1', '0'])
			const res = await operation(op, k, 'J-1', send)
			expectErrorBody(res, 429)
			const retryAfter = res.headers.get('retry-after')
			expect(retryAfter).toMatch(/^\d+$/)
			expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
			expect(Number(retryAfter)).toBeLessThanOrEqual(60)
			expect(res.headers.get('ratelimit')).toMatch(/r=0/)
		}
		// The refused change and close did nothing.
		expect((await get(key, 'J-1')).json.job).toMatchObject({ title: 'Java Developer', status: 'open' })
	}, 30_000)

	test('429 comes before 413, 400, 404 and 422; 403 comes before 429; other keys are not limited', async () => {
		const { ws, key, vendorId } = await setup()
		await awayFromMinuteEdge()
		for (let i = 0; i < 3; i++) expect((await send('GET', '/api/v1/jobs', { key })).status).toBe(200)
		expect((await send('POST', '/api/v1/jobs', { key, raw: 'x'.repeat(300 * 1024), headers: json })).status).toBe(429)
		expect((await send('POST', '/api/v1/jobs', { key, raw: 'nope', headers: json })).status).toBe(429)
		expect((await send('GET', '/api/v1/jobs/absent', { key })).status).toBe(429)
		expect((await send('POST', '/api/v1/jobs', { key, body: { title: 5 } })).status).toBe(429)
		const other = await newVendor(ws, 'Other Vendor')
		expect((await send('GET', '/api/v1/jobs', { key: other.apiKey })).status).toBe(200)
		await setApiAccess(await testDeps(), operatorActor(ws), vendorId, false)
		expect((await send('GET', '/api/v1/jobs', { key })).status).toBe(403)
	}, 30_000)

	// Publish counts a key before it looks it up (the lookup is inside the publish statement), so
	// these check that the precedence still holds when the key is bad and its bucket is full.
	test('publish past the limit: a revoked key is still 401 and a vendor without API access still 403, never 429', async () => {
		const { ws, key, keyId, vendorId } = await setup()
		const deps = await testDeps()
		await awayFromMinuteEdge()
		await revokeKey(deps, keyId, operatorActor)
		for (let i = 0; i < 5; i++) expectErrorBody(await send('POST', '/api/v1/jobs', { key, body: { vendorJobId: 'R-1', title: 'Java Developer' } }), 401)
		const fresh = (await createKey(deps, operatorActor(ws), vendorId)).apiKey
		await setApiAccess(deps, operatorActor(ws), vendorId, false)
		for (let i = 0; i < 5; i++) expectErrorBody(await send('POST', '/api/v1/jobs', { key: fresh, body: { vendorJobId: 'R-1', title: 'Java Developer' } }), 403)
		await setApiAccess(deps, operatorActor(ws), vendorId, true)
		expectErrorBody(await send('POST', '/api/v1/jobs', { key: fresh, body: { vendorJobId: 'R-1', title: 'Java Developer' } }), 429)
		const [{ n }] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from jobs where vendor_id = ${vendorId}`)
		expect(n).toBe(0)
	}, 30_000)
})

describe('limits', () => {
	const STRING_LIMITS: [field: string, max: number][] = [
		['title', 140],
		['location', 120],
		['employment', 60],
		['summary', 300],
		['description', 20000],
		['interview', 120],
		['department', 60],
	]

	test('vendorJobId: 100 characters (code points) on publish; longer is 422', async () => {
		const { key } = await setup()
		const id = emoji(100)
		const ok = await publish(key, { vendorJobId: id, title: 'QA' })
		expect(ok.status).toBe(201)
		expect(ok.json.job.vendorJobId).toBe(id)
		const tooLong = await publish(key, { vendorJobId: emoji(101), title: 'QA' })
		expect(tooLong.status).toBe(422)
		expect(tooLong.json.fields).toEqual([{ field: 'vendorJobId', message: expect.any(String) }])
	})

	test('vendorJobId: 100 characters in the path; a longer path id is 404', async () => {
		const { key } = await setup()
		const id = 'R'.repeat(100)
		await publish(key, { vendorJobId: id, title: 'QA' })
		expect((await get(key, id)).status).toBe(200)
		expect((await change(key, id, { location: 'Remote' })).json.job.location).toBe('Remote')
		expect((await close(key, id)).json.job.status).toBe('closed')
		for (const op of ['getJob', 'changeJob', 'closeJob'] as const) expect((await operation(op, key, id + 'R')).status).toBe(404)
	})

	for (const [field, max] of STRING_LIMITS) {
		test(`${field}: ${max} characters on publish and change, counted in code points; one more is 422`, async () => {
			const { key } = await setup()
			const atMax = emoji(max)
			const ok = await publish(key, { vendorJobId: 'J-1', title: 'QA', [field]: atMax })
			expect(ok.status).toBe(201)
			expect(ok.json.job[field]).toBe(atMax)
			const over = await publish(key, { vendorJobId: 'J-2', title: 'QA', [field]: emoji(max + 1) })
			expect(over.status).toBe(422)
			expect(over.json.fields).toEqual([{ field, message: expect.any(String) }])
			expect((await get(key, 'J-2')).status).toBe(404)

			const changedOver = await change(key, 'J-1', { [field]: 'a'.repeat(max + 1) })
			expect(changedOver.status).toBe(422)
			expect(changedOver.json.fields).toEqual([{ field, message: expect.any(String) }])
			const changed = await change(key, 'J-1', { [field]: 'a'.repeat(max) })
			expect(changed.status).toBe(200)
			expect(changed.json.job[field]).toBe('a'.repeat(max))
		})
	}

	for (const field of ['mustHave', 'niceToHave']) {
		test(`${field}: 30 items on publish and change; 31 is 422; each item cut to 160`, async () => {
			const { key } = await setup()
			const items = Array.from({ length: 30 }, (_, i) => `Skill ${i}`)
			const ok = await publish(key, { vendorJobId: 'J-1', title: 'QA', [field]: items })
			expect(ok.status).toBe(201)
			expect(ok.json.job[field]).toEqual(items)
			const over = await publish(key, { vendorJobId: 'J-2', title: 'QA', [field]: [...items, 'one more'] })
			expect(over.status).toBe(422)
			expect(over.json.fields).toEqual([{ field, message: expect.any(String) }])
			const changedOver = await change(key, 'J-1', { [field]: [...items, 'one more'] })
			expect(changedOver.status).toBe(422)
			expect((await get(key, 'J-1')).json.job[field]).toEqual(items)

			const cut = await change(key, 'J-1', { [field]: ['b'.repeat(161), 'short'] })
			expect(cut.status).toBe(200)
			expect(cut.json.job[field]).toEqual(['b'.repeat(160), 'short'])
			expect((await change(key, 'J-1', { [field]: ['ok', 7] })).status).toBe(422)
			expect((await change(key, 'J-1', { [field]: 'Java' })).status).toBe(422)
		})
	}

	test('minYears: 0 to 40 inclusive, whole numbers or null, on publish and change', async () => {
		const { key } = await setup()
		for (const [i, v] of [0, 40, null].entries()) {
			const res = await publish(key, { vendorJobId: `J-${i}`, title: 'QA', minYears: v })
			expect(res.status).toBe(201)
			expect(res.json.job.minYears).toBe(v)
		}
		for (const v of [-1, 41, 2.5, '5', true]) {
			const res = await publish(key, { vendorJobId: 'J-bad', title: 'QA', minYears: v })
			expect(res.status).toBe(422)
			expect(res.json.fields).toEqual([{ field: 'minYears', message: expect.any(String) }])
			expect((await change(key, 'J-0', { minYears: v })).status).toBe(422)
		}
		expect((await change(key, 'J-0', { minYears: 40 })).json.job.minYears).toBe(40)
		expect((await change(key, 'J-0', { minYears: null })).json.job.minYears).toBeNull()
	})

	test('contractType, visa, schedule and status take only their listed values (in any case: rest-input.test.ts)', async () => {
		const { key } = await setup()
		const allowed: Record<string, string[]> = {
			contractType: ['W2', 'C2C', 'W2 / C2C'],
			visa: ['Any', 'No Sponsorship', 'USC', 'USC/GC'],
			schedule: ['Onsite', 'Hybrid', 'Remote'],
		}
		await publish(key, { vendorJobId: 'J-1', title: 'QA' })
		for (const [field, values] of Object.entries(allowed)) {
			for (const v of values) expect((await change(key, 'J-1', { [field]: v })).json.job[field]).toBe(v)
			for (const v of [values[0]!.toLowerCase() + 'x', '', 3]) {
				const res = await publish(key, { vendorJobId: 'J-2', title: 'QA', [field]: v })
				expect(res.status).toBe(422)
				expect(res.json.fields).toEqual([{ field, message: expect.any(String) }])
			}
		}
		for (const v of ['draft', 'deleted', 'opened', true]) expect((await change(key, 'J-1', { status: v })).status).toBe(422)
		expect((await change(key, 'J-1', { status: 'Open' })).json.job.status).toBe('open')
	})

	test('request body: 204,800 bytes are accepted, 204,801 are 413 (publish and change)', async () => {
		const { key } = await setup()
		const bodyOfSize = (size: number, fields: Record<string, unknown>) => {
			const base = JSON.stringify({ ...fields, padding: '' })
			return JSON.stringify({ ...fields, padding: 'p'.repeat(size - Buffer.byteLength(base)) })
		}
		const exact = bodyOfSize(204_800, { vendorJobId: 'J-1', title: 'QA' })
		expect(Buffer.byteLength(exact)).toBe(204_800)
		const ok = await call('POST', '/api/v1/jobs', { key, raw: exact, headers: json })
		expect(ok.status).toBe(201)
		expect(ok.json.warnings.join(' ')).toContain('padding')
		expectErrorBody(await call('POST', '/api/v1/jobs', { key, raw: bodyOfSize(204_801, { vendorJobId: 'J-2', title: 'QA' }), headers: json }), 413)
		expect((await call('PATCH', '/api/v1/jobs/J-1', { key, raw: bodyOfSize(204_800, { title: 'QA 2' }), headers: json })).status).toBe(200)
		expectErrorBody(await call('PATCH', '/api/v1/jobs/J-1', { key, raw: bodyOfSize(204_801, { title: 'QA 3' }), headers: json }), 413)
		expect((await get(key, 'J-1')).json.job.title).toBe('QA 2')
	})

	test('listJobs: the vendor’s jobs only, newest first, at most 500', async () => {
		const { ws, key, vendorId } = await setup()
		const deps = await testDeps()
		const base = Date.now() - 1_000_000
		const rows = Array.from({ length: 501 }, (_, i) => ({
			id: `job_list${i}_${vendorId.slice(-8)}`,
			workspaceId: ws.id,
			vendorId,
			vendorJobId: `L-${i}`,
			slug: `list-${i}`,
			title: `Job ${i}`,
			status: i % 7 === 0 ? 'Closed' : 'Open',
			createdAt: new Date(base + i * 1000),
			updatedAt: new Date(base + i * 1000),
			publishedAt: new Date(base + i * 1000),
			closedAt: i % 7 === 0 ? new Date(base + i * 1000 + 500) : null,
		}))
		await deps.db.insert(jobs).values(rows)
		const other = await newVendor(ws, 'Other Vendor')
		await publish(other.apiKey, { vendorJobId: 'OTHER', title: 'Not yours' })

		const res = await call('GET', '/api/v1/jobs', { key })
		expect(res.status).toBe(200)
		const list = res.json.jobs as { vendorJobId: string; createdAt: string; status: string; url: string | null }[]
		expect(list).toHaveLength(500)
		expect(list[0]!.vendorJobId).toBe('L-500')
		expect(list[499]!.vendorJobId).toBe('L-1')
		expect(list.some((j) => j.vendorJobId === 'L-0' || j.vendorJobId === 'OTHER')).toBe(false)
		for (let i = 1; i < list.length; i++) expect(list[i - 1]!.createdAt > list[i]!.createdAt).toBe(true)
		// Closed jobs are listed too, without a public address.
		const closed = list.find((j) => j.vendorJobId === 'L-7')!
		expect(closed).toMatchObject({ status: 'closed', url: null })
		// A job published now is the newest.
		await publish(key, { vendorJobId: 'NEWEST', title: 'Newest' })
		expect((await call('GET', '/api/v1/jobs', { key })).json.jobs[0].vendorJobId).toBe('NEWEST')
	})

	test('every error is the JSON error body; `fields` appears only on field-validation failures', async () => {
		const { key } = await setup()
		const notFound = await get(key, 'absent')
		expectErrorBody(notFound, 404)
		expect(notFound.json.fields).toBeUndefined()
		const invalid = await publish(key, { vendorJobId: 'J', title: 'QA', visa: 'H1B' })
		expectErrorBody(invalid, 422)
		expect(invalid.json.fields[0]).toEqual({ field: 'visa', message: expect.any(String) })
	})
})

describe('state transitions', () => {
	test('(none) -> open: POST /jobs creates the job, 201, live at its url', async () => {
		const { ws, key } = await setup()
		const res = await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer', location: 'Austin, TX' })
		expect(res.status).toBe(201)
		expect(res.json.job).toMatchObject({ vendorJobId: 'J-1', title: 'Data Engineer', status: 'open', closedAt: null })
		expect(res.json.job.url).toStartWith(`http://localhost:3000/careers/${ws.slug}/jobs/`)
		const page = await call('GET', new URL(res.json.job.url).pathname)
		expect(page.status).toBe(200)
		expect(page.text).toContain('Data Engineer')
	})

	test('a 201 names the job it created in Location, which GET answers (whatever characters the id holds); an update’s 200 has none', async () => {
		const { key } = await setup()
		for (const vendorJobId of ['J-1', 'A/B ü?#%😀']) {
			const created = await publish(key, { vendorJobId, title: 'Data Engineer' })
			expect(created.status).toBe(201)
			const location = created.headers.get('location')!
			expect((await call('GET', location, { key })).json).toEqual({ job: created.json.job })
			const updated = await publish(key, { vendorJobId, title: 'Senior Data Engineer' })
			expect([updated.status, updated.headers.get('location')]).toEqual([200, null])
		}
	})

	test('open -> open: POST /jobs with the same vendorJobId updates that job, 200, no second job', async () => {
		const { key, vendorId } = await setup()
		const first = await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer', location: 'Austin, TX', summary: 'Build pipelines' })
		const again = await publish(key, { vendorJobId: 'J-1', title: 'Senior Data Engineer' })
		expect(again.status).toBe(200)
		// Only the fields sent change; the address stays.
		expect(again.json.job).toMatchObject({
			title: 'Senior Data Engineer',
			location: 'Austin, TX',
			summary: 'Build pipelines',
			status: 'open',
			url: first.json.job.url,
			createdAt: first.json.job.createdAt,
		})
		expect(await countJobs(vendorId)).toBe(1)
	})

	test('closed -> open: POST /jobs re-opens and updates a closed job, 200, same url', async () => {
		const { key, vendorId } = await setup()
		const first = await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer' })
		await close(key, 'J-1')
		const again = await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer II' })
		expect(again.status).toBe(200)
		expect(again.json.job).toMatchObject({ status: 'open', title: 'Data Engineer II', url: first.json.job.url, closedAt: null })
		expect((await call('GET', new URL(first.json.job.url).pathname)).status).toBe(200)
		expect(await countJobs(vendorId)).toBe(1)
	})

	test('open -> closed: PATCH status closed; url becomes null; the page is gone', async () => {
		const { key } = await setup()
		const first = await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer' })
		const res = await change(key, 'J-1', { status: 'closed' })
		expect(res.status).toBe(200)
		expect(res.json.job).toMatchObject({ status: 'closed', url: null })
		expect((await get(key, 'J-1')).json.job).toMatchObject({ status: 'closed', url: null })
		expect([404, 410]).toContain((await call('GET', new URL(first.json.job.url).pathname)).status)
	})

	test('closed -> open: PATCH status open makes the job live again at the same url', async () => {
		const { key } = await setup()
		const first = await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer' })
		await change(key, 'J-1', { status: 'closed' })
		const res = await change(key, 'J-1', { status: 'open', location: 'Remote' })
		expect(res.status).toBe(200)
		expect(res.json.job).toMatchObject({ status: 'open', url: first.json.job.url, location: 'Remote' })
		expect((await call('GET', new URL(first.json.job.url).pathname)).status).toBe(200)
	})

	test('open -> closed: DELETE closes the job, 200 with the closed job; nothing is erased', async () => {
		const { key, vendorId } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer', mustHave: ['SQL'], summary: 'Pipelines' })
		const res = await close(key, 'J-1')
		expect(res.status).toBe(200)
		expect(res.json.job).toMatchObject({ vendorJobId: 'J-1', status: 'closed', url: null, title: 'Data Engineer', mustHave: ['SQL'], summary: 'Pipelines' })
		expect(await countJobs(vendorId)).toBe(1)
		expect((await get(key, 'J-1')).json.job).toMatchObject({ status: 'closed', title: 'Data Engineer' })
		expect((await call('GET', '/api/v1/jobs', { key })).json.jobs).toHaveLength(1)
		// Closing again is harmless and keeps the first closing time.
		const again = await close(key, 'J-1')
		expect(again.status).toBe(200)
		expect(again.json.job.closedAt).toBe(res.json.job.closedAt)
	})

	test('a closed job can still be changed, and stays closed unless status says otherwise', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'J-1', title: 'Data Engineer' })
		await close(key, 'J-1')
		const res = await change(key, 'J-1', { title: 'Data Engineer (filled)' })
		expect(res.json.job).toMatchObject({ status: 'closed', url: null, title: 'Data Engineer (filled)' })
	})
})

async function countJobs(vendorId: string): Promise<number> {
	const deps = await testDeps()
	const [row] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from jobs where vendor_id = ${vendorId}`)
	return row!.n
}

async function titleInDatabase(vendorId: string, vendorJobId: string): Promise<string | undefined> {
	const deps = await testDeps()
	const [row] = await deps.database.rows<{ title: string }>(sql`select title from jobs where vendor_id = ${vendorId} and vendor_job_id = ${vendorJobId}`)
	return row?.title
}
