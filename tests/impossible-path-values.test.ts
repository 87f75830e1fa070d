/**
 * A path parameter no record can have (core/http/request-path.ts `unaddressable`): every route that
 * takes one, found from the route table, answers 404 in its door's format, never a 400, a 422 or a
 * 500, whatever the handler behind it would have made of a null, a NUL or half a surrogate pair.
 */
import { beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../core/deps.ts'
import { newPerson, newVendor, newWorkspace } from './helpers.ts'
import { portalApp, signedIn, type PortalClient } from './portal.ts'

setDefaultTimeout(120_000)

/** Undecodable (a broken escape, an overlong NUL, an encoded surrogate), and a NUL inside. */
const IMPOSSIBLE = ['%zz', '%C0%80', '%ED%A0%80', '%00', 'x%00y']
/** Other controls reach the handlers (a vendor job id stored before they were refused stays reachable): no record, or no credential. */
const CONTROLS = ['a%1Bb', '%7F', '%09']

let app: Awaited<ReturnType<typeof portalApp>>['app']
let deps: AppDeps
let owner: PortalClient
let apiKey: string
let workspaceId: string

beforeAll(async () => {
	;({ app, deps } = await portalApp())
	const ws = await newWorkspace(deps)
	workspaceId = ws.id
	owner = await signedIn(await newPerson(ws, 'owner', {}, deps))
	;({ apiKey } = await newVendor(ws, 'Path Values Staffing', deps))
})

test('every GET route with a parameter answers 404 to a value no record can have, in its door’s format; other controls find no record', async () => {
	const routes = app.routes.filter((r) => r.method === 'GET' && r.path.includes(':'))
	expect(routes.length).toBeGreaterThan(30)
	const wrong: string[] = []
	for (const route of routes)
		for (const value of [...IMPOSSIBLE, ...CONTROLS]) {
			const path = route.path.replace(/:[A-Za-z]+/g, value)
			const res = path.startsWith('/api/')
				? await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${apiKey}` } }))
				: await owner.request('GET', path)
			// SCIM is asked without its token here: a value that reaches the handlers meets the credential check first.
			const expected = CONTROLS.includes(value) && route.path.startsWith('/scim/') ? 401 : 404
			if (res.status !== expected) wrong.push(`${res.status} ${route.path} ${value}`)
		}
	expect(wrong).toEqual([])
})

test('the 404 is the door’s own: JSON on the API, SCIM’s error on SCIM, a page in the portal', async () => {
	const api = await app.handle(new Request('http://localhost/api/v1/jobs/%C0%80', { headers: { authorization: `Bearer ${apiKey}` } }))
	expect([api.status, ((await api.json()) as { error: string }).error]).toEqual([404, 'Not found'])
	const scim = await app.handle(new Request('http://localhost/scim/v2/Users/%00'))
	expect([scim.status, ((await scim.json()) as { schemas: string[] }).schemas]).toEqual([404, ['urn:ietf:params:scim:api:messages:2.0:Error']])
	const page = await owner.request('GET', '/candidates/%ED%A0%80')
	expect([page.status, page.headers.get('content-type')]).toEqual([404, expect.stringContaining('text/html')])
})

test('a form posted to such an address is 404 too, and a value any record may have still reaches its handler', async () => {
	const posted = await owner.request('POST', '/candidates/%00/notes', { form: { csrf: owner.csrf, text: 'x' } })
	expect(posted.status).toBe(404)
	// Percent-encoded text that decodes to ordinary characters (a slash, a space, an accent) is the handler's to judge.
	const unknown = await owner.request('GET', '/candidates/caf%C3%A9%20a%2Fb')
	expect(unknown.status).toBe(404)
	expect(unknown.text).not.toContain('Something went wrong')
})

test('a vendor job id stored with a tab, before one-line text refused it, is still read through the API', async () => {
	const published = await app.handle(
		new Request('http://localhost/api/v1/jobs', {
			method: 'POST',
			headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ vendorJobId: 'OLD-1', title: 'Legacy Role' }),
		}),
	)
	expect(published.status).toBe(201)
	await deps.database.rows(sql`update jobs set vendor_job_id = ${'OLD\t1'} where workspace_id = ${workspaceId} and vendor_job_id = 'OLD-1'`)
	const read = await app.handle(new Request('http://localhost/api/v1/jobs/OLD%091', { headers: { authorization: `Bearer ${apiKey}` } }))
	expect([read.status, ((await read.json()) as { job: { title: string } }).job.title]).toEqual([200, 'Legacy Role'])
})

test('a value longer than its route takes is 404 too, in the door’s format: no record has it (a 400 sent an identity provider’s probe into its error handling)', async () => {
	const routes = app.routes.filter((r) => r.method === 'GET' && r.path.includes(':'))
	const long = 'a'.repeat(1000)
	const wrong: string[] = []
	for (const route of routes) {
		const path = route.path.replace(/:[A-Za-z]+/g, long)
		const res = path.startsWith('/api/')
			? await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${apiKey}` } }))
			: await owner.request('GET', path)
		// SCIM is asked without its token: where no length is set, the value meets the credential check first.
		if (res.status !== 404 && !(res.status === 401 && route.path.startsWith('/scim/'))) wrong.push(`${res.status} ${route.path}`)
	}
	expect(wrong).toEqual([])
	const scim = await app.handle(new Request(`http://localhost/scim/v2/Users/${long}`))
	expect([scim.status, ((await scim.json()) as { schemas: string[] }).schemas]).toEqual([404, ['urn:ietf:params:scim:api:messages:2.0:Error']])
	const page = await owner.request('GET', `/vendors/${long}`)
	expect([page.status, page.headers.get('content-type')]).toEqual([404, expect.stringContaining('text/html')])
})
