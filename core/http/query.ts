/**
 * A query parameter given more than once is read as its first value, as a posted form's field is
 * (`formText`) and as `URLSearchParams.get` reads it elsewhere in the app. Elysia keeps the last, so
 * `?type=Contract&type=Bogus` and `?type=Bogus&type=Contract` were answered differently, and a
 * parameter appended to a link overrode what the link said. No route takes a list in its query.
 */
export function firstQueryValues(url: string, query: Record<string, unknown>): void {
	const at = url.indexOf('?')
	// Most requests have no query, or one parameter: nothing to look at.
	if (at < 0 || !url.includes('&', at)) return
	const params = new URLSearchParams(url.slice(at + 1))
	const seen = new Set<string>()
	for (const key of params.keys()) {
		if (seen.has(key)) query[key] = params.get(key)
		else seen.add(key)
	}
}
