/**
 * Security checklist rows D (token endpoint), E (refresh tokens) and F (revocation, Disconnect),
 * driven by oauth4webapi and raw form posts; expiries through the test clock.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { operatorActor, removePerson } from '../../modules/auth/index.ts'
import { awayFromMinuteEdge, clock } from '../helpers.ts'
import { uniqueAddress } from '../portal.ts'
import { authorizationRequest, authServer, connectedApp, consent, formPost, freshCode, mcp, registerApp, signedInPerson, type AS } from './as-client.ts'

// Under load the first request also pays for the database start; the CLI default (5 s) is too short.
setDefaultTimeout(60_000)

afterEach(() => clock.reset())

const DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/
const exchange = (ctx: AS, c: { code: string; redirectUri: string; verifier: string; client: { client_id: string } }, extra: Record<string, string> = {}) =>
	formPost(ctx, '/oauth/token', {
		grant_type: 'authorization_code',
		code: c.code,
		redirect_uri: c.redirectUri,
		code_verifier: c.verifier,
		client_id: c.client.client_id,
		...extra,
	})
const refresh = (ctx: AS, clientId: string, token: string, extra: Record<string, string> = {}) =>
	formPost(ctx, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: clientId, ...extra })
const mcpStatus = async (ctx: AS, token: string) => (await mcp(ctx, token, 'tools/list')).status

describe('D. token endpoint: authorization_code', () => {
	test('D1 codes last 60 seconds (59 s ok, 61 s expired) and are bound to client and redirect address', async () => {
		const a = await freshCode()
		// 59 s after the code was issued (real time spent since then counts too).
		clock.advance(59_000 - (Date.now() - a.issuedAt))
		expect((await exchange(a.ctx, a)).status).toBe(200)
		clock.reset()
		const b = await freshCode()
		clock.advance(61_000)
		const late = await exchange(b.ctx, b)
		expect([late.status, late.json.error]).toEqual([400, 'invalid_grant'])
		clock.reset()
		const c = await freshCode()
		const other = await registerApp(c.ctx)
		expect((await exchange(c.ctx, { ...c, client: other.client })).json.error).toBe('invalid_grant')
		expect((await exchange(c.ctx, { ...c, redirectUri: 'http://127.0.0.1:43123/other' })).json.error).toBe('invalid_grant')
		expect(
			(await formPost(c.ctx, '/oauth/token', { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: c.client.client_id })).json
				.error,
		).toBe('invalid_grant')
		// None of that used the code up.
		const res = await oauth.authorizationCodeGrantRequest(c.ctx.as, c.client, oauth.None(), c.params, c.redirectUri, c.verifier, c.ctx.opts)
		expect((await oauth.processAuthorizationCodeResponse(c.ctx.as, c.client, res)).access_token).toMatch(/^bl_at_/)
	})

	test('a client with one registered redirect address may leave redirect_uri out (or send it empty): the registered one is used, and the token request needs it only when authorization named it (issue 17.6)', async () => {
		const ctx = await authServer()
		const who = await signedInPerson()
		const { client, redirectUri } = await registerApp(ctx)
		/** A code from an authorization request whose redirect_uri is `sent` (null: left out). */
		const codeFor = async (sent: string | null) => {
			const request = await authorizationRequest(ctx, client, redirectUri, { redirect_uri: sent })
			const { page, location } = await consent(who.portal, request.url)
			expect({ sent, page: page.status }).toEqual({ sent, page: 200 })
			expect(location!.origin + location!.pathname).toBe(redirectUri)
			return { code: oauth.validateAuthResponse(ctx.as, client, location!, request.state).get('code')!, verifier: request.verifier }
		}
		const token = (c: { code: string; verifier: string }, redirect: Record<string, string>) =>
			formPost(ctx, '/oauth/token', { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: client.client_id, ...redirect })
		for (const sent of [null, '']) {
			// Left out at the token endpoint too, or sent empty (RFC 6749 §3.2: the same as left out).
			for (const redirect of [{}, { redirect_uri: '' }] as Record<string, string>[]) {
				const res = await token(await codeFor(sent), redirect)
				expect({ sent, redirect, status: res.status, error: res.json.error }).toEqual({ sent, redirect, status: 200, error: undefined })
				expect(res.json.access_token).toMatch(/^bl_at_/)
			}
			// Named at the token endpoint: it must be the address the code went to.
			expect((await token(await codeFor(sent), { redirect_uri: redirectUri })).status).toBe(200)
			const other = await token(await codeFor(sent), { redirect_uri: 'http://127.0.0.1:43123/other' })
			expect([other.status, other.json.error]).toEqual([400, 'invalid_grant'])
		}
		// Named at authorization: required at the token endpoint (D1 checks a different one).
		const named = await token(await codeFor(redirectUri), {})
		expect([named.status, named.json.error, named.json.error_description]).toEqual([
			400,
			'invalid_grant',
			'redirect_uri is required: it was sent with the authorization request',
		])
	})

	test('D2 wrong or malformed verifiers are invalid_grant and do not consume the code', async () => {
		const c = await freshCode()
		for (const verifier of [oauth.generateRandomCodeVerifier(), 'a'.repeat(42), 'a'.repeat(129), `${c.verifier.slice(0, -3)}+/=`, '']) {
			const res = await exchange(c.ctx, { ...c, verifier })
			expect([res.status, res.json.error]).toEqual([400, 'invalid_grant'])
		}
		expect((await exchange(c.ctx, c)).status).toBe(200)
	})

	test('D3 a replay with a valid verifier revokes the tokens issued from the code; a replay with a wrong one does not', async () => {
		const c = await freshCode()
		const first = await exchange(c.ctx, c)
		expect(await mcpStatus(c.ctx, first.json.access_token)).toBe(200)
		const replay = await exchange(c.ctx, c)
		expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant'])
		expect(await mcpStatus(c.ctx, first.json.access_token)).toBe(401)
		expect((await refresh(c.ctx, c.client.client_id, first.json.refresh_token)).json.error).toBe('invalid_grant')

		const d = await freshCode()
		const kept = await exchange(d.ctx, d)
		expect((await exchange(d.ctx, { ...d, verifier: oauth.generateRandomCodeVerifier() })).json.error).toBe('invalid_grant')
		expect(await mcpStatus(d.ctx, kept.json.access_token)).toBe(200)
		expect((await refresh(d.ctx, d.client.client_id, kept.json.refresh_token)).status).toBe(200)
	})

	test('D4 ten parallel exchanges of one code: exactly one 200 (and, as for any replay, its tokens end revoked)', async () => {
		const c = await freshCode()
		const results = await Promise.all(Array.from({ length: 10 }, () => exchange(c.ctx, c)))
		expect(results.filter((r) => r.status === 200)).toHaveLength(1)
		expect(results.filter((r) => r.status === 400 && r.json.error === 'invalid_grant')).toHaveLength(9)
		const winner = results.find((r) => r.status === 200)!
		expect(await mcpStatus(c.ctx, winner.json.access_token)).toBe(401)
	})

	test('D5 the token answer: JSON, no-store, Bearer, 1 hour, a refresh token and the scope', async () => {
		const c = await freshCode()
		const res = await exchange(c.ctx, c)
		expect(res.headers.get('content-type')).toContain('application/json')
		expect(res.headers.get('cache-control')).toContain('no-store')
		expect(res.headers.get('pragma')).toBe('no-cache')
		expect(res.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp' })
		expect(res.json.access_token).toMatch(/^bl_at_/)
		expect(res.json.refresh_token).toMatch(/^bl_rt_/)
	})

	test('D6 form-encoded input only, repeated parameters and unknown grants refused; errors are JSON with a clean description', async () => {
		const ctx = await authServer()
		const c = await freshCode()
		const cases: [Awaited<ReturnType<typeof formPost>>, number, string][] = [
			[
				await ctx
					.http('/oauth/token', {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ grant_type: 'authorization_code', code: c.code }),
					})
					.then(async (r) => ({ status: r.status, headers: r.headers, json: await r.json(), text: '' })),
				400,
				'invalid_request',
			],
			[
				await formPost(ctx, '/oauth/token', `grant_type=authorization_code&code=${c.code}&code=${c.code}&client_id=${c.client.client_id}`),
				400,
				'invalid_request',
			],
			[await formPost(ctx, '/oauth/token', `grant_type=authorization_code&grant_type=refresh_token&client_id=${c.client.client_id}`), 400, 'invalid_request'],
			[
				await formPost(ctx, '/oauth/token', { grant_type: 'password', username: 'a', password: 'b', client_id: c.client.client_id }),
				400,
				'unsupported_grant_type',
			],
			[await formPost(ctx, '/oauth/token', { grant_type: 'client_credentials', client_id: c.client.client_id }), 400, 'unsupported_grant_type'],
			[await formPost(ctx, '/oauth/token', { grant_type: 'x\r\n"\\ü\tinjected', client_id: c.client.client_id }), 400, 'unsupported_grant_type'],
			[await formPost(ctx, '/oauth/token', { client_id: c.client.client_id }), 400, 'invalid_request'],
			[await formPost(ctx, '/oauth/token', `grant_type=authorization_code&code=${'x'.repeat(1024 * 1024)}`), 400, 'invalid_request'],
			// Text the database cannot hold is refused as an OAuth error, not the generic 422 of its refusal.
			[await formPost(ctx, '/oauth/token', 'grant_type=refresh_token&refresh_token=x&client_id=cli%00x'), 400, 'invalid_request'],
			[await formPost(ctx, '/oauth/token', `grant_type=authorization_code&code=${c.code}&client_id=${c.client.client_id}&x%00=1`), 400, 'invalid_request'],
			[await formPost(ctx, '/oauth/revoke', 'token=bl_at_x%00&client_id=cli_x'), 400, 'invalid_request'],
		]
		for (const [res, status, error] of cases) {
			expect([res.status, res.json.error]).toEqual([status, error])
			expect(res.json.error_description).toMatch(DESCRIPTION)
			expect(res.headers.get('cache-control')).toContain('no-store')
		}
		expect((await exchange(ctx, c)).status).toBe(200)
	})

	test('D7 public clients: a secret or a Basic header is invalid_client (401, with a challenge for the header); unknown client is invalid_client 401', async () => {
		const c = await freshCode()
		const basic = await formPost(
			c.ctx,
			'/oauth/token',
			{ grant_type: 'authorization_code', code: c.code, redirect_uri: c.redirectUri, code_verifier: c.verifier, client_id: c.client.client_id },
			{ authorization: `Basic ${btoa(`${c.client.client_id}:secret`)}` },
		)
		expect([basic.status, basic.json.error]).toEqual([401, 'invalid_client'])
		expect(basic.headers.get('www-authenticate')).toStartWith('Basic ')
		const d = await freshCode()
		const secret = await exchange(d.ctx, d, { client_secret: 'secret' })
		expect([secret.status, secret.json.error]).toEqual([401, 'invalid_client'])
		const unknown = await exchange(d.ctx, { ...d, client: { client_id: 'cli_nobody' } })
		expect([unknown.status, unknown.json.error]).toEqual([401, 'invalid_client'])
		const none = await formPost(d.ctx, '/oauth/token', {
			grant_type: 'authorization_code',
			code: d.code,
			redirect_uri: d.redirectUri,
			code_verifier: d.verifier,
		})
		expect([none.status, none.json.error]).toEqual([401, 'invalid_client'])
		expect((await exchange(d.ctx, d)).status).toBe(200)
	})

	test('D8 a resource other than the one the code was bound to is invalid_target', async () => {
		const c = await freshCode()
		for (const resource of ['https://other.example/api/mcp', `${c.ctx.base}/api/v1`, `${c.ctx.resource}#x`]) {
			const res = await exchange(c.ctx, c, { resource })
			expect([res.status, res.json.error]).toEqual([400, 'invalid_target'])
		}
		expect((await exchange(c.ctx, c, { resource: `${c.ctx.resource}/` })).status).toBe(200)
	})
})

describe('E. refresh tokens', () => {
	test('E1 each refresh rotates both tokens with the same scope; refresh tokens last 30 days', async () => {
		const app = await connectedApp()
		let current = app.tokens.refresh_token
		const seen = new Set([current])
		for (let i = 0; i < 3; i++) {
			const res = await oauth.refreshTokenGrantRequest(app.ctx.as, app.client, oauth.None(), current, app.ctx.opts)
			const next = await oauth.processRefreshTokenResponse(app.ctx.as, app.client, res)
			expect(next.scope).toBe('mcp')
			expect(seen.has(next.refresh_token!)).toBe(false)
			seen.add((current = next.refresh_token!))
			expect(await mcpStatus(app.ctx, next.access_token)).toBe(200)
		}
		clock.advance(30 * 86_400_000 - 3_600_000)
		const late = await refresh(app.ctx, app.client.client_id, current)
		expect(late.status).toBe(200)
		clock.advance(30 * 86_400_000 + 60_000)
		const expired = await refresh(app.ctx, app.client.client_id, late.json.refresh_token)
		expect([expired.status, expired.json.error]).toEqual([400, 'invalid_grant'])
	})

	test('E2 a replaced refresh token presented after the 60 s grace revokes the whole family', async () => {
		const app = await connectedApp()
		const rt0 = app.tokens.refresh_token
		const next = (await refresh(app.ctx, app.client.client_id, rt0)).json
		clock.advance(61_000)
		const replay = await refresh(app.ctx, app.client.client_id, rt0)
		expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant'])
		expect((await refresh(app.ctx, app.client.client_id, next.refresh_token)).json.error).toBe('invalid_grant')
		expect(await mcpStatus(app.ctx, next.access_token)).toBe(401)
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(401)
	})

	test('E3 parallel refreshes with one token inside the grace window all get the same successor, which works', async () => {
		const app = await connectedApp()
		const started = Date.now()
		const results = await Promise.all(Array.from({ length: 5 }, () => refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)))
		expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
		expect(new Set(results.map((r) => r.json.refresh_token)).size).toBe(1)
		expect(new Set(results.map((r) => r.json.access_token)).size).toBe(1)
		clock.advance(59_000 - (Date.now() - started))
		const again = await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)
		expect(again.json.refresh_token).toBe(results[0]!.json.refresh_token)
		expect(await mcpStatus(app.ctx, results[0]!.json.access_token)).toBe(200)
		expect((await refresh(app.ctx, app.client.client_id, results[0]!.json.refresh_token)).status).toBe(200)
	})

	test('E4/E5 refresh tokens are bound to their client and cannot widen the scope', async () => {
		const app = await connectedApp()
		const other = await registerApp(app.ctx)
		expect((await refresh(app.ctx, other.client.client_id, app.tokens.refresh_token)).json.error).toBe('invalid_grant')
		expect((await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token, { scope: 'mcp admin' })).json.error).toBe('invalid_scope')
		const reader = await connectedApp({ readOnly: true })
		expect(reader.tokens.scope).toBe('mcp:read')
		expect((await refresh(reader.ctx, reader.client.client_id, reader.tokens.refresh_token, { scope: 'mcp' })).json.error).toBe('invalid_scope')
		const narrowed = await refresh(reader.ctx, reader.client.client_id, reader.tokens.refresh_token, { scope: 'mcp:read' })
		expect([narrowed.status, narrowed.json.scope]).toEqual([200, 'mcp:read'])
		// The client mix-up did not revoke anything.
		expect((await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)).status).toBe(200)
	})

	test('E6 a person who leaves the workspace: refresh fails and the access token stops', async () => {
		const who = await signedInPerson('recruiter')
		const app = await connectedApp({ who })
		await removePerson(app.ctx.deps, operatorActor(who.ws), who.ws, { userId: who.person.userId })
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(401)
		expect((await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)).json.error).toBe('invalid_grant')
	})
})

describe('F. revocation and Disconnect', () => {
	test('F1/F3 RFC 7009: 200 for any token and hint; a refresh token ends its connection, an access token only itself', async () => {
		const app = await connectedApp()
		const revoke = (token: string, extra: Record<string, string> = {}) =>
			formPost(app.ctx, '/oauth/revoke', { token, client_id: app.client.client_id, ...extra })
		for (const token of ['garbage', 'bl_at_000000000000000000000000000000000000', app.tokens.access_token.slice(0, -1) + 'x'])
			expect((await revoke(token)).status).toBe(200)
		const missing = await formPost(app.ctx, '/oauth/revoke', { client_id: app.client.client_id })
		expect([missing.status, missing.json.error]).toEqual([400, 'invalid_request'])
		// An access token: only it stops (the refresh token still works).
		expect((await revoke(app.tokens.access_token, { token_type_hint: 'refresh_token' })).status).toBe(200)
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(401)
		const fresh = (await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)).json
		expect(await mcpStatus(app.ctx, fresh.access_token)).toBe(200)
		// A refresh token, through oauth4webapi, with an unknown hint: the connection ends.
		await oauth.processRevocationResponse(
			await oauth.revocationRequest(app.ctx.as, app.client, oauth.None(), fresh.refresh_token, {
				...app.ctx.opts,
				additionalParameters: { token_type_hint: 'weird' },
			}),
		)
		expect(await mcpStatus(app.ctx, fresh.access_token)).toBe(401)
		expect((await refresh(app.ctx, app.client.client_id, fresh.refresh_token)).json.error).toBe('invalid_grant')
		expect((await revoke(fresh.refresh_token)).status).toBe(200)
	})

	test('F2 a client cannot revoke another client’s tokens (answered 200, nothing revoked)', async () => {
		const app = await connectedApp()
		const other = await registerApp(app.ctx)
		expect((await formPost(app.ctx, '/oauth/revoke', { token: app.tokens.refresh_token, client_id: other.client.client_id })).status).toBe(200)
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(200)
		expect((await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)).status).toBe(200)
	})

	test('F4 Disconnect on the API access page kills the app’s tokens at once; admins can disconnect others, members cannot', async () => {
		const app = await connectedApp({ role: 'recruiter' })
		const page = await app.portal.get('/settings/api')
		expect(page.text).toContain('Checklist app')
		const path = `/settings/api/apps/${app.client.client_id}/${app.person.userId}/disconnect`
		const colleague = await signedInPerson('recruiter', app.ws)
		await colleague.portal.get('/settings/api')
		expect((await colleague.portal.post(path)).status).toBe(404)
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(200)
		expect((await app.portal.post(path)).status).toBe(303)
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(401)
		expect((await refresh(app.ctx, app.client.client_id, app.tokens.refresh_token)).json.error).toBe('invalid_grant')
		expect((await app.portal.get('/settings/api')).text).not.toContain(app.client.client_id)

		const second = await connectedApp({ role: 'recruiter' })
		const admin = await signedInPerson('admin', second.ws)
		expect((await admin.portal.get('/settings/api')).text).toContain(second.client.client_id)
		expect((await admin.portal.post(`/settings/api/apps/${second.client.client_id}/${second.person.userId}/disconnect`)).status).toBe(303)
		expect(await mcpStatus(second.ctx, second.tokens.access_token)).toBe(401)
	})

	test('F5 revocation is rate limited per client address; CORS without credentials', async () => {
		const ctx = await authServer()
		await awayFromMinuteEdge()
		const address = uniqueAddress()
		const statuses: number[] = []
		for (let i = 0; i < 121; i++)
			statuses.push((await formPost(ctx, '/oauth/revoke', { token: 'garbage', client_id: 'cli_x' }, { 'x-forwarded-for': address })).status)
		expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true)
		const limited = await formPost(
			ctx,
			'/oauth/revoke',
			{ token: 'garbage', client_id: 'cli_x' },
			{ 'x-forwarded-for': address, origin: 'https://app.example' },
		)
		expect([limited.status, limited.json.error]).toEqual([429, 'temporarily_unavailable'])
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
		expect(limited.headers.get('access-control-allow-origin')).toBe('*')
		expect(limited.headers.get('access-control-allow-credentials')).toBeNull()
	})
})
