/**
 * The media type of an answer, from the request's `Accept` (RFC 9110 §12.5.1). SCIM answers
 * `application/scim+json`, and also `application/json` (RFC 7644 §3.1: a service provider SHOULD
 * accept it): a client that asks only for the latter gets it, with the same body.
 */

export const SCIM_MEDIA_TYPE = 'application/scim+json'
const SCIM_MEDIA_TYPES = [SCIM_MEDIA_TYPE, 'application/json'] as const

/** The q of `type` in an Accept header: that of the most specific range naming it (`a/b`, then `a/*`, then `*\/*`), 0 when none does. */
function qualityOf(accept: string, type: string): number {
	const [main] = type.split('/')
	let best = { specificity: -1, q: 0 }
	for (const part of accept.split(',')) {
		const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase())
		const specificity = range === type ? 2 : range === `${main}/*` ? 1 : range === '*/*' ? 0 : -1
		if (specificity <= best.specificity) continue
		const q = params.find((p) => /^q\s*=/.test(p))
		const value = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim())
		best = { specificity, q: Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 1 }
	}
	return best.q
}

/**
 * The first of `offered` with the highest q above 0 in `accept`; the first offered when there is no
 * Accept, or none is acceptable (the answer is still given rather than a 406, as before).
 */
export function preferredMediaType(accept: string | null, offered: readonly [string, ...string[]]): string {
	if (!accept?.trim()) return offered[0]
	let chosen = { type: offered[0], q: 0 }
	for (const type of offered) {
		const q = qualityOf(accept, type)
		if (q > chosen.q) chosen = { type, q }
	}
	return chosen.type
}

/** The Content-Type of a SCIM answer (a resource, a list, an error) to `request`. */
export const scimMediaType = (request: Request) => preferredMediaType(request.headers.get('accept'), SCIM_MEDIA_TYPES)
