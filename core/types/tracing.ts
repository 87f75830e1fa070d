/**
 * What the app's tracer offers (core/tracing.ts builds it): a leaf of types, imported by the request
 * context and the app's dependencies without importing the tracer's code.
 */
import type { Attributes, Context, Link, Span, SpanKind } from '@opentelemetry/api'

export interface SpanOptions {
	readonly kind?: SpanKind
	readonly attributes?: Attributes
	/** The parent's context; by default the span the current request runs under. */
	readonly parent?: Context
	readonly links?: Link[]
}

export interface Tracing {
	readonly enabled: boolean
	/** The span of one HTTP request, continuing the caller's `traceparent` when it is valid. */
	startRequest(request: Request): { span: Span; context: Context } | undefined
	/** Runs `work` in a span (a child of the current one); a thrown error marks the span failed. */
	inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => Promise<T>): Promise<T>
	/** The context of a W3C `traceparent` (and `tracestate`) value, or undefined when it is not valid. */
	contextOf(traceparent: unknown, tracestate?: unknown): Context | undefined
	/** The W3C `traceparent` (and `tracestate`) of the current span, for a request this one sends. */
	headers(): Record<string, string>
	/** A statement sent to the database: its span ends when the returned function is called. */
	statement(text: string): ((error?: unknown) => void) | undefined
	/** Sends what is buffered and stops (at shutdown). */
	shutdown(): Promise<void>
}
