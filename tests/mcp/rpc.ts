/**
 * Plain JSON-RPC over `/api/mcp`, in-process, the way a 2025-era client talks to a stateless
 * server (no session, the protocol version in a header). For tests that look at the wire; the
 * official SDK clients are used where a real client matters (tests/mcp/sdk-clients.test.ts).
 */
import { call, type CallOptions } from '../helpers.ts'

export const LEGACY_VERSION = '2025-06-18'
export const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY_VERSION }

let nextId = 1

/** The JSON-RPC message in a response, whether sent as JSON or as one SSE event. */
export function messageOf(text: string): any {
	const data = text
		.split('\n')
		.filter((l) => l.startsWith('data:'))
		.map((l) => l.slice(5).trim())
		.join('')
	try {
		return JSON.parse(data || text)
	} catch {
		return undefined
	}
}

export async function rpc(token: string | undefined, method: string, params: Record<string, unknown> = {}, options: Omit<CallOptions, 'key' | 'body'> = {}) {
	const res = await call('POST', '/api/mcp', {
		key: token,
		body: { jsonrpc: '2.0', id: nextId++, method, params },
		...options,
		headers: { ...MCP_HEADERS, ...options.headers },
	})
	return { ...res, message: messageOf(res.text) }
}

export interface ToolResult {
	isError?: boolean
	content: { type: string; text: string }[]
	structuredContent?: any
}

/** Calls a tool; fails the test on an HTTP or protocol error (tool errors come back as results). */
export async function callTool(token: string, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
	const res = await rpc(token, 'tools/call', { name, arguments: args })
	if (res.status !== 200 || !res.message?.result) throw new Error(`tools/call ${name}: HTTP ${res.status} ${res.text.slice(0, 300)}`)
	return res.message.result
}

/** Calls a tool and returns the protocol-level answer too (for tools that are not listed). */
export async function tryTool(token: string, name: string, args: Record<string, unknown> = {}) {
	const res = await rpc(token, 'tools/call', { name, arguments: args })
	return {
		status: res.status,
		result: res.message?.result as ToolResult | undefined,
		error: res.message?.error as { code: number; message: string } | undefined,
	}
}

export async function listTools(token: string): Promise<any[]> {
	const res = await rpc(token, 'tools/list')
	if (res.status !== 200) throw new Error(`tools/list: HTTP ${res.status} ${res.text.slice(0, 300)}`)
	return res.message.result.tools
}

/** The text of a tool result (the message a model reads). */
export const textOf = (result: ToolResult | undefined) => (result?.content ?? []).map((c) => c.text).join('\n')
