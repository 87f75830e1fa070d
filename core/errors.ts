/**
 * The one error type of the application. Services throw `AppError`; each door (REST API,
 * MCP, HTML pages) maps it once to its own shape (see `core/http/errors.ts` and `core/mcp/result.ts`).
 */

export type AppErrorCode =
	/** Credentials missing, malformed, unknown, revoked or expired. */
	| 'UNAUTHORIZED'
	/** Authenticated, but the caller may not do this (API access off, role lacks a permission). */
	| 'FORBIDDEN'
	/** The record does not exist or is out of the caller's reach (both answered alike). */
	| 'NOT_FOUND'
	/** The address exists but not with this HTTP method; the `Allow` header lists the methods. */
	| 'METHOD_NOT_ALLOWED'
	/** The request body is not JSON (or not a JSON object). */
	| 'INVALID_BODY'
	/** The request cannot be read as text: a query parameter (or a form field) holding a broken %-escape; `fields` names them. */
	| 'UNREADABLE'
	/** The request body is larger than the door allows. */
	| 'PAYLOAD_TOO_LARGE'
	/** One or more fields are invalid; `fields` names them. */
	| 'VALIDATION'
	/** The request conflicts with the current state (a duplicate, a wrong state). */
	| 'CONFLICT'
	/** The caller exceeded its request rate; `retryAfter` says how long to wait. */
	| 'RATE_LIMITED'
	/** A dependency (the database) is unavailable; retry later. */
	| 'UNAVAILABLE'
	/** A bug or an unexpected failure; details only in the server log. */
	| 'INTERNAL'

export const statusOf: Record<AppErrorCode, number> = {
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	NOT_FOUND: 404,
	METHOD_NOT_ALLOWED: 405,
	INVALID_BODY: 400,
	UNREADABLE: 400,
	PAYLOAD_TOO_LARGE: 413,
	VALIDATION: 422,
	CONFLICT: 409,
	RATE_LIMITED: 429,
	UNAVAILABLE: 503,
	INTERNAL: 500,
}

export interface FieldError {
	field: string
	message: string
}

export interface AppErrorOptions {
	fields?: FieldError[]
	/** Seconds the client should wait (429, 503). */
	retryAfter?: number
	/** Extra response headers (e.g. `WWW-Authenticate`). */
	headers?: Record<string, string>
	/** For pages: a GET is answered with a redirect (303) here instead of an error page (e.g. a page the person must see first). */
	location?: string
	/** On the SCIM door (RFC 7644 §3.12): the error's `scimType`, e.g. `uniqueness`, `invalidFilter`, `mutability`. */
	scimType?: string
	cause?: unknown
}

/**
 * An answer to bad input never grows with the input: a body of thousands of wrong values once got a
 * 422 of megabytes (one problem each, all repeated in the message). The first MAX_FIELD_ERRORS are
 * named and the rest counted; a message is cut at MAX_MESSAGE_LENGTH characters.
 */
export const MAX_FIELD_ERRORS = 100
export const MAX_MESSAGE_LENGTH = 4000

function bounded(message: string): string {
	if (message.length <= MAX_MESSAGE_LENGTH) return message
	const cut = message.slice(0, MAX_MESSAGE_LENGTH - 1)
	// Not between the two halves of a character.
	return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`
}

function fewFields(fields: FieldError[]): FieldError[] {
	if (fields.length <= MAX_FIELD_ERRORS) return fields
	const more = fields.length - (MAX_FIELD_ERRORS - 1)
	return [...fields.slice(0, MAX_FIELD_ERRORS - 1), { field: fields[MAX_FIELD_ERRORS - 1]!.field, message: `and ${more} more problems like these` }]
}

export class AppError extends Error {
	readonly status: number
	readonly fields?: FieldError[]
	readonly retryAfter?: number
	readonly headers?: Record<string, string>
	readonly location?: string
	readonly scimType?: string

	constructor(
		readonly code: AppErrorCode,
		message: string,
		options: AppErrorOptions = {},
	) {
		super(bounded(message), { cause: options.cause })
		this.status = statusOf[code]
		this.fields = options.fields && fewFields(options.fields)
		this.retryAfter = options.retryAfter
		this.headers = options.headers
		this.location = options.location
		this.scimType = options.scimType
	}
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what)
export const forbidden = (why: string) => new AppError('FORBIDDEN', why)
export const invalid = (fields: FieldError[], message = 'One or more fields are not valid') => new AppError('VALIDATION', message, { fields })

/** True for errors thrown by the database driver when the server is unreachable or restarting. */
export function isDatabaseUnavailable(error: unknown): boolean {
	const e = error as { code?: string; message?: string } | undefined
	if (!e) return false
	const codes = [
		'ECONNREFUSED',
		'ECONNRESET',
		'CONNECTION_CLOSED',
		'CONNECTION_ENDED',
		'CONNECTION_DESTROYED',
		'CONNECT_TIMEOUT',
		'ETIMEDOUT',
		'EPIPE',
		'57P01',
		'57P02',
		'57P03',
		'53300',
	]
	if (e.code && codes.includes(e.code)) return true
	const cause = (error as { cause?: unknown }).cause
	return cause !== undefined && cause !== error ? isDatabaseUnavailable(cause) : false
}

/**
 * True when the database refused text it cannot store: a NUL character (22021), or an escape it
 * cannot represent such as `\u0000` or an unpaired surrogate inside jsonb (22P05, 22P02 "Unicode").
 * Each door validates its own fields, but text also reaches the database through free-form places
 * (activity details, names of things): this turns such input into a 422 instead of a 500
 * (found by tests/reliability/json-doors.test.ts: a token name "\ud800" broke the activity insert).
 */
export function isUnstorableText(error: unknown): boolean {
	const e = error as { code?: string; message?: string; detail?: string } | undefined
	if (!e) return false
	if (e.code === '22021' || e.code === '22P05') return true
	if (e.code === '22P02' && /unicode|surrogate/i.test(`${e.message} ${e.detail}`)) return true
	const cause = (error as { cause?: unknown }).cause
	return cause !== undefined && cause !== error ? isUnstorableText(cause) : false
}

/** The 422 answered for text the database cannot store. */
export const unstorableText = () =>
	new AppError('VALIDATION', 'The request contains text that cannot be stored', {
		fields: [{ field: '(request)', message: 'must not contain NUL characters or unpaired surrogates' }],
	})
