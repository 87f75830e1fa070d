/**
 * 405 Method Not Allowed on the JSON doors (`/api/*`, OAuth, metadata, health; RFC 9110 §15.5.6): Elysia answers 404 whenever no
 * route has both the path and the method (elysiajs/elysia#682), so a client that sends `PUT
 * /api/v1/jobs` cannot tell a typo in the address from a wrong verb. On a 404 we look the path up
 * in the app's route table; when other methods serve it, the answer is 405 with `Allow`, and an
 * OPTIONS request is answered 204 with the same `Allow` (`optionsAnswer`).
 *
 * Paths are matched the way Elysia matches them: segment by segment, `:name` is one non-empty
 * segment, `*` is the rest, one trailing slash is ignored, and HEAD is served wherever GET is. A
 * path served only by OPTIONS (a CORS preflight wildcard such as `/.well-known/*`) is not "known":
 * it stays 404.
 */
import { AppError } from '../errors.ts'
import { doorOf } from './errors.ts'

interface RouteLike {
	readonly method: string
	readonly path: string
}

type Matcher = (segments: string[]) => boolean

function matcherOf(path: string): Matcher {
	const pattern = path.split('/')
	return (segments) => {
		for (let i = 0; i < pattern.length; i++) {
			const part = pattern[i]!
			if (part === '*') return true
			if (i >= segments.length) return false
			if (part.startsWith(':') ? segments[i] === '' : segments[i] !== part) return false
		}
		return segments.length === pattern.length
	}
}

/** The methods that serve a path, from a route table (empty when only OPTIONS or nothing does). */
export function allowedMethodsOf(routes: readonly RouteLike[]): (pathname: string) => string[] {
	const byPath = new Map<string, Set<string>>()
	for (const r of routes) {
		const methods = byPath.get(r.path) ?? new Set<string>()
		methods.add(r.method.toUpperCase())
		byPath.set(r.path, methods)
	}
	const table = [...byPath].map(([path, methods]) => ({ matches: matcherOf(path), methods }))
	return (pathname) => {
		const segments = (pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname).split('/')
		const allowed = new Set<string>()
		for (const entry of table) if (entry.matches(segments)) for (const m of entry.methods) allowed.add(m)
		if (allowed.has('GET')) allowed.add('HEAD')
		const served = [...allowed].filter((m) => m !== 'OPTIONS')
		// OPTIONS is answered wherever another method is (`optionsAnswer`), so Allow names it too.
		return served.length ? [...allowed.add('OPTIONS')].sort() : []
	}
}

/**
 * OPTIONS on a known address of a JSON door that has no OPTIONS route of its own (a CORS preflight's):
 * 204 with `Allow`, as RFC 9110 §9.3.7 describes, where it was a 405 that named OPTIONS nowhere.
 * Nothing else: no CORS header (a browser's preflight to a server-to-server API still fails, as
 * it should), no body, no credentials asked (the answer says only what a 405 already says). Null for
 * another method, a page or an unknown address (a 404).
 */
export function optionsAnswer(request: Request, allowedFor: (pathname: string) => string[]): Response | null {
	if (request.method !== 'OPTIONS') return null
	const pathname = new URL(request.url).pathname
	if (doorOf(pathname) === 'page') return null
	const allowed = allowedFor(pathname)
	return allowed.length ? new Response(null, { status: 204, headers: { Allow: allowed.join(', ') } }) : null
}

/**
 * An OPTIONS that is no CORS preflight (no `Access-Control-Request-Method`) asks what the address
 * allows, whichever route would serve it: the preflight routes (`/api/mcp`, OAuth, `/.well-known/*`)
 * answer browsers only, and refused one without an Origin (403). Answered before routing: 204 with
 * Allow on a known address of a JSON door, its 404 on an unknown one; null (routed as before) for a
 * preflight, another method, or a page.
 */
export function plainOptions(request: Request, allowedFor: (pathname: string) => string[]): Response | AppError | null {
	if (request.method !== 'OPTIONS' || request.headers.has('access-control-request-method')) return null
	if (doorOf(new URL(request.url).pathname) === 'page') return null
	return optionsAnswer(request, allowedFor) ?? new AppError('NOT_FOUND', 'Not found')
}

/**
 * The 405 for a request no route answered, or null when the path is unknown (a real 404) or is a
 * page (pages keep their 404 page).
 */
export function methodNotAllowed(request: Request, allowedFor: (pathname: string) => string[]): AppError | null {
	const pathname = new URL(request.url).pathname
	if (doorOf(pathname) === 'page') return null
	const allowed = allowedFor(pathname)
	if (!allowed.length || allowed.includes(request.method)) return null
	return new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed at this address; use ${allowed.join(', ')}`, {
		headers: { Allow: allowed.join(', ') },
	})
}
