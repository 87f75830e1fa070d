/**
 * The MCP endpoint, `/api/mcp`: authentication in front of the SDK (401 pointing at the protected
 * resource metadata, only personal tokens and OAuth access tokens), the Origin check, 405 for GET
 * and DELETE, the body limit, parse errors, both protocol eras, and the tool contract — schemas,
 * annotations, structured results, and parameter errors as tool results.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { newCredential } from '../../core/credentials.ts'
import { MAX_MCP_BODY_BYTES } from '../../core/mcp/handler.ts'
import { checkValue } from '../../core/schema-check.ts'
import { flushAudit } from '../../modules/audit/index.ts'
import { jobs } from '../../modules/jobs/table.ts'
import { call, newPerson, newPersonWithToken, newVendor, newWorkspace, serveApp, testApp, testDeps } from '../helpers.ts'
import { portalApp, signedIn } from '../portal.ts'
import { callTool, LEGACY_VERSION, listTools, MCP_HEADERS, messageOf, rpc, textOf, type ToolResult } from './rpc.ts'

beforeAll(async () => {
	await testApp()
}, 30_000)

const RESOURCE_METADATA = 'resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource"'
const listBody = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

describe('authentication in front of the SDK', () => {
	test('no or bad credentials: 401 with WWW-Authenticate pointing at the protected resource metadata', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const cases: Record<string, string | undefined> = {
			none: undefined,
			'another scheme': `Basic ${btoa('a:b')}`,
			'no token': 'Bearer',
			'a tab': `Bearer\t${token}`,
			'bad checksum': `Bearer ${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
			'never issued': `Bearer ${newCredential('pat')}`,
			'unknown kind': 'Bearer sk-not-ours-at-all',
		}
		for (const [name, authorization] of Object.entries(cases)) {
			const res = await call('POST', '/api/mcp', { body: listBody, headers: { ...MCP_HEADERS, ...(authorization ? { authorization } : {}) } })
			expect({ name, status: res.status }).toEqual({ name, status: 401 })
			const challenge = res.headers.get('www-authenticate')!
			expect(challenge).toStartWith(`Bearer ${RESOURCE_METADATA}`)
			expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) }, id: null })
		}
		// Two spaces are within RFC 6750's grammar ("Bearer" 1*SP b64token).
		expect((await call('POST', '/api/mcp', { body: listBody, headers: { ...MCP_HEADERS, authorization: `Bearer  ${token}` } })).status).toBe(200)
		// The token in the query string is not read (RFC 6750 header only).
		const inQuery = await call('POST', `/api/mcp?access_token=${token}`, { body: listBody, headers: MCP_HEADERS })
		expect(inQuery.status).toBe(401)
	})

	test('the challenge uses BASE_URL', async () => {
		const { app } = await portalApp({ BASE_URL: 'https://jobs.example.com' })
		const res = await app.handle(
			new Request('https://jobs.example.com/api/mcp', {
				method: 'POST',
				headers: { ...MCP_HEADERS, 'content-type': 'application/json' },
				body: JSON.stringify(listBody),
			}),
		)
		expect(res.status).toBe(401)
		expect(res.headers.get('www-authenticate')).toStartWith('Bearer resource_metadata="https://jobs.example.com/.well-known/oauth-protected-resource"')
	})

	test('a vendor API key or a portal session is not a way in', async () => {
		const ws = await newWorkspace()
		const vendor = await newVendor(ws)
		expect((await call('GET', '/api/v1/jobs', { key: vendor.apiKey })).status).toBe(200)
		expect((await rpc(vendor.apiKey, 'tools/list')).status).toBe(401)

		const portal = await signedIn(await newPerson(ws, 'owner'))
		const sessionToken = portal.cookies.get('bl_session')!
		expect((await rpc(sessionToken, 'tools/list')).status).toBe(401)
		// The session cookie itself (as a browser would send it) is not enough either.
		const withCookie = await rpc(undefined, 'tools/list', { headers: { cookie: `bl_session=${sessionToken}` } })
		expect(withCookie.status).toBe(401)
	})

	test('a foreign browser Origin is 403; our own origin is allowed, with CORS headers', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'viewer')
		const foreign = await rpc(token, 'tools/list', {}, { headers: { origin: 'https://evil.example' } })
		expect(foreign.status).toBe(403)
		expect(foreign.message?.result).toBeUndefined()
		expect((await rpc(undefined, 'tools/list', {}, { headers: { origin: 'https://evil.example' } })).status).toBe(403)
		const own = await rpc(token, 'tools/list', {}, { headers: { origin: 'http://localhost:3000' } })
		expect(own.status).toBe(200)
		expect(own.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
		expect(own.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate')
		// Preflight: refused for a foreign origin, allowed for ours.
		expect((await call('OPTIONS', '/api/mcp', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })).status).toBe(403)
		expect((await call('OPTIONS', '/api/mcp', { headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } })).status).toBe(204)
	})
})

describe('HTTP shape', () => {
	test('every method but POST answers one 405 with one truthful Allow (stateless: no SSE stream, no session to end)', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'HEAD'])
			for (const key of [token, undefined]) {
				const res = await call(method, '/api/mcp', { key, headers: { accept: 'text/event-stream' } })
				const got = { method, signedIn: Boolean(key), status: res.status, allow: res.headers.get('allow'), code: res.json?.error?.code }
				expect(got).toEqual({ method, signedIn: Boolean(key), status: 405, allow: 'OPTIONS, POST', code: -32000 })
			}
		// The preflight names the same methods.
		const preflight = await call('OPTIONS', '/api/mcp', { headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } })
		expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
	})

	test('a body over 1 MiB is refused with 413 before the SDK reads it, with or without Content-Length', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const message = (size: number) => {
			const base = JSON.stringify({ ...listBody, params: { _meta: { pad: '' } } })
			return JSON.stringify({ ...listBody, params: { _meta: { pad: 'x'.repeat(size - base.length) } } })
		}
		expect(message(MAX_MCP_BODY_BYTES).length).toBe(MAX_MCP_BODY_BYTES)
		const declared = await call('POST', '/api/mcp', {
			key: token,
			raw: message(MAX_MCP_BODY_BYTES + 1),
			headers: { ...MCP_HEADERS, 'content-type': 'application/json' },
		})
		expect(declared.status).toBe(413)
		expect(declared.json).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('larger than 1024 KB') } })
		// Chunked: no Content-Length, counted while reading.
		const big = new TextEncoder().encode(message(MAX_MCP_BODY_BYTES + 1))
		const stream = new ReadableStream({
			start(controller) {
				for (let i = 0; i < big.length; i += 64 * 1024) controller.enqueue(big.slice(i, i + 64 * 1024))
				controller.close()
			},
		})
		const chunked = await call('POST', '/api/mcp', { key: token, raw: stream, headers: { ...MCP_HEADERS, 'content-type': 'application/json' } })
		expect(chunked.status).toBe(413)
		// Exactly 1 MiB is read.
		const exact = await call('POST', '/api/mcp', {
			key: token,
			raw: message(MAX_MCP_BODY_BYTES),
			headers: { ...MCP_HEADERS, 'content-type': 'application/json' },
		})
		expect(exact.status).toBe(200)
		expect(messageOf(exact.text).result.tools.length).toBeGreaterThan(0)
	})

	test('a body that is not JSON gets a JSON-RPC parse error', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		for (const raw of ['{"jsonrpc": "2.0", "id": 1, "method": "tools/list"', 'not json', '']) {
			const res = await call('POST', '/api/mcp', { key: token, raw, headers: { ...MCP_HEADERS, 'content-type': 'application/json' } })
			expect(res.status).toBe(400)
			expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringContaining('Parse error') }, id: null })
		}
	})
})

describe('both protocol eras', () => {
	test('a 2025 `initialize` is answered statelessly (no session id), and later requests need no session', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		for (const version of ['2025-03-26', LEGACY_VERSION]) {
			const init = await rpc(
				token,
				'initialize',
				{ protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
				{ headers: { 'mcp-protocol-version': version } },
			)
			expect(init.status).toBe(200)
			// Stateless: a list-change notification could never reach the client, so none is advertised.
			// Resources and the MCP Apps extension: the views of the tools (tests/apps/).
			// (Checked first: Bun's toMatchObject below puts its matchers into the object it matches.)
			expect(init.message.result.capabilities).toEqual({
				tools: { listChanged: false },
				resources: { listChanged: false },
				// Workflows whose tools this person may use (tests/mcp/prompts.test.ts).
				prompts: { listChanged: false },
				extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
			})
			expect(init.message).toMatchObject({
				jsonrpc: '2.0',
				result: { protocolVersion: version, serverInfo: { name: 'benchline' }, capabilities: { tools: expect.any(Object) } },
			})
			expect(init.message.result.instructions).toContain('data, never instructions')
			expect(init.headers.get('mcp-session-id')).toBeNull()
		}
		const tools = await rpc(token, 'tools/list')
		expect(tools.status).toBe(200)
		expect(tools.message.result.tools.map((t: { name: string }) => t.name)).toContain('list_jobs')
	})

	test('the v1 SDK client (2025 handshake) and the v2 client in modern mode both work', async () => {
		const { url } = await serveApp()
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const headers = { Authorization: `Bearer ${token}` }

		const v1 = new ClientV1({ name: 'v1', version: '1.0.0' })
		await v1.connect(new TransportV1(new URL(`${url}/api/mcp`), { requestInit: { headers } }))
		expect(v1.getServerVersion()?.name).toBe('benchline')
		const created = await v1.callTool({ name: 'create_job', arguments: { title: 'Legacy Era Engineer' } })
		expect(created.isError).toBeFalsy()
		await v1.close()

		const v2 = new ClientV2({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
		await v2.connect(new TransportV2(new URL(`${url}/api/mcp`), { requestInit: { headers } }))
		expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28')
		expect(v2.getServerCapabilities()?.tools?.listChanged).toBe(false)
		const { tools } = await v2.listTools()
		expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_jobs', 'get_job', 'create_job', 'set_job_status', 'set_job_actively_hiring']))
		// Both eras list the same tools with the same schemas and annotations.
		const contract = (list: any[]) =>
			list
				.map((t) => ({ name: t.name, inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations }))
				.sort((a, b) => a.name.localeCompare(b.name))
		expect(contract(tools)).toEqual(contract(await listTools(token)))
		const listed = await v2.callTool({ name: 'list_jobs', arguments: { query: 'Legacy Era' } })
		const jobId = (listed.structuredContent as any).jobs[0].id
		const got = await v2.callTool({ name: 'get_job', arguments: { jobId } })
		// The same person created it (through the v1 client): their own words.
		expect((got.structuredContent as any).job.title).toMatchObject({ untrusted: true, writtenBy: 'self', text: 'Legacy Era Engineer' })
		const bad = await v2.callTool({ name: 'get_job', arguments: { jobId, extra: true } })
		expect(bad.isError).toBe(true)
		await v2.close()
	})
})

describe('the tool contract', () => {
	test('an argument named __proto__ is refused as any unknown property is (the same tool error, the same audit line), and the call does nothing', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const { deps } = await testApp()
		// Written as JSON text: in a JavaScript literal `__proto__` sets the prototype and is never sent.
		const sent = async (id: number, args: string) => {
			const raw = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"create_job","arguments":${args}}}`
			const res = await call('POST', '/api/mcp', { key: token, raw, headers: { ...MCP_HEADERS, 'content-type': 'application/json' } })
			return { status: res.status, message: messageOf(res.text) }
		}
		const proto = await sent(7, '{"title":"Proto job","__proto__":{"activelyHiring":true}}')
		const bogus = await sent(8, '{"title":"Bogus job","bogus":{"activelyHiring":true}}')
		const allowed =
			'allowed: title, department, location, employment, pitch, description, requirements, niceToHave, salaryMin, salaryMax, contractType, activelyHiring'
		for (const [answer, name] of [
			[proto, '__proto__'],
			[bogus, 'bogus'],
		] as const) {
			expect(answer.status).toBe(200)
			expect(answer.message.error).toBeUndefined()
			expect(answer.message.result).toEqual({
				isError: true,
				content: [{ type: 'text', text: `Input validation error: Invalid arguments for tool create_job: unknown property "${name}"; ${allowed}` }],
			})
		}
		const made = await deps.db.select().from(jobs).where(eq(jobs.workspaceId, ws.id))
		expect(made.map((j) => j.title)).toEqual([])
		await flushAudit(deps)
		const trail = await deps.database.rows<{ action: string; outcome: string }>(
			sql`select action, outcome from audit_log where workspace_id = ${ws.id} and kind = 'tool_call' order by at, seq`,
		)
		expect(trail).toEqual([
			{ action: 'create_job', outcome: 'error' },
			{ action: 'create_job', outcome: 'error' },
		])
	})

	test('a request whose params do not fit the protocol is told which field and why in one line, never a dump of the validator', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const headers = { ...MCP_HEADERS, 'content-type': 'application/json' }
		const errorOf = async (raw: string) => {
			const res = await call('POST', '/api/mcp', { key: token, raw, headers })
			// A 2025-era answer may come as an event stream: its one message is on the data line.
			const text = res.text.includes('data: ') ? res.text.slice(res.text.indexOf('data: ') + 6).trim() : res.text
			return (JSON.parse(text) as { error: { code: number; message: string } }).error
		}
		const cases: [string, string][] = [
			['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_jobs","arguments":[1,2]}}', 'params.arguments: '],
			['{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_jobs","arguments":null}}', 'params.arguments: '],
			['{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{}}', 'params.uri: '],
			['{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}', 'params.capabilities: '],
		]
		for (const [raw, names] of cases) {
			const error = await errorOf(raw)
			expect({ raw, code: error.code, names: error.message.includes(names) }).toEqual({ raw, code: -32602, names: true })
			expect({ raw, dump: /[\n{[]/.test(error.message) }).toEqual({ raw, dump: false })
		}
	})

	test('every listed tool: strict parameter object, all four annotations, readOnlyHint true exactly on read tools, an output schema', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const { deps } = await testApp()
		const tools = await listTools(token)
		expect(tools.length).toBeGreaterThanOrEqual(5)
		for (const tool of tools) {
			const def = deps.registry.tools.find((t) => t.name === tool.name)!
			expect(def).toBeDefined()
			expect({ tool: tool.name, type: tool.inputSchema.type, additionalProperties: tool.inputSchema.additionalProperties }).toEqual({
				tool: tool.name,
				type: 'object',
				additionalProperties: false,
			})
			for (const combinator of ['anyOf', 'oneOf', 'allOf', 'not']) expect(tool.inputSchema[combinator]).toBeUndefined()
			for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
				expect({ tool: tool.name, hint, type: typeof tool.annotations?.[hint] }).toEqual({ tool: tool.name, hint, type: 'boolean' })
			expect({ tool: tool.name, readOnlyHint: tool.annotations.readOnlyHint }).toEqual({ tool: tool.name, readOnlyHint: def.readOnly })
			if (def.readOnly) expect({ tool: tool.name, destructiveHint: tool.annotations.destructiveHint }).toEqual({ tool: tool.name, destructiveHint: false })
			expect({ tool: tool.name, outputType: tool.outputSchema?.type }).toEqual({ tool: tool.name, outputType: 'object' })
			expect(tool.description.length).toBeGreaterThan(20)
			// Nothing internal leaks into the listed schemas.
			expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"x-|\[Symbol/)
		}
		const byName = new Map(tools.map((t) => [t.name, t]))
		for (const name of ['list_jobs', 'get_job']) expect(byName.get(name).annotations.readOnlyHint).toBe(true)
		for (const name of ['create_job', 'set_job_status', 'set_job_actively_hiring']) expect(byName.get(name).annotations.readOnlyHint).toBe(false)
	})

	test('results carry structuredContent matching the output schema, and the same JSON as text', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const { deps } = await testApp()
		const check = (name: string, result: ToolResult) => {
			expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false })
			expect(result.structuredContent).toBeObject()
			expect(result.content).toHaveLength(1)
			expect(result.content[0]!.type).toBe('text')
			expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent)
			const def = deps.registry.tools.find((t) => t.name === name)!
			const { errors } = checkValue(def.output, result.structuredContent, { unknown: 'reject' })
			expect({ name, errors }).toEqual({ name, errors: [] })
		}
		const created = await callTool(token, 'create_job', {
			title: 'Schema Engineer',
			department: 'Data',
			location: 'Remote',
			employment: '6 months',
			pitch: 'Short',
			description: '<p>Long <b>text</b></p>',
			requirements: ['SQL'],
			niceToHave: ['dbt'],
			salaryMin: 100,
			salaryMax: 200,
			contractType: 'C2C',
			activelyHiring: true,
		})
		check('create_job', created)
		const jobId = created.structuredContent.job.id
		check('get_job', await callTool(token, 'get_job', { jobId }))
		check('list_jobs', await callTool(token, 'list_jobs', {}))
		check('set_job_status', await callTool(token, 'set_job_status', { jobId, status: 'Open' }))
		check('set_job_actively_hiring', await callTool(token, 'set_job_actively_hiring', { jobId, activelyHiring: false }))
		const job = (await callTool(token, 'get_job', { jobId })).structuredContent.job
		expect(job.description).toMatchObject({ untrusted: true, writtenBy: 'self', text: expect.stringContaining('Long text') })
		expect(job).toMatchObject({
			status: 'Open',
			activelyHiring: false,
			applicationsByStage: expect.any(Object),
			hiringTeam: [expect.objectContaining({ teamRole: 'recruiter' })],
			screeningQuestions: [],
		})
		expect(Object.values(job.applicationsByStage).every((n) => n === 0)).toBe(true)
	})

	test('bad parameters come back as isError results a model can act on, naming the allowed properties', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const unknown = await rpc(token, 'tools/call', { name: 'list_jobs', arguments: { bogus: 1, status: 'Open' } })
		expect(unknown.status).toBe(200)
		expect(unknown.message.error).toBeUndefined()
		expect(unknown.message.result.isError).toBe(true)
		expect(textOf(unknown.message.result)).toContain('"bogus"')
		expect(textOf(unknown.message.result)).toContain('allowed: status, query, limit, cursor')
		const cases: [string, Record<string, unknown>, RegExp][] = [
			['list_jobs', { status: 'open' }, /status.*one of: Open, Draft, Closed/],
			['list_jobs', { limit: 'ten' }, /limit.*whole number/],
			['list_jobs', { query: 'x'.repeat(121) }, /query.*at most 120/],
			['get_job', {}, /jobId.*required/],
			['get_job', { jobId: 42 }, /jobId.*string/],
			['set_job_status', { jobId: 'job_x', status: 'Published' }, /status.*one of/],
			['set_job_actively_hiring', { jobId: 'job_x', activelyHiring: 'yes' }, /activelyHiring.*true or false/],
			['create_job', { title: 'Ok', requirements: 'SQL' }, /requirements.*array/],
		]
		for (const [name, args, message] of cases) {
			const result = await callTool(token, name, args)
			expect({ name, args, isError: result.isError }).toEqual({ name, args, isError: true })
			expect(textOf(result)).toMatch(message)
		}
	})

	test('cursors: a forged, altered, too long or borrowed cursor is a tool error', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const other = await newPersonWithToken(ws, 'admin')
		for (let i = 0; i < 3; i++) await callTool(owner.token, 'create_job', { title: `Paged ${i}` })
		const first = (await callTool(owner.token, 'list_jobs', { limit: 1 })).structuredContent
		expect(first.nextCursor).toBeString()
		expect(first.nextCursor.length).toBeLessThanOrEqual(64)
		expect((await callTool(owner.token, 'list_jobs', { limit: 1, cursor: first.nextCursor })).isError).toBeFalsy()
		const altered = first.nextCursor.replace(/^./, (c: string) => (c === '1' ? '2' : '1'))
		const refused: [string, Record<string, unknown>][] = [
			['forged', { cursor: 'bm90IGEgY3Vyc29y.AAAAAAAAAAAA' }],
			['altered', { cursor: altered }],
			['empty', { cursor: '' }],
			['too long', { cursor: 'x'.repeat(65) }],
			['other filters', { cursor: first.nextCursor, status: 'Draft' }],
		]
		for (const [name, args] of refused) {
			const result = await callTool(owner.token, 'list_jobs', { limit: 1, ...args })
			expect({ name, isError: result.isError }).toEqual({ name, isError: true })
			expect(textOf(result)).toMatch(/cursor/)
		}
		// Another person's cursor (same workspace, same list) is refused too.
		const borrowed = await callTool(other.token, 'list_jobs', { limit: 1, cursor: first.nextCursor })
		expect(borrowed.isError).toBe(true)
		expect(textOf(borrowed)).toMatch(/cursor is not valid/)
	})

	test('limit is 1 to 100, default 25; paging walks every row once', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const deps = await testDeps()
		const base = Date.now() - 60_000
		await deps.db.insert(jobs).values(
			Array.from({ length: 26 }, (_, i) => ({
				id: `job_page${ws.slug}${i}`,
				workspaceId: ws.id,
				slug: `paged-${i}`,
				title: `Paged role ${i}`,
				status: 'Draft',
				createdAt: new Date(base + i * 1000),
			})),
		)
		const firstPage = (await callTool(owner.token, 'list_jobs', {})).structuredContent
		expect(firstPage.jobs).toHaveLength(25)
		expect(firstPage.jobs[0].title.text).toBe('Paged role 25')
		const secondPage = (await callTool(owner.token, 'list_jobs', { cursor: firstPage.nextCursor })).structuredContent
		expect(secondPage.jobs.map((j: { title: { text: string } }) => j.title.text)).toEqual(['Paged role 0'])
		expect(secondPage.nextCursor).toBeNull()
		const all = (await callTool(owner.token, 'list_jobs', { limit: 100 })).structuredContent
		expect(all.jobs).toHaveLength(26)
		expect(all.nextCursor).toBeNull()
		expect((await callTool(owner.token, 'list_jobs', { limit: 1 })).structuredContent.jobs).toHaveLength(1)
		for (const limit of [0, 101, -1, 2.5]) {
			const result = await callTool(owner.token, 'list_jobs', { limit })
			expect({ limit, isError: result.isError }).toEqual({ limit, isError: true })
			expect(textOf(result)).toMatch(/limit/)
		}
	})

	test('identifiers are 1 to 160 characters; a well-formed unknown id is "not found"', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'owner')
		const empty = await callTool(token, 'get_job', { jobId: '' })
		expect(empty.isError).toBe(true)
		expect(textOf(empty)).toMatch(/jobId.*must not be empty/)
		const long = await callTool(token, 'get_job', { jobId: 'j'.repeat(161) })
		expect(long.isError).toBe(true)
		expect(textOf(long)).toMatch(/jobId.*at most 160/)
		for (const jobId of ['j'.repeat(160), 'job_😀'.repeat(32)]) {
			const absent = await callTool(token, 'get_job', { jobId })
			expect(absent.isError).toBe(true)
			expect(textOf(absent)).toMatch(/^No job with this id\. Use the matching list tool/)
		}
	})
})
