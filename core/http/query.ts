import { AppError, type FieldError } from '../errors.ts'

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
	return unreadableParameters(url).map(({ name, rawName }) => name ?? rawName)
}

/** Each parameter of a URL's query whose name or value is no text: its name (null when the name itself is not) and the name as written. */
function unreadableParameters(url: string): { name: string | null; rawName: string }[] {
	const at = url.indexOf('?')
	return at < 0 ? [] : unreadablePairs(url.slice(at + 1))
}

/**
 * The same, of a query's text or a form body's (`a=1&b=2`). `replaced`: the text was decoded from bytes
 * that were not all UTF-8, each such byte now U+FFFD (`unreadableFormBody`), which cannot be read either.
 */
function unreadablePairs(text: string, replaced = false): { name: string | null; rawName: string }[] {
	if (!text.includes('%') && !replaced) return []
	const unreadable = (raw: string) => (replaced && raw.includes('\ufffd') ? null : decoded(raw))
	const found: { name: string | null; rawName: string }[] = []
	for (const pair of text.split('&')) {
		const eq = pair.indexOf('=')
		const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)]
		const name = unreadable(rawName)
		if (name === null || unreadable(rawValue) === null) found.push({ name, rawName })
	}
	return found
}

/** A query's text decoded as a form's (`+` is a space), or null when it holds a broken escape or bytes that are not UTF-8. */
function decoded(text: string): string | null {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '))
	} catch {
		return null
	}
}

/** What is said of a parameter that cannot be read, after its name or its label ("Keywords could not be read…"). */
export const unreadableMessage = (label: string, from = 'this address') => `${label} could not be read from ${from} (a broken %-escape)`

/**
 * The one rule for every door (core/app.ts): an address whose query holds a parameter that is no text
 * (`undecodableQueryNames`) is refused, 400 `UNREADABLE`, in the door's own format, naming each
 * parameter; its text is never shown back, nor read as if typed (`?q=%zz` searched for "%zz" and
 * filled the search box with it). A parameter whose name itself cannot be read is named `(query)`.
 * Null when every parameter is text. A route that answers in a format of its own (the careers search
 * shows its form, OAuth's authorization endpoint answers the client) declares `answersUnreadableText`.
 */
export function unreadableQuery(url: string): AppError | null {
	const fields = unreadableFields(url)
	if (!fields.length) return null
	return new AppError('UNREADABLE', 'The address holds text that could not be read: type it again', { fields })
}

/** Each parameter of a URL's query that cannot be read, named (`(query)` for a name that cannot be read), with what is wrong. */
export function unreadableFields(url: string): FieldError[] {
	return fieldsOf(unreadableParameters(url), '(query)', 'A parameter’s name', 'this address')
}

/** Each field of a form body (`application/x-www-form-urlencoded` text) that cannot be read; `(form)` for a name that cannot be read. */
export function unreadableFormText(text: string, replaced = false): FieldError[] {
	return fieldsOf(unreadablePairs(text, replaced), '(form)', 'A field’s name', 'this form')
}

/** The same, of a form body's bytes: a field holding bytes that are not UTF-8, sent unescaped, cannot be read either. */
export function unreadableFormBody(bytes: Uint8Array): FieldError[] {
	try {
		return unreadableFormText(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
	} catch {
		// Each byte that is not UTF-8 becomes U+FFFD, which `unreadablePairs` then reads as such.
		return unreadableFormText(new TextDecoder('utf-8', { fatal: false }).decode(bytes), true)
	}
}

function fieldsOf(found: { name: string | null }[], unnamed: string, unnamedLabel: string, from: string): FieldError[] {
	return [...new Set(found.map(({ name }) => name ?? unnamed))].map((name) => ({
		field: name,
		message: unreadableMessage(name === unnamed ? unnamedLabel : name, from),
	}))
}

/**
 * The address without its parameters that cannot be read (the others as written: each holds readable
 * text), for a refused page's link to the same page without them.
 */
export function withoutUnreadable(url: string): string {
	const { pathname, search } = new URL(url)
	const kept = search
		.slice(1)
		.split('&')
		.filter((pair) => pair && !unreadablePairs(pair).length)
	return kept.length ? `${pathname}?${kept.join('&')}` : pathname
}

/**
 * A route's own `transform` hook that says it answers a query or form that cannot be read itself, in
 * its own format (it asks `undecodableQueryNames`/`unreadableFields`, or `unreadableFormFields` of
 * core/http/form.ts). The app finds it in its route table, as it finds each route's credential, and
 * leaves such requests to the route.
 */
export const answersUnreadableText = Object.assign(() => {}, { answersUnreadableText: true as const })

/** Whether a route's hooks (Elysia's route table) hold `answersUnreadableText`. */
export function answersUnreadableTextItself(hooks: unknown): boolean {
	const transform = (hooks as { transform?: unknown })?.transform
	const list = Array.isArray(transform) ? transform : transform ? [transform] : []
	return list.some((h) => (((h as { fn?: unknown }).fn ?? h) as { answersUnreadableText?: boolean })?.answersUnreadableText === true)
}

/** Whether a route's hooks (Elysia's route table) say `parse: 'none'`: the route reads its body itself, in its door's format. */
export function parsesNothing(hooks: unknown): boolean {
	const parse = (hooks as { parse?: unknown })?.parse
	const list = Array.isArray(parse) ? parse : parse ? [parse] : []
	return list.some((h) => ((h as { fn?: unknown })?.fn ?? h) === 'none')
}
