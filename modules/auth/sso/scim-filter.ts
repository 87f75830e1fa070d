/**
 * Reading a SCIM `filter` (RFC 7644 §3.4.2.2) as the identity providers write it: comparisons with
 * `eq`, joined by `and` (Microsoft Entra ID uses only these two; Okta only `eq`). An attribute path
 * may carry its schema's URN and a value filter (`emails[type eq "work"].value`), and a value filter
 * may stand alone as a term (`emails[type eq "work" and value eq "…"]`: the resource has such a
 * value, the RFC's `valuePath`); names, operators and `and` are read in any case, quoted values as
 * sent. `true` and `false` may be quoted (`active eq "true"`, as some clients write every value). What each path means is the resource's service (scim-users.ts,
 * scim-groups.ts); anything else is refused (400 `invalidFilter`) rather than answered with a wrong list.
 */
import { invalid } from '../../../core/errors.ts'

/**
 * One `path eq value` comparison; `path` without its schema's URN, in lower case but for the quoted
 * values of a value filter in it. `value` undefined: a value filter alone (`emails[…]`), no comparison.
 */
export interface FilterTerm {
	path: string
	value: string | boolean | undefined
}

/** A filter Benchline does not read: 400 `invalidFilter` (core/http/errors.ts reads the `filter` field). */
export const unsupportedFilter = (why: string) => invalid([{ field: 'filter', message: why }])

const ATTRIBUTE_PATH = String.raw`[A-Za-z][\w:.$-]*(?:\[[^\]]*\])?(?:\.[A-Za-z$][\w$-]*)?`
const TERM = new RegExp(String.raw`^\s*(${ATTRIBUTE_PATH})\s+([A-Za-z]+)\s+("(?:[^"\\]|\\.)*"|true|false)\s*`, 'i')
/** A value filter standing alone as a term (RFC 7644 §3.4.2.2 `valuePath`): `emails[type eq "work" and value eq "…"]`. */
const VALUE_PATH = /^\s*([A-Za-z][\w:.$-]*\[[^\]]*\])\s*/
const AND = /^and\s+/i
/** More terms than any provider sends: the filter is refused rather than turned into a long query. */
const MAX_TERMS = 10
/** The longest filter read (a GET's query says so too; a `.search` body could carry far more, and reading is not linear in it). */
export const MAX_FILTER_LENGTH = 1000

/** A path in lower case but for the quoted values of a value filter in it (`emails[value eq "Lee@X"]`: a member id is exact). */
const lowerOutsideQuotes = (path: string) => path.replace(/"(?:[^"\\]|\\.)*"|[^"]+/g, (part) => (part.startsWith('"') ? part : part.toLowerCase()))

/** The schema's URN taken off a path (RFC 7644 §3.10: `urn:…:User:userName` is `userName`), in lower case. */
export function withoutUrn(path: string, schema: string): string {
	const lower = lowerOutsideQuotes(path)
	const prefix = `${schema.toLowerCase()}:`
	return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower
}

function literalValue(literal: string): string | boolean {
	const lower = literal.toLowerCase()
	if (lower === 'true' || lower === 'false') return lower === 'true'
	try {
		return JSON.parse(literal) as string
	} catch {
		throw unsupportedFilter(`${literal} is not a valid string`)
	}
}

/** The terms of `filter` (none when it is absent or blank); `supported` names what the resource reads, for the refusal. */
export function filterTerms(filter: string | undefined, schema: string, supported: string): FilterTerm[] {
	let rest = (filter ?? '').trim()
	if (rest.length > MAX_FILTER_LENGTH) throw unsupportedFilter(`is longer than ${MAX_FILTER_LENGTH} characters`)
	const terms: FilterTerm[] = []
	while (rest !== '') {
		if (terms.length === MAX_TERMS) throw unsupportedFilter(`is not supported: use ${supported}, joined by and`)
		const m = TERM.exec(rest)
		// Not a comparison with `eq` (`emails[…] and …` reads as one with the operator `and`): a value filter alone, if it is one.
		const alone = m?.[2]?.toLowerCase() === 'eq' ? null : VALUE_PATH.exec(rest)
		if (alone) {
			terms.push({ path: withoutUrn(alone[1]!, schema), value: undefined })
			rest = rest.slice(alone[0].length)
		} else if (m && m[2]!.toLowerCase() === 'eq') {
			terms.push({ path: withoutUrn(m[1]!, schema), value: literalValue(m[3]!) })
			rest = rest.slice(m[0].length)
		} else throw unsupportedFilter(`is not supported: use ${supported}, joined by and`)
		if (rest !== '') {
			const joined = AND.exec(rest)
			if (!joined) throw unsupportedFilter(`is not supported: use ${supported}, joined by and`)
			rest = rest.slice(joined[0].length)
		}
	}
	return terms
}

/** The text a term compares with; a path compared with `true`/`false` that takes text, or with nothing, is refused. */
export function textOf(term: FilterTerm): string {
	if (typeof term.value !== 'string') throw unsupportedFilter(`${term.path} is compared with a string ("…")`)
	return term.value
}

/**
 * The value a term compares with, for a boolean attribute (`active eq true`). Quoted, in any case
 * (`active eq "True"`), it is the same value: clients that quote every value (as Entra sends booleans
 * as "True"/"False" in a PATCH) meant nothing else, and refusing it stopped their provisioning.
 */
export function booleanOf(term: FilterTerm): boolean {
	if (typeof term.value === 'boolean') return term.value
	if (typeof term.value === 'string' && /^(true|false)$/i.test(term.value)) return term.value.toLowerCase() === 'true'
	throw unsupportedFilter(`${term.path} is compared with true or false`)
}

/**
 * A multi-valued path with a value filter (`emails[type eq "work"].value`, `members[value eq "…"]`):
 * the attribute, the filter's own terms, and the sub-attribute after it. Null when `path` has no brackets.
 */
export function valueFilterOf(path: string, supported: string): { attribute: string; terms: FilterTerm[]; sub: string | undefined } | null {
	const m = /^([^[]+)\[([^\]]*)\](?:\.(.+))?$/.exec(path)
	if (!m) return null
	return { attribute: m[1]!, terms: filterTerms(m[2], '', supported), sub: m[3] }
}
