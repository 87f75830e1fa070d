/**
 * Around every request the server answers: its request id (an acceptable `X-Request-Id` the client
 * sent, else a new one; answered in `X-Request-Id` and written on every log line meanwhile), its span
 * when tracing is on, and its duration in the metrics, by the route template the app matched.
 */
import type { AppDeps } from '../deps.ts'
import { type RequestContext, requestIdOf, withRequest } from '../request-context.ts'
import { SpanStatusCode } from '../tracing.ts'

export async function observeRequest(deps: Pick<AppDeps, 'metrics' | 'tracing'>, request: Request, handle: () => Promise<Response>): Promise<Response> {
	const started = performance.now()
	const traced = deps.tracing.startRequest(request)
	const context: RequestContext = {
		requestId: requestIdOf(request.headers.get('x-request-id')),
		trace: traced?.context,
		traceId: traced?.span.spanContext().traceId,
		tracing: traced ? deps.tracing : undefined,
	}
	let response: Response
	try {
		response = await withRequest(context, handle)
	} catch (error) {
		traced?.span.setStatus({ code: SpanStatusCode.ERROR }).end()
		throw error
	}
	try {
		response.headers.set('X-Request-Id', context.requestId!)
	} catch {
		// A response with immutable headers (none of ours) goes out without it.
	}
	deps.metrics.httpRequest(request.method, context.route, response.status, (performance.now() - started) / 1000)
	if (traced) {
		const { span } = traced
		if (context.route) span.updateName(`${request.method} ${context.route}`).setAttribute('http.route', context.route)
		span.setAttribute('http.response.status_code', response.status)
		if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
		span.end()
	}
	return response
}
