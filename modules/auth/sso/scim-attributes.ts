/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): the parts of a resource a response
 * shows, on every answer that carries resources (GET, a list, `.search`, POST, PUT, PATCH). Microsoft
 * Entra ID asks groups with `excludedAttributes=members`; `attributes=id` answers only the ids.
 *
 * Names are read in any case, with or without the resource's schema URN
 * (`urn:ietf:params:scim:schemas:core:2.0:User:name.givenName`), as an attribute (`emails`) or a
 * sub-attribute (`emails.value`, `name.givenName`: of each value of a multi-valued attribute). `id` and
 * `schemas` are always returned (`returned: "always"`). A name of another schema, or of no attribute,
 * picks nothing. Both parameters together (the RFC calls them exclusive): `attributes` first, then
 * `excludedAttributes` takes from what is left.
 */
import type { ListParameters } from './scim-requests.ts'

/** An attribute path in lower case: `whole` for the schema URN alone (every attribute of it). */
type AttributePath = { attribute: string; sub?: string } | 'whole'

export interface Projection {
	/** Only these (and the `always` ones); undefined: every attribute returned by default. */
	only?: AttributePath[]
	except: AttributePath[]
}

type Resource = Record<string, unknown>

/**
 * The longest `attributes` or `excludedAttributes` read (room for a dozen names with their URN), on a
 * GET's query as in a `.search` body: each name is compared with each attribute of every resource answered.
 */
export const MAX_ATTRIBUTES_LENGTH = 2000

const ALWAYS = new Set(['id', 'schemas'])

const isObject = (v: unknown): v is Resource => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The names of a parameter (comma-separated), each as a path of the resource's schema; others are dropped. */
function pathsOf(names: string | undefined, schema: string): AttributePath[] {
	const urn = schema.toLowerCase()
	const paths: AttributePath[] = []
	for (const raw of (names ?? '').split(',')) {
		const name = raw.trim().toLowerCase()
		if (name === urn) paths.push('whole')
		else if (name.startsWith(`${urn}:`) || (name !== '' && !name.startsWith('urn:'))) {
			const [attribute, sub] = (name.startsWith(`${urn}:`) ? name.slice(urn.length + 1) : name).split('.', 2)
			paths.push({ attribute: attribute!, sub })
		}
	}
	return paths
}

export function projectionOf(query: Pick<ListParameters, 'attributes' | 'excludedAttributes'>, schema: string): Projection {
	const only = query.attributes?.trim() ? pathsOf(query.attributes, schema) : undefined
	return { only: only?.includes('whole') ? undefined : only, except: pathsOf(query.excludedAttributes, schema) }
}

/**
 * The sub-attributes of a value kept (`keep`) or left out: of the object, or of each object of a list.
 * Undefined when nothing is left (the attribute is then left out, as an unassigned one).
 */
function subAttributes(value: unknown, names: Set<string>, keep: boolean): unknown {
	const one = (v: unknown) => {
		if (!isObject(v)) return keep ? undefined : v
		const kept = Object.entries(v).filter(([k]) => names.has(k.toLowerCase()) === keep)
		return kept.length ? Object.fromEntries(kept) : undefined
	}
	if (!Array.isArray(value)) return one(value)
	const list = value.map(one).filter((v) => v !== undefined)
	return list.length ? list : undefined
}

/** The attribute `key` of a resource after the paths naming it (`keep`: only those; else without them); undefined: left out. */
function shownAttribute(key: string, value: unknown, paths: AttributePath[], keep: boolean): unknown {
	const k = key.toLowerCase()
	if (ALWAYS.has(k)) return value
	if (paths.includes('whole')) return keep ? value : undefined
	const named = paths.filter((p): p is { attribute: string; sub?: string } => p !== 'whole' && p.attribute === k)
	if (!named.length) return keep ? undefined : value
	if (named.some((p) => p.sub === undefined)) return keep ? value : undefined
	return subAttributes(value, new Set(named.map((p) => p.sub!)), keep)
}

function shown(resource: Resource, paths: AttributePath[], keep: boolean): Resource {
	const out: Resource = {}
	for (const [key, value] of Object.entries(resource)) {
		const v = shownAttribute(key, value, paths, keep)
		if (v !== undefined) out[key] = v
	}
	return out
}

/** The resource as the request asked to see it. */
export function project(resource: Resource, projection: Projection): Resource {
	const picked = projection.only ? shown(resource, projection.only, true) : resource
	return projection.except.length ? shown(picked, projection.except, false) : picked
}
