/**
 * Conditional GET (RFC 9110 section 13): `If-None-Match` against the ETag, and only without it
 * `If-Modified-Since` against Last-Modified (whole seconds, as HTTP dates carry).
 */

export interface Validators {
	/** Quoted, e.g. `"abc"` (weak `W/"abc"` also accepted when compared). */
	etag: string
	lastModified: Date
}

export function validatorHeaders(v: Validators): Record<string, string> {
	return { ETag: v.etag, 'Last-Modified': v.lastModified.toUTCString() }
}

/** Whether the client's copy is current (answer 304). */
export function notModified(request: Request, v: Validators): boolean {
	const match = request.headers.get('if-none-match')
	if (match !== null) {
		const mine = v.etag.replace(/^W\//, '')
		return match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === mine)
	}
	const since = Date.parse(request.headers.get('if-modified-since') ?? '')
	return !Number.isNaN(since) && Math.floor(v.lastModified.getTime() / 1000) * 1000 <= since
}

/** The 304 answer: no body, the validators repeated. */
export function notModifiedResponse(v: Validators, headers: Record<string, string> = {}): Response {
	return new Response(null, { status: 304, headers: { ...headers, ...validatorHeaders(v) } })
}
