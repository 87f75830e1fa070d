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

/**
 * The names of a URL's query parameters whose name or value is no text: a broken percent-escape
 * (`%zz`, a lone `%`) or escaped bytes that are not UTF-8 (`%ED%A0%80`, half a surrogate pair; `%C0%80`).
 * Elysia hands such a value over undecoded (`%zz`), which a page would show back as if it had been typed:
 * a handler asks here and says the parameter cannot be read instead. A name that cannot be read itself is given as written.
 */
export function undecodableQueryNames(url: string): string[] {
	const at = url.indexOf('?')
	if (at < 0 || !url.includes('%', at)) return []
	const decode = (text: string) => {
		try {
			return decodeURIComponent(text.replace(/\+/g, ' '))
		} catch {
			return null
		}
	}
	const names: string[] = []
	for (const pair of url.slice(at + 1).split('&')) {
		const eq = pair.indexOf('=')
		const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)]
		const name = decode(rawName)
		if (name === null || decode(rawValue) === null) names.push(name ?? rawName)
	}
	return names
}
