/**
 * The refresh grant's finer rules (a review of the token endpoint): a refresh asking a narrower scope
 * gets an access token of that scope, and read-only access follows it at /api/mcp (RFC 6749 §6); a
 * replaced refresh token presented again inside its grace window gets the same answer only while that
 * answer still works, else a clean refusal that ends nothing; and the token endpoint's error codes
 * and client authentication match what the metadata declares (RFC 6749 §5.2).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { newCredential } from '../../core/credentials.ts'
import { clock } from '../helpers.ts'
import { connectedApp, formPost, freshCode, mcp, registerRaw, type AS } from './as-client.ts'

setDefaultTimeout(60_000)
afterEach(() => clock.reset())

const refresh = (ctx: AS, clientId: string, token: string, extra: Record<string, string> = {}) =>
	formPost(ctx, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: clientId, ...extra })
const revoke = (ctx: AS, clientId: string, token: string) => formPost(ctx, '/oauth/revoke', { token, client_id: clientId })
const mcpStatus = async (ctx: AS, token: string) => (await mcp(ctx, token, 'tools/list')).status
/** The names of the tools an access token is shown. */
const toolNames = async (ctx: AS, token: string): Promise<string[]> =>
	((await mcp(ctx, token, 'tools/list')).message?.result?.tools ?? []).map((t: { name: string }) => t.name)
/** A write call with an access token: its HTTP status and challenge (no job is made: the title is refused, or the call is). */
const writeCall = async (ctx: AS, token: string) => {
	const res = await mcp(ctx, token, 'tools/call', { name: 'create_job', arguments: { title: '' } })
	return { status: res.status, challenge: res.headers.get('www-authenticate') ?? '' }
}

describe('a refresh asking a narrower scope (RFC 6749 §6)', () => {
	test('scope=mcp:read on a full grant: a read-only access token (write tools hidden, a write call is the step-up 403); the new refresh token keeps the whole grant', async () => {
		const app = await connectedApp()
		const id = app.client.client_id
		expect(await toolNames(app.ctx, app.tokens.access_token)).toContain('create_job')

		const narrow = await refresh(app.ctx, id, app.tokens.refresh_token, { scope: 'mcp:read' })
		expect([narrow.status, narrow.json.scope]).toEqual([200, 'mcp:read'])
		const names = await toolNames(app.ctx, narrow.json.access_token)
		expect(names).toContain('list_jobs')
		expect(names).not.toContain('create_job')
		const write = await writeCall(app.ctx, narrow.json.access_token)
		expect(write.status).toBe(403)
		expect(write.challenge).toContain('error="insufficient_scope"')
		expect(write.challenge).toContain('scope="mcp"')

		// The refresh token keeps the grant's scope: the next refresh, without scope, is full again.
		const full = await refresh(app.ctx, id, narrow.json.refresh_token)
		expect([full.status, full.json.scope]).toEqual([200, 'mcp'])
		expect(await toolNames(app.ctx, full.json.access_token)).toContain('create_job')
		expect((await writeCall(app.ctx, full.json.access_token)).status).toBe(200)
		// Asking for everything granted, in any spelling, is the whole grant.
		const both = await refresh(app.ctx, id, full.json.refresh_token, { scope: 'mcp:read mcp' })
		expect([both.status, both.json.scope]).toEqual([200, 'mcp'])
	})

	test('more than granted, or a scope we do not know, is invalid_scope and rotates nothing', async () => {
		const reader = await connectedApp({ readOnly: true })
		const id = reader.client.client_id
		for (const scope of ['mcp', 'mcp:read mcp', 'mcp:read mcp:write']) {
			const res = await refresh(reader.ctx, id, reader.tokens.refresh_token, { scope })
			expect({ scope, status: res.status, error: res.json.error }).toEqual({ scope, status: 400, error: 'invalid_scope' })
			expect(res.headers.get('cache-control')).toContain('no-store')
		}
		const ok = await refresh(reader.ctx, id, reader.tokens.refresh_token)
		expect([ok.status, ok.json.scope]).toEqual([200, 'mcp:read'])
	})
})

describe('a replaced refresh token inside its grace window', () => {
	test('while the first answer works, the same answer again; once its access token is revoked, a clean invalid_grant that ends nothing', async () => {
		const app = await connectedApp()
		const id = app.client.client_id
		const first = await refresh(app.ctx, id, app.tokens.refresh_token)
		expect(first.status).toBe(200)
		const again = await refresh(app.ctx, id, app.tokens.refresh_token)
		expect([again.json.access_token, again.json.refresh_token]).toEqual([first.json.access_token, first.json.refresh_token])

		// The app revokes the access token it got (RFC 7009): handing it out again would be a dead answer.
		expect((await revoke(app.ctx, id, first.json.access_token)).status).toBe(200)
		const replay = await refresh(app.ctx, id, app.tokens.refresh_token)
		expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant'])
		expect(replay.json.access_token).toBeUndefined()
		// Nothing else ended: the successor refresh token still rotates, and its access token works.
		const next = await refresh(app.ctx, id, first.json.refresh_token)
		expect(next.status).toBe(200)
		expect(await mcpStatus(app.ctx, next.json.access_token)).toBe(200)
	})

	test('once its successor has itself been used, a replay is refused without ending the connection (never a refresh token that would revoke the family)', async () => {
		const app = await connectedApp()
		const id = app.client.client_id
		const second = await refresh(app.ctx, id, app.tokens.refresh_token)
		const third = await refresh(app.ctx, id, second.json.refresh_token)
		expect(third.status).toBe(200)
		const replay = await refresh(app.ctx, id, app.tokens.refresh_token)
		expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant'])
		expect(replay.json.refresh_token).toBeUndefined()
		expect(await mcpStatus(app.ctx, third.json.access_token)).toBe(200)
		expect((await refresh(app.ctx, id, third.json.refresh_token)).status).toBe(200)
	})

	test('a replay asking another scope than the first refresh is refused, not answered with the first scope', async () => {
		const app = await connectedApp()
		const id = app.client.client_id
		const first = await refresh(app.ctx, id, app.tokens.refresh_token)
		expect(first.json.scope).toBe('mcp')
		const narrower = await refresh(app.ctx, id, app.tokens.refresh_token, { scope: 'mcp:read' })
		expect([narrower.status, narrower.json.error]).toEqual([400, 'invalid_grant'])
		// The same request as the first still gets the first answer, which works.
		const same = await refresh(app.ctx, id, app.tokens.refresh_token)
		expect(same.json.access_token).toBe(first.json.access_token)
		expect(await mcpStatus(app.ctx, same.json.access_token)).toBe(200)
	})
})

describe('the token endpoint’s error codes and client authentication (RFC 6749 §5.2)', () => {
	test('a missing code or refresh_token is invalid_request (a missing parameter), not invalid_grant', async () => {
		const c = await freshCode()
		const noCode = await formPost(c.ctx, '/oauth/token', {
			grant_type: 'authorization_code',
			redirect_uri: c.redirectUri,
			code_verifier: c.verifier,
			client_id: c.client.client_id,
		})
		expect([noCode.status, noCode.json.error]).toEqual([400, 'invalid_request'])
		const noToken = await formPost(c.ctx, '/oauth/token', { grant_type: 'refresh_token', client_id: c.client.client_id })
		expect([noToken.status, noToken.json.error]).toEqual([400, 'invalid_request'])
		for (const res of [noCode, noToken]) expect(res.headers.get('cache-control')).toContain('no-store')
	})

	test('only `none` is declared: a client assertion (private_key_jwt) is invalid_client 401, at the token and revocation endpoints', async () => {
		const meta = await (await (await connectedApp()).ctx.http('/.well-known/oauth-authorization-server')).json()
		expect(meta.token_endpoint_auth_methods_supported).toEqual(['none'])
		const c = await freshCode()
		const assertion = {
			client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
			client_assertion: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
		}
		const token = await formPost(c.ctx, '/oauth/token', {
			grant_type: 'authorization_code',
			code: c.code,
			redirect_uri: c.redirectUri,
			code_verifier: c.verifier,
			client_id: c.client.client_id,
			...assertion,
		})
		expect([token.status, token.json.error]).toEqual([401, 'invalid_client'])
		expect(token.headers.get('cache-control')).toContain('no-store')
		const revocation = await formPost(c.ctx, '/oauth/revoke', { token: 'bl_rt_x', client_id: c.client.client_id, ...assertion })
		expect([revocation.status, revocation.json.error]).toEqual([401, 'invalid_client'])
		// The same request without the assertion is a public client's, and works.
		const plain = await formPost(c.ctx, '/oauth/token', {
			grant_type: 'authorization_code',
			code: c.code,
			redirect_uri: c.redirectUri,
			code_verifier: c.verifier,
			client_id: c.client.client_id,
		})
		expect(plain.status).toBe(200)
	})

	test('RFC 8707 on refresh: another resource is invalid_target; ours (with or without a trailing slash) is bound as before', async () => {
		const app = await connectedApp()
		const id = app.client.client_id
		for (const resource of ['https://other.example/api/mcp', `${app.ctx.base}/api/v1`]) {
			const res = await refresh(app.ctx, id, app.tokens.refresh_token, { resource })
			expect([res.status, res.json.error]).toEqual([400, 'invalid_target'])
		}
		const ok = await refresh(app.ctx, id, app.tokens.refresh_token, { resource: `${app.ctx.resource}/` })
		expect(ok.status).toBe(200)
		expect(await mcpStatus(app.ctx, ok.json.access_token)).toBe(200)
	})
})

describe('an app that did not ask for refresh tokens (grant_types without refresh_token)', () => {
	test('is registered as asked; gets an access token alone; a refresh_token grant from it is unauthorized_client (RFC 6749 §5.2)', async () => {
		const app = await connectedApp({ metadata: { grant_types: ['authorization_code'] } })
		const id = app.client.client_id
		expect(app.client.grant_types).toEqual(['authorization_code'])
		expect(app.tokens.access_token).toStartWith('bl_at_')
		expect(app.tokens.refresh_token).toBeUndefined()
		expect(await mcpStatus(app.ctx, app.tokens.access_token)).toBe(200)
		// Refused for the grant itself, before any token is looked at; not a failed credential.
		const refused = await refresh(app.ctx, id, newCredential('rt'))
		expect([refused.status, refused.json.error]).toEqual([400, 'unauthorized_client'])
		expect(refused.headers.get('cache-control')).toContain('no-store')
		// An app that asked for both (or left grant_types out: both, and the answer says so) still refreshes.
		const both = await connectedApp()
		expect(both.client.grant_types).toEqual(['authorization_code', 'refresh_token'])
		expect((await refresh(both.ctx, both.client.client_id, both.tokens.refresh_token)).status).toBe(200)
	})

	test('registration refuses grant_types without authorization_code (the only way to a first token here)', async () => {
		const app = await connectedApp()
		for (const grant_types of [['refresh_token'], []]) {
			const res = await registerRaw(app.ctx, { redirect_uris: [app.redirectUri], grant_types })
			expect([res.status, res.json.error]).toEqual([400, 'invalid_client_metadata'])
			expect(res.json.error_description).toContain('authorization_code')
		}
	})
})
