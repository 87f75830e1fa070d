/**
 * Traces, request ids and where the server listens, on a real server process: its OpenTelemetry
 * exporter posts OTLP/HTTP protobuf (its default) to a receiver in this test, which decodes it
 * (tests/otlp-receiver.ts). The server runs on PostgreSQL so its database statements have spans.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../otlp-receiver.ts'
import { describeProcesses } from './gate.ts'
import { rpcMessage, seededServer, type Tenant } from './load.ts'
import { startServer, waitFor, type ServerProcess } from './processes.ts'

setDefaultTimeout(60_000)

const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')

describeProcesses('traces, request ids and the listening address', () => {
	let receiver: OtlpReceiver
	let running: Awaited<ReturnType<typeof seededServer>>
	let server: ServerProcess
	let tenant: Tenant

	beforeAll(async () => {
		receiver = startOtlpReceiver()
		running = await seededServer({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'benchline-under-test', LOG_LEVEL: 'debug' })
		server = running.server
		tenant = running.tenant
	}, 120_000)

	afterAll(async () => {
		await running?.stop()
		receiver?.stop()
	})

	const spansOf = async (traceId: string, until: (spans: ReceivedSpan[]) => boolean) => {
		await waitFor(`spans of trace ${traceId}`, () => until(receiver.spans.filter((s) => s.traceId === traceId)), 20_000, 100)
		return receiver.spans.filter((s) => s.traceId === traceId)
	}

	test('an HTTP request continues the caller’s traceparent: its span, and one per database statement without the values bound', async () => {
		const traceId = hex(16)
		const parent = hex(8)
		const res = await fetch(`${server.url}/api/v1/jobs?limit=5`, {
			headers: { authorization: `Bearer ${tenant.vendorKeys[0]}`, traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'trace-test-0001' },
		})
		expect(res.status).toBe(200)
		expect(res.headers.get('x-request-id')).toBe('trace-test-0001')
		const spans = await spansOf(traceId, (s) => s.some((x) => x.kind === 2) && s.some((x) => x.kind === 3))
		const http = spans.find((s) => s.kind === 2)!
		expect(http).toMatchObject({ service: 'benchline-under-test', name: 'GET /api/v1/jobs', parentSpanId: parent })
		expect(http.attributes).toMatchObject({ 'http.route': '/api/v1/jobs', 'http.request.method': 'GET', 'http.response.status_code': 200 })
		const statements = spans.filter((s) => s.kind === 3)
		expect(statements.length).toBeGreaterThan(0)
		for (const s of statements) {
			expect(s.parentSpanId).toBe(http.spanId)
			expect(s.attributes['db.system.name']).toBe('postgresql')
			expect(String(s.attributes['db.query.text'])).toMatch(/\$1/)
			// Neither the key, its hash, nor the vendor's id is on a span: the text has placeholders only.
			for (const v of Object.values(s.attributes)) {
				expect(String(v)).not.toContain(tenant.vendorKeys[0]!)
				expect(String(v)).not.toContain(tenant.vendorId)
			}
		}
		expect(receiver.contentTypes.every((t) => t.startsWith('application/x-protobuf'))).toBe(true)

		// The request's log line carries the request id and the trace id.
		await waitFor('the request log line', () => server.logs.some((l) => l.msg === 'request' && l.requestId === 'trace-test-0001'), 10_000)
		expect(server.logs.find((l) => l.msg === 'request' && l.requestId === 'trace-test-0001')).toMatchObject({ traceId, route: '/api/v1/jobs' })
	})

	test('a tool call continues the trace of traceparent in the MCP request’s _meta, linked to the HTTP request’s span', async () => {
		const httpTrace = hex(16)
		const mcpTrace = hex(16)
		const mcpParent = hex(8)
		const res = await fetch(`${server.url}/api/mcp`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${tenant.tokens[0]}`,
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				'mcp-protocol-version': '2025-06-18',
				traceparent: `00-${httpTrace}-${hex(8)}-01`,
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 7,
				method: 'tools/call',
				params: { name: 'list_jobs', arguments: { limit: 5 }, _meta: { traceparent: `00-${mcpTrace}-${mcpParent}-01` } },
			}),
		})
		expect(res.status).toBe(200)
		expect(rpcMessage(await res.text())?.result?.isError).toBeFalsy()
		const spans = await spansOf(mcpTrace, (s) => s.some((x) => x.name === 'tools/call list_jobs') && s.some((x) => x.kind === 3))
		const tool = spans.find((s) => s.name === 'tools/call list_jobs')!
		expect(tool.parentSpanId).toBe(mcpParent)
		expect(tool.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'list_jobs' })
		const http = (await spansOf(httpTrace, (s) => s.some((x) => x.name === 'POST /api/mcp'))).find((s) => s.name === 'POST /api/mcp')!
		expect(tool.links).toContainEqual({ traceId: httpTrace, spanId: http.spanId })
		// The tool's statements are its children.
		expect(spans.filter((s) => s.kind === 3).every((s) => s.parentSpanId === tool.spanId)).toBe(true)
	})

	test('an unacceptable X-Request-Id is replaced by one of ours; a missing one is made', async () => {
		for (const sent of ['two words', 'x'.repeat(129), 'quote"d', '<script>', 'owner@example.com;drop']) {
			const res = await fetch(`${server.url}/health`, { headers: { 'x-request-id': sent } })
			const id = res.headers.get('x-request-id')!
			expect(id).not.toBe(sent)
			expect(id).toMatch(/^[0-9a-f-]{36}$/)
		}
		const made = await fetch(`${server.url}/no-such-page`)
		expect(made.status).toBe(404)
		expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
	})

	test('HOST unset: the server listens on loopback only and says so; /ready answers once it serves', async () => {
		// seededServer sets no HOST: the default applies.
		await waitFor('the start-up lines', () => server.printed.some((l) => l.includes('is listening on')), 10_000)
		expect(server.printed.find((l) => l.includes('is listening on'))).toBe(
			`Benchline is listening on http://localhost:${server.port} (this machine only; HOST=0.0.0.0 accepts connections from the network)`,
		)
		expect(listeningAddresses(server.port)).toEqual(['127.0.0.1'])
		const ready = await fetch(`${server.url}/ready`)
		expect(ready.status).toBe(200)
		expect(await ready.json()).toEqual({ status: 'ready' })
	})

	test('HOST=0.0.0.0 (the Docker image’s): every interface', async () => {
		const wide = await startServer({ HOST: '0.0.0.0', DATABASE_URL: running.databaseUrl })
		try {
			expect(listeningAddresses(wide.port)).toEqual(['0.0.0.0'])
			await waitFor('the start-up lines', () => wide.printed.some((l) => l.includes('is listening on')), 10_000)
			expect(wide.printed.find((l) => l.includes('is listening on'))).toBe(`Benchline is listening on http://0.0.0.0:${wide.port} (every network interface)`)
		} finally {
			wide.kill('SIGKILL')
			await wide.exited
		}
	})
})

/** The local addresses with a listening TCP socket on `port` (read from /proc/net/tcp; no traffic sent). */
function listeningAddresses(port: number): string[] {
	const found: string[] = []
	for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
		const [, local, , state] = line.trim().split(/\s+/)
		if (!local || state !== '0A') continue
		const [addr, p] = local.split(':')
		if (parseInt(p!, 16) !== port) continue
		const bytes = addr!.match(/../g)!.map((b) => parseInt(b, 16))
		found.push(bytes.reverse().join('.'))
	}
	return found
}
