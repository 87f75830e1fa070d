/**
 * Outbound deliveries in traces, in-process: a request sent with `outboundFetch` inside a traced
 * context is a client span naming the host only, and carries the trace on (W3C `traceparent`); an
 * outbox delivery is a span of its own. Exported as OTLP/JSON this time (the server test in
 * tests/reliability/tracing.test.ts covers the protobuf default) to a receiver in the test.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loadConfig } from '../core/config.ts'
import { observeRequest } from '../core/http/observe.ts'
import { outboundFetch } from '../core/http/outbound.ts'
import { createLogger } from '../core/log.ts'
import { closeDeps, createDeps } from '../core/main.ts'
import { noMetrics } from '../core/metrics.ts'
import { startTracing, tracingDiagnostics } from '../core/tracing.ts'
import { deliverDue, enqueueMail } from '../modules/outbox/index.ts'
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.ts'
import { newWorkspace, sharedDatabase, testDeps } from './helpers.ts'
import { startSmtp } from './smtp.ts'
import { waitFor } from './reliability/processes.ts'

let receiver: OtlpReceiver
// Opening the shared test database can take long on a busy machine: before the first test.
beforeAll(async () => {
	receiver = startOtlpReceiver()
	await testDeps()
}, 180_000)
afterAll(() => receiver?.stop())

test('an outbound request inside a trace: a client span with the host only, and traceparent sent on', async () => {
	const tracing = await startTracing({ url: `${receiver.url}/v1/traces`, protocol: 'http/json', headers: {}, serviceName: 'outbound-test' })
	const seen: (string | null)[] = []
	const target = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		fetch: (request) => {
			seen.push(request.headers.get('traceparent'))
			return new Response('ok')
		},
	})
	try {
		const policy = { allowPrivate: true, timeoutMs: 5000, maxBytes: 1024, userAgent: 'Benchline test' }
		// Outside any trace: no span, nothing added.
		await (await outboundFetch(`http://127.0.0.1:${target.port}/untraced`, {}, policy)).text()
		const traceId = await tracing.inSpan('webhook deliver', {}, async (span) => {
			const response = await outboundFetch(`http://127.0.0.1:${target.port}/feed/secret-token-123?key=abc`, { method: 'POST', body: '{}' }, policy)
			expect(await response.text()).toBe('ok')
			return span!.spanContext().traceId
		})
		await tracing.shutdown()
		expect(seen[0]).toBeNull()
		expect(seen[1]).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`))
		const parent = receiver.spans.find((s) => s.name === 'webhook deliver')!
		const client = receiver.spans.find((s) => s.traceId === traceId && s.kind === 3)!
		expect(client).toMatchObject({ name: 'POST', parentSpanId: parent.spanId, service: 'outbound-test' })
		expect(client.attributes).toEqual({ 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'url.scheme': 'http', 'http.response.status_code': 200 })
		// The span the receiver saw is the one whose id went out in traceparent.
		expect(seen[1]).toContain(client.spanId)
		expect(receiver.contentTypes.some((t) => t.startsWith('application/json'))).toBe(true)
		expect(JSON.stringify(receiver.spans)).not.toContain('secret-token-123')
	} finally {
		target.stop(true)
	}
})

test('an outbox delivery is a span: outbox deliver email', async () => {
	const smtp = await startSmtp()
	const shared = await testDeps()
	const config = loadConfig({ ...process.env, BASE_URL: 'http://localhost:3000', REDIS_URL: '', SMTP_URL: smtp.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })
	const deps = await createDeps({ config, database: await sharedDatabase(), log: createLogger('silent'), now: shared.now })
	try {
		const ws = await newWorkspace(deps)
		await enqueueMail(deps.db, { workspaceId: ws.id, to: 'traced@example.test', subject: 'Traced', text: 'Hello' }, deps)
		expect((await deliverDue(deps, { workspaceId: ws.id })).sent).toBe(1)
		await deps.tracing.shutdown()
		await waitFor('the delivery span', () => receiver.spans.some((s) => s.name === 'outbox deliver email'), 10_000)
		const span = receiver.spans.find((s) => s.name === 'outbox deliver email')!
		expect(span.kind).toBe(4)
		expect(span.attributes).toMatchObject({ 'benchline.outbox.channel': 'email', 'benchline.outbox.attempt': 1 })
		expect(span.status).toBe(0)
		expect(smtp.to('traced@example.test')).toHaveLength(1)
	} finally {
		await closeDeps(deps)
		await smtp.stop()
	}
}, 60_000)

test('the caller never decides whether a request is recorded: a traceparent (header or MCP _meta) with sampled=00 is continued and recorded', async () => {
	const tracing = await startTracing({ url: `${receiver.url}/v1/traces`, protocol: 'http/json', headers: {}, serviceName: 'sampling-test' })
	const lines: string[] = []
	const log = createLogger('info', (l) => void lines.push(l))
	const deps = { metrics: noMetrics, tracing }
	const unsampled = 'deadbeefdeadbeefdeadbeefdeadbeef'
	const fromMeta = 'feedfacefeedfacefeedfacefeedface'
	const handle = async () => {
		await tracing.inSpan('work unsampled', {}, async () => log.info('handled unsampled'))
		// A tool call continuing the trace its MCP request's `_meta.traceparent` names, also off.
		const meta = tracing.contextOf(`00-${fromMeta}-00f067aa0ba902b7-00`)
		await tracing.inSpan('tools/call from meta', { parent: meta }, async () => {})
		return new Response('ok')
	}
	await observeRequest(deps, new Request('http://localhost/b', { headers: { traceparent: `00-${unsampled}-00f067aa0ba902b7-00` } }), handle)
	await tracing.shutdown()
	const work = receiver.spans.find((s) => s.name === 'work unsampled')
	expect(work?.traceId).toBe(unsampled) // recorded, in the caller's trace
	expect(receiver.spans.filter((s) => s.traceId === unsampled && s.kind === 2)).toHaveLength(1) // the request's server span
	expect(receiver.spans.find((s) => s.name === 'tools/call from meta')?.traceId).toBe(fromMeta)
	expect(lines.find((l) => l.includes('handled unsampled'))).toContain(unsampled)
})

test('a collector that refuses spans is logged (its status, never its answer), at most once a minute with the count', async () => {
	const refusing = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		fetch: () => new Response('collector says: tenant acme-secret is unknown', { status: 400 }),
	})
	const lines: string[] = []
	const log = createLogger('info', (l) => void lines.push(l))
	try {
		const tracing = await startTracing(
			{ url: `http://127.0.0.1:${refusing.port}/v1/traces`, protocol: 'http/json', headers: {}, serviceName: 'refused-test' },
			log,
		)
		// Posted by the batch's timer (every second), as in a running server.
		await tracing.inSpan('refused work', {}, async () => {})
		const refused = () => lines.filter((l) => l.includes('spans could not be exported'))
		await waitFor('the refusal logged', () => refused().length > 0, 15_000)
		expect(JSON.parse(refused()[0]!)).toMatchObject({ level: 'warn', status: 400, error: 'OTLPExporterError', times: 1 })
		// At shutdown a failing last batch is logged the same way (throttled here), never thrown.
		await tracing.inSpan('refused again', {}, async () => {})
		await tracing.shutdown()
		expect(refused()).toHaveLength(1)
		expect(lines.join('\n')).not.toContain('acme-secret')
	} finally {
		refusing.stop(true)
	}
	// Throttled: a second failure within the minute is counted, and said with the next line.
	let now = 0
	const throttled: string[] = []
	const diagnostics = tracingDiagnostics(
		createLogger('info', (l) => void throttled.push(l)),
		() => now,
	)
	diagnostics.error('{"name":"OTLPExporterError","code":502,"message":"Bad Gateway"}')
	now += 30_000
	diagnostics.error('{"name":"OTLPExporterError","code":502}')
	expect(throttled).toHaveLength(1)
	now += 31_000
	diagnostics.warn('Dropped 12 spans because maxQueueSize reached')
	expect(throttled).toHaveLength(2)
	expect(JSON.parse(throttled[1]!)).toMatchObject({ times: 2 })
	expect(JSON.parse(throttled[0]!)).toMatchObject({ error: 'OTLPExporterError', status: 502, times: 1 })
})
