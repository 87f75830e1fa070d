/**
 * The ceilings bench/mcp.ts compares the app's MCP endpoint with, in a separate Bun process:
 *
 *   POST /const   the MCP SDK's own ceiling: a fresh McpServer per request (as the app does), each
 *                 2025-era tool call answered as one JSON body by the SDK's stateless transport
 *                 (as the app answers a client that cannot be asked; anything else through the same
 *                 stateless `createMcpHandler`), one tool `list_jobs` whose input schema
 *                 goes through the app's TypeBox → Standard Schema adapter, returning a constant
 *                 25-row page (captured from the app) — no auth, no database;
 *   POST /sql     the same handler and tool, but the tool runs the statements the app's call sends
 *                 (captured from the app, credential lookup included) with postgres.js and returns
 *                 the captured page: SDK + the same SQL, no app code.
 *
 * Started by bench/mcp.ts: PORT, DATABASE_URL, CAPTURE (a JSON file: { statements: [{text,params}],
 * result: structuredContent }). Not a server to run by hand.
 */
import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { Type as t } from '@sinclair/typebox'
import postgres from 'postgres'
import { inputSchema } from '../core/mcp/standard-schema.ts'

const env = process.env
const capture = JSON.parse(await Bun.file(env.CAPTURE!).text()) as Record<string, { statements: { text: string; params: unknown[] }[]; result: unknown }>
const db = postgres(env.DATABASE_URL!, { max: 10, onnotice: () => {} })
const input = inputSchema(
	t.Object(
		{
			status: t.Optional(t.String()),
			query: t.Optional(t.String()),
			q: t.Optional(t.String()),
			limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
			cursor: t.Optional(t.String()),
		},
		{ additionalProperties: false },
	),
)

const answer = (data: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(data) }], structuredContent: data as Record<string, unknown> })

function server(withSql: boolean) {
	const s = new McpServer({ name: 'ceiling', version: '1.0.0' }, { capabilities: { tools: {} } })
	for (const [name, c] of Object.entries(capture))
		s.registerTool(name, { description: name, inputSchema: input } as never, async () => {
			if (withSql) for (const q of c.statements) await db.unsafe(q.text, q.params as never[], { prepare: true })
			return answer(c.result)
		})
	return s
}

const constHandler = createMcpHandler(() => server(false))
const sqlHandler = createMcpHandler(() => server(true))

/** A 2025-era tool call, answered as the app answers one whose client cannot be asked (core/mcp/handler.ts). */
async function answerInJson(s: McpServer, request: Request, body: unknown): Promise<Response> {
	const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
	try {
		await s.connect(transport)
		return await transport.handleRequest(request, { parsedBody: body })
	} finally {
		transport.close().catch(() => {})
		s.close().catch(() => {})
	}
}

Bun.serve({
	hostname: '127.0.0.1',
	port: Number(env.PORT),
	async fetch(request) {
		const path = new URL(request.url).pathname
		if (path === '/health') return new Response('ok')
		const body = await request.json()
		const withSql = path === '/sql'
		if ((body as { method?: unknown }).method === 'tools/call' && (await isLegacyRequest(request, body))) return answerInJson(server(withSql), request, body)
		return (withSql ? sqlHandler : constHandler).fetch(request, { parsedBody: body })
	},
})
console.log('ready')
