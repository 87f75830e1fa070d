/**
 * Security checklist rows A–C (../shared/reference/security-checklist.md) driven by oauth4webapi:
 * discovery metadata, dynamic client registration, the authorization endpoint and consent page.
 * Rows D–H (tokens, refresh, revocation, resource server, credential storage) are in
 * checklist-tokens.test.ts.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import * as oauth from 'oauth4webapi'
import { oauthClients } from '../../modules/auth/table.ts'
import { uniqueAddress } from '../portal.ts'
import { awayFromMinuteEdge } from '../helpers.ts'
import { authorizationRequest, authServer, LOOPBACK_REDIRECT, mcp, registerApp, registerRaw, signedInPerson } from './as-client.ts'

// Under load the first request also pays for the database start; the CLI default (5 s) is too short.
setDefaultTimeout(60_000)

const ORIGIN = 'https://assistant.example'

describe('A. discovery and metadata', () => {
	test('A1 protected resource metadata at the root and path-inserted addresses, resource exactly BASE_URL/api/mcp', async () => {
		const ctx = await authServer()
		const docs = []
		for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
			const res = await ctx.http(path)
			expect(res.status).toBe(200)
			expect(res.headers.get('content-type')).toContain('application/json')
			docs.push(await res.json())
		}
		expect(docs[0]).toEqual(docs[1])
		expect(docs[0].resource).toBe(`${ctx.base}/api/mcp`)
		expect(docs[0].authorization_servers).toEqual([ctx.base])
		expect(docs[0].bearer_methods_supported).toEqual(['header'])
		expect(docs[0].scopes_supported).not.toContain('offline_access')
		// oauth4webapi's own RFC 9728 check (path-inserted address, resource must match byte for byte).
		const rs = await oauth.processResourceDiscoveryResponse(new URL(ctx.resource), await oauth.resourceDiscoveryRequest(new URL(ctx.resource), ctx.opts))
		expect(rs.resource).toBe(ctx.resource)
	})

	test('A2 /api/mcp without credentials: 401 JSON pointing at the resource metadata', async () => {
		const ctx = await authServer()
		for (const method of ['initialize', 'tools/list']) {
			const res = await mcp(
				ctx,
				null,
				method,
				method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } : {},
			)
			expect(res.status).toBe(401)
			expect(res.headers.get('www-authenticate')).toContain(`Bearer resource_metadata="${ctx.base}/.well-known/oauth-protected-resource"`)
			expect(res.headers.get('content-type')).toContain('application/json')
			expect(JSON.stringify(res.message ?? {})).not.toContain('list_jobs')
		}
	})

	test('A3 authorization server metadata is exact; issuer equals the base URL', async () => {
		const ctx = await authServer()
		const res = await ctx.http('/.well-known/oauth-authorization-server')
		expect(res.headers.get('content-type')).toContain('application/json')
		const m = await res.json()
		expect(m.issuer).toBe(ctx.base)
		expect(m).toMatchObject({
			authorization_endpoint: `${ctx.base}/oauth/authorize`,
			token_endpoint: `${ctx.base}/oauth/token`,
			registration_endpoint: `${ctx.base}/oauth/register`,
			revocation_endpoint: `${ctx.base}/oauth/revoke`,
			response_types_supported: ['code'],
			grant_types_supported: ['authorization_code', 'refresh_token'],
			code_challenge_methods_supported: ['S256'],
			token_endpoint_auth_methods_supported: ['none'],
			revocation_endpoint_auth_methods_supported: ['none'],
			authorization_response_iss_parameter_supported: true,
			// Clients may be known by their metadata document (tests/oauth/client-metadata.test.ts).
			client_id_metadata_document_supported: true,
		})
		expect(ctx.as.issuer).toBe(ctx.base)
	})

	test('CORS on metadata, registration, token and revocation (preflights too); on /api/mcp 401s with WWW-Authenticate exposed; none on /oauth/authorize', async () => {
		const ctx = await authServer()
		const o = { origin: ORIGIN }
		for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-authorization-server']) {
			const res = await ctx.http(path, { headers: o })
			expect(res.headers.get('access-control-allow-origin')).toBe('*')
		}
		for (const path of ['/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/token', '/oauth/revoke']) {
			const pre = await ctx.http(path, {
				method: 'OPTIONS',
				headers: { ...o, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
			})
			expect(pre.status).toBe(204)
			expect(pre.headers.get('access-control-allow-origin')).toBe('*')
		}
		const reg = await ctx.http('/oauth/register', {
			method: 'POST',
			headers: { ...o, 'content-type': 'application/json', 'x-forwarded-for': uniqueAddress() },
			body: JSON.stringify({ redirect_uris: [LOOPBACK_REDIRECT] }),
		})
		expect(reg.status).toBe(201)
		expect(reg.headers.get('access-control-allow-origin')).toBe('*')
		for (const path of ['/oauth/token', '/oauth/revoke']) {
			const res = await ctx.http(path, {
				method: 'POST',
				headers: { ...o, 'content-type': 'application/x-www-form-urlencoded' },
				body: 'grant_type=authorization_code',
			})
			expect(res.headers.get('access-control-allow-origin')).toBe('*')
		}
		// /api/mcp: our own origin (and ALLOWED_ORIGINS) get CORS on the 401; a foreign browser origin is refused.
		const own = await mcp(ctx, null, 'tools/list', {}, { origin: ctx.base })
		expect(own.status).toBe(401)
		expect(own.headers.get('access-control-allow-origin')).toBe(ctx.base)
		expect(own.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate')
		expect((await mcp(ctx, null, 'tools/list', {}, { origin: 'https://evil.example' })).status).toBe(403)
		const pre = await ctx.http('/api/mcp', {
			method: 'OPTIONS',
			headers: { origin: ctx.base, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
		})
		expect(pre.status).toBe(204)
		expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization')
		// C15: the authorization endpoint has none, for GET or a preflight.
		for (const method of ['GET', 'OPTIONS']) {
			const res = await ctx.http('/oauth/authorize?client_id=x', { method, headers: { ...o, 'access-control-request-method': 'GET' } })
			expect(res.headers.get('access-control-allow-origin')).toBeNull()
		}
	})
})

describe('B. dynamic client registration', () => {
	test('B1/B3 a secret-based method is registered as none and the answer says so; client-chosen id and secret are ignored', async () => {
		const ctx = await authServer()
		for (const method of ['client_secret_post', 'client_secret_basic', 'private_key_jwt', undefined, 'none']) {
			const res = await registerRaw(ctx, {
				client_name: 'Claude',
				redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
				token_endpoint_auth_method: method,
				client_id: 'mine',
				client_secret: 's3cret',
				application_type: 'web',
				scope: 'mcp',
				logo_uri: 'http://169.254.169.254/',
			})
			expect(res.status).toBe(201)
			expect(res.headers.get('cache-control')).toContain('no-store')
			expect(res.json.token_endpoint_auth_method).toBe('none')
			expect(res.json.client_secret).toBeUndefined()
			expect(res.json.client_id).not.toBe('mine')
			expect(typeof res.json.client_id_issued_at).toBe('number')
			if (method && method !== 'none') expect(res.json.notices.join(' ')).toContain('public client')
			else expect(res.json.notices).toBeUndefined()
		}
		// oauth4webapi accepts the answer as a registration.
		const { client } = await registerApp(ctx, { token_endpoint_auth_method: 'client_secret_post' })
		expect(client.token_endpoint_auth_method).toBe('none')
	})

	test('B2 redirect rules: https, or http on localhost/127.0.0.1 with any port; everything else refused', async () => {
		const ctx = await authServer()
		const good = ['https://a.example/cb', 'http://127.0.0.1/cb', 'http://localhost:8080/cb', 'http://127.0.0.1:33418/', 'https://a.example/cb?x=1']
		const bad = [
			'http://a.example/cb',
			'http://127.0.0.1.evil.example/cb',
			'http://localhost@evil.example/cb',
			'https://a.example/cb#x',
			'https://*.a.example/cb',
			'javascript:alert(1)',
			'data:text/html,hi',
			'file:///etc/passwd',
			'com.app:/cb',
			'cursor://anysphere.cursor-mcp/oauth/callback',
			'http://[::1]/cb',
			'/cb',
			'https:///cb',
			'https://a.example\\cb',
			'https://a.exa\nmple/cb',
			`https://a.example/${'x'.repeat(5000)}`,
			42,
			// Shown on the consent page: a right-to-left override makes it read …/exe.jpg.
			'https://evil.example/\u202egpj.exe',
			'https://a.example/c\u200bb',
		]
		for (const uri of good) {
			const res = await registerRaw(ctx, { redirect_uris: [uri] })
			expect({ uri, status: res.status }).toEqual({ uri, status: 201 })
			expect(res.json.redirect_uris).toEqual([uri])
		}
		for (const uri of bad) {
			const res = await registerRaw(ctx, { redirect_uris: [uri] })
			expect({ uri, status: res.status, error: res.json?.error }).toEqual({ uri, status: 400, error: 'invalid_redirect_uri' })
		}
		// Invalid addresses are dropped when valid ones remain (Cursor sends a cursor:// one with its loopback one).
		const mixed = await registerRaw(ctx, {
			redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'],
		})
		expect(mixed.status).toBe(201)
		expect(mixed.json.redirect_uris).toEqual(['https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'])
		expect(mixed.json.notices.join(' ')).toContain('cursor://')
		for (const body of [
			{},
			{ redirect_uris: [] },
			{ redirect_uris: 'https://a.example/cb' },
			{ redirect_uris: Array.from({ length: 100 }, (_, i) => `https://a.example/${i}`) },
		]) {
			const res = await registerRaw(ctx, body)
			expect(res.status).toBe(400)
			expect(res.json.error).toBe('invalid_redirect_uri')
		}
		for (const body of ['not json', '[1,2]', 'null']) expect((await registerRaw(ctx, body)).json.error).toBe('invalid_client_metadata')
	})

	test('B2/B4 hostile registrations are invalid_client_metadata or invalid_redirect_uri, never a server error, nor stored changed', async () => {
		const ctx = await authServer()
		const cases: [unknown, string][] = [
			[{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: { toString: 1 } }, 'invalid_client_metadata'],
			[{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: ['none'] }, 'invalid_client_metadata'],
			[{ redirect_uris: [{ toString: 1 }, 'https://a.example/cb'] }, 'invalid_redirect_uri'],
			[{ redirect_uris: [42, 'https://a.example/cb'] }, 'invalid_redirect_uri'],
			[{ redirect_uris: ['https://a.example/cb'], scope: 'a\u0000' }, 'invalid_client_metadata'],
			[{ redirect_uris: ['https://a.example/cb'], contacts: ['\udc00@a.example'] }, 'invalid_client_metadata'],
			[{ redirect_uris: ['https://a.example/cb'], client_name: '\ud800abc' }, 'invalid_client_metadata'],
			[{ redirect_uris: ['https://a.example/\ud800cb', 'https://a.example/cb'] }, 'invalid_client_metadata'],
			[{ redirect_uris: ['https://a.example/cb'], 'x\u0000': 1 }, 'invalid_client_metadata'],
		]
		for (const [body, error] of cases) {
			const res = await registerRaw(ctx, body)
			expect({ body, status: res.status, error: res.json?.error }).toEqual({ body, status: 400, error })
			expect(res.json.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/)
		}
		// A secret-based method named with characters of any kind is quoted back as JSON, invisible ones removed.
		const odd = await registerRaw(ctx, { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'secret\u202e\u0007' })
		expect(odd.status).toBe(201)
		expect(odd.json.notices.join(' ')).toContain('not "secret\\u0007"')
	})

	test('B4 self-declared names: controls and bidi stripped, capped, escaped on the consent page', async () => {
		const ctx = await authServer()
		expect((await registerRaw(ctx, { client_name: 'x'.repeat(101), redirect_uris: [LOOPBACK_REDIRECT] })).json.error).toBe('invalid_client_metadata')
		const bidi = await registerRaw(ctx, { client_name: '\u202Eelgoog\u200B\u0007 app', redirect_uris: [LOOPBACK_REDIRECT] })
		expect(bidi.json.client_name).toBe('elgoog app')
		// Everything that draws nothing, as core/untrusted.ts counts it: line separators, the soft hyphen, joiners, fillers.
		const hidden = await registerRaw(ctx, { client_name: 'Goo\u00adgle\u2028 App\u2029\u2060\u180e\u3164', redirect_uris: [LOOPBACK_REDIRECT] })
		expect(hidden.json.client_name).toBe('Google App')
		const blank = await registerRaw(ctx, { client_name: '\u3164\u00ad\u2060 \u180e', redirect_uris: [LOOPBACK_REDIRECT] })
		expect(blank.json.client_name).toBe('Unnamed app')
		const { client, redirectUri } = await registerApp(ctx, { client_name: '<img src=x onerror=alert(1)>' })
		const who = await signedInPerson()
		const request = await authorizationRequest(ctx, client, redirectUri)
		const page = await who.portal.get(request.url.pathname + request.url.search)
		expect(page.status).toBe(200)
		expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;')
		expect(page.text).not.toContain('<img src=x')
		expect(page.text).toContain('has not verified')
		// Metadata addresses are kept, never fetched (nothing to fetch them with): stored as sent.
		const [row] = await ctx.deps.db.select().from(oauthClients).where(eq(oauthClients.id, client.client_id))
		expect(row!.name).toBe('<img src=x onerror=alert(1)>')
	})

	test('B5 registration is rate limited per client address (20 a minute), others unaffected', async () => {
		const ctx = await authServer()
		await awayFromMinuteEdge()
		const address = uniqueAddress()
		const statuses: number[] = []
		for (let i = 0; i < 21; i++) statuses.push((await registerRaw(ctx, { redirect_uris: [LOOPBACK_REDIRECT] }, address)).status)
		expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true)
		const limited = await registerRaw(ctx, { redirect_uris: [LOOPBACK_REDIRECT] }, address)
		expect(limited.status).toBe(429)
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
		expect((await registerRaw(ctx, { redirect_uris: [LOOPBACK_REDIRECT] })).status).toBe(201)
	})

	test('B6 grant and response types outside code + refresh are refused', async () => {
		const ctx = await authServer()
		for (const extra of [
			{ grant_types: ['client_credentials'] },
			{ grant_types: ['authorization_code', 'implicit'] },
			{ grant_types: 'authorization_code' },
			{ response_types: ['token'] },
			{ response_types: ['code', 'id_token'] },
		]) {
			const res = await registerRaw(ctx, { redirect_uris: [LOOPBACK_REDIRECT], ...extra })
			expect(res.status).toBe(400)
			expect(res.json.error).toBe('invalid_client_metadata')
		}
		expect((await registerRaw(ctx, { redirect_uris: [LOOPBACK_REDIRECT], grant_types: ['authorization_code'], response_types: ['code'] })).status).toBe(201)
	})
})
