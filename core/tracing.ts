/**
 * OpenTelemetry traces, on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set: a span per
 * HTTP request (named by its route template), per MCP tool call, per database statement (its text,
 * which holds placeholders, never the values bound to them) and per outbound delivery, posted in batches
 * over OTLP/HTTP (protobuf by default, JSON with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`).
 *
 * An incoming W3C `traceparent` continues the caller's trace, and so does a `traceparent` in an MCP
 * request's `params._meta` (SEP-414) for the tool call it carries; its sampled flag is not obeyed:
 * every request and tool call is recorded, whatever the caller asks. Spans nest through the request's
 * context (core/request-context.ts), not a global context manager: nothing here is global, and with
 * tracing off (`noTracing`) no span is made and nothing is wrapped.
 */
import { diag, DiagLogLevel, type DiagLogger, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace, type TextMapGetter } from '@opentelemetry/api'
import type { TracingConfig } from './config.ts'
import type { Logger } from './log.ts'
import type { SpanOptions, Tracing } from './types/tracing.ts'
import { currentRequest, type RequestContext, withRequest } from './request-context.ts'

export const noTracing: Tracing = {
	enabled: false,
	startRequest: () => undefined,
	inSpan: (_name, _options, work) => work(undefined),
	contextOf: () => undefined,
	headers: () => ({}),
	statement: () => undefined,
	shutdown: async () => {},
}

const headerGetter: TextMapGetter<Headers> = {
	keys: (headers) => [...headers.keys()],
	get: (headers, key) => headers.get(key) ?? undefined,
}
const recordSetter = { set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value) }
const recordGetter: TextMapGetter<Record<string, unknown>> = {
	keys: (carrier) => Object.keys(carrier),
	get: (carrier, key) => (typeof carrier[key] === 'string' ? (carrier[key] as string) : undefined),
}

/** Statement text kept on a span at most (the statements are fixed texts with placeholders). */
const MAX_STATEMENT_CHARS = 2000

/** How often at most a failing export is logged (the batch is posted every second while the collector is away). */
const EXPORT_FAILURE_LOG_MS = 60_000

/**
 * OpenTelemetry's own diagnostics (a collector refusing or not answering, a bad setting) as our log
 * lines, at most one a minute with the count since the last: silent, an operator would never learn
 * that no span arrives. Only the error's name and HTTP status are kept: a collector's answer is
 * outside text, and the exporter's message can repeat it.
 */
export function tracingDiagnostics(log: Logger, now = () => Date.now()): DiagLogger {
	let lastAt = Number.NEGATIVE_INFINITY
	let unlogged = 0
	const report = (message: string, ...args: unknown[]) => {
		unlogged++
		if (now() - lastAt < EXPORT_FAILURE_LOG_MS) return
		lastAt = now()
		log.warn('tracing: spans could not be exported or a setting was refused', { ...diagnosticFacts(message, args), times: unlogged })
		unlogged = 0
	}
	const ignore = () => {}
	return { error: report, warn: report, info: ignore, debug: ignore, verbose: ignore }
}

/** The name and HTTP status of the error a diagnostic carries (the exporter passes it serialised as JSON, or as an object). */
function diagnosticFacts(message: string, args: unknown[]): { error?: string; status?: number } {
	for (const candidate of [message, ...args]) {
		let value: unknown = candidate
		if (typeof candidate === 'string' && candidate.startsWith('{'))
			try {
				value = JSON.parse(candidate)
			} catch {}
		const x = value as { name?: unknown; code?: unknown } | null
		// OpenTelemetry's error handler turns every property into a string ("400").
		const status = /^[1-5]\d\d$/.test(String(x?.code)) ? Number(x!.code) : undefined
		if (x && typeof x === 'object' && (typeof x.name === 'string' || status))
			return { error: typeof x.name === 'string' ? x.name.slice(0, 60) : undefined, status }
	}
	return {}
}

export async function startTracing(config: TracingConfig, log?: Logger, version = '1.0.0'): Promise<Tracing> {
	// Global in the OpenTelemetry API (the exporter reports through it): one process, one log.
	if (log) diag.setLogger(tracingDiagnostics(log), { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true })
	// The SDK is loaded only when tracing is on (start-up time and memory of every other instance).
	const { W3CTraceContextPropagator } = await import('@opentelemetry/core')
	const { resourceFromAttributes } = await import('@opentelemetry/resources')
	const { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider } = await import('@opentelemetry/sdk-trace')
	const { OTLPTraceExporter } =
		config.protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto')
	const exporter = new OTLPTraceExporter({ url: config.url, headers: { ...config.headers } })
	const provider = new TracerProvider({
		resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version }),
		spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
		// The caller never decides whether a request is recorded: a `traceparent` (header or MCP `_meta`)
		// whose sampled flag is off is still continued (its trace id kept) and recorded. The default
		// sampler would follow the flag, so anyone could switch tracing off for their own requests.
		sampler: new ParentBasedSampler({ root: new AlwaysOnSampler(), remoteParentNotSampled: new AlwaysOnSampler() }),
	})
	const tracer = provider.getTracer('benchline', version)
	const propagator = new W3CTraceContextPropagator()
	const parentOf = (options: SpanOptions) => options.parent ?? currentRequest()?.trace ?? ROOT_CONTEXT

	const failed = (span: Span, error: unknown) => {
		span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' })
		const code = (error as { code?: unknown })?.code
		span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : 'error')
	}

	const tracing: Tracing = {
		enabled: true,
		startRequest(request) {
			const parent = propagator.extract(ROOT_CONTEXT, request.headers, headerGetter)
			const url = new URL(request.url)
			const span = tracer.startSpan(
				request.method,
				{ kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.scheme': url.protocol.replace(':', '') } },
				parent,
			)
			return { span, context: trace.setSpan(parent, span) }
		},
		async inSpan(name, options, work) {
			const span = tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links }, parentOf(options))
			const context = trace.setSpan(parentOf(options), span)
			const outer = currentRequest()
			const inner: RequestContext = { ...outer, trace: context, traceId: span.spanContext().traceId, tracing }
			try {
				return await withRequest(inner, () => work(span))
			} catch (error) {
				failed(span, error)
				throw error
			} finally {
				span.end()
			}
		},
		contextOf(traceparent, tracestate) {
			if (typeof traceparent !== 'string') return undefined
			const context = propagator.extract(ROOT_CONTEXT, { traceparent, tracestate }, recordGetter)
			return trace.getSpanContext(context) ? context : undefined
		},
		headers() {
			const carrier: Record<string, string> = {}
			const context = currentRequest()?.trace
			if (context) propagator.inject(context, carrier, recordSetter)
			return carrier
		},
		statement(text) {
			// Only inside something traced (a request, a delivery): the workers' polling would fill the
			// trace store with root spans of one statement each.
			const parent = currentRequest()?.trace
			if (!parent) return undefined
			const operation = /^\s*(?:with\b[\s\S]*?\)\s*)?([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? 'SQL'
			const span = tracer.startSpan(
				operation,
				{
					kind: SpanKind.CLIENT,
					attributes: {
						'db.system.name': 'postgresql',
						'db.operation.name': operation,
						'db.query.text': text.length > MAX_STATEMENT_CHARS ? `${text.slice(0, MAX_STATEMENT_CHARS)}…` : text,
					},
				},
				parent,
			)
			return (error) => {
				if (error !== undefined) failed(span, error)
				span.end()
			}
		},
		// The last batch failing at shutdown is said like any other failed export, never thrown at the process's exit.
		shutdown: () => provider.shutdown().catch((error) => diag.error(String(error?.name ?? 'error'), error)),
	}
	return tracing
}

export { SpanKind, SpanStatusCode }
export type { SpanOptions, Tracing }
