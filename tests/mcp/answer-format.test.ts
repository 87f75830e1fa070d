/**
 * How a 2025-era tool call is answered: as one JSON body when its client cannot be asked anything
 * (nothing but the answer could go on a stream), as an event stream when the client declared it can
 * ask its user (a question may go out on the call's stream first, tests/mcp/confirmed-writes.test.ts).
 * Either way the same JSON-RPC answer, and the call is audited once.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { newPersonWithToken, newWorkspace, type TestWorkspace } from '../helpers.ts'
import { LEGACY_VERSION, rpc } from './rpc.ts'

let ws: TestWorkspace
let token: string

beforeAll(async () => {
	ws = await newWorkspace()
	;({ token } = await newPersonWithToken(ws, 'owner'))
})

const mediaType = (headers: Headers) => headers.get('content-type')?.split(';')[0]?.trim()

async function sessionOf(capabilities: Record<string, unknown>) {
	const init = await rpc(token, 'initialize', { protocolVersion: LEGACY_VERSION, capabilities, clientInfo: { name: 'answer-format', version: '1.0.0' } })
	expect(init.status).toBe(200)
	return init.headers.get('mcp-session-id')
}

describe('2025-era tool calls', () => {
	test('a client that cannot be asked gets its answer as one JSON body', async () => {
		expect(await sessionOf({})).toBeNull()
		const res = await rpc(token, 'tools/call', { name: 'list_jobs', arguments: { limit: 2 } })
		expect(res.status).toBe(200)
		expect(mediaType(res.headers)).toBe('application/json')
		expect(res.json.result.structuredContent.jobs).toBeArray()
		expect(res.json.result.isError).toBeUndefined()
	})

	test('a tool error and arguments the schema refuses are JSON answers too', async () => {
		const refused = await rpc(token, 'tools/call', { name: 'list_jobs', arguments: { limit: 'many' } })
		expect(mediaType(refused.headers)).toBe('application/json')
		expect(refused.json.result?.isError ?? refused.json.error).toBeTruthy()
		const missing = await rpc(token, 'tools/call', { name: 'get_job', arguments: { jobId: 'job_nothing_here' } })
		expect(mediaType(missing.headers)).toBe('application/json')
		expect(missing.json.result.isError).toBe(true)
	})

	test('a client that declared it can ask its user gets an event stream (a question may come first)', async () => {
		const session = await sessionOf({ elicitation: {} })
		expect(session).toBeString()
		const res = await rpc(token, 'tools/call', { name: 'list_jobs', arguments: { limit: 2 } }, { headers: { 'mcp-session-id': session! } })
		expect(res.status).toBe(200)
		expect(mediaType(res.headers)).toBe('text/event-stream')
		expect(res.message.result.structuredContent.jobs).toBeArray()
	})

	test('other messages are answered as before', async () => {
		const list = await rpc(token, 'tools/list')
		expect(list.status).toBe(200)
		expect(list.message.result.tools.length).toBeGreaterThan(0)
	})
})
