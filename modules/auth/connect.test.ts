/**
 * "Connect an assistant" (issue 15): the API access page shows the MCP address and, for Claude,
 * ChatGPT, VS Code, Cursor and Claude Code, text to paste that is valid (JSON parses, commands split
 * into the right words) with this server's address filled in, and never a real token; the protected
 * resource metadata's `resource_documentation` is a public page of this server about it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { visibleTools } from '../../core/mcp/handler.ts'
import { TOKEN_PLACEHOLDER } from './connect.ts'
import { personActor } from './tokens.ts'

const BASE = 'http://localhost:3000'
const ADDRESS = `${BASE}/api/mcp`

beforeAll(async () => {
	await portalApp()
})

const unescapeHtml = (s: string) =>
	s
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')
/** The copyable texts of a page, by element id. */
const snippets = (page: string) =>
	new Map([...page.matchAll(/<pre id="([^"]+)">([\s\S]*?)<\/pre>/g)].map((m) => [m[1]!, unescapeHtml(m[2]!.replaceAll('<wbr>', ''))]))

function checkSetups(texts: Map<string, string>, prefix: string) {
	expect(texts.get('mcp-address')).toBe(ADDRESS)
	expect(texts.get(`${prefix}-claude-snippet`)).toBe(ADDRESS)
	expect(texts.get(`${prefix}-chatgpt-snippet`)).toBe(ADDRESS)
	const vscode = JSON.parse(texts.get(`${prefix}-vscode-snippet`)!)
	expect(vscode).toEqual({ servers: { benchline: { type: 'http', url: ADDRESS } } })
	const vscodeToken = JSON.parse(texts.get(`${prefix}-vscode-token`)!)
	// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own input-variable syntax
	expect(vscodeToken.servers.benchline).toEqual({ type: 'http', url: ADDRESS, headers: { Authorization: 'Bearer ${input:benchline-token}' } })
	expect(vscodeToken.inputs[0]).toMatchObject({ id: 'benchline-token', type: 'promptString', password: true })
	expect(JSON.parse(texts.get(`${prefix}-cursor-snippet`)!)).toEqual({ mcpServers: { benchline: { url: ADDRESS } } })
	expect(JSON.parse(texts.get(`${prefix}-cursor-token`)!)).toEqual({
		mcpServers: { benchline: { url: ADDRESS, headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } },
	})
	expect(texts.get(`${prefix}-claude-code-snippet`)!.split(' ')).toEqual(['claude', 'mcp', 'add', '--transport', 'http', 'benchline', ADDRESS])
	const withHeader = texts.get(`${prefix}-claude-code-token`)!
	expect(withHeader.startsWith(`claude mcp add --transport http benchline ${ADDRESS} --header `)).toBe(true)
	expect(withHeader.endsWith(`"Authorization: Bearer ${TOKEN_PLACEHOLDER}"`)).toBe(true)
	for (const text of texts.values()) expect(text).not.toMatch(/bl_(pat|at|rt)_/)
}

describe('connect an assistant', () => {
	test('the API access page has the panel: the address with Copy, and valid set-up text for each app', async () => {
		const ws = await newWorkspace()
		const client = await signedIn(await newPerson(ws, 'recruiter'))
		// A real token exists: the panel still shows only the placeholder.
		await client.submit('/settings/api/tokens', { name: 'Laptop' })
		const page = await client.get('/settings/api')
		expect(page.status).toBe(200)
		expect(page.text).toContain('<h2 id="connect">Connect an assistant</h2>')
		expect(page.text).toContain('data-copy="mcp-address"')
		checkSetups(snippets(page.text), 'setup')
	})

	test('the protected resource metadata documents the connection on a public page of this server', async () => {
		const { app } = await portalApp()
		const metadata = (await (await app.handle(new Request(`${BASE}/.well-known/oauth-protected-resource`))).json()) as { resource_documentation: string }
		expect(metadata.resource_documentation).toBe(`${BASE}/help/assistants`)
		const res = await app.handle(new Request(metadata.resource_documentation))
		expect(res.status).toBe(200)
		const page = await res.text()
		// The address is shown with break points after its slashes (<wbr>), copied whole.
		expect(page.replaceAll('<wbr>', '')).toContain(ADDRESS)
		checkSetups(snippets(page), 'help')
		await testDeps()
	})
})

describe('test connection: the portal session may look at /api/mcp, never call tools', () => {
	const rpc = (method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
	const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }
	const answer = async (res: { text: string }) => {
		const data = res.text.trim().startsWith('{')
			? res.text
			: res.text
					.split('\n')
					.filter((l) => l.startsWith('data:'))
					.map((l) => l.slice(5))
					.join('')
		return JSON.parse(data)
	}

	test('initialize names the session’s workspace and role; tools/list has the role’s tools; tools/call is refused', async () => {
		const ws = await newWorkspace()
		for (const role of ['recruiter', 'viewer'] as const) {
			const person = await newPerson(ws, role)
			const client = await signedIn(person)
			const headers = { ...mcpHeaders, 'x-benchline-connection-test': client.csrf }
			const init = await client.request('POST', '/api/mcp', {
				headers,
				body: rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
			})
			expect(init.status).toBe(200)
			expect((await answer(init)).result.instructions).toContain(`You act in the workspace "${ws.slug}" as a person with the role ${role}.`)
			const list = await client.request('POST', '/api/mcp', { headers, body: rpc('tools/list') })
			const deps = await testDeps()
			const expected = visibleTools(deps, deps.registry.tools, await personActor(deps, ws.slug, person.email))
			expect(expected.length).toBeGreaterThan(0)
			expect((await answer(list)).result.tools.length).toBe(expected.length)
			const call = await client.request('POST', '/api/mcp', { headers, body: rpc('tools/call', { name: 'list_jobs', arguments: {} }) })
			expect(call.status).toBe(403)
			expect(call.text).toContain('can only test the connection')
		}
	})

	test('without the session’s CSRF token, or from another site, or signed out: refused', async () => {
		const ws = await newWorkspace()
		const client = await signedIn(await newPerson(ws, 'owner'))
		const body = rpc('tools/list')
		expect((await client.request('POST', '/api/mcp', { headers: { ...mcpHeaders, 'x-benchline-connection-test': 'wrong' }, body })).status).toBe(403)
		expect(
			(
				await client.request('POST', '/api/mcp', {
					headers: { ...mcpHeaders, 'x-benchline-connection-test': client.csrf, origin: 'https://evil.example' },
					body,
				})
			).status,
		).toBe(403)
		// No header: the session cookie alone is no credential for /api/mcp.
		expect((await client.request('POST', '/api/mcp', { headers: mcpHeaders, body })).status).toBe(401)
		const { app } = await portalApp()
		const anonymous = await app.handle(
			new Request(`${BASE}/api/mcp`, { method: 'POST', headers: { ...mcpHeaders, 'x-benchline-connection-test': client.csrf }, body }),
		)
		expect(anonymous.status).toBe(401)
	})
})
