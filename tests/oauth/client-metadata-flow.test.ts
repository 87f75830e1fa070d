/**
 * The official MCP clients (v1 and v2) run their own OAuth flow with a metadata document's https
 * address as client_id. Run by tests/oauth/client-metadata.test.ts in a child process that trusts a
 * test authority (CIMD_FLOW_KEY and CIMD_FLOW_CERT: a certificate for "localhost"); skipped otherwise.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import type { BrowserContext } from 'playwright-core'
import { closeBrowser, newContext } from '../browser.ts'
import { newPerson, newWorkspace, serveAppWith, unique } from '../helpers.ts'
import { signedIn } from '../portal.ts'
import { callbackServer, recordingFetch, TestOAuthProvider, type Callback } from './browser-flow.ts'

setDefaultTimeout(120_000)

const tls = process.env.CIMD_FLOW_KEY && process.env.CIMD_FLOW_CERT ? { key: process.env.CIMD_FLOW_KEY, cert: process.env.CIMD_FLOW_CERT } : null

const documents = new Map<string, string>()
let docBase = ''
let docServer: https.Server | undefined

function publish(path: string, fields: Record<string, unknown>) {
	const url = `${docBase}${path}`
	documents.set(path, JSON.stringify({ client_id: url, ...fields }))
	return url
}

class DocumentProvider extends TestOAuthProvider {
	constructor(
		name: string,
		callback: Callback,
		browser: ConstructorParameters<typeof TestOAuthProvider>[2],
		readonly clientMetadataUrl: string,
	) {
		super(name, callback, browser)
	}
}

let context: BrowserContext
let callback: Callback
let app: { url: string }
beforeAll(async () => {
	if (!tls) return
	docServer = https.createServer({ key: readFileSync(tls.key), cert: readFileSync(tls.cert) }, (req, res) => {
		const doc = documents.get(new URL(req.url ?? '/', 'https://localhost').pathname)
		res.statusCode = doc ? 200 : 404
		res.setHeader('content-type', 'application/json')
		res.end(doc ?? 'not found')
	})
	await new Promise<void>((done) => docServer!.listen(0, '127.0.0.1', done))
	docBase = `https://localhost:${(docServer.address() as AddressInfo).port}`
	context = await newContext()
	callback = callbackServer()
	app = await serveAppWith({ OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: 'on' })
}, 60_000)
afterAll(async () => {
	if (!tls) return
	callback.stop()
	docServer?.close()
	await context.close()
	await closeBrowser()
})

const generations = [
	{
		label: '@modelcontextprotocol/sdk 1.x',
		newClient: () => new ClientV1({ name: 'cimd-v1', version: '1.0.0' }) as any,
		newTransport: (url: URL, provider: TestOAuthProvider, log: string[]) =>
			new TransportV1(url, { authProvider: provider as never, fetch: recordingFetch(log) }),
		finish: (transport: any, provider: TestOAuthProvider) => transport.finishAuth(provider.lastCallback!.get('code')!),
	},
	{
		label: '@modelcontextprotocol/client 2.x',
		newClient: () => new ClientV2({ name: 'cimd-v2', version: '1.0.0' }) as any,
		newTransport: (url: URL, provider: TestOAuthProvider, log: string[]) =>
			new TransportV2(url, { authProvider: provider as never, fetch: recordingFetch(log) }),
		finish: (transport: any, provider: TestOAuthProvider) => transport.finishAuth(provider.lastCallback!),
	},
]

describe.skipIf(!tls).each(generations)('$label signs in as a metadata-document client', (gen) => {
	test('no registration; consent names the document’s host and says the app is new here; tools answer; Disconnect stops it', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'owner')
		await context.clearCookies()
		const appName = unique('Doc Assistant ')
		const clientId = publish(`/apps/${unique('a')}/client.json`, {
			client_name: appName,
			redirect_uris: [callback.redirectUri],
			client_uri: 'https://assistant.example/',
		})
		const provider = new DocumentProvider(appName, callback, { context, person }, clientId)
		const log: string[] = []
		const mcpUrl = new URL(`${app.url}/api/mcp`)

		const first = gen.newClient()
		await expect(first.connect(gen.newTransport(mcpUrl, provider, log))).rejects.toThrow(/unauthori[sz]ed/i)
		await gen.finish(gen.newTransport(mcpUrl, provider, log), provider)
		const client = gen.newClient()
		await client.connect(gen.newTransport(mcpUrl, provider, log))

		expect(log).not.toContain('POST /oauth/register 201')
		expect(provider.authorizationUrls[0]!.searchParams.get('client_id')).toBe(clientId)
		expect(provider.lastConsent!.consentText).toContain(appName)
		expect(provider.lastConsent!.consentText).toContain(new URL(docBase).host)
		expect(provider.lastConsent!.consentText).toContain('first time this app')
		const listed = await client.callTool({ name: 'list_jobs', arguments: {} })
		expect(listed.isError).toBeFalsy()

		// Connected apps lists it by its name; Disconnect (the client id is an address, escaped in the form's path) stops its tokens.
		const owner = await signedIn(person)
		const settings = await owner.get('/settings/api')
		expect(settings.text).toContain(appName)
		const action = `/settings/api/apps/${encodeURIComponent(clientId)}/${person.userId}/disconnect`
		expect(settings.text).toContain(action)
		expect((await owner.post(action)).status).toBe(303)
		const res = await fetch(mcpUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
		})
		expect(res.status).toBe(401)
		await client.close().catch(() => {})
	})
})
