/**
 * A local OTLP/HTTP trace receiver for the tests: it accepts what an OpenTelemetry exporter posts to
 * `/v1/traces`, protobuf (the exporters' default) or JSON, and decodes it with protobufjs against the
 * messages of opentelemetry-proto's `collector/trace/v1` and `trace/v1` (field numbers as published;
 * only what the tests read is declared: unknown fields are skipped by the decoder).
 */
import protobuf from 'protobufjs'

const PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
	bytes trace_id = 1;
	bytes span_id = 2;
	string trace_state = 3;
	bytes parent_span_id = 4;
	string name = 5;
	int32 kind = 6;
	fixed64 start_time_unix_nano = 7;
	fixed64 end_time_unix_nano = 8;
	repeated KeyValue attributes = 9;
	repeated Link links = 13;
	Status status = 15;
}
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
	oneof value {
		string string_value = 1;
		bool bool_value = 2;
		int64 int_value = 3;
		double double_value = 4;
		bytes bytes_value = 7;
	}
}
`
const Request = protobuf.parse(PROTO, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest')

/** A span as the tests read it: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
	readonly service: string
	readonly name: string
	/** 1 internal, 2 server, 3 client, 4 producer, 5 consumer (OTLP's SpanKind). */
	readonly kind: number
	readonly traceId: string
	readonly spanId: string
	readonly parentSpanId: string
	readonly attributes: Record<string, string | number | boolean>
	readonly links: { traceId: string; spanId: string }[]
	/** 0 unset, 1 ok, 2 error. */
	readonly status: number
}

const hex = (bytes: Uint8Array | string | undefined) => (bytes === undefined ? '' : typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('hex'))

function value(v: Record<string, unknown> | undefined): string | number | boolean {
	if (!v) return ''
	if ('stringValue' in v) return v.stringValue as string
	if ('boolValue' in v) return v.boolValue as boolean
	if ('intValue' in v) return Number(v.intValue)
	if ('doubleValue' in v) return v.doubleValue as number
	return ''
}

const attributesOf = (list: { key: string; value?: Record<string, unknown> }[] = []) => Object.fromEntries(list.map((kv) => [kv.key, value(kv.value)]))

function spansOf(message: any): ReceivedSpan[] {
	const spans: ReceivedSpan[] = []
	for (const rs of message.resourceSpans ?? []) {
		const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '')
		for (const ss of rs.scopeSpans ?? [])
			for (const s of ss.spans ?? [])
				spans.push({
					service,
					name: s.name,
					kind: Number(s.kind ?? 0),
					traceId: hex(s.traceId),
					spanId: hex(s.spanId),
					parentSpanId: hex(s.parentSpanId),
					attributes: attributesOf(s.attributes),
					links: (s.links ?? []).map((l: any) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
					status: Number(s.status?.code ?? 0),
				})
	}
	return spans
}

export interface OtlpReceiver {
	readonly url: string
	readonly spans: ReceivedSpan[]
	/** Content types of the posts received (`application/x-protobuf` or `application/json`). */
	readonly contentTypes: string[]
	stop(): void
}

export function startOtlpReceiver(): OtlpReceiver {
	const spans: ReceivedSpan[] = []
	const contentTypes: string[] = []
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			if (new URL(request.url).pathname !== '/v1/traces' || request.method !== 'POST') return new Response('not found', { status: 404 })
			const type = request.headers.get('content-type') ?? ''
			contentTypes.push(type)
			const body = new Uint8Array(await request.arrayBuffer())
			// OTLP/JSON spells ids in hex and enums as numbers; protobufjs' fromObject reads it the same way.
			const message = type.includes('json')
				? JSON.parse(new TextDecoder().decode(body))
				: Request.toObject(Request.decode(body), { longs: String, defaults: false, oneofs: false })
			spans.push(...spansOf(message))
			return new Response(type.includes('json') ? '{}' : new Uint8Array(0), {
				headers: { 'content-type': type.includes('json') ? 'application/json' : 'application/x-protobuf' },
			})
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, spans, contentTypes, stop: () => server.stop(true) }
}
