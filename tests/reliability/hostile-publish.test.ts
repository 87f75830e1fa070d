/**
 * Property tests over the Job Publish API bodies, derived from the request schemas
 * (modules/jobs/model.ts): whatever is sent, the answer is one of the documented statuses with a
 * JSON `{error}` body (422s name their fields), never a 500. Bodies that fit the schema with plain
 * text are accepted.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import fc from 'fast-check'
import { ChangeBody, PublishBody } from '../../modules/jobs/model.ts'
import { call, newVendor, newWorkspace, testApp } from '../helpers.ts'
import { fits, hostile } from './arbitraries.ts'

setDefaultTimeout(120_000)

let key: string
beforeAll(async () => {
	await testApp()
	const ws = await newWorkspace()
	key = (await newVendor(ws)).apiKey
}, 60_000)

const RUNS = Number(process.env.FC_RUNS ?? 150)
let seq = 0

function expectDocumented(res: { status: number; json: any; text: string }, allowed: number[]) {
	expect({ status: res.status, allowed: allowed.includes(res.status) }).toEqual({ status: res.status, allowed: true })
	if (res.status >= 400) {
		expect(typeof res.json?.error).toBe('string')
		if (res.status === 422) expect(res.json.fields?.length).toBeGreaterThan(0)
	}
}

describe('publish (POST /api/v1/jobs)', () => {
	test('hostile bodies: 200, 201, 400, 413 or 422 with a JSON error, never a 500', async () => {
		await fc.assert(
			fc.asyncProperty(hostile(PublishBody), async (body) => {
				// Keep ids of valid-looking bodies unique so runs do not depend on each other.
				if (body && typeof body === 'object' && typeof (body as any).vendorJobId === 'string')
					(body as any).vendorJobId = `${(body as any).vendorJobId}`.slice(0, 80) + `#${seq++}`
				expectDocumented(await call('POST', '/api/v1/jobs', { key, body }), [200, 201, 400, 413, 422])
			}),
			{ numRuns: RUNS },
		)
	})

	test('bodies that fit the schema with plain text are accepted', async () => {
		await fc.assert(
			fc.asyncProperty(fits(PublishBody, true), async (body) => {
				const b = { ...(body as Record<string, unknown>), vendorJobId: `fit-${seq++}` }
				const res = await call('POST', '/api/v1/jobs', { key, body: b })
				expect({ status: res.status, error: res.json?.fields ?? res.json?.error }).toEqual({ status: 201, error: undefined })
			}),
			{ numRuns: Math.ceil(RUNS / 3) },
		)
	})

	test('raw bodies that are not a JSON object: 400, never a 500', async () => {
		const raws = [
			'',
			' ',
			'null',
			'[]',
			'"x"',
			'1',
			'true',
			'{',
			'{"a":1,}',
			"{'a':1}",
			'NaN',
			'\ufeff{}',
			'{"vendorJobId":"a"} trailing',
			'{"title":"\u0000"}',
			'['.repeat(100_000) + ']'.repeat(100_000),
		]
		for (const raw of raws) {
			const res = await call('POST', '/api/v1/jobs', { key, raw, headers: { 'content-type': 'application/json' } })
			expect({ raw: raw.slice(0, 20), status: res.status < 500 && res.status >= 400 }).toEqual({ raw: raw.slice(0, 20), status: true })
		}
	})
})

describe('change (PATCH /api/v1/jobs/:vendorJobId)', () => {
	test('hostile bodies on an existing job: 200, 400, 413 or 422, never a 500', async () => {
		const id = `change-${seq++}`
		expect((await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: id, title: 'Target of changes' } })).status).toBe(201)
		await fc.assert(
			fc.asyncProperty(hostile(ChangeBody), async (body) => {
				expectDocumented(await call('PATCH', `/api/v1/jobs/${encodeURIComponent(id)}`, { key, body }), [200, 400, 413, 422])
			}),
			{ numRuns: RUNS },
		)
	})

	test('hostile ids in the path: 404 or another 4xx, never a 500', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), fc.constantFrom('..', '../..', '%2e%2e', 'a/b', '%00', '%ZZ', 'x'.repeat(101))),
				async (id) => {
					let path: string
					try {
						path = `/api/v1/jobs/${/%/.test(id) ? id : encodeURIComponent(id)}`
					} catch {
						return // a lone surrogate cannot be put in a URL at all
					}
					for (const method of ['GET', 'PATCH', 'DELETE']) {
						const res = await call(method, path, { key, body: method === 'PATCH' ? { title: 'x' } : undefined })
						// ('..' segments are resolved by the URL parser before the request is sent: a redirect or 404 of another route.)
						expect({ id, method, status: res.status, ok: res.status < 500 }).toEqual({ id, method, status: res.status, ok: true })
					}
				},
			),
			{ numRuns: 60 },
		)
	})
})
