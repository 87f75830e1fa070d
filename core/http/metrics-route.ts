/**
 * `/metrics` in the Prometheus text format (core/metrics.ts), reachable two ways, each off unless set:
 * on the main port for a scraper that sends `METRICS_TOKEN` as a bearer token (compared in constant
 * time), and on `METRICS_PORT` of the loopback interface without a token (a scraper or agent on the
 * same machine). The exposition holds no person, record or secret, but it tells traffic and load.
 */
import { Elysia } from 'elysia'
import { hashSecret, safeEqual } from '../credentials.ts'
import type { AppDeps } from '../deps.ts'
import { AppError } from '../errors.ts'
import type { AuthPlugin } from './auth.ts'
import { parseBearer } from './bearer.ts'
import { clientAddress } from './client-address.ts'
import { countFailedCredential, refuseWhileFailing } from './failed-credentials.ts'
import { canonicalRequest, pathOf, readsOnly } from './request-path.ts'

async function exposition(deps: AppDeps): Promise<Response> {
	const { contentType, text } = await deps.metrics.render()
	return new Response(text, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } })
}

/**
 * The route on the main port; only built when `METRICS_TOKEN` is set. A wrong token counts against
 * the client address like a failed credential on the other doors (failed-credentials.ts): past the
 * budget, 429 before the token is compared, the right one included. A missing one is not counted.
 */
export function metricsRoute(deps: AppDeps, auth: AuthPlugin) {
	const expected = hashSecret(deps.config.metricsToken ?? '')
	const refused = () =>
		new AppError('UNAUTHORIZED', 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>', {
			headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
		})
	return new Elysia({ name: 'core.metrics' }).use(auth).get(
		'/metrics',
		async ({ request }) => {
			const parsed = parseBearer(request.headers.get('authorization'))
			if ('problem' in parsed && parsed.problem === 'missing') throw refused()
			const address = clientAddress(deps.config, request)
			await refuseWhileFailing(deps, address)
			// Hashes have one length, so the comparison takes the same time whatever was sent.
			if (!('token' in parsed) || !safeEqual(hashSecret(parsed.token), expected)) {
				await countFailedCredential(deps, address, 'metrics')
				throw refused()
			}
			return exposition(deps)
		},
		{ auth: 'public' },
	)
}

/** What `METRICS_PORT` answers: `/metrics` alone (GET or HEAD, as the router reads a path), without a token. */
export const metricsOnly = (deps: AppDeps) => (received: Request) => {
	const request = canonicalRequest(received, deps.config.baseUrl)
	return request && pathOf(request) === '/metrics' && readsOnly(request) ? exposition(deps) : new Response('Not found', { status: 404 })
}

/** `/metrics` alone, without a token, on `port` of 127.0.0.1. */
export function serveMetrics(deps: AppDeps, port: number) {
	return Bun.serve({ hostname: '127.0.0.1', port, fetch: metricsOnly(deps) })
}
