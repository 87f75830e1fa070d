/**
 * Every door that takes a request body (each POST, PATCH, PUT and DELETE route in the app's route
 * table, so new routes are covered), sent oversized, deeply nested, duplicate-key, prototype-key,
 * wrongly typed and broken JSON, with the credentials the route declares (vendor key, personal
 * token, SCIM token, signed-in session with its CSRF token, anonymous form CSRF token): never a 500,
 * and the JSON doors (/api/…, OAuth endpoints, /scim/v2) answer their errors in JSON.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { declaredAuth } from '../../core/http/auth.ts'
import { call, newPerson, newPersonWithToken, newScimToken, newVendor, newWorkspace, testApp } from '../helpers.ts'
import { portalApp, signedIn, uniqueAddress } from '../portal.ts'

setDefaultTimeout(180_000)

type Route = { method: string; path: string; hooks: unknown }
let routes: Route[] = []
let vendorKey: string
let token: string
let scimToken: string
let owner: { email: string; password: string }

beforeAll(async () => {
	const { app } = await testApp()
	routes = (app.routes as Route[]).filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
	const ws = await newWorkspace()
	vendorKey = (await newVendor(ws)).apiKey
	token = (await newPersonWithToken(ws, 'owner')).token
	owner = await newPerson(ws, 'owner')
	scimToken = await newScimToken(ws)
}, 60_000)

const fillPath = (path: string) =>
	path
		.replace(/:token/g, 'bl_ul_notareal0token')
		.replace(/:[A-Za-z]+/g, 'x1')
		.replace(/\*/g, 'x')

/** Hostile bodies; `csrf` is put into those that are objects so they get past the CSRF check. */
function bodies(csrf: string): [string, string][] {
	const c = JSON.stringify(csrf)
	return [
		['oversized (2.5 MB)', `{"csrf":${c},"title":"${'x'.repeat(2_500_000)}"}`],
		['deeply nested array (50 000 levels)', '['.repeat(50_000) + ']'.repeat(50_000)],
		['deeply nested object (20 000 levels)', `{"csrf":${c},"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`],
		['duplicate keys', `{"csrf":${c},"title":"a","title":{"x":1},"vendorJobId":"dup","vendorJobId":["d"],"name":"n","name":null}`],
		['prototype keys', `{"__proto__":{"isAdmin":true,"role":"owner"},"constructor":{"prototype":{"polluted":1}},"csrf":${c},"title":"proto"}`],
		[
			'wrong types',
			`{"csrf":${c},"title":5,"name":[],"email":{},"decision":true,"request":null,"vendorJobId":7,"mustHave":"x","minYears":"5","status":1,"jsonrpc":2,"method":[],"params":"x"}`,
		],
		['an array', '[{"a":1},{"b":2}]'],
		['a string', '"just a string"'],
		['a number', '1e309'],
		['null', 'null'],
		['broken JSON', `{"csrf":${c},"title":`],
		['NUL and lone surrogates', `{"csrf":${c},"title":"a\\u0000b","name":"\\ud800","email":"\\udfff@x"}`],
	]
}

const isJsonDoor = (path: string) => (path.startsWith('/api/') || path.startsWith('/oauth/') || path.startsWith('/scim/')) && path !== '/oauth/authorize'

describe('hostile JSON on every door with a body', () => {
	test('the route table has doors with bodies', () => {
		expect(routes.length).toBeGreaterThan(10)
		expect(routes.every((r) => declaredAuth(r.hooks) !== undefined)).toBe(true)
	})

	test('never a 500; JSON doors answer JSON errors', async () => {
		const { app } = await portalApp({ INTERVIEW_WEBHOOK_SECRET: 'reliability-webhook-secret', INBOUND_MAIL_SECRET: 'reliability-inbound-secret' })
		const problems: string[] = []
		for (const route of routes) {
			const auth = declaredAuth(route.hooks)
			const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': uniqueAddress() }
			let csrf = ''
			if (auth === 'vendor') headers.authorization = `Bearer ${vendorKey}`
			else if (auth === 'mcp') Object.assign(headers, { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' })
			else if (auth === 'scim') headers.authorization = `Bearer ${scimToken}`
			else if (auth === 'form') {
				const page = await app.handle(new Request('http://localhost/sign-in', { headers: { 'x-forwarded-for': headers['x-forwarded-for']! } }))
				const cookie = page.headers
					.getSetCookie()
					.map((l) => l.split(';')[0])
					.join('; ')
				csrf = /name="csrf" value="([^"]*)"/.exec(await page.text())?.[1] ?? ''
				headers.cookie = cookie
			} else if (auth !== 'public') {
				// A fresh session per route: a door may end the session (sign-out).
				const portal = await signedIn(owner)
				headers.cookie = [...portal.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
				csrf = portal.csrf
			}
			for (const [what, raw] of bodies(csrf)) {
				const res = await app.handle(new Request(`http://localhost${fillPath(route.path)}`, { method: route.method, headers, body: raw }))
				const text = await res.text()
				const where = `${route.method} ${route.path} (${typeof auth === 'object' ? auth.permission : auth}) with ${what}: ${res.status}`
				if (res.status >= 500) problems.push(`${where} ${text.slice(0, 160)}`)
				// The SCIM token opens its door: the hostile body reaches the SCIM routes themselves.
				else if (auth === 'scim' && res.status === 401) problems.push(`${where}: the SCIM token was refused`)
				else if (isJsonDoor(route.path) && res.status >= 400 && !(res.headers.get('content-type') ?? '').includes('json'))
					problems.push(`${where} answered ${res.headers.get('content-type')}, not JSON`)
			}
		}
		expect(problems).toEqual([])
		// The app still answers, and nothing leaked into the prototype of plain objects.
		expect((await call('GET', '/health')).status).toBe(200)
		expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
		expect(({} as Record<string, unknown>).polluted).toBeUndefined()
	})
})
