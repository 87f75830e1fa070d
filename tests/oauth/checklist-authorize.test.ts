/**
 * Security checklist rows C1–C15: the authorization endpoint and the consent page, driven by
 * oauth4webapi (request building, `validateAuthResponse` for state and iss) and a signed-in portal
 * session.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import * as oauth from 'oauth4webapi'
import { oauthCodes } from '../../modules/auth/table.ts'
import { PortalClient, portalApp, uniqueAddress } from '../portal.ts'
import { CONSENT_TTL_MS } from '../../modules/auth/oauth/consent.ts'
import { clock } from '../helpers.ts'
import { authorizationRequest, authServer, consent, consentToken, registerApp, signedInPerson } from './as-client.ts'

// Under load the first request also pays for the database start; the CLI default (5 s) is too short.
setDefaultTimeout(60_000)

const codesOf = async (clientId: string) => (await authServer()).deps.db.select().from(oauthCodes).where(eq(oauthCodes.clientId, clientId))

/** An error page of our own: 400 HTML, and no Location (never a redirect). */
function expectErrorPage(res: { status: number; headers: Headers; text: string }) {
	expect(res.status).toBe(400)
	expect(res.headers.get('location')).toBeNull()
	expect(res.headers.get('content-type')).toContain('text/html')
	expect(res.text).toContain('cannot be connected')
}

describe('C. authorization endpoint and consent', () => {
	test('C1/C2 exact redirect match (loopback may change port); unknown client or redirect is an error page, never a redirect', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const web = await registerApp(ctx, { redirect_uris: ['https://a.example/cb'] })
		for (const uri of [
			'https://a.example/cb/',
			'https://a.example/CB',
			'https://a.example/cb?x=1',
			'https://a.example/cb#f',
			'https://a.example/cb/../evil',
			'https://a.example%2Fcb',
			'HTTPS://A.EXAMPLE/cb',
			'https://a.example.evil/cb',
			'http://a.example/cb',
		]) {
			const { url } = await authorizationRequest(ctx, web.client, uri)
			expectErrorPage(await who.portal.get(url.pathname + url.search))
		}
		const loop = await registerApp(ctx, { redirect_uris: ['http://127.0.0.1:3000/cb'] })
		for (const uri of [
			'http://127.0.0.1:51004/cb2',
			'http://localhost:51004/cb',
			'http://[::1]:51004/cb',
			'http://127.0.0.1:51004/./cb',
			'http://x@127.0.0.1:51004/cb',
			'http://127.0.0.1:99999/cb',
			'http://127.0.0.1:51004/cb#x',
		]) {
			const { url } = await authorizationRequest(ctx, loop.client, uri)
			expectErrorPage(await who.portal.get(url.pathname + url.search))
		}
		const ok = await authorizationRequest(ctx, loop.client, 'http://127.0.0.1:51004/cb')
		const allowed = await consent(who.portal, ok.url)
		expect(allowed.status).toBe(303)
		expect(allowed.location!.origin + allowed.location!.pathname).toBe('http://127.0.0.1:51004/cb')
		// Unknown client; missing redirect with several registered; duplicated client_id or redirect_uri.
		const unknown = await authorizationRequest(ctx, { client_id: 'cli_unknown' }, 'https://a.example/cb')
		expectErrorPage(await who.portal.get(unknown.url.pathname + unknown.url.search))
		// A NUL character in any parameter (the database cannot hold it): the same page, not a raw 422.
		for (const extra of [{ client_id: 'cli\u0000x' }, { state: 'a\u0000b' }, { 'x\u0000': '1' }] as Record<string, string>[]) {
			const nul = await authorizationRequest(ctx, web.client, 'https://a.example/cb', extra)
			const page = await who.portal.get(nul.url.pathname + nul.url.search)
			expectErrorPage(page)
			expect(page.text).toContain('cannot be used')
		}
		const nulConsent = await who.portal.post('/oauth/authorize', { request: 'client_id=cli%00x', consent: 'a'.repeat(32), decision: 'allow' })
		expect(nulConsent.status).toBe(403)
		const two = await registerApp(ctx, { redirect_uris: ['https://a.example/1', 'https://a.example/2'] })
		const missing = await authorizationRequest(ctx, two.client, 'https://a.example/1', { redirect_uri: null })
		expectErrorPage(await who.portal.get(missing.url.pathname + missing.url.search))
		const dup = await authorizationRequest(ctx, web.client, 'https://a.example/cb')
		expectErrorPage(await who.portal.get(`${dup.url.pathname}${dup.url.search}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`))
		expectErrorPage(await who.portal.get(`${dup.url.pathname}${dup.url.search}&client_id=${loop.client.client_id}`))
		// Not signed in: the same answers (nothing about the client is trusted yet).
		expectErrorPage(
			await (async () => {
				const r = await ctx.http(unknown.url.pathname + unknown.url.search)
				return { status: r.status, headers: r.headers, text: await r.text() }
			})(),
		)
	})

	test('C3 nothing goes back to the app before sign-in, errors included (no open redirector for anonymous visitors)', async () => {
		const ctx = await authServer()
		const attacker = await registerApp(ctx, { redirect_uris: ['https://attacker.example/cb'] })
		// A request that can succeed goes to sign-in (any scope the metadata lists, or none).
		for (const extra of [{ scope: 'mcp mcp:read' }, { scope: 'mcp:read' }, { scope: null }, {}] as Record<string, string | null>[]) {
			const { url } = await authorizationRequest(ctx, attacker.client, 'https://attacker.example/cb', extra)
			const res = await ctx.http(url.pathname + url.search)
			expect(res.status).toBe(303)
			const to = new URL(res.headers.get('location')!, ctx.base)
			expect(to.origin).toBe(ctx.base)
			expect(to.pathname).toBe('/sign-in')
			expect(to.searchParams.get('next')).toBe(url.pathname + url.search)
		}
	})

	test('every check that does not need the person comes before sign-in: an anonymous visitor gets our error page at once, never a redirect (issue 16 item 10)', async () => {
		const ctx = await authServer()
		const { client, redirectUri } = await registerApp(ctx, { redirect_uris: ['https://attacker.example/cb'] })
		const cases: [Record<string, string | null>, RegExp][] = [
			[{ code_challenge_method: 'plain' }, /code_challenge_method must be S256/],
			[{ code_challenge_method: null }, /code_challenge_method must be S256/],
			[{ code_challenge: null }, /PKCE is required/],
			[{ code_challenge: 'short' }, /code_challenge must be 43-128 characters/],
			[{ response_type: 'token' }, /Only response_type=code/],
			[{ response_type: null }, /response_type is required/],
			[{ resource: 'https://other.example/api/mcp' }, /invalid_target/],
			// An unknown scope is refused, as at refresh: dropped, a mistyped mcp:readonly would be full access.
			[{ scope: 'mcp:readonly' }, /Unknown scope mcp:readonly: this server issues mcp and mcp:read \(invalid_scope\)/],
			[{ scope: 'mcp:read bogus' }, /invalid_scope/],
		]
		for (const [extra, why] of cases) {
			const { url } = await authorizationRequest(ctx, client, redirectUri, extra)
			const res = await ctx.http(url.pathname + url.search)
			const page = { status: res.status, headers: res.headers, text: await res.text() }
			expectErrorPage(page)
			expect({ extra, why: why.test(page.text) }).toEqual({ extra, why: true })
			expect(page.text).toContain('signing in would not help')
		}
		const twice = await authorizationRequest(ctx, client, redirectUri)
		const res = await ctx.http(`${twice.url.pathname}${twice.url.search}&state=second`)
		expectErrorPage({ status: res.status, headers: res.headers, text: await res.text() })
		expect(await codesOf(client.client_id)).toHaveLength(0)
	})

	test('C4/C5/C6 PKCE S256 required, response_type=code only, repeated parameters and unknown scopes refused: error redirects with state and iss, no code', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		const cases: [Record<string, string | null>, string][] = [
			[{ code_challenge: null }, 'invalid_request'],
			[{ code_challenge_method: null }, 'invalid_request'],
			[{ code_challenge_method: 'plain' }, 'invalid_request'],
			[{ code_challenge: 'short' }, 'invalid_request'],
			[{ code_challenge: 'a'.repeat(129) }, 'invalid_request'],
			[{ code_challenge: `${'a'.repeat(42)}+` }, 'invalid_request'],
			[{ response_type: 'token' }, 'unsupported_response_type'],
			[{ response_type: 'id_token' }, 'unsupported_response_type'],
			[{ response_type: 'code token' }, 'unsupported_response_type'],
			[{ response_type: null }, 'invalid_request'],
			[{ scope: 'mcp:readonly' }, 'invalid_scope'],
			[{ scope: 'openid mcp' }, 'invalid_scope'],
		]
		for (const [extra, error] of cases) {
			const request = await authorizationRequest(ctx, client, redirectUri, extra)
			const res = await who.portal.get(request.url.pathname + request.url.search)
			expect(res.status).toBe(303)
			const location = new URL(res.headers.get('location')!)
			expect(location.origin + location.pathname).toBe(redirectUri)
			expect(() => oauth.validateAuthResponse(ctx.as, client, location, request.state)).toThrow(oauth.AuthorizationResponseError)
			expect(location.searchParams.get('error')).toBe(error)
			expect(location.searchParams.get('state')).toBe(request.state)
			expect(location.searchParams.get('iss')).toBe(ctx.base)
			expect(location.searchParams.get('error_description')).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/)
		}
		const dup = await authorizationRequest(ctx, client, redirectUri)
		const res = await who.portal.get(`${dup.url.pathname}${dup.url.search}&state=second`)
		expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request')
		expect(await codesOf(client.client_id)).toHaveLength(0)
	})

	test('C7 resource: absent defaults to our MCP address, spelling variants tolerated, anything else invalid_target', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		for (const resource of [null, ctx.resource, `${ctx.resource}/`, ctx.resource.replace('http://localhost', 'HTTP://LOCALHOST')]) {
			const request = await authorizationRequest(ctx, client, redirectUri, { resource })
			const { location } = await consent(who.portal, request.url)
			expect(oauth.validateAuthResponse(ctx.as, client, location!, request.state).get('code')).toMatch(/^bl_code_/)
		}
		const [code] = await codesOf(client.client_id)
		expect(code!.resource).toBe(ctx.resource)
		for (const resource of [
			'https://other.example/api/mcp',
			'/api/mcp',
			`${ctx.resource}#x`,
			`${ctx.resource}?x=1`,
			ctx.base,
			`${ctx.base}/api/v1`,
			'not a url',
		]) {
			const request = await authorizationRequest(ctx, client, redirectUri, { resource })
			const res = await who.portal.get(request.url.pathname + request.url.search)
			const location = new URL(res.headers.get('location')!)
			expect({ resource, error: location.searchParams.get('error') }).toEqual({ resource, error: 'invalid_target' })
			expect(location.searchParams.get('iss')).toBe(ctx.base)
		}
	})

	test('C8 state comes back byte for byte (long, unicode, reserved characters) on success and on error; iss equals the issuer', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		const state = `ü 😀 +%&#=?/${'x'.repeat(2000)}`
		const ok = await authorizationRequest(ctx, client, redirectUri, { state })
		const { location } = await consent(who.portal, ok.url)
		const params = oauth.validateAuthResponse(ctx.as, client, location!, state)
		expect(location!.searchParams.getAll('state')).toEqual([state])
		expect(location!.searchParams.getAll('iss')).toEqual([ctx.base])
		expect(location!.searchParams.getAll('code')).toHaveLength(1)
		expect(params.get('code')).toBeTruthy()
		const cancelled = await consent(who.portal, (await authorizationRequest(ctx, client, redirectUri, { state })).url, { decision: 'cancel' })
		expect(cancelled.location!.searchParams.getAll('state')).toEqual([state])
		expect(cancelled.location!.searchParams.getAll('iss')).toEqual([ctx.base])
	})

	test('C9/C11/C12 consent names the app (unverified) and the redirect host; no framing, no caching, no referrer, nothing external', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const a = await registerApp(ctx, { client_name: 'Same Name', redirect_uris: ['https://one.example/cb'] })
		const b = await registerApp(ctx, { client_name: 'Same Name', redirect_uris: ['https://two.example/cb'] })
		const allowedA = await consent(who.portal, (await authorizationRequest(ctx, a.client, a.redirectUri)).url)
		expect(allowedA.status).toBe(303)
		// Consent is per client: B, with the same name, is asked for again and shows its own host.
		const page = await who.portal.get(
			(await authorizationRequest(ctx, b.client, b.redirectUri)).url.pathname + (await authorizationRequest(ctx, b.client, b.redirectUri)).url.search,
		)
		expect(page.status).toBe(200)
		expect(page.text).toContain('Same Name')
		expect(page.text).toContain('two.example')
		expect(page.text).not.toContain('one.example')
		expect(page.text).toContain('has not verified')
		expect(page.text).toMatch(/<button[^>]*value="allow"[^>]*>Allow<\/button>/)
		expect(page.text).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/)
		expect(page.text).toMatch(/<input type="checkbox" name="read_only" value="1">/)
		expect(page.text).not.toMatch(/(src|href|action)="(https?:)?\/\//)
		const errorPage = await who.portal.get('/oauth/authorize?client_id=nobody')
		const signIn = await ctx.http('/sign-in')
		for (const res of [page, errorPage, signIn]) {
			expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
			expect(res.headers.get('x-frame-options')).toBe('DENY')
			expect(res.headers.get('referrer-policy')).toBe('no-referrer')
		}
		for (const res of [page, errorPage]) expect(res.headers.get('cache-control')).toContain('no-store')
	})

	test('C10 consent POST needs the session CSRF token and a same-site origin; forged posts mint no code', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const other = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		const { url } = await authorizationRequest(ctx, client, redirectUri)
		await who.portal.get(url.pathname + url.search)
		const request = url.search.slice(1)
		expect((await who.portal.post('/oauth/authorize', { request, decision: 'allow', csrf: '' })).status).toBe(403)
		await other.portal.get(url.pathname + url.search)
		expect((await who.portal.post('/oauth/authorize', { request, decision: 'allow', csrf: other.portal.csrf })).status).toBe(403)
		expect((await who.portal.post('/oauth/authorize', { request, decision: 'allow' }, { origin: 'https://evil.example' })).status).toBe(403)
		const anonymous = await ctx.http('/oauth/authorize', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ request, decision: 'allow', csrf: who.portal.csrf }).toString(),
		})
		expect(anonymous.headers.get('location')).toBeNull()
		expect(await codesOf(client.client_id)).toHaveLength(0)
		// The session cookie: HttpOnly, SameSite=Lax (Secure and __Host- when served over https).
		const browser = new PortalClient((await portalApp()).app, { address: uniqueAddress() })
		const signIn = await browser.signIn(who.person.email, who.person.password)
		const cookie = signIn.setCookies.find((line) => line.startsWith('bl_session='))!
		expect(cookie).toMatch(/;\s*HttpOnly/i)
		expect(cookie).toMatch(/;\s*SameSite=Lax/i)
		expect(cookie).toMatch(/;\s*Path=\//i)
	})

	test('C10 the consent form token is one-time and bound to the session and the request: a replayed Allow or Cancel is 403 and mints no second code', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const other = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		const open = async (portal: PortalClient) => {
			const { url } = await authorizationRequest(ctx, client, redirectUri)
			const page = await portal.get(url.pathname + url.search)
			expect(page.status).toBe(200)
			return { request: url.search.slice(1), consent: consentToken(page.text), csrf: portal.csrf }
		}
		const a = await open(who.portal)
		const allowed = await who.portal.post('/oauth/authorize', { ...a, decision: 'allow' })
		expect(allowed.status).toBe(303)
		expect(new URL(allowed.headers.get('location')!).searchParams.get('code')).toStartWith('bl_code_')
		expect(await codesOf(client.client_id)).toHaveLength(1)
		// The same post again (same session, session token, form token and request): refused, no second code.
		const replay = await who.portal.post('/oauth/authorize', { ...a, decision: 'allow' })
		expect(replay.status).toBe(403)
		expect(replay.headers.get('location')).toBeNull()
		expect(await codesOf(client.client_id)).toHaveLength(1)
		// A form token from another request of the same session: refused, and that page still works.
		const b = await open(who.portal)
		const c = await open(who.portal)
		expect((await who.portal.post('/oauth/authorize', { ...c, consent: b.consent, decision: 'allow' })).status).toBe(403)
		expect(await codesOf(client.client_id)).toHaveLength(1)
		// A form token (and request) another session was shown: refused.
		const theirs = await open(other.portal)
		expect((await who.portal.post('/oauth/authorize', { ...theirs, csrf: who.portal.csrf, decision: 'allow' })).status).toBe(403)
		expect(await codesOf(client.client_id)).toHaveLength(1)
		// No form token at all (an old page, or a hand-made post with the session token): refused.
		expect((await who.portal.post('/oauth/authorize', { request: c.request, csrf: c.csrf, decision: 'allow' })).status).toBe(403)
		expect((await who.portal.post('/oauth/authorize', { ...b, decision: 'allow' })).status).toBe(303)
		expect(await codesOf(client.client_id)).toHaveLength(2)
		// Cancel uses the token up too: Allow with it afterwards is refused.
		expect((await who.portal.post('/oauth/authorize', { ...c, decision: 'cancel' })).status).toBe(303)
		expect((await who.portal.post('/oauth/authorize', { ...c, decision: 'allow' })).status).toBe(403)
		expect(await codesOf(client.client_id)).toHaveLength(2)
		// A consent page left open longer than CONSENT_TTL_MS no longer answers.
		const late = await open(who.portal)
		clock.advance(CONSENT_TTL_MS + 1000)
		try {
			expect((await who.portal.post('/oauth/authorize', { ...late, decision: 'allow' })).status).toBe(403)
		} finally {
			clock.reset()
		}
		expect(await codesOf(client.client_id)).toHaveLength(2)
		// The other person's page is unaffected by the attempt and answers once for them.
		expect((await other.portal.post('/oauth/authorize', { ...theirs, decision: 'allow' })).status).toBe(303)
		expect(await codesOf(client.client_id)).toHaveLength(3)
	})

	test('C13/C14 the consent answer is a 303; Cancel sends access_denied with state and iss, and no code', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		const request = await authorizationRequest(ctx, client, redirectUri)
		const cancelled = await consent(who.portal, request.url, { decision: 'cancel' })
		expect(cancelled.status).toBe(303)
		expect(cancelled.location!.origin + cancelled.location!.pathname).toBe(redirectUri)
		expect(cancelled.location!.searchParams.get('error')).toBe('access_denied')
		expect(cancelled.location!.searchParams.get('state')).toBe(request.state)
		expect(cancelled.location!.searchParams.get('iss')).toBe(ctx.base)
		expect(cancelled.location!.searchParams.has('code')).toBe(false)
		expect(await codesOf(client.client_id)).toHaveLength(0)
		const allowed = await consent(who.portal, (await authorizationRequest(ctx, client, redirectUri)).url)
		expect(allowed.status).toBe(303)
	})
})
