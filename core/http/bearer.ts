/**
 * Strict RFC 6750 §2.1 bearer parsing (`"Bearer" 1*SP b64token`): only the `Authorization` header
 * counts (never the query string or the body); the scheme is case-insensitive; one or more spaces
 * (a client that writes two is within the grammar); b64token characters. Every door reads it here.
 */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/

export type BearerResult = { token: string } | { problem: 'missing' | 'malformed' }

export function parseBearer(header: string | null | undefined): BearerResult {
	if (header === null || header === undefined || header === '') return { problem: 'missing' }
	const space = header.indexOf(' ')
	if (space < 0) return { problem: 'malformed' }
	const scheme = header.slice(0, space)
	const token = header.slice(space + 1).replace(/^ +/, '')
	if (scheme.toLowerCase() !== 'bearer' || !B64TOKEN.test(token) || token.length > 512) return { problem: 'malformed' }
	return { token }
}
