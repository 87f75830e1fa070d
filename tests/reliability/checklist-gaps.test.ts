import { expect, test } from 'bun:test'
import { call, newWorkspace, newPersonWithToken, newVendor } from '../helpers.ts'
import { MCP_HEADERS } from '../mcp/rpc.ts'
test('probe', async () => {
	const ws = await newWorkspace()
	const { token } = await newPersonWithToken(ws, 'owner')
	const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
	let r = await call('POST', '/api/mcp', { key: token, body, headers: { ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' } })
	console.log('badver', r.status, r.text.slice(0, 300))
	r = await call('POST', '/api/mcp', { key: token, body: [body, { ...body, id: 2 }], headers: MCP_HEADERS })
	console.log('batch', r.status, r.text.slice(0, 300))
	r = await call('POST', '/api/mcp', { key: token, body, headers: { ...MCP_HEADERS, host: 'evil.example' } })
	console.log('host', r.status)
	const v = await newVendor(ws)
	for (const [m, p] of [['GET', '/no/such'], ['GET', '/api/v1/nope'], ['PUT', '/api/v1/jobs'], ['GET', '/api/v1/openapi.json'], ['GET', '/api/v1/docs'], ['GET', '/swagger'], ['GET', '/debug'], ['GET', '/api/v1/jobs/..%2F..%2Fadmin']] as const) {
		r = await call(m, p, { key: v.apiKey })
		console.log(m, p, r.status, r.headers.get('content-type'), r.text.slice(0, 120))
	}
})
