/**
 * "Connect an assistant" (issue 15): the API access page shows the MCP address and, for Claude,
 * ChatGPT, VS Code, Cursor and Claude Code, text to paste that is valid (JSON parses, commands split
 * into the right words) with this server's address filled in, and never a real token; the protected
 * resource metadata's `resource_documentation` is a public page of this server about it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { TOKEN_PLACEHOLDER } from './connect.ts'

const BASE = 'http://localhost:3000'
const ADDRESS = `${BASE}/api/mcp`

beforeAll(async () => {
	await portalApp()
})

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
/** The copyable texts of a page, by element id. */
const snippets = (page: string) => new Map([...page.matchAll(/<pre id="([^"]+)">([\s\S]*?)<\/pre>/g)].map((m) => [m[1]!, unescape(m[2]!)]))

function checkSetups(texts: Map<string, string>, prefix: string) {
	expect(texts.get('mcp-address')).toBe(ADDRESS)
	expect(texts.get(`${prefix}-claude-snippet`)).toBe(ADDRESS)
	expect(texts.get(`${prefix}-chatgpt-snippet`)).toBe(ADDRESS)
	const vscode = JSON.parse(texts.get(`${prefix}-vscode-snippet`)!)
	expect(vscode).toEqual({ servers: { benchline: { type: 'http', url: ADDRESS } } })
	const vscodeToken = JSON.parse(texts.get(`${prefix}-vscode-token`)!)
	expect(vscodeToken.servers.benchline).toEqual({ type: 'http', url: ADDRESS, headers: { Authorization: 'Bearer ${input:benchline-token}' } })
	expect(vscodeToken.inputs[0]).toMatchObject({ id: 'benchline-token', type: 'promptString', password: true })
	expect(JSON.parse(texts.get(`${prefix}-cursor-snippet`)!)).toEqual({ mcpServers: { benchline: { url: ADDRESS } } })
	expect(JSON.parse(texts.get(`${prefix}-cursor-token`)!)).toEqual({ mcpServers: { benchline: { url: ADDRESS, headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } } })
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
		expect(page).toContain(ADDRESS)
		checkSetups(snippets(page), 'help')
		await testDeps()
	})
})
