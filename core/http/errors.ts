/**
 * One error mapping per door: the REST API and `/api/*` answer JSON `{error, fields?}`, the MCP
 * endpoint answers JSON-RPC errors, SCIM provisioning (`/scim/`) answers SCIM error bodies (RFC 7644
 * §3.12), pages answer an HTML page (or the sign-in redirect).
 * Unknown errors are logged with a request id and answered with a generic message.
 */
import { AppError, isDatabaseUnavailable, isUnstorableText, unstorableText } from '../errors.ts'
import { html, page } from '../html.ts'
import type { Logger } from '../log.ts'
import { currentRequest } from '../request-context.ts'
import { scimMediaType } from './media-type.ts'
import { withoutUnreadable } from './query.ts'
import { normalisePath, readsOnly } from './request-path.ts'

export type Door = 'rest' | 'mcp' | 'scim' | 'page'

/** The door a path belongs to, read as the router reads it (`normalisePath`: `/metrics/` is `/metrics`). */
export function doorOf(pathname: string): Door {
	const path = normalisePath(pathname)
	if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return 'mcp'
	if (path === '/scim' || path.startsWith('/scim/')) return 'scim'
	if (
		path.startsWith('/api/') ||
		path.startsWith('/oauth/') ||
		path.startsWith('/.well-known/') ||
		path === '/health' ||
		path === '/ready' ||
		path === '/metrics'
	)
		return 'rest'
	return 'page'
}

/** The doors whose answers carry credentials' results (REST and MCP under `/api/`, SCIM provisioning): never cached. */
export function isApiDoor(pathname: string): boolean {
	const door = doorOf(pathname)
	return door === 'mcp' || door === 'scim' || (door === 'rest' && normalisePath(pathname).startsWith('/api/'))
}

/**
 * Normalises anything thrown into an AppError (logging the ones that are bugs). A log line names the
 * address asked by the route template that matched (`route`, `/jobs/:id`; `unmatched` when none did),
 * never by its path: for some links (a job-alert confirmation, an unsubscribe link) the path is their
 * only credential.
 */
export function toAppError(
	error: unknown,
	elysiaCode: string | number,
	log: Logger,
	request: Request,
	route: string = currentRequest()?.route ?? 'unmatched',
): AppError {
	if (error instanceof AppError) return error
	if (elysiaCode === 'NOT_FOUND') return new AppError('NOT_FOUND', 'Not found')
	if (elysiaCode === 'PARSE') return new AppError('INVALID_BODY', 'The request body could not be read')
	// A path parameter its route's schema refuses (longer than any id, token or name it stands for)
	// is an address no record has: 404 in its door's format, as a value no record can hold
	// (`unaddressable`) and the routes that check ids themselves. As a 400 it sent an identity
	// provider's probe for a user that does not exist into its error handling instead of "not found".
	if (elysiaCode === 'VALIDATION' && (error as { type?: unknown }).type === 'params') return new AppError('NOT_FOUND', 'Not found')
	if (elysiaCode === 'VALIDATION') {
		const all = (error as { all?: { path?: string; summary?: string; message?: string; schema?: { error?: unknown } }[] }).all ?? []
		// A schema's own `error` text (e.g. "range must be 7 or 30 (days)") says it best; else TypeBox's.
		const fields = all.map((e) => ({
			field: (e.path ?? '').replace(/^\//, '').replace(/\//g, '.') || '(request)',
			message: typeof e.schema?.error === 'string' ? e.schema.error : (e.summary ?? e.message ?? 'is not valid'),
		}))
		return new AppError('VALIDATION', 'The request is not valid', { fields })
	}
	if (isUnstorableText(error)) return unstorableText()
	if (isDatabaseUnavailable(error)) {
		log.warn('database unavailable', { route, error })
		return new AppError('UNAVAILABLE', 'The service is temporarily unavailable; retry shortly', { retryAfter: 5 })
	}
	// The id the client is shown is the one on the request's log lines (and in its X-Request-Id).
	const requestId = currentRequest()?.requestId ?? crypto.randomUUID()
	log.error('unhandled error', { requestId, method: request.method, route, error })
	return new AppError('INTERNAL', `Something went wrong (request ${requestId})`)
}

export function errorResponse(error: AppError, request: Request): Response {
	const url = new URL(request.url)
	const door = doorOf(url.pathname)
	const headers: Record<string, string> = { ...error.headers }
	if (error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter)

	if (door === 'page') {
		if (error.location && readsOnly(request)) return new Response(null, { status: 303, headers: { ...headers, Location: error.location } })
		if (error.code === 'UNAUTHORIZED' && readsOnly(request)) {
			const next = url.pathname + url.search
			return new Response(null, { status: 303, headers: { ...headers, Location: `/sign-in?next=${encodeURIComponent(next)}` } })
		}
		// A refused address (a bad filter or cursor in the query) says what is wrong with which part.
		const fields = error.fields?.length
			? html`<ul>${error.fields.map((f) => html`<li>${f.message.startsWith(f.field) ? f.message : `${f.field}: ${f.message}`}</li>`)}</ul>`
			: ''
		// An address with a part that cannot be read leads to the same page without it (what it asked for, less that part).
		const without =
			error.code === 'UNREADABLE' && readsOnly(request)
				? html`<p><a href="${withoutUnreadable(request.url)}">Open this page without ${error.fields?.length === 1 ? 'it' : 'them'}</a></p>`
				: ''
		const res = page(
			{ title: titleOf(error), status: error.status },
			html`<section class="card"><h1>${titleOf(error)}</h1><p>${error.message}</p>${fields}${without}<p><a href="/">Go to the start page</a></p></section>`,
		)
		for (const [k, v] of Object.entries(headers)) res.headers.set(k, v)
		return res
	}
	if (door === 'mcp') {
		// A client told to wait (429, 503) reads it in the HTTP status, `Retry-After`, the message and
		// `data.retryAfterSeconds`; never as -32603, which says the server is broken.
		const data = error.retryAfter !== undefined ? { data: { retryAfterSeconds: error.retryAfter } } : {}
		// A JSON-RPC error has no list of fields: what is wrong with which is said in its message.
		const message = error.fields?.length ? `${error.message}: ${error.fields.map((f) => f.message).join('; ')}` : error.message
		return Response.json({ jsonrpc: '2.0', error: { code: jsonRpcCodeOf(error.status), message, ...data }, id: null }, { status: error.status, headers })
	}
	if (door === 'scim') return scimErrorResponse(error, { ...headers, 'Content-Type': scimMediaType(request) })
	const body: { error: string; fields?: unknown } = { error: error.message }
	if (error.fields?.length) body.fields = error.fields
	return Response.json(body, { status: error.status, headers })
}

/** RFC 7644 §3.12 Table 9: the status of each `scimType`; all but these two are 400. */
const SCIM_TYPE_STATUS: Record<string, number> = { uniqueness: 409, sensitive: 403 }

/**
 * A SCIM error body: SCIM has no 422, so a value that is not valid is 400 `invalidValue` (a bad
 * filter `invalidFilter`, a body that is not JSON `invalidSyntax`), a duplicate 409 `uniqueness`.
 * A `scimType` decides the status whatever the error's code: a `mutability` refusal (the last
 * owner, an account's address) is a CONFLICT to the other doors but 400 here. A body refused for
 * its coding or character set keeps its 415, as on every door: as 400 `invalidSyntax` it sent the
 * client looking for a fault in its JSON. `headers` name its Content-Type (`scimMediaType`).
 */
function scimErrorResponse(error: AppError, headers: Record<string, string>): Response {
	const fields = error.fields ?? []
	const scimType =
		error.scimType ??
		(fields.some((f) => f.field === 'filter')
			? 'invalidFilter'
			: error.code === 'VALIDATION' || error.code === 'UNREADABLE'
				? 'invalidValue'
				: error.code === 'INVALID_BODY' && error.status === 400
					? 'invalidSyntax'
					: error.code === 'CONFLICT'
						? 'uniqueness'
						: undefined)
	const status = scimType ? (SCIM_TYPE_STATUS[scimType] ?? 400) : error.status === 422 ? 400 : error.status
	const detail = fields.length
		? `${error.message}: ${fields.map((f) => (f.message.startsWith(f.field) ? f.message : `${f.field} ${f.message}`)).join('; ')}`
		: error.message
	return Response.json(
		{ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), ...(scimType ? { scimType } : {}), detail },
		{ status, headers },
	)
}

/** JSON-RPC error codes of the MCP door's HTTP errors (implementation-defined server errors, -32000…-32099). */
// A body that cannot be read as text (not UTF-8) is a parse error, as malformed JSON is (-32700); a body of
// another media type is the SDK's own -32000. Only an unexpected failure is an internal error.
const JSON_RPC_CODES: Record<number, number> = { 400: -32700, 401: -32001, 403: -32003, 405: -32000, 413: -32004, 415: -32000, 429: -32029, 503: -32053 }
const jsonRpcCodeOf = (status: number) => JSON_RPC_CODES[status] ?? -32603

function titleOf(error: AppError): string {
	switch (error.code) {
		case 'NOT_FOUND':
			return 'Page not found'
		case 'FORBIDDEN':
			return 'Not allowed'
		case 'UNAUTHORIZED':
			return 'Please sign in'
		case 'RATE_LIMITED':
			return 'Slow down'
		case 'UNAVAILABLE':
			return 'Temporarily unavailable'
		case 'INTERNAL':
			return 'Something went wrong'
		default:
			return 'Please check your input'
	}
}
