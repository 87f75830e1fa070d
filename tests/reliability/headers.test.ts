/**
 * Security headers on every response of every route in the app's route table (so new routes are
 * covered), signed in and anonymous, whatever the status: a CSP without inline script and with
 * frame-ancestors 'none', X-Frame-Options, nosniff, Referrer-Policy; HSTS when served over https.
 * Also: every route that is not public refuses a request without credentials, and every answer of a
 * signed-in route says `Cache-Control: no-store` (issue 26: Back after Sign out showed a new token).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { declaredAuth } from '../../core/http/auth.ts'
import { unavailableResponse } from '../../core/http/availability.ts'
import { securityHeaders } from '../../core/http/security-headers.ts'
import { newPerson, newWorkspace } from '../helpers.ts'
import { portalApp, signedIn, uniqueAddress } from '../portal.ts'

setDefaultTimeout(120_000)

type Route = { method: string; path: string; hooks: unknown }
type App = { handle(r: Request): Promise<Response>; routes: Route[] }
let app: App
let cookie: string
let viewerCookie: string
let routes: Route[]

const cookieOf = (portal: { cookies: Map<string, string> }) => [...portal.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

beforeAll(async () => {
	app = (await portalApp()).app as unknown as App
	routes = app.routes
	const ws = await newWorkspace()
	cookie = cookieOf(await signedIn(await newPerson(ws, 'owner')))
	viewerCookie = cookieOf(await signedIn(await newPerson(ws, 'viewer')))
}, 60_000)

const fillPath = (path: string) => path.replace(/:[A-Za-z]+/g, 'x1').replace(/\*/g, 'x')

function headerProblems(res: Response, https: boolean): string[] {
	const h = res.headers
	const problems: string[] = []
	const csp = h.get('content-security-policy') ?? ''
	if (!/frame-ancestors 'none'/.test(csp)) problems.push(`CSP without frame-ancestors 'none': "${csp}"`)
	const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1] ?? ''
	if (!scriptSrc || /unsafe-inline|unsafe-eval|\*/.test(scriptSrc)) problems.push(`script-src allows inline or any script: "${scriptSrc}"`)
	if (h.get('x-content-type-options') !== 'nosniff') problems.push('no X-Content-Type-Options: nosniff')
	if (h.get('x-frame-options') !== 'DENY') problems.push('no X-Frame-Options: DENY')
	if (!h.get('referrer-policy')) problems.push('no Referrer-Policy')
	if (https && !/max-age=\d{7,}/.test(h.get('strict-transport-security') ?? '')) problems.push('no HSTS over https')
	if (!https && h.get('strict-transport-security')) problems.push('HSTS over plain http')
	return problems
}

async function sweep(target: App, origin: string, https: boolean, withCookie: boolean) {
	const problems: string[] = []
	const paths = [
		...routes.map((r) => ({ method: r.method, path: fillPath(r.path) })),
		{ method: 'GET', path: '/no/such/page' },
		{ method: 'GET', path: '/api/v1/no-such' },
		{ method: 'PUT', path: '/api/v1/jobs' },
	]
	for (const { method, path } of paths) {
		const headers: Record<string, string> = { 'x-forwarded-for': uniqueAddress() }
		if (withCookie) headers.cookie = cookie
		const res = await target.handle(new Request(`${origin}${path}`, { method, headers, body: ['GET', 'HEAD', 'OPTIONS'].includes(method) ? undefined : '' }))
		await res.arrayBuffer()
		for (const p of headerProblems(res, https)) problems.push(`${method} ${path} → ${res.status}: ${p}`)
	}
	return problems
}

describe('security headers', () => {
	test('on every route, anonymous and signed in, whatever the status', async () => {
		expect(routes.length).toBeGreaterThan(30)
		expect(await sweep(app, 'http://localhost', false, false)).toEqual([])
		expect(await sweep(app, 'http://localhost', false, true)).toEqual([])
	})

	test('HSTS on every route when the service is served over https', async () => {
		const secure = (await portalApp({ BASE_URL: 'https://jobs.example.test' })).app as unknown as App
		expect(await sweep(secure, 'https://jobs.example.test', true, false)).toEqual([])
	})

	test('the 503 answered while the database is down carries them too', () => {
		for (const path of ['/api/v1/jobs', '/api/mcp', '/careers']) {
			const res = unavailableResponse(new Request(`http://localhost${path}`), securityHeaders(true))
			expect(res.status).toBe(503)
			expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
			expect(headerProblems(res, true)).toEqual([])
		}
	})
})

describe('signed-in pages are never kept by a browser or a proxy', () => {
	test('every answer of every signed-in route says Cache-Control: no-store, whatever the role, method and status', async () => {
		const signedInRoutes = routes.filter((r) => {
			const auth = declaredAuth(r.hooks)
			return auth === 'signed-in' || (typeof auth === 'object' && 'permission' in auth)
		})
		expect(signedInRoutes.length).toBeGreaterThan(40)
		const problems: string[] = []
		const statuses = new Set<number>()
		for (const r of signedInRoutes)
			for (const who of [cookie, viewerCookie]) {
				const res = await app.handle(
					new Request(`http://localhost${fillPath(r.path)}`, {
						method: r.method,
						headers: { 'x-forwarded-for': uniqueAddress(), cookie: who, 'content-type': 'application/x-www-form-urlencoded' },
						body: r.method === 'GET' ? undefined : 'csrf=wrong',
					}),
				)
				await res.arrayBuffer()
				statuses.add(res.status)
				if (!/\bno-store\b/.test(res.headers.get('cache-control') ?? ''))
					problems.push(`${r.method} ${r.path} → ${res.status}: Cache-Control "${res.headers.get('cache-control')}"`)
			}
		// Pages, refusals (a role without the permission, a form without its token: 403) and records out of reach (404).
		for (const status of [200, 403, 404]) expect(statuses).toContain(status)
		expect(problems).toEqual([])
	})
})

describe('declared auth is enforced', () => {
	test('every route that is not public refuses a request without credentials (401, or the sign-in page, or 403 for a form without its token)', async () => {
		const problems: string[] = []
		for (const r of routes) {
			const auth = declaredAuth(r.hooks)
			if (auth === 'public' || r.method === 'OPTIONS') continue
			const res = await app.handle(
				new Request(`http://localhost${fillPath(r.path)}`, {
					method: r.method,
					headers: { 'x-forwarded-for': uniqueAddress(), 'content-type': 'application/json' },
					body: r.method === 'GET' ? undefined : '{}',
				}),
			)
			await res.arrayBuffer()
			const refused = res.status === 401 || res.status === 403 || (res.status === 303 && (res.headers.get('location') ?? '').startsWith('/sign-in'))
			const formGet = auth === 'form' && r.method === 'GET' // an anonymous form page is meant to be shown
			if (!refused && !formGet) problems.push(`${r.method} ${r.path} (${JSON.stringify(auth)}) → ${res.status}`)
		}
		expect(problems).toEqual([])
	})
})
