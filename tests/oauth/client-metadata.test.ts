/**
 * Client ID Metadata Documents: an app known by the https address of a JSON document it publishes
 * (served here by a local HTTP server, so OAUTH_CLIENT_METADATA_ALLOW_PRIVATE is on). The official
 * MCP clients run their own flow with that address as client_id (no registration), consent shows the
 * document's host and says the app is new to the workspace, tools answer, Disconnect works. A document
 * that cannot be used gets a page saying why; its Cache-Control is honoured; without the switch, only
 * public https addresses are fetched.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { clock, serveAppWith, unique } from '../helpers.ts'
import { BUN, ROOT } from '../reliability/processes.ts'
import { testAuthority } from '../test-ca.ts'
import { callbackServer, type Callback } from './browser-flow.ts'

setDefaultTimeout(120_000)

/** The documents the apps publish, by path, with the headers and status they are served with. */
const documents = new Map<string, { body: string; status?: number; headers?: Record<string, string> }>()
const fetched: string[] = []
const docServer = Bun.serve({
	hostname: '127.0.0.1',
	port: 0,
	fetch(request) {
		const path = new URL(request.url).pathname
		fetched.push(path)
		const doc = documents.get(path)
		if (!doc) return new Response('not found', { status: 404 })
		return new Response(doc.body, { status: doc.status ?? 200, headers: { 'content-type': 'application/json', ...doc.headers } })
	},
})
const docBase = `http://127.0.0.1:${docServer.port}`

function publish(path: string, fields: Record<string, unknown>, headers?: Record<string, string>) {
	const url = `${docBase}${path}`
	documents.set(path, { body: JSON.stringify({ client_id: url, ...fields }), headers })
	return url
}

let callback: Callback
let app: { url: string }
beforeAll(async () => {
	callback = callbackServer()
	app = await serveAppWith({ OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: 'on' })
}, 60_000)
afterAll(() => {
	callback.stop()
	docServer.stop(true)
})

describe('the official MCP clients sign in as metadata-document clients', () => {
	// Both SDKs take only an https:// document address: the flows run in a child test process that
	// trusts a test authority (NODE_EXTRA_CA_CERTS is read when Bun starts), with the document served
	// over https as "localhost" (tests/oauth/client-metadata-flow.test.ts).
	test('no registration; consent names the document’s host; tools answer; Disconnect stops it (v1 and v2 clients)', async () => {
		const authority = testAuthority()
		try {
			const { keyFile, certFile } = authority.certificate('localhost')
			const child = Bun.spawn([BUN, 'test', '--timeout', '120000', 'tests/oauth/client-metadata-flow.test.ts'], {
				cwd: ROOT,
				env: { ...process.env, NODE_EXTRA_CA_CERTS: authority.caFile, CIMD_FLOW_KEY: keyFile, CIMD_FLOW_CERT: certFile },
				stdout: 'pipe',
				stderr: 'pipe',
			})
			const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
			const said = `${out}\n${err}`
			if (code !== 0) throw new Error(`the flows failed (${code}):\n${said.slice(-4000)}`)
			expect(said).toMatch(/^\s*2 pass$/m)
			expect(said).toMatch(/^\s*0 fail$/m)
		} finally {
			authority.remove()
		}
	}, 300_000)
})

/** The authorization page an anonymous visitor gets for this client and redirect (before any sign-in). */
async function authorizePage(base: string, clientId: string, redirectUri = callback.redirectUri) {
	const q = new URLSearchParams({
		client_id: clientId,
		redirect_uri: redirectUri,
		response_type: 'code',
		code_challenge: 'a'.repeat(43),
		code_challenge_method: 'S256',
	})
	const res = await fetch(`${base}/oauth/authorize?${q}`, { redirect: 'manual' })
	return { status: res.status, location: res.headers.get('location'), text: (await res.text()).replace(/\s+/g, ' ') }
}

describe('documents that cannot be used, and caching', () => {
	test('the authorization server says it takes metadata documents; dynamic registration still works', async () => {
		const meta = await (await fetch(`${app.url}/.well-known/oauth-authorization-server`)).json()
		expect(meta.client_id_metadata_document_supported).toBe(true)
		const reg = await fetch(`${app.url}/oauth/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ redirect_uris: [callback.redirectUri], client_name: 'Old style' }),
		})
		expect(reg.status).toBe(201)
	})

	test('unreachable, not valid, too large, a redirect, and a redirect_uri it does not list: a page that says which', async () => {
		const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
		const gone = `http://127.0.0.1:${closed.port}/client.json`
		closed.stop(true)
		expect((await authorizePage(app.url, gone)).text).toContain('could not read this app’s client metadata document')

		const wrongId = `${docBase}/wrong-id.json`
		documents.set('/wrong-id.json', { body: JSON.stringify({ client_id: `${docBase}/other.json`, client_name: 'X', redirect_uris: [callback.redirectUri] }) })
		const wrong = await authorizePage(app.url, wrongId)
		expect(wrong.status).toBe(400)
		expect(wrong.text).toContain('is not valid: its client_id is not the address it was fetched from')
		expect(wrong.location).toBeNull()

		const noName = publish('/no-name.json', { redirect_uris: [callback.redirectUri] })
		expect((await authorizePage(app.url, noName)).text).toContain('client_name must be 1 to 100 characters')
		const secretClient = publish('/secret.json', { client_name: 'S', redirect_uris: [callback.redirectUri], token_endpoint_auth_method: 'client_secret_basic' })
		expect((await authorizePage(app.url, secretClient)).text).toContain('token_endpoint_auth_method must be &quot;none&quot;')
		// Fields no database or page can take as they are: the same "not valid" page, never a server error.
		const hostile: [Record<string, unknown>, string][] = [
			[{ token_endpoint_auth_method: { toString: 1 } }, 'token_endpoint_auth_method must be &quot;none&quot;'],
			[{ logo_uri: 'https://a.example/\u0000' }, 'logo_uri must be an https:// address'],
			[{ client_uri: 'https://a.example/\ud800' }, 'client_uri must be an https:// address'],
			[{ client_uri: 'https://a.example/\u202egpj.exe' }, 'client_uri must be an https:// address'],
			[{ client_name: 'App \udc00' }, 'client_name contains text that cannot be stored'],
			[{ client_name: '\u3164\u00ad' }, 'client_name must be 1 to 100 characters'],
			[{ redirect_uris: [`${callback.redirectUri}\u202e`] }, 'every redirect_uris entry must be'],
		]
		for (const [fields, why] of hostile) {
			const url = publish(`/hostile-${unique('h')}.json`, { client_name: 'H', redirect_uris: [callback.redirectUri], ...fields })
			const page = await authorizePage(app.url, url)
			expect({ fields, status: page.status, why: page.text.includes(why), location: page.location }).toEqual({ fields, status: 400, why: true, location: null })
			expect(page.text).toContain('is not valid')
		}
		const notJson = `${docBase}/not-json.json`
		documents.set('/not-json.json', { body: '<html>' })
		expect((await authorizePage(app.url, notJson)).text).toContain('it is not JSON')

		const large = publish('/large.json', { client_name: 'L', redirect_uris: [callback.redirectUri], padding: 'x'.repeat(6000) })
		expect((await authorizePage(app.url, large)).text).toContain('larger than 5 KiB')

		documents.set('/moved.json', { body: '', status: 302, headers: { location: `${docBase}/elsewhere.json` } })
		expect((await authorizePage(app.url, `${docBase}/moved.json`)).text).toContain('redirect (302), which is not followed')

		const listed = publish('/listed.json', { client_name: 'Listed', redirect_uris: ['http://127.0.0.1:9/cb'] })
		const unlisted = await authorizePage(app.url, listed, callback.redirectUri)
		expect(unlisted.text).toContain('which its client metadata document')
		expect(unlisted.text).toContain('does not list in redirect_uris')
		expect(unlisted.location).toBeNull()
		// Exactly: a loopback address on another port is not the one listed.
		expect((await authorizePage(app.url, listed, 'http://127.0.0.1:10/cb')).text).toContain('does not list')
		// A client_id without a path is a site, not a document.
		expect((await authorizePage(app.url, docBase)).text).toContain('it must have a path')
	})

	test('Cache-Control is honoured (max-age, at most a day; no-store fetches each time)', async () => {
		const path = `/cached-${unique('c')}.json`
		const cached = publish(path, { client_name: 'Cached', redirect_uris: [callback.redirectUri] }, { 'cache-control': 'public, max-age=600' })
		const count = () => fetched.filter((p) => p === path).length
		// Anonymous: the page sends the person to sign in, the document having been read and found good.
		expect((await authorizePage(app.url, cached)).status).toBe(303)
		expect((await authorizePage(app.url, cached)).status).toBe(303)
		expect(count()).toBe(1)
		clock.advance(11 * 60_000)
		await authorizePage(app.url, cached)
		expect(count()).toBe(2)
		clock.reset()
		const noStorePath = `/nostore-${unique('c')}.json`
		const noStore = publish(noStorePath, { client_name: 'Fresh', redirect_uris: [callback.redirectUri] }, { 'cache-control': 'no-store' })
		await authorizePage(app.url, noStore)
		await authorizePage(app.url, noStore)
		expect(fetched.filter((p) => p === noStorePath)).toHaveLength(2)
	})

	test('without OAUTH_CLIENT_METADATA_ALLOW_PRIVATE, an http:// or private address is never fetched', async () => {
		const plain = await serveAppWith({})
		const path = `/private-${unique('p')}.json`
		const local = publish(path, { client_name: 'Local', redirect_uris: [callback.redirectUri] })
		expect((await authorizePage(plain.url, local)).text).toContain('must be an https:// address')
		const https = `https://127.0.0.1:${docServer.port}${path}`
		expect((await authorizePage(plain.url, https)).text).toMatch(/could not read this app’s client metadata document/)
		expect(fetched.filter((p) => p === path)).toHaveLength(0)
	})
})
