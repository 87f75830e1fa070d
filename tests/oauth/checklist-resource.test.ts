/**
 * Security checklist rows G (the resource server: /api/mcp and /api/v1) and H (credential formats
 * and storage), and the read-only consent (write tools hidden, a write call is a 403
 * insufficient_scope step-up).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { activityFor } from '../../modules/activity/index.ts'
import { oauthClients, oauthCodes, oauthGrants, oauthTokens } from '../../modules/auth/table.ts'
import { clock, logLines, newPersonWithToken, newVendor } from '../helpers.ts'
import { authorizationRequest, connectedApp, consent, formPost, freshCode, mcp, type AS } from './as-client.ts'

// Under load the first request also pays for the database start; the CLI default (5 s) is too short.
setDefaultTimeout(60_000)

afterEach(() => clock.reset())

const rest = (ctx: AS, token: string) =>
	ctx
		.http('/api/v1/jobs', { headers: { authorization: `Bearer ${token}` } })
		.then(async (r) => ({ status: r.status, challenge: r.headers.get('www-authenticate'), body: await r.text() }))

/** The Access cells of the connected-apps table on the API access page. */
const accessColumn = (html: string) => [...html.matchAll(/<td data-label="Access"><div class="cell">([^<]*)<\/div><\/td>/g)].map((m) => m[1])

describe('G. resource server checks', () => {
	test('G1 the token counts only in the Authorization header', async () => {
		const app = await connectedApp()
		const at = app.tokens.access_token
		const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
		const query = await app.ctx.http(`/api/mcp?access_token=${at}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body,
		})
		expect(query.status).toBe(401)
		const form = await app.ctx.http('/api/mcp', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `access_token=${at}`,
		})
		expect(form.status).toBe(401)
		expect((await mcp(app.ctx, at, 'tools/list')).status).toBe(200)
		expect((await mcp(app.ctx, null, 'tools/list')).status).toBe(401)
	})

	test('G2 cross-presented credentials are 401: vendor key, refresh token, code, client id at /api/mcp; OAuth and personal tokens at /api/v1', async () => {
		const app = await connectedApp()
		const vendor = await newVendor(app.ws, 'Cross Vendor', app.ctx.deps)
		const pat = await newPersonWithToken(app.ws, 'recruiter')
		const code = await freshCode({ who: app })
		for (const token of [vendor.apiKey, app.tokens.refresh_token, code.code, app.client.client_id]) {
			const res = await mcp(app.ctx, token, 'tools/list')
			expect(res.status).toBe(401)
			expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
			expect(res.headers.get('www-authenticate')).toContain('resource_metadata=')
		}
		for (const token of [app.tokens.access_token, pat.token, app.tokens.refresh_token]) {
			const res = await rest(app.ctx, token)
			expect(res.status).toBe(401)
			expect(res.challenge).toContain('invalid_token')
		}
		// The intended pairings work.
		expect((await mcp(app.ctx, app.tokens.access_token, 'tools/list')).status).toBe(200)
		expect((await mcp(app.ctx, pat.token, 'tools/list')).status).toBe(200)
		expect((await rest(app.ctx, vendor.apiKey)).status).toBe(200)
		// The code was not used up by being presented as a bearer token.
		expect(
			(
				await formPost(code.ctx, '/oauth/token', {
					grant_type: 'authorization_code',
					code: code.code,
					redirect_uri: code.redirectUri,
					code_verifier: code.verifier,
					client_id: code.client.client_id,
				})
			).status,
		).toBe(200)
	})

	test('G3 access tokens last one hour (59:59 works, 60:01 is invalid_token)', async () => {
		const app = await connectedApp()
		// 59:59 after the token was issued (real time spent since then counts too).
		clock.advance(3_599_000 - (Date.now() - app.issuedAt))
		expect((await mcp(app.ctx, app.tokens.access_token, 'tools/list')).status).toBe(200)
		clock.advance(2_000)
		const late = await mcp(app.ctx, app.tokens.access_token, 'tools/list')
		expect(late.status).toBe(401)
		expect(late.headers.get('www-authenticate')).toContain('error="invalid_token"')
	})

	test('G4 header parsing: scheme case-insensitive, anything else malformed is 401, never 500', async () => {
		const app = await connectedApp()
		const at = app.tokens.access_token
		const send = (authorization: string) =>
			app.ctx
				.http('/api/mcp', {
					method: 'POST',
					headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
					body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
				})
				.then((r) => r.status)
		expect(await send(`bearer ${at}`)).toBe(200)
		expect(await send(`BEARER ${at}`)).toBe(200)
		// RFC 6750: "Bearer" 1*SP b64token.
		expect(await send(`Bearer  ${at}`)).toBe(200)
		for (const header of [
			`Bearer\t${at}`,
			`Bearer ${at} x`,
			`Basic ${btoa('a:b')}`,
			`Bearer`,
			`${at}`,
			`Bearer ${'a'.repeat(16 * 1024)}`,
			`Bearer ${at},Bearer ${at}`,
		])
			expect({ header: header.slice(0, 20), status: await send(header) }).toEqual({ header: header.slice(0, 20), status: 401 })
	})
})

describe('H. credential formats and storage', () => {
	test('H1 typed prefixes with a checksum: a flipped character is refused', async () => {
		const app = await connectedApp()
		const code = await freshCode({ who: app })
		expect(app.tokens.access_token).toMatch(/^bl_at_[0-9A-Za-z]{36}$/)
		expect(app.tokens.refresh_token).toMatch(/^bl_rt_[0-9A-Za-z]{36}$/)
		expect(code.code).toMatch(/^bl_code_[0-9A-Za-z]{36}$/)
		const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === 'a' ? 'b' : 'a') + t.slice(i + 1)
		for (const i of [8, 20, app.tokens.access_token.length - 1]) expect((await mcp(app.ctx, flip(app.tokens.access_token, i), 'tools/list')).status).toBe(401)
		const refresh = await formPost(app.ctx, '/oauth/token', {
			grant_type: 'refresh_token',
			refresh_token: flip(app.tokens.refresh_token, 10),
			client_id: app.client.client_id,
		})
		expect(refresh.json.error).toBe('invalid_grant')
		expect((await mcp(app.ctx, app.tokens.access_token, 'tools/list')).status).toBe(200)
	})

	test('H2/H7 only SHA-256 hashes are stored (codes, access and refresh tokens), and no credential reaches the log', async () => {
		const app = await connectedApp()
		const code = await freshCode({ who: app })
		const rotated = (
			await formPost(app.ctx, '/oauth/token', { grant_type: 'refresh_token', refresh_token: app.tokens.refresh_token, client_id: app.client.client_id })
		).json
		const db = app.ctx.deps.db
		const grants = await db.select().from(oauthGrants).where(eq(oauthGrants.clientId, app.client.client_id))
		const tokens = await db
			.select()
			.from(oauthTokens)
			.where(
				inArray(
					oauthTokens.grantId,
					grants.map((g) => g.id),
				),
			)
		const codes = await db
			.select()
			.from(oauthCodes)
			.where(inArray(oauthCodes.clientId, [app.client.client_id, code.client.client_id]))
		const clients = await db
			.select()
			.from(oauthClients)
			.where(inArray(oauthClients.id, [app.client.client_id, code.client.client_id]))
		expect(tokens).toHaveLength(4)
		expect(codes).toHaveLength(2)
		for (const row of [...tokens, ...codes]) expect(row.id).toMatch(/^[0-9a-f]{64}$/)
		const stored = JSON.stringify([grants, tokens, codes, clients])
		const secrets = [app.tokens.access_token, app.tokens.refresh_token, rotated.access_token, rotated.refresh_token, code.code, code.verifier]
		for (const secret of secrets) {
			expect(stored).not.toContain(secret)
			expect(stored).not.toContain(secret.slice(-36))
		}
		expect(logLines.join('\n')).not.toMatch(/bl_(at|rt|code)_[0-9A-Za-z]{36}/)
	})

	test('H6 a change made through an app names the app in the activity log', async () => {
		const app = await connectedApp({ metadata: { client_name: 'Claude (checklist)' } })
		const res = await mcp(app.ctx, app.tokens.access_token, 'tools/call', { name: 'create_job', arguments: { title: 'Made by an app' } })
		expect(res.status).toBe(200)
		const jobId = res.message.result.structuredContent.job.id
		const [entry] = await activityFor(app.ctx.deps.db, app.ws.id, 'job', jobId)
		expect(entry).toMatchObject({ credentialKind: 'oauth_app', credentialName: 'Claude (checklist)', actorUserId: app.person.userId })
		expect(JSON.stringify(entry)).not.toContain(app.tokens.access_token)
	})
})

describe('read-only consent', () => {
	test('with the box checked, write tools are not listed and a write call is 403 insufficient_scope', async () => {
		const full = await connectedApp()
		const reader = await connectedApp({ readOnly: true, who: full })
		const writeTools = full.ctx.deps.registry.tools.filter((t) => !t.readOnly).map((t) => t.name)
		expect(writeTools).toContain('create_job')
		const all = (await mcp(full.ctx, full.tokens.access_token, 'tools/list')).message.result.tools.map((t: { name: string }) => t.name)
		const listed = (await mcp(reader.ctx, reader.tokens.access_token, 'tools/list')).message.result.tools.map((t: { name: string }) => t.name)
		expect(all).toContain('create_job')
		expect(listed).toContain('list_jobs')
		for (const name of writeTools) expect(listed).not.toContain(name)
		const denied = await mcp(reader.ctx, reader.tokens.access_token, 'tools/call', { name: 'create_job', arguments: { title: 'Nope' } })
		expect(denied.status).toBe(403)
		const challenge = denied.headers.get('www-authenticate')!
		expect(challenge).toStartWith('Bearer ')
		expect(challenge).toContain('error="insufficient_scope"')
		expect(challenge).toContain('scope="mcp"')
		expect(challenge).toContain(`resource_metadata="${reader.ctx.base}/.well-known/oauth-protected-resource"`)
		const read = await mcp(reader.ctx, reader.tokens.access_token, 'tools/call', { name: 'list_jobs', arguments: {} })
		expect([read.status, read.message.result.isError ?? false]).toEqual([200, false])
		// The connected-apps list says read-only.
		expect((await full.portal.get('/settings/api')).text).toContain('read-only')
	})

	test('an app one person connected with full access, then again read-only, is listed as full: it still writes', async () => {
		const app = await connectedApp()
		const request = await authorizationRequest(app.ctx, app.client, app.redirectUri, { scope: 'mcp:read' })
		const { location } = await consent(app.portal, request.url)
		const code = location!.searchParams.get('code')!
		const second = await formPost(app.ctx, '/oauth/token', {
			grant_type: 'authorization_code',
			code,
			code_verifier: request.verifier,
			redirect_uri: app.redirectUri,
			client_id: app.client.client_id,
		})
		expect([second.status, second.json.scope]).toEqual([200, 'mcp:read'])
		const created = await mcp(app.ctx, app.tokens.access_token, 'tools/call', { name: 'create_job', arguments: { title: 'Still full access' } })
		expect([created.status, created.message.result.isError ?? false]).toEqual([200, false])
		const access = accessColumn((await app.portal.get('/settings/api')).text)
		expect(access).toEqual(['full'])
	})
})
