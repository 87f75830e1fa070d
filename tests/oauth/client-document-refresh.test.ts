/**
 * An app known by its Client ID Metadata Document, at the token endpoint: the document is checked
 * again when the kept copy is stale (its Cache-Control, between a minute and a day), so an app whose
 * document is taken down (404, 410), turns invalid or stops listing the grant's redirect address
 * can no longer refresh (`invalid_client`) and the connection ends; a document that merely does not
 * answer (a 5xx) keeps its connections for a day past its freshness, then refreshes are refused
 * without ending anything. Each test serves its documents from a local HTTP server of its own (its
 * own host: the per-host fetch budget is not shared), so OAUTH_CLIENT_METADATA_ALLOW_PRIVATE is on.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type * as oauth from 'oauth4webapi'
import { newCredential } from '../../core/credentials.ts'
import { awayFromMinuteEdge, clock, newPerson, newWorkspace } from '../helpers.ts'
import { portalApp, signedIn, uniqueAddress } from '../portal.ts'
import { authorizationRequest, authServerOn, consent, formPost, LOOPBACK_REDIRECT, mcp, type AS } from './as-client.ts'

setDefaultTimeout(60_000)

const ALLOW_PRIVATE = { OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: 'on' }
const servers: { stop(force: boolean): void }[] = []
afterEach(() => {
	clock.reset()
	for (const server of servers.splice(0)) server.stop(true)
})

/**
 * A host publishing one app's document: what it answers can be changed; `fetches()` counts the
 * requests; `delayMs` makes each answer take that long (a host across the internet).
 */
function documentHost(headers: Record<string, string>, delayMs = 0) {
	let answer: { status: number; body: string } = { status: 200, body: '' }
	let count = 0
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch() {
			count++
			if (delayMs) await Bun.sleep(delayMs)
			return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json', ...headers } })
		},
	})
	servers.push(server)
	const clientId = `http://127.0.0.1:${server.port}/apps/assistant/client.json`
	const document = (fields: Record<string, unknown> = {}) =>
		JSON.stringify({ client_id: clientId, client_name: 'Doc App', redirect_uris: [LOOPBACK_REDIRECT], ...fields })
	answer = { status: 200, body: document() }
	return {
		clientId,
		origin: `http://127.0.0.1:${server.port}`,
		fetches: () => count,
		publish: (fields: Record<string, unknown> = {}) => void (answer = { status: 200, body: document(fields) }),
		answer: (status: number, body = '') => void (answer = { status, body }),
	}
}

let shared: Promise<AS> | undefined
const authServer = () => (shared ??= portalApp(ALLOW_PRIVATE).then(({ app, deps }) => authServerOn(app, deps)))

/** A code for the app and a fresh person (through the consent page), not yet exchanged. */
async function codeFor(ctx: AS, clientId: string) {
	const ws = await newWorkspace(ctx.deps)
	const person = await newPerson(ws, 'owner', {}, ctx.deps)
	const portal = await signedIn(person, { overrides: ALLOW_PRIVATE })
	const request = await authorizationRequest(ctx, { client_id: clientId } as oauth.Client, LOOPBACK_REDIRECT)
	const { location } = await consent(portal, request.url)
	const code = location?.searchParams.get('code')
	if (!code) throw new Error(`no code: ${location}`)
	const exchange = () =>
		formPost(ctx, '/oauth/token', {
			grant_type: 'authorization_code',
			code,
			code_verifier: request.verifier,
			redirect_uri: LOOPBACK_REDIRECT,
			client_id: clientId,
		})
	return { exchange }
}

/** A person connected to the app: their tokens. */
async function connect(ctx: AS, clientId: string): Promise<{ access_token: string; refresh_token: string }> {
	const res = await (await codeFor(ctx, clientId)).exchange()
	if (res.status !== 200) throw new Error(`exchange failed: ${res.text}`)
	return res.json
}

const refresh = (ctx: AS, clientId: string, token: string) =>
	formPost(ctx, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: clientId })
const mcpStatus = async (ctx: AS, token: string) => (await mcp(ctx, token, 'tools/list')).status

describe('a document taken down or broken ends its connections at their next refresh', () => {
	for (const status of [404, 410])
		test(`taken down (${status}): the kept copy counts while fresh; then invalid_client, the connection’s tokens stop, and another person’s connection ends at its own refresh without asking the host again`, async () => {
			const ctx = await authServer()
			const host = documentHost({ 'cache-control': 'max-age=300' })
			const first = await connect(ctx, host.clientId)
			const second = await connect(ctx, host.clientId)
			expect(host.fetches()).toBe(1)

			host.answer(status, 'gone')
			clock.advance(4 * 60_000)
			const fresh = await refresh(ctx, host.clientId, first.refresh_token)
			expect(fresh.status).toBe(200)
			expect(host.fetches()).toBe(1)

			clock.advance(2 * 60_000)
			const refused = await refresh(ctx, host.clientId, fresh.json.refresh_token)
			expect([refused.status, refused.json.error]).toEqual([401, 'invalid_client'])
			expect(refused.json.error_description).toContain(`is gone (it answered HTTP ${status})`)
			expect(refused.headers.get('cache-control')).toContain('no-store')
			expect(host.fetches()).toBe(2)
			expect(await mcpStatus(ctx, fresh.json.access_token)).toBe(401)
			expect((await refresh(ctx, host.clientId, fresh.json.refresh_token)).json.error).toBe('invalid_grant')

			// The other person's connection: its access token lives out its hour; its refresh ends it.
			expect(await mcpStatus(ctx, second.access_token)).toBe(200)
			const other = await refresh(ctx, host.clientId, second.refresh_token)
			expect([other.status, other.json.error]).toEqual([401, 'invalid_client'])
			expect(host.fetches()).toBe(2)
			expect(await mcpStatus(ctx, second.access_token)).toBe(401)
		})

	test('a document that stops listing the grant’s redirect address, or turns invalid, ends the connection', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'no-store' })
		const moved = await connect(ctx, host.clientId)
		const broken = await connect(ctx, host.clientId)

		clock.advance(61_000)
		host.publish({ redirect_uris: ['http://127.0.0.1:43123/elsewhere'] })
		const unlisted = await refresh(ctx, host.clientId, moved.refresh_token)
		expect([unlisted.status, unlisted.json.error]).toEqual([401, 'invalid_client'])
		expect(unlisted.json.error_description).toContain(`no longer lists ${LOOPBACK_REDIRECT} in redirect_uris`)
		expect(await mcpStatus(ctx, moved.access_token)).toBe(401)

		clock.advance(61_000)
		host.publish({ client_id: 'https://someone-else.example/client.json' })
		const invalid = await refresh(ctx, host.clientId, broken.refresh_token)
		expect([invalid.status, invalid.json.error]).toEqual([401, 'invalid_client'])
		expect(invalid.json.error_description).toContain('is not valid: its client_id is not the address it was fetched from')
		expect(await mcpStatus(ctx, broken.access_token)).toBe(401)
	})

	test('a document that turns into one no database or page can take (a NUL in logo_uri, an object for token_endpoint_auth_method, a lone surrogate in client_name) ends the connection as invalid_client', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'no-store' })
		const changes: [Record<string, unknown>, string][] = [
			[{ logo_uri: 'https://a.example/\u0000' }, 'logo_uri must be an https:// address'],
			[{ token_endpoint_auth_method: { toString: 1 } }, 'token_endpoint_auth_method must be ?none?'],
			[{ client_name: 'Doc App \ud800' }, 'client_name contains text that cannot be stored'],
			[{ redirect_uris: [LOOPBACK_REDIRECT, 'https://evil.example/\u202egpj.exe'] }, 'every redirect_uris entry must be'],
		]
		for (const [fields, why] of changes) {
			host.publish()
			const tokens = await connect(ctx, host.clientId)
			clock.advance(61_000)
			host.publish(fields)
			const refused = await refresh(ctx, host.clientId, tokens.refresh_token)
			expect({ fields, status: refused.status, error: refused.json?.error }).toEqual({ fields, status: 401, error: 'invalid_client' })
			expect(refused.json.error_description).toContain(`is not valid: ${why}`)
			expect(await mcpStatus(ctx, tokens.access_token)).toBe(401)
			clock.advance(61_000)
		}
	})

	test('a code is not exchanged once the document is gone (the copy went stale between the consent page and the exchange)', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'max-age=100' })
		await connect(ctx, host.clientId)
		clock.advance(50_000)
		const pending = await codeFor(ctx, host.clientId)
		expect(host.fetches()).toBe(1)
		host.answer(404)
		clock.advance(51_000)
		const exchanged = await pending.exchange()
		expect([exchanged.status, exchanged.json.error]).toEqual([401, 'invalid_client'])
		expect(host.fetches()).toBe(2)
	})
})

describe('a document that does not answer', () => {
	test('a 5xx keeps the connection for a day past the copy’s freshness (fetched again at most once a minute); past that the refresh is refused but nothing ends, and works again once the document answers', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'max-age=60' })
		const tokens = await connect(ctx, host.clientId)
		host.answer(503, 'maintenance')
		clock.advance(2 * 60_000)
		const during = await refresh(ctx, host.clientId, tokens.refresh_token)
		expect(during.status).toBe(200)
		expect(await mcpStatus(ctx, during.json.access_token)).toBe(200)
		expect(host.fetches()).toBe(2)
		const soon = await refresh(ctx, host.clientId, during.json.refresh_token)
		expect(soon.status).toBe(200)
		expect(host.fetches()).toBe(2)

		clock.advance(25 * 3_600_000)
		const late = await refresh(ctx, host.clientId, soon.json.refresh_token)
		expect([late.status, late.json.error]).toEqual([401, 'invalid_client'])
		expect(late.json.error_description).toContain('could not be read since')
		expect(host.fetches()).toBe(3)

		host.publish()
		clock.advance(61_000)
		const back = await refresh(ctx, host.clientId, soon.json.refresh_token)
		expect(back.status).toBe(200)
		expect(await mcpStatus(ctx, back.json.access_token)).toBe(200)
	})
})

describe('Cache-Control bounds at the token endpoint', () => {
	test('a max-age past a day counts as a day; no-store is fetched again at most once a minute', async () => {
		const ctx = await authServer()
		const long = documentHost({ 'cache-control': 'max-age=864000' })
		const tokens = await connect(ctx, long.clientId)
		long.answer(404)
		clock.advance(23 * 3_600_000)
		const within = await refresh(ctx, long.clientId, tokens.refresh_token)
		expect(within.status).toBe(200)
		clock.advance(2 * 3_600_000)
		expect((await refresh(ctx, long.clientId, within.json.refresh_token)).json.error).toBe('invalid_client')

		const noStore = documentHost({ 'cache-control': 'no-store' })
		let token = (await connect(ctx, noStore.clientId)).refresh_token
		const next = async () => {
			const res = await refresh(ctx, noStore.clientId, token)
			expect(res.status).toBe(200)
			token = res.json.refresh_token
		}
		// Fetched for the consent page and again for its answer; the code's exchange and refreshes within the minute ask nothing.
		expect(noStore.fetches()).toBe(2)
		await next()
		await next()
		expect(noStore.fetches()).toBe(2)
		clock.advance(61_000)
		await next()
		expect(noStore.fetches()).toBe(3)
	})
})

describe('the token endpoint’s checks cannot be multiplied or starved', () => {
	test('the people of one app refreshing at once past the copy’s freshness fetch the document once: one takes the check, the others use the kept copy', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'max-age=60' }, 30)
		const people: { refresh_token: string }[] = []
		for (let i = 0; i < 6; i++) people.push(await connect(ctx, host.clientId))
		const before = host.fetches()
		clock.advance(2 * 60_000)
		const answers = await Promise.all(people.map((p) => refresh(ctx, host.clientId, p.refresh_token)))
		expect(answers.map((a) => a.status)).toEqual(people.map(() => 200))
		expect(host.fetches() - before).toBe(1)
		// A minute later, the next refresh checks again.
		clock.advance(61_000)
		expect((await refresh(ctx, host.clientId, answers[0]!.json.refresh_token)).status).toBe(200)
		expect(host.fetches() - before).toBe(2)
	})

	test('strangers naming addresses on the app’s host at /oauth/authorize spend only the authorization budget: the app’s refreshes still reach its document, a day later too', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'max-age=60' })
		const tokens = await connect(ctx, host.clientId)
		await awayFromMinuteEdge()
		// No sign-in needed: the document is fetched (and the host's budget spent) before anything else.
		const strangers = async () => {
			for (let i = 0; i < 31; i++) {
				const request = await authorizationRequest(ctx, { client_id: `${host.origin}/stranger/${i}.json` } as oauth.Client, LOOPBACK_REDIRECT)
				await ctx.http(request.url.href, { headers: { 'x-forwarded-for': uniqueAddress() } })
			}
		}
		clock.advance(2 * 60_000)
		await strangers()
		const during = await refresh(ctx, host.clientId, tokens.refresh_token)
		expect(during.status).toBe(200)
		const fetched = host.fetches()
		clock.advance(25 * 3_600_000)
		await strangers()
		const late = await refresh(ctx, host.clientId, during.json.refresh_token)
		expect([late.status, late.json.error_description]).toEqual([200, undefined])
		expect(host.fetches()).toBeGreaterThan(fetched)
	})
})

describe('a document’s grant_types', () => {
	test('without refresh_token: an access token alone, and a refresh is unauthorized_client; grants Benchline does not have are ignored; left out, both', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'max-age=300' })
		host.publish({ grant_types: ['authorization_code'] })
		const tokens = await connect(ctx, host.clientId)
		expect(tokens.access_token).toStartWith('bl_at_')
		expect(tokens.refresh_token).toBeUndefined()
		expect(await mcpStatus(ctx, tokens.access_token)).toBe(200)
		const refused = await refresh(ctx, host.clientId, newCredential('rt'))
		expect([refused.status, refused.json.error]).toEqual([400, 'unauthorized_client'])

		// A document written for many servers lists a grant Benchline does not have: ignored.
		const wide = documentHost({ 'cache-control': 'max-age=300' })
		wide.publish({ grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'] })
		const kept = await connect(ctx, wide.clientId)
		expect((await refresh(ctx, wide.clientId, kept.refresh_token)).status).toBe(200)
		// Left out (documents published before grant_types was read): both, as for a registration.
		const older = documentHost({ 'cache-control': 'max-age=300' })
		expect((await refresh(ctx, older.clientId, (await connect(ctx, older.clientId)).refresh_token)).status).toBe(200)
	})

	test('a document that drops refresh_token: the refresh after its copy is stale is unauthorized_client; without authorization_code it is not valid', async () => {
		const ctx = await authServer()
		const host = documentHost({ 'cache-control': 'no-store' })
		const tokens = await connect(ctx, host.clientId)
		const fetched = host.fetches()
		clock.advance(61_000)
		host.publish({ grant_types: ['authorization_code'] })
		const refused = await refresh(ctx, host.clientId, tokens.refresh_token)
		expect([refused.status, refused.json.error]).toEqual([400, 'unauthorized_client'])
		expect(host.fetches()).toBe(fetched + 1)

		const other = documentHost({ 'cache-control': 'no-store' })
		const connected = await connect(ctx, other.clientId)
		clock.advance(61_000)
		other.publish({ grant_types: ['refresh_token'] })
		const invalid = await refresh(ctx, other.clientId, connected.refresh_token)
		expect([invalid.status, invalid.json.error]).toEqual([401, 'invalid_client'])
		expect(invalid.json.error_description).toContain('grant_types must include authorization_code')
	})
})
