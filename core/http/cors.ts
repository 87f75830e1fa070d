/**
 * Browser access to the API doors (`/api/mcp`, OAuth endpoints, metadata). A request from a
 * browser origin that is not ours or allowed by `ALLOWED_ORIGINS` is refused (DNS-rebinding and
 * cross-site defence); allowed origins get CORS headers, 401 answers included.
 */
import type { Config } from '../config.ts'
import { AppError } from '../errors.ts'

export const EXPOSED_HEADERS = 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, RateLimit, RateLimit-Policy, Retry-After'

export function originAllowed(config: Pick<Config, 'baseUrl' | 'allowedOrigins'>, origin: string): boolean {
	return origin === config.baseUrl || config.allowedOrigins.includes('*') || config.allowedOrigins.includes(origin)
}

/** Adds CORS headers for an allowed origin; throws 403 for a foreign one (no Origin = not a browser: fine). */
export function applyCors(
	config: Pick<Config, 'baseUrl' | 'allowedOrigins'>,
	request: Request,
	headers: Record<string, string | number>,
	options: { anyOrigin?: boolean } = {},
): void {
	const origin = request.headers.get('origin')
	if (!origin) return
	if (!options.anyOrigin && !originAllowed(config, origin)) throw new AppError('FORBIDDEN', `Requests from the origin ${origin} are not allowed`)
	headers['Access-Control-Allow-Origin'] = options.anyOrigin ? '*' : origin
	headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS
	headers.Vary = 'Origin'
}

/** Answer to a CORS preflight. */
export function preflight(
	config: Pick<Config, 'baseUrl' | 'allowedOrigins'>,
	request: Request,
	methods: string,
	options: { anyOrigin?: boolean } = {},
): Response {
	const origin = request.headers.get('origin')
	if (!origin || (!options.anyOrigin && !originAllowed(config, origin))) return new Response(null, { status: 403 })
	return new Response(null, {
		status: 204,
		headers: {
			'Access-Control-Allow-Origin': options.anyOrigin ? '*' : origin,
			'Access-Control-Allow-Methods': methods,
			'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID',
			'Access-Control-Expose-Headers': EXPOSED_HEADERS,
			'Access-Control-Max-Age': '600',
			Vary: 'Origin',
		},
	})
}
