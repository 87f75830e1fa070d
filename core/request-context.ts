/**
 * What the code running for one HTTP request knows about it without being handed it: its request id
 * (every log line written meanwhile carries it, core/log.ts), the span it runs under when tracing is on
 * (core/tracing.ts) and, once routed, its route template (the metrics' label, core/metrics.ts).
 * Kept in an AsyncLocalStorage entered by `core/http/observe.ts` around the app's handling.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Context } from '@opentelemetry/api'
import type { Tracing } from './types/tracing.ts'

export interface RequestContext {
	/** Unset for traced work outside a request (an outbox delivery). */
	readonly requestId?: string
	/** The trace context of the request's span (tracing on): spans started meanwhile are its children. */
	trace?: Context
	/** The trace id, for log lines (tracing on). */
	traceId?: string
	/** The tracer of this trace: code without the app's dependencies (outbound requests) starts its spans with it. */
	tracing?: Tracing
	/** The route template that answered, e.g. `/jobs/:id` (set by the app once it has routed). */
	route?: string
	/** The trace an MCP request's `params._meta.traceparent` names: its tool call continues it. */
	mcpTrace?: Context
}

const storage = new AsyncLocalStorage<RequestContext>()

export const currentRequest = (): RequestContext | undefined => storage.getStore()

export const withRequest = <T>(context: RequestContext, work: () => T): T => storage.run(context, work)

/**
 * Runs `work` outside any request: what it starts (a timer, a write behind) belongs to the instance,
 * not to the request that happened to start it, so its log lines carry no request id and its spans
 * hang under no request's trace.
 */
export const outsideRequest = <T>(work: () => T): T => storage.exit(work)

/**
 * An `X-Request-Id` a client or proxy sent is kept when it is 1–128 characters of letters, digits
 * and `-._:@/+=` (UUIDs, ULIDs, nginx's `$request_id`, trace ids): anything else could forge a log
 * line or carry a person's data, and is replaced by one of ours.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export function requestIdOf(header: string | null): string {
	return header !== null && SAFE_REQUEST_ID.test(header) ? header : crypto.randomUUID()
}
