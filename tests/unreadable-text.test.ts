/**
 * A query parameter or form field that is no text (a broken %-escape, a lone `%`, escaped bytes that are
 * not UTF-8: an encoded surrogate, an overlong NUL, `%FF`) is refused by one rule (core/app.ts,
 * `unreadableQuery`/`unreadableForm`): every route, found from the route table so a new one is covered
 * the day it is added, answers 400 in its door's format naming the parameter, never a 500, and never
 * shows the text back as if it had been typed. Routes with a format of their own (the careers search and
 * job-alert form, OAuth's endpoints) answer it there.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { AppDeps } from '../core/deps.ts'
import { doorOf } from '../core/http/errors.ts'
import { answersUnreadableTextItself, parsesNothing } from '../core/http/query.ts'
import { authorizationRequest, authServerOn, registerApp, type AS } from './oauth/as-client.ts'
import { newPerson, newScimToken, newVendor, newWorkspace, type TestWorkspace } from './helpers.ts'
import { anonymousVisitor, portalApp, signedIn, type PortalClient } from './portal.ts'

setDefaultTimeout(300_000)

/** A broken escape, a lone `%`, an encoded surrogate, an overlong NUL, a byte that is never UTF-8. */
const UNREADABLE = ['%zz', '%', '%ED%A0%80', '%C0%80', '%FF']

let app: Awaited<ReturnType<typeof portalApp>>['app']
let deps: AppDeps
let ws: TestWorkspace
let owner: PortalClient
let apiKey: string
let scimToken: string

beforeAll(async () => {
	;({ app, deps } = await portalApp())
	ws = await newWorkspace(deps)
	owner = await signedIn(await newPerson(ws, 'owner', {}, deps))
	;({ apiKey } = await newVendor(ws, 'Unreadable Staffing', deps))
	scimToken = await newScimToken(ws)
})

/** The credential each door takes: the vendor's key on the REST API, the SCIM token, the owner's session elsewhere. */
function ask(method: string, path: string, body?: string) {
	const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }
	if (path.startsWith('/scim/')) headers.authorization = `Bearer ${scimToken}`
	else if (path.startsWith('/api/')) headers.authorization = `Bearer ${apiKey}`
	else return owner.request(method, path, { headers, body })
	return app
		.handle(new Request(`http://localhost${path}`, { method, headers, body }))
		.then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }))
}

/** What was sent, in any form a page or an answer could show it: as sent, %-escaped again, or repaired with U+FFFD. */
const echoes = (text: string, value: string) =>
	[`abc${value}`, `abc${value.toLowerCase()}`, `abc${encodeURIComponent(value)}`, 'abc\ufffd', 'x%zz'].some((shown) => text.includes(shown))

/** A route's path with each parameter filled: the test workspace's slug, else an id no record has. */
const pathOf = (template: string) =>
	template
		.replace(/:workspace\b/g, ws.slug)
		.replace(/:[A-Za-z]+/g, 'x1')
		.replace(/\*$/, 'x1')

/** The content type of each door's answer. */
const FORMAT = { page: 'text/html', rest: 'application/json', scim: 'application/scim+json', mcp: 'application/json' } as const
/**
 * The routes that answer in a format of their own (`answersUnreadableText`), and what they say: the careers search
 * on its form; OAuth's authorization endpoint checks the client first (none is named here: its page says so).
 */
const OWN_FORMAT: Record<string, [type: string, says: string]> = {
	'/careers/:workspace': ['text/html', 'could not be read from this address'],
	'/oauth/authorize': ['text/html', 'This app cannot be connected'],
}

describe('every route, from the route table', () => {
	/** What a GET answers that is wrong: a 500, the text shown back, or (`expected`) another status, format or no naming. */
	function queryProblem(route: { path: string; hooks: unknown }, res: { status: number; headers: Headers; text: string }, name: string, value: string) {
		if (echoes(res.text, value)) return 'shown back'
		if (res.status >= 500) return 'a 500'
		// A route that reads no query (the vendor REST API: its GETs are never 400) leaves it alone: compared below.
		if (answersUnreadableTextItself(route.hooks) && !OWN_FORMAT[route.path]) return null
		// A route answering in its own format (the careers search's form, OAuth's page) says it there, by the field's label.
		const own = OWN_FORMAT[route.path]
		const door = own?.[0] ?? FORMAT[doorOf(new URL(pathOf(route.path), 'http://localhost').pathname)]
		if (res.status !== 400 || !res.headers.get('content-type')?.startsWith(door)) return 'not a 400 in its door’s format'
		return res.text.includes(own?.[1] ?? `${name} could not be read`) ? null : 'not named'
	}

	test('a query parameter that is no text: 400 in the door’s format naming it, never a 500, never shown back', async () => {
		const routes = app.routes.filter((r) => r.method === 'GET')
		expect(routes.length).toBeGreaterThan(100)
		const wrong: string[] = []
		for (const route of routes) {
			const plain = answersUnreadableTextItself(route.hooks) && !OWN_FORMAT[route.path] ? (await ask('GET', pathOf(route.path))).status : null
			for (const value of UNREADABLE)
				for (const name of ['q', 'status', 'cursor']) {
					const path = `${pathOf(route.path)}?${name}=abc${value}&x${value}=1`
					const res = await ask('GET', path)
					const problem = queryProblem(route, res, name, value) ?? (plain !== null && res.status !== plain ? `${plain} without it` : null)
					if (problem) wrong.push(`${res.status} ${path}: ${problem}`)
				}
		}
		expect(wrong).toEqual([])
	})

	test('a form field that is no text: 400 in the door’s format naming it, never a 500, never shown back', async () => {
		const routes = app.routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
		expect(routes.length).toBeGreaterThan(50)
		const wrong: string[] = []
		for (const route of routes)
			for (const value of UNREADABLE) {
				const path = pathOf(route.path)
				const res = await ask(route.method, path, `csrf=${owner.csrf}&q=abc${value}&email=a%40example.com`)
				// A route that reads its body itself (parse: 'none': the APIs, SCIM, MCP, one-click unsubscribe) refuses a form
				// it does not take in its own format; OAuth's token and revocation endpoints say invalid_request.
				const own = parsesNothing(route.hooks)
				const refused = own ? res.status >= 400 && (res.status < 500 || res.status === 503) : res.status === 400 && res.text.includes('q could not be read')
				// The job-alert form answers on itself, after its own token is checked (the owner's is not one of its): tested below.
				if (route.path === '/careers/:workspace/alerts' && res.status === 403) continue
				if (!refused || echoes(res.text, value)) wrong.push(`${res.status} ${route.method} ${path} ${value}${echoes(res.text, value) ? ' (shown back)' : ''}`)
			}
		expect(wrong).toEqual([])
	})
})

describe('each door’s own answer', () => {
	test('a list page and a search page: the error page names the parameter and says what to do', async () => {
		for (const path of ['/jobs?q=java%zz&location=Austin', '/search?q=%ED%A0%80', '/candidates?q=%C0%80', '/audit?record=%FF', '/outbox?status=%']) {
			const res = await owner.get(path)
			const name = new URLSearchParams(path.split('?')[1]!.replace(/%[^&]*/g, '')).keys().next().value
			expect([path, res.status]).toEqual([path, 400])
			expect(res.text).toContain(`${name} could not be read from this address (a broken %-escape)`)
			expect(res.text).toContain('<title>Please check your input')
		}
		// The page leads to the same address without the part that cannot be read, the rest as asked.
		const refused = await owner.get('/candidates?stage=new&q=ada%zz&x=caf%C3%A9')
		expect(refused.text).toContain('<a href="/candidates?stage=new&amp;x=caf%C3%A9">Open this page without it</a>')
		// Text that decodes is still the page's to read: a typed "%zz" arrives as %25zz.
		expect((await owner.get('/jobs?q=%25zz')).status).toBe(200)
		// Refused before anything else is asked: the same answer signed out (it says nothing of the page).
		expect((await anonymousVisitor('/candidates?q=%zz')).status).toBe(400)
	})

	test('the JSON doors answer JSON naming the parameter; SCIM its error, invalidFilter for a filter; the vendor API, which reads no query, leaves it alone', async () => {
		const api = await ask('GET', '/api/v1/openapi.json?cursor=%zz')
		const vendor = await ask('GET', '/api/v1/jobs?cursor=%zz')
		expect([vendor.status, JSON.parse(vendor.text)]).toEqual([200, { jobs: [] }])
		const health = await ask('GET', '/health?cursor=%zz')
		expect([health.status, JSON.parse(health.text)]).toEqual([
			400,
			{ error: expect.any(String), fields: [{ field: 'cursor', message: 'cursor could not be read from this address (a broken %-escape)' }] },
		])
		expect(api.status).toBe(200)
		const filter = await ask('GET', '/scim/v2/Users?filter=userName%20eq%20%22a%ED%A0%80%22')
		expect([filter.status, JSON.parse(filter.text)]).toEqual([
			400,
			expect.objectContaining({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidFilter' }),
		])
		const other = await ask('GET', '/scim/v2/Users?startIndex=%zz')
		expect([other.status, JSON.parse(other.text).scimType]).toEqual([400, 'invalidValue'])
	})

	test('OAuth /authorize: a trusted client gets invalid_request at its redirect (state only when readable); an untrusted one our page', async () => {
		const ctx: AS = await authServerOn(app, deps)
		const { client, redirectUri } = await registerApp(ctx)
		const request = await authorizationRequest(ctx, client, redirectUri)
		const asked = (extra: string) => owner.get(`${request.url.pathname}${request.url.search}${extra}`)
		const scope = await owner.get(`${request.url.pathname}${request.url.search.replace(/scope=mcp/, 'scope=mcp%zz')}`)
		const back = new URL(scope.headers.get('location')!)
		expect([scope.status, back.origin + back.pathname, back.searchParams.get('error'), back.searchParams.get('state')]).toEqual([
			303,
			redirectUri,
			'invalid_request',
			request.state,
		])
		expect(back.searchParams.get('error_description')).toBe('scope could not be read from this address (a broken %-escape)')
		const state = await owner.get(`${request.url.pathname}${request.url.search.replace(/state=[^&]*/, 'state=%ED%A0%80')}`)
		const stateBack = new URL(state.headers.get('location')!)
		expect([stateBack.searchParams.get('error'), stateBack.searchParams.has('state')]).toEqual(['invalid_request', false])
		for (const broken of [request.url.search.replace(/client_id=/, 'client_id=%zz'), request.url.search.replace(/redirect_uri=/, 'redirect_uri=%C0%80')]) {
			const page = await owner.get(`${request.url.pathname}${broken}`)
			expect([page.status, page.headers.get('location')]).toEqual([400, null])
			expect(page.text).toContain('could not be read from this address')
		}
		const token = await app.handle(
			new Request('http://localhost/oauth/token', {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: `grant_type=authorization_code&code=%zz&client_id=${client.client_id}`,
			}),
		)
		expect([token.status, await token.json()]).toEqual([
			400,
			{ error: 'invalid_request', error_description: 'code could not be read from this form (a broken %-escape)' },
		])
		expect((await asked('')).status).toBe(200)
	})
})

describe('forms', () => {
	test('the job-alert form refuses a field that cannot be read on the form itself, keeps the rest, and stores nothing', async () => {
		const visitor = await anonymousVisitor(`/careers/${ws.slug}`)
		const csrf = /name="csrf" value="([^"]*)"/.exec(visitor.page)![1]!
		const post = (body: string) =>
			app.handle(
				new Request(`http://localhost/careers/${ws.slug}/alerts`, {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie, 'x-forwarded-for': '10.9.8.7' },
					body: `csrf=${encodeURIComponent(csrf)}&${body}`,
				}),
			)
		const res = await post('q=java%zz&location=Austin&email=kept%40example.com')
		const text = await res.text()
		expect(res.status).toBe(400)
		expect(text).toContain('Keywords could not be read from this form (a broken %-escape): type it again')
		expect(text).toContain('value="Austin"')
		expect(text).not.toContain('java%zz')
		expect(text).not.toContain('Check your inbox')
		const email = await post('q=java&email=a%ED%A0%80%40example.com')
		const emailText = await email.text()
		expect(email.status).toBe(422)
		expect(emailText).toContain('Your e-mail address could not be read from this form')
		expect(emailText).toContain('value="java"')
		expect(emailText).not.toContain('Check your inbox')
	})

	test('a portal form: the error names the field and nothing is made', async () => {
		await owner.get('/todos')
		const made = await owner.request('POST', '/todos', {
			body: `csrf=${encodeURIComponent(owner.csrf)}&title=Call%20back%zz`,
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect(made.status).toBe(400)
		expect(made.text).toContain('title could not be read from this form (a broken %-escape)')
		expect(made.text).not.toContain('back%zz')
		// Bytes that are not UTF-8, sent unescaped, are refused alike, never stored as U+FFFD.
		const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
		const bytes = new Uint8Array([...new TextEncoder().encode(`csrf=${encodeURIComponent(owner.csrf)}&title=Caf`), 0xe9])
		const raw = await app.handle(
			new Request('http://localhost/todos', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: bytes }),
		)
		expect([raw.status, (await raw.text()).includes('title could not be read from this form')]).toEqual([400, true])
		const list = (await owner.get('/todos')).text
		expect([list.includes('Call back'), list.includes('Caf\ufffd')]).toEqual([false, false])
	})
})
