/**
 * What address a request asks for, read one way by the router and by every check.
 *
 * Elysia finds the path by searching `request.url` for the first `/` from its 12th character (an
 * origin is assumed to be at least `http://` and four more), while the checks (the door of an
 * error, the page a temporary password must visit first, what answers while the database is down)
 * read `new URL(request.url).pathname`. Bun builds `request.url` from the client's `Host` header:
 * with `Host: x`, `GET /sign-out?/candidates` became `http://x/sign-out?/candidates`, which the
 * router served as `/candidates` while every check saw `/sign-out` (a person with a temporary
 * password reached every page). A `Host` that is missing, empty or malformed (`a b`, `[::1`,
 * `x:99999`) left a URL that `new URL` refuses: a 500.
 *
 * So every request is rebuilt on the public origin (`BASE_URL`) before the app sees it
 * (`canonicalRequest`): the path and query the client asked, the same method, headers (`Host`,
 * `X-Forwarded-*` included), body and abort signal. The router and the checks then read one URL.
 * The app's `handle` does it (core/app.ts), so the server and the tests' in-process requests go
 * through the same rebuilding; core/main.ts does it once more first, to note the connection's peer
 * on the request the app will see.
 */

/** The origin a rebuilt request's URL had before (the client's `Host`), when that was an origin. */
const asked = new WeakMap<Request, string>()

/**
 * The request on `origin` (an origin without a trailing slash, as `Config.baseUrl`), or null when
 * its URL holds no path at all. A request already on it is returned as is (same object). A fragment
 * is dropped (a client never sends one; the router read it as part of the path).
 */
export function canonicalRequest(request: Request, origin: string): Request | null {
	const target = requestTarget(request.url)
	if (target === null) return null
	let href: string
	try {
		const url = new URL(origin + target)
		href = url.origin + url.pathname + url.search
	} catch {
		return null
	}
	if (href === request.url) return request
	// Named fields, not `new Request(href, request)`: Bun's copy of a streamed body never settles a
	// reader's cancel(), so a body refused past its limit (core/http/body.ts) hung the request.
	const rebuilt = new Request(href, {
		method: request.method,
		headers: request.headers,
		body: request.body,
		signal: request.signal,
		duplex: 'half',
	} as RequestInit)
	const before = originOf(request.url)
	if (before) asked.set(rebuilt, before)
	return rebuilt
}

/**
 * The origin the client addressed (its `Host`), when it was one: form posts from a page opened under
 * another name than `BASE_URL` (an address on the network) are from the same site (core/http/csrf.ts).
 */
export const askedOrigin = (request: Request): string => asked.get(request) ?? new URL(request.url).origin

/**
 * The path and query of a URL as Bun built it: a whole URL, a path alone (Bun gives `/a` when the
 * `Host` is missing or not a host name), or a URL whose host part `new URL` refuses (`http://[::1/a`).
 */
function requestTarget(url: string): string | null {
	if (url.startsWith('/')) return url
	try {
		const parsed = new URL(url)
		return parsed.pathname + parsed.search
	} catch {
		const scheme = url.indexOf('://')
		const slash = scheme === -1 ? -1 : url.indexOf('/', scheme + 3)
		return slash === -1 ? null : url.slice(slash)
	}
}

function originOf(url: string): string | undefined {
	try {
		const { origin } = new URL(url)
		return origin === 'null' ? undefined : origin
	} catch {
		return undefined
	}
}

/**
 * A path as the doors and the router are told apart: the router ignores one trailing slash
 * (`/metrics/` is `/metrics`), and a run of slashes (`//api/v1/jobs`) is one, so an address typed
 * with a doubled slash is answered in its door's format (a JSON 404 on the API, not a page). Every
 * check of which door or route a path is goes through it: `doorOf`, `isApiDoor`, what answers while
 * the database is down or the instance starts, the metrics port.
 */
export function normalisePath(pathname: string): string {
	const single = pathname.replace(/\/{2,}/g, '/')
	return single.length > 1 && single.endsWith('/') ? single.slice(0, -1) : single
}

/** The normalised path of a request (`normalisePath`). */
export const pathOf = (request: Request): string => normalisePath(new URL(request.url).pathname)

/**
 * A request that only reads: GET, and HEAD, which is GET without the body and is answered with the
 * same status and headers (no form, so no CSRF token; a page that redirects a GET redirects it too).
 */
export const readsOnly = (request: Request): boolean => request.method === 'GET' || request.method === 'HEAD'

/**
 * Whether a path parameter's value is one no record, token or file can have: one the router could
 * not decode (a broken percent-encoding, or bytes that are not UTF-8, such as `%C0%80` or an encoded
 * surrogate: Elysia gives null), or one holding a NUL or half a surrogate pair, which PostgreSQL's text
 * cannot hold. Asked anyway, every door answered as the value broke it: a 500 from a handler reading
 * null, a 422 from the database refusing a NUL, a 400 from SCIM. Such a value is "not found", decided
 * once, before any handler (core/app.ts). Other control characters reach the handlers, which find no
 * record (ids and slugs are made without them; a vendor job id stored before one-line text refused
 * them stays reachable).
 */
export const unaddressable = (params: Record<string, string | null | undefined>): boolean =>
	Object.values(params).some((value) => value === null || (typeof value === 'string' && (value.includes('\u0000') || !value.isWellFormed())))
