/**
 * Each official MCP client runs its own OAuth flow against the running server, end to end:
 * discovery from the 401, dynamic registration, PKCE, a real sign-in and "Allow" in headless
 * Chromium, the token exchange, tool calls, a refresh after the access token expired (test clock),
 * revocation (RFC 7009), and Disconnect on the API access page killing the tokens at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import type { BrowserContext } from 'playwright-core'
import { closeBrowser, newContext } from '../browser.ts'
import { clock, newPerson, newWorkspace, serveApp, unique } from '../helpers.ts'
import { callbackServer, recordingFetch, TestOAuthProvider, type Callback } from './browser-flow.ts'

// A browser, a database start and two sign-ins per test: far more than the CLI default on a busy machine.
setDefaultTimeout(120_000)

type AnyClient = {
	connect(t: any): Promise<void>
	close(): Promise<void>
	listTools(): Promise<{ tools: { name: string }[] }>
	callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<any>
}

interface Generation {
	label: string
	newClient(): AnyClient
	newTransport(url: URL, provider: TestOAuthProvider, log: string[]): any
	finish(transport: any, provider: TestOAuthProvider): Promise<void>
}

const generations: Generation[] = [
	{
		label: '@modelcontextprotocol/sdk 1.x',
		newClient: () => new ClientV1({ name: 'oauth-e2e-v1', version: '1.0.0' }) as unknown as AnyClient,
		newTransport: (url, provider, log) => new TransportV1(url, { authProvider: provider as never, fetch: recordingFetch(log) }),
		// v1 takes the code (it does not check `iss`).
		finish: (transport, provider) => transport.finishAuth(provider.lastCallback!.get('code')!),
	},
	{
		label: '@modelcontextprotocol/client 2.x',
		newClient: () => new ClientV2({ name: 'oauth-e2e-v2', version: '1.0.0' }) as unknown as AnyClient,
		newTransport: (url, provider, log) => new TransportV2(url, { authProvider: provider as never, fetch: recordingFetch(log) }),
		// v2 takes the whole callback query and checks `iss` against the issuer (RFC 9207).
		finish: (transport, provider) => transport.finishAuth(provider.lastCallback!),
	},
]

let context: BrowserContext
let callback: Callback

beforeAll(async () => {
	context = await newContext()
	callback = callbackServer()
}, 60_000)
afterAll(async () => {
	callback.stop()
	await context.close()
	await closeBrowser()
})
afterEach(() => clock.reset())

/** First contact: the server answers 401, the SDK discovers, registers and sends the person to consent. */
async function authorize(gen: Generation, mcpUrl: URL, provider: TestOAuthProvider, log: string[]) {
	const first = gen.newClient()
	await expect(first.connect(gen.newTransport(mcpUrl, provider, log))).rejects.toThrow(/unauthori[sz]ed/i)
	const transport = gen.newTransport(mcpUrl, provider, log)
	await gen.finish(transport, provider)
	const client = gen.newClient()
	await client.connect(gen.newTransport(mcpUrl, provider, log))
	return client
}

async function mcpStatus(url: string, token: string) {
	const res = await fetch(`${url}/api/mcp`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
	})
	await res.body?.cancel()
	return res.status
}

describe.each(generations)('$label runs its own OAuth flow', (gen) => {
	test('discovery, registration, PKCE, browser consent, tools, refresh, revocation, Disconnect', async () => {
		const { url } = await serveApp()
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'owner')
		await context.clearCookies()
		const appName = unique('Assistant ')
		const provider = new TestOAuthProvider(appName, callback, { context, person })
		const log: string[] = []
		const mcpUrl = new URL(`${url}/api/mcp`)

		// 1. Discovery from the 401, registration, PKCE, sign-in and Allow in the browser, token.
		const client = await authorize(gen, mcpUrl, provider, log)
		expect(log[0]).toBe('POST /api/mcp 401')
		expect(log.some((l) => /^GET \/\.well-known\/oauth-protected-resource(\/api\/mcp)? 200$/.test(l))).toBe(true)
		expect(log).toContain('GET /.well-known/oauth-authorization-server 200')
		expect(log).toContain('POST /oauth/register 201')
		expect(log.filter((l) => l === 'POST /oauth/token 200')).toHaveLength(1)
		expect(provider.clientInfo?.token_endpoint_auth_method).toBe('none')
		const authUrl = provider.authorizationUrls[0]!
		expect(authUrl.origin + authUrl.pathname).toBe(`${url}/oauth/authorize`)
		expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256')
		expect(authUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
		expect(authUrl.searchParams.get('resource')).toBe(`${url}/api/mcp`)
		expect(authUrl.searchParams.get('client_id')).toBe(provider.clientInfo!.client_id)
		expect(provider.lastConsent!.signedIn).toBe(true)
		expect(provider.lastConsent!.consentText).toContain(appName)
		expect(provider.lastConsent!.consentText).toContain('127.0.0.1')
		expect(provider.lastCallback!.get('iss')).toBe(url)
		const firstTokens = provider.saved!
		expect(firstTokens.access_token).toMatch(/^bl_at_/)
		expect(firstTokens.refresh_token).toMatch(/^bl_rt_/)
		expect(firstTokens.expires_in).toBe(3600)

		// 2. Tool calls with the access token.
		const { tools } = await client.listTools()
		expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_job', 'list_jobs']))
		const created = await client.callTool({ name: 'create_job', arguments: { title: `OAuth ${gen.label}` } })
		expect(created.isError).toBeFalsy()
		const listed = await client.callTool({ name: 'list_jobs', arguments: {} })
		expect(listed.structuredContent.jobs.map((j: { title: { text: string } }) => j.title.text)).toContain(`OAuth ${gen.label}`)

		// 3. An hour later the access token has expired: the SDK refreshes (rotation) and retries.
		clock.advance(61 * 60_000)
		expect(await mcpStatus(url, firstTokens.access_token)).toBe(401)
		const again = await client.callTool({ name: 'list_jobs', arguments: {} })
		expect(again.isError).toBeFalsy()
		expect(log.filter((l) => l === 'POST /oauth/token 200')).toHaveLength(2)
		const refreshed = provider.saved!
		expect(refreshed.access_token).not.toBe(firstTokens.access_token)
		expect(refreshed.refresh_token).not.toBe(firstTokens.refresh_token)

		// 4. Revocation (RFC 7009): the next call is 401 and the refresh fails, so the SDK asks for a new consent.
		const revoked = await fetch(`${url}/oauth/revoke`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ token: refreshed.refresh_token, client_id: provider.clientInfo!.client_id }),
		})
		expect(revoked.status).toBe(200)
		expect(await mcpStatus(url, refreshed.access_token)).toBe(401)
		provider.interactive = false
		const consentsBefore = provider.authorizationUrls.length
		const mark = log.length
		await expect(client.callTool({ name: 'list_jobs', arguments: {} })).rejects.toThrow()
		expect(log.slice(mark)[0]).toBe('POST /api/mcp 401')
		expect(log.slice(mark)).toContain('POST /oauth/token 400')
		expect(provider.authorizationUrls.length).toBe(consentsBefore + 1)
		await client.close()

		// 5. Connect again (already signed in: straight to consent), then Disconnect on the API access page.
		provider.interactive = true
		const second = await authorize(gen, mcpUrl, provider, log)
		expect(provider.lastConsent!.signedIn).toBe(false)
		expect((await second.callTool({ name: 'list_jobs', arguments: {} })).isError).toBeFalsy()
		const live = provider.saved!
		const page = await context.newPage()
		page.on('dialog', (dialog) => dialog.accept())
		await page.goto(`${url}/settings/api`)
		const row = page.locator('tr', { hasText: appName })
		expect(await row.count()).toBe(1)
		await Promise.all([page.waitForURL((u) => u.searchParams.get('done') === 'disconnected'), row.locator('button', { hasText: 'Disconnect' }).click()])
		expect(await page.textContent('[role=status]')).toContain('disconnected')
		expect(await page.locator('tr', { hasText: appName }).count()).toBe(0)
		await page.close()
		expect(await mcpStatus(url, live.access_token)).toBe(401)
		provider.interactive = false
		await expect(second.callTool({ name: 'list_jobs', arguments: {} })).rejects.toThrow()
		const refresh = await fetch(`${url}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: live.refresh_token, client_id: provider.clientInfo!.client_id }),
		})
		expect(refresh.status).toBe(400)
		expect((await refresh.json()).error).toBe('invalid_grant')
		await second.close()
	})
})

test('v2 client steps up from read-only access when it needs to write', async () => {
	const { url } = await serveApp()
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'owner')
	await context.clearCookies()
	const provider = new TestOAuthProvider(unique('Reader '), callback, { context, person })
	provider.choice = { readOnly: true }
	const log: string[] = []
	const client = await authorize(generations[1]!, new URL(`${url}/api/mcp`), provider, log)
	const { tools } = await client.listTools()
	expect(tools.map((t) => t.name)).toContain('list_jobs')
	expect(tools.map((t) => t.name)).not.toContain('create_job')
	// The write call gets 403 insufficient_scope; the SDK sends the person to consent again.
	provider.choice = {}
	await expect(client.callTool({ name: 'create_job', arguments: { title: 'After step-up' } })).rejects.toThrow()
	expect(log).toContain('POST /api/mcp 403')
	expect(provider.authorizationUrls.length).toBe(2)
	expect(provider.authorizationUrls[1]!.searchParams.get('scope')?.split(' ')).toContain('mcp')
	await client.close()
	const gen = generations[1]!
	await gen.finish(gen.newTransport(new URL(`${url}/api/mcp`), provider, log), provider)
	const writer = gen.newClient()
	await writer.connect(gen.newTransport(new URL(`${url}/api/mcp`), provider, log))
	expect((await writer.listTools()).tools.map((t) => t.name)).toContain('create_job')
	const created = await writer.callTool({ name: 'create_job', arguments: { title: 'After step-up' } })
	expect(created.isError).toBeFalsy()
	await writer.close()
})
