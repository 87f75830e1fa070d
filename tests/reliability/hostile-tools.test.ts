/**
 * Every tool in the registry, called through the real MCP endpoint with arguments derived from its
 * own TypeBox parameters (valid ones and hostile ones): the answer is always a JSON-RPC result —
 * a success or an `isError` tool result a model can act on — or an invalid-params error; never an
 * HTTP 500, a JSON-RPC internal error or an "internal error" tool result. New tools are covered as
 * soon as a module registers them.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import fc from 'fast-check'
import type { ToolDef } from '../../core/module.ts'
import { newPersonWithToken, newWorkspace, testApp, testDeps } from '../helpers.ts'
import { rpc } from '../mcp/rpc.ts'
import { fits, hostile } from './arbitraries.ts'

setDefaultTimeout(300_000)

const RUNS = Number(process.env.FC_RUNS_PER_TOOL ?? 40)
let tools: readonly ToolDef<any>[] = []
let token: string

beforeAll(async () => {
	await testApp()
	tools = (await testDeps()).registry.tools
	const ws = await newWorkspace()
	token = (await newPersonWithToken(ws, 'owner')).token
}, 60_000)

/** A well-formed answer: a result, or a JSON-RPC invalid-params / unknown-tool error. Never internal. */
function expectHandled(tool: string, args: unknown, res: { status: number; message: any; text: string }) {
	const where = { tool, args: JSON.stringify(args)?.slice(0, 300) }
	expect({ ...where, status: res.status }).toEqual({ ...where, status: 200 })
	const { result, error } = res.message ?? {}
	if (error) {
		expect({ ...where, code: error.code, known: [-32602, -32601].includes(error.code) }).toEqual({ ...where, code: error.code, known: true })
		return
	}
	expect({ ...where, hasResult: Boolean(result) }).toEqual({ ...where, hasResult: true })
	const text = (result.content ?? []).map((c: { text?: string }) => c.text ?? '').join('\n')
	expect({ ...where, internal: /internal error/i.test(text) }).toEqual({ ...where, internal: false })
}

describe('every tool, through /api/mcp', () => {
	test('the registry has tools to test', () => {
		expect(tools.length).toBeGreaterThan(20)
	})

	test('hostile arguments derived from each tool’s parameters: a tool result or invalid params, never an internal error', async () => {
		for (const tool of tools) {
			await fc.assert(
				fc.asyncProperty(hostile(tool.params as never), async (args) => {
					expectHandled(tool.name, args, await rpc(token, 'tools/call', { name: tool.name, arguments: args }))
				}),
				{ numRuns: RUNS },
			)
		}
	})

	test('arguments that fit each tool’s parameters: success or a domain error (not found, not allowed…), never an internal error', async () => {
		for (const tool of tools) {
			await fc.assert(
				fc.asyncProperty(fits(tool.params as never), async (args) => {
					const res = await rpc(token, 'tools/call', { name: tool.name, arguments: args })
					expectHandled(tool.name, args, res)
				}),
				{ numRuns: Math.ceil(RUNS / 2) },
			)
		}
	})

	test('arguments that are not an object, unknown tools, malformed calls: JSON-RPC errors, never a 500', async () => {
		const name = tools[0]!.name
		for (const params of [
			{ name, arguments: [] },
			{ name, arguments: 'x' },
			{ name, arguments: null },
			{ name: 'no_such_tool', arguments: {} },
			{ name: 42 },
			{ name: '' },
			{},
			{ name: '__proto__', arguments: {} },
			{ name: 'constructor' },
		]) {
			const res = await rpc(token, 'tools/call', params as Record<string, unknown>)
			expect({ params, status: res.status < 500 }).toEqual({ params, status: true })
			expect({ params, internal: res.message?.error?.code === -32603 }).toEqual({ params, internal: false })
		}
	})

	test('malformed params of any method are invalid params (-32602), never an internal error', async () => {
		for (const [method, params] of [
			['tools/list', { cursor: 42 }],
			['prompts/list', { cursor: {} }],
			['prompts/get', { name: 'x', arguments: null }],
			['prompts/get', { name: 42 }],
			['resources/read', { uri: 42 }],
			['resources/templates/list', { cursor: [] }],
			['initialize', { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: 't', version: '1' } }],
		] as const) {
			const res = await rpc(token, method, params as Record<string, unknown>)
			expect({ method, params, status: res.status < 500, code: res.message?.error?.code }).toEqual({ method, params, status: true, code: -32602 })
		}
	})

	test('an unknown tool, prompt or resource name of 100,000 characters is named in a short answer, not echoed whole', async () => {
		const long = 'x'.repeat(100_000)
		for (const [method, params] of [
			['tools/call', { name: long, arguments: {} }],
			['prompts/get', { name: long }],
			['resources/read', { uri: `ui://benchline/${long}` }],
		] as const) {
			const res = await rpc(token, method, params as Record<string, unknown>)
			expect({ method, code: res.message?.error?.code, short: res.text.length < 2_000 }).toEqual({ method, code: expect.any(Number), short: true })
		}
	})

	test('names that are properties of every object (toString, constructor, __proto__) are unknown tools and prompts, not "disabled" ones', async () => {
		for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
			const tool = await rpc(token, 'tools/call', { name, arguments: {} })
			expect({ name, message: tool.message?.error?.message }).toEqual({ name, message: `Tool ${name} not found` })
			const prompt = await rpc(token, 'prompts/get', { name })
			expect({ name, code: prompt.message?.error?.code, notFound: /not found/i.test(prompt.message?.error?.message ?? '') }).toEqual({
				name,
				code: -32602,
				notFound: true,
			})
		}
	})
})
