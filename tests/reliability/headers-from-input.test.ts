/**
 * No input reaches a response header unchecked (issue 26: a NUL in the sign-in `next` answered 500,
 * because the redirect's `Location` could not be built). Every route of the app's route table (so
 * new routes are covered), with the credential it declares, gets hostile text in each path
 * parameter, in `next` and every query parameter it declares, and in the usual form fields: never a
 * 500, no header carries a control character, and every `Location` stays on this site (or is an
 * OAuth redirect the app registered). Then the pages that take a return address are followed to
 * the end with the right password: the hostile `next` lands on the portal.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { declaredAuth } from '../../core/http/auth.ts'
import { safeNext } from '../../core/http/return-address.ts'
import { newPerson, newScimToken, newWorkspace } from '../helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../portal.ts'

setDefaultTimeout(180_000)

type Route = { method: string; path: string; hooks: unknown }
type App = { handle(r: Request): Promise<Response>; routes: Route[] }

/** Text that cannot go into a header as is, or that a browser would read as another site. */
const HOSTILE = [
	'\u0000',
	'/a\u0000b',
	'/\r\nSet-Cookie: stolen=1',
	'/\t/evil.example',
	'/\u007f',
	'/\u0085x',
	'/caf\u00e9',
	'/\u20ac',
	'/\u{1F600}',
	'/\u2028',
	'//evil.example',
	'/\\evil.example',
]

/** The sweep over every route takes one of each kind (a control character, a line break, a character beyond Latin-1, another host). */
const SWEEP = ['/a\u0000b', '/\r\nSet-Cookie: stolen=1', '/\u20ac', '/\u{1F600}', '//evil.example']

const FORM_FIELDS = ['next', 'name', 'email', 'password', 'workspace', 'role', 'state', 'redirect_uri', 'stage', 'status']

/** No control character (C0, DEL, C1), no line break in a header value; a Location stays here. */
function headerProblems(res: { headers: Headers }): string[] {
	const problems: string[] = []
	res.headers.forEach((value, name) => {
		if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) problems.push(`${name} carries a control character: ${JSON.stringify(value)}`)
	})
	const location = res.headers.get('location')
	if (location !== null && !/^\/(?![/\\])[\x21-\x7e]*$/.test(location))
		problems.push(`Location leaves the site or is not plain ASCII: ${JSON.stringify(location)}`)
	return problems
}

let app: App
let owner: { email: string; password: string }
let scimToken: string

beforeAll(async () => {
	app = (await portalApp({ INTERVIEW_WEBHOOK_SECRET: 'reliability-webhook-secret', INBOUND_MAIL_SECRET: 'reliability-inbound-secret' })).app as unknown as App
	const ws = await newWorkspace()
	owner = await newPerson(ws, 'owner')
	scimToken = await newScimToken(ws)
}, 60_000)

describe('return addresses', () => {
	test('only a path on this site in printable ASCII: every control character, space and other character is refused', () => {
		for (let code = 0; code < 0x100; code++) {
			const c = String.fromCharCode(code)
			const expected = code >= 0x21 && code <= 0x7e ? `/a${c}b` : '/portal'
			expect({ code, next: safeNext(`/a${c}b`) }).toEqual({ code, next: expected })
		}
		for (const next of HOSTILE) expect({ next, safe: safeNext(next) }).toEqual({ next, safe: '/portal' })
		for (const next of [undefined, null, 5, '', 'portal', 'https://evil.example/', '/'.padEnd(8001, 'a')]) expect(safeNext(next)).toBe('/portal')
		for (const next of ['/portal', '/jobs/job_1?stage=applied&x=%00', '/oauth/authorize?client_id=c&state=%E2%82%AC', '/']) expect(safeNext(next)).toBe(next)
		expect(safeNext('\u0000', '/sign-in')).toBe('/sign-in')
	})

	test('signing in with a hostile next lands on the portal, never a 500; the sign-in page keeps only a safe next', async () => {
		for (const next of HOSTILE) {
			const client = new PortalClient(app, { address: uniqueAddress() })
			const page = await client.get(`/sign-in?next=${encodeURIComponent(next)}`)
			expect(page.status).toBe(200)
			expect(page.text).toContain('name="next" value="/portal"')
			const res = await client.post('/sign-in', { email: owner.email, password: owner.password, next })
			expect({ next, status: res.status, location: res.headers.get('location') }).toEqual({ next, status: 303, location: '/portal' })
			expect(headerProblems(res)).toEqual([])
		}
	})

	test('Change password and Switch workspace with a hostile next stay on the site', async () => {
		const client = await signedIn(owner)
		for (const next of HOSTILE) {
			const page = await client.get(`/settings/password?next=${encodeURIComponent(next)}`)
			expect(page.status).toBe(200)
			expect(page.text).toContain('name="next" value="/portal"')
			const res = await client.post('/portal/switch-workspace', { workspace: 'no-such-workspace', next })
			expect(res.status).toBeLessThan(500)
			expect(headerProblems(res)).toEqual([])
		}
	})
})

describe('hostile text in every route', () => {
	test('never a 500, no control character in a header, no Location off the site', async () => {
		const routes = app.routes.filter((r) => r.method !== 'OPTIONS')
		expect(routes.length).toBeGreaterThan(60)
		const portal = await signedIn(owner)
		const sessionCookie = [...portal.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
		const anonymous = new PortalClient(app, { address: uniqueAddress() })
		await anonymous.get('/sign-in')
		const anonymousCookie = [...anonymous.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
		const problems: string[] = []
		// Sign-out last: it ends the session the other routes use.
		const ordered = [...routes.filter((r) => r.path !== '/sign-out'), ...routes.filter((r) => r.path === '/sign-out')]
		for (const route of ordered) {
			const auth = declaredAuth(route.hooks)
			const queryNames = Object.keys((route.hooks as { query?: { properties?: object } })?.query?.properties ?? {})
			for (const hostile of SWEEP) {
				const value = encodeURIComponent(hostile)
				const path = route.path.replace(/:[A-Za-z]+/g, value).replace(/\*/g, value)
				const query = [...new Set(['next', ...queryNames])].map((n) => `${n}=${value}`).join('&')
				const headers: Record<string, string> = { 'x-forwarded-for': uniqueAddress() }
				let csrf = ''
				if (auth === 'form') {
					headers.cookie = anonymousCookie
					csrf = anonymous.csrf
				} else if (auth === 'scim') headers.authorization = `Bearer ${scimToken}`
				else if (auth !== 'public' && auth !== 'vendor' && auth !== 'vendor-key' && auth !== 'mcp') {
					headers.cookie = sessionCookie
					csrf = portal.csrf
				}
				let body: string | undefined
				if (route.method !== 'GET' && route.method !== 'HEAD') {
					headers['content-type'] = 'application/x-www-form-urlencoded'
					body = new URLSearchParams([['csrf', csrf], ...FORM_FIELDS.map((f) => [f, hostile])]).toString()
				}
				const res = await app.handle(new Request(`http://localhost${path}?${query}`, { method: route.method, headers, body }))
				const text = await res.text()
				const where = `${route.method} ${route.path} with ${JSON.stringify(hostile)}: ${res.status}`
				if (res.status >= 500) problems.push(`${where} ${text.slice(0, 160)}`)
				if (auth === 'scim' && res.status === 401) problems.push(`${where}: the SCIM token was refused`)
				for (const p of headerProblems(res)) if (!(route.path === '/oauth/authorize' && p.startsWith('Location leaves'))) problems.push(`${where}: ${p}`)
			}
		}
		expect(problems).toEqual([])
	})
})
