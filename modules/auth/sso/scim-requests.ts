/**
 * Reading what identity providers send to `/scim/v2`: User bodies and PATCH operations, as Okta and
 * Microsoft Entra ID write them (Entra capitalises `op` — "Replace" — and sends booleans as
 * "True"/"False"; both send attributes Benchline does not keep, such as `title` or the enterprise
 * extension's `manager`, which are ignored, as are the attributes of an extension schema Benchline
 * does not know, such as a tenant's custom one: scim-paths.ts). A PATCH path naming no attribute of a
 * schema Benchline knows is refused (400 `invalidPath`) rather than ignored: a 200 would tell the
 * provider a change was made.
 */
import { AppError, invalid } from '../../../core/errors.ts'
import { isEmailAddress, normalEmail } from '../../../core/email.ts'
import { typedLine } from '../../../core/untrusted.ts'
import { MAX_ATTRIBUTES_LENGTH } from './scim-attributes.ts'
import { booleanOf, filterTerms, textOf, unsupportedFilter, valueFilterOf, withoutUrn } from './scim-filter.ts'
import { GROUP_SCHEMA, nameParts, PATCH_SCHEMA, type ScimPerson, SEARCH_SCHEMA, USER_SCHEMA } from './scim-model.ts'
import { ENTERPRISE_USER, invalidPath, ownPath } from './scim-paths.ts'
import { NAME_MAX, type ScimUserInput } from './scim-users.ts'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/**
 * A body whose `schemas` (RFC 7643 §3, RFC 7644 §3.5.2) names what it is: a list of URIs that holds
 * the resource's or message's schema (`expected`), in any case; others beside it (an extension such as
 * the enterprise User's) are read as their attributes are. A `schemas` that is not such a list, or
 * names another resource (a Group's body sent to /Users), is 400 `invalidSyntax`: read as a User, its
 * attributes would have been taken for what they are not. Left out (or null), the address says what
 * the body is, and it is read: every provider sends it, and refusing a body for its absence alone
 * would only stop a hand-written client.
 */
export function withSchema(body: Json, expected: string): Json {
	const sent = body.schemas
	if (sent === undefined || sent === null) return body
	const problem =
		!Array.isArray(sent) || !sent.every((s) => typeof s === 'string')
			? 'must be a list of schema URIs'
			: sent.some((s) => s.trim().toLowerCase() === expected.toLowerCase())
				? null
				: `must include ${expected}`
	if (problem)
		throw new AppError('VALIDATION', 'The body is not what this address takes', { scimType: 'invalidSyntax', fields: [{ field: 'schemas', message: problem }] })
	return body
}

/**
 * A string attribute as sent: undefined when left out or null (unassigned, RFC 7643 §2.5: in a POST
 * or PUT body, where what is left out is cleared anyway; a PATCH clears on null itself, `userPatch`);
 * any other type is refused (`invalidValue`), never dropped: a number taken as "not sent" once
 * cleared a person's externalId, and the provider's later look-ups by it found no one.
 */
function text(value: unknown, field: string): string | undefined {
	if (value === undefined || value === null || typeof value === 'string') return value ?? undefined
	throw invalid([{ field, message: 'must be a string' }])
}

/**
 * The longest `externalId` kept: its look-up, `externalId eq "…"`, must fit in a filter
 * (`MAX_FILTER_LENGTH`, 1,000 UTF-16 units, with every quote or backslash in it escaped as two).
 * A longer one was stored, and the provider could never find that person again by it (it makes a
 * second account instead).
 */
export const MAX_EXTERNAL_ID = 480

/** An `externalId` as sent: undefined when left out, null when cleared, a string of at most `MAX_EXTERNAL_ID` characters. */
function externalIdOf(value: unknown): string | null {
	const id = text(value, 'externalId') ?? null
	if (id !== null && id.length > MAX_EXTERNAL_ID)
		throw invalid([{ field: 'externalId', message: `must be at most ${MAX_EXTERNAL_ID} characters (a longer one could not be looked up with a filter)` }])
	return id
}

/**
 * The account's address and the userName to keep beside it, from the userName sent and the work
 * address of `emails`: a userName that is an address is the account's (none kept beside it); one that
 * is not, sent with a work address, is kept as sent (one line of visible text, at most
 * `MAX_EXTERNAL_ID` characters so that its `userName eq` filter fits) and the work address is the
 * account's. Without a work address it is passed on as the address, and refused as one.
 */
function userNameOf(sent: string | undefined, workEmail: string | undefined): { userName: string | undefined; userNameText: string | null } {
	if (sent === undefined || workEmail === undefined || isEmailAddress(normalEmail(sent))) return { userName: sent ?? workEmail, userNameText: null }
	return { userName: workEmail, userNameText: userNameText(sent) }
}

/** A userName that is no address, checked as `userNameOf` says; kept exactly as sent, as the provider looks it up. */
function userNameText(sent: string): string {
	const { problem } = typedLine(sent, MAX_EXTERNAL_ID)
	if (problem) throw invalid([{ field: 'userName', message: problem }])
	if ([...sent].length > MAX_EXTERNAL_ID) throw invalid([{ field: 'userName', message: `must be at most ${MAX_EXTERNAL_ID} characters` }])
	return sent
}

/** A complex attribute (`name`) as sent: undefined when left out or null; anything but an object is refused (`invalidValue`). */
function complex(value: unknown, field: string, parts: string): Json | undefined {
	if (value === undefined || value === null) return undefined
	if (isObject(value)) return value
	throw invalid([{ field, message: `must be an object (${parts})` }])
}

/**
 * A name attribute (`displayName`, `name.formatted`, `name.givenName`, `name.familyName`): one line
 * of visible text by the rule every typed name follows (`typedLine`: a line break or control
 * character refused, a name that shows nothing refused as blank, direction controls and zero-width
 * characters dropped, a lone surrogate refused), each refusal naming the attribute; '' clears it.
 */
function nameText(value: unknown, field: string): string | undefined {
	const sent = text(value, field)
	if (sent === undefined || sent === '') return sent
	const { line, problem } = typedLine(sent, NAME_MAX)
	if (problem) throw invalid([{ field, message: problem }])
	return line
}

function bool(value: unknown, field: string): boolean {
	if (typeof value === 'boolean') return value
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true'
	throw invalid([{ field, message: 'must be true or false' }])
}

/** Name parts as a request sends them; combined with the current name by `nameFrom`. */
interface NameParts {
	displayName?: string
	formatted?: string
	givenName?: string
	familyName?: string
}

/**
 * The name a request gives the person, and the parts to keep beside it (`nameParts`): the display
 * name from what was sent (undefined: nothing about the name; '': cleared, the address's then); a
 * part left out is completed from `current`'s parts as the provider last sent them, never from its
 * name split at a space. Without `current` (POST, PUT) the request's parts are the whole of them.
 */
export function nameInput(
	parts: NameParts,
	current?: Pick<ScimPerson, 'name' | 'givenName' | 'familyName'>,
): Pick<ScimUserInput, 'name' | 'givenName' | 'familyName'> {
	const whole = parts.displayName || parts.formatted
	const sentParts = parts.givenName !== undefined || parts.familyName !== undefined
	if (!sentParts) {
		// A whole name cleared ('') with no parts sent is cleared. A POST or PUT keeps no parts.
		const name = whole || (parts.displayName ?? parts.formatted)
		return current ? { name } : { name, givenName: null, familyName: null }
	}
	const base = current ? nameParts(current) : { givenName: '', familyName: '' }
	const givenName = parts.givenName ?? base.givenName
	const familyName = parts.familyName ?? base.familyName
	return { name: whole || `${givenName} ${familyName}`.trim(), givenName, familyName }
}

/** What a User body (POST or PUT) says about the person. */
export function userFromBody(body: Json): { input: ScimUserInput; name: NameParts } {
	withSchema(body, USER_SCHEMA)
	const name = complex(body.name, 'name', NAME_OBJECT) ?? {}
	// Read even when userName is sent: `emails` of the wrong type is refused, never passed over.
	const workEmail = workAddress(body.emails)
	const input: ScimUserInput = {
		...userNameOf(text(body.userName, 'userName'), workEmail),
		externalId: body.externalId === undefined ? undefined : externalIdOf(body.externalId),
		// null is "unassigned" (RFC 7643 §2.5), as if left out.
		active: body.active === undefined || body.active === null ? undefined : bool(body.active, 'active'),
	}
	return {
		input,
		name: {
			displayName: nameText(body.displayName, 'displayName'),
			formatted: nameText(name.formatted, 'name.formatted'),
			givenName: nameText(name.givenName, 'name.givenName'),
			familyName: nameText(name.familyName, 'name.familyName'),
		},
	}
}

export interface PatchOperation {
	op: 'add' | 'replace' | 'remove'
	path: string | undefined
	value: unknown
}

/** The `Operations` of a PATCH body (RFC 7644 §3.5.2), `op` in any case. */
export function patchOperations(body: Json): PatchOperation[] {
	withSchema(body, PATCH_SCHEMA)
	const ops = body.Operations ?? body.operations
	if (!Array.isArray(ops) || !ops.length) throw invalid([{ field: 'Operations', message: 'must list at least one operation' }])
	return ops.map((o, i) => {
		if (!isObject(o)) throw invalid([{ field: `Operations[${i}]`, message: 'must be an object' }])
		const op = String(o.op ?? '').toLowerCase()
		if (op !== 'add' && op !== 'replace' && op !== 'remove') throw invalid([{ field: `Operations[${i}].op`, message: 'must be add, replace or remove' }])
		return { op, path: str(o.path)?.trim() || undefined, value: o.value }
	})
}

/**
 * RFC 7644 §3.5.2: a required attribute (a User's `userName`, a Group's `displayName`) removed is
 * refused with `mutability`, rather than answered 200 with nothing removed.
 */
function requiredNotRemoved(attribute: string): never {
	throw new AppError('VALIDATION', `${attribute} is required: it cannot be removed`, { scimType: 'mutability' })
}

/**
 * RFC 7643 §4.1 core User attributes Benchline does not keep (an account has an e-mail address,
 * a name and a time zone the person chooses): providers map them by default, so they are accepted
 * and ignored, with their sub-attributes and value filters (`phoneNumbers[type eq "work"].value`).
 */
const IGNORED_USER_ATTRIBUTE =
	/^(nickName|profileUrl|title|userType|preferredLanguage|locale|timezone|password|phoneNumbers|ims|photos|addresses|entitlements|roles|x509Certificates)(\[[^\]]*\])?(\.\w+)?$/i

/** What a resource carries but a client never sets (`schemas`, and the read-only `id` and `meta`): some providers echo them in a path-less value. */
const STRUCTURAL_ATTRIBUTE = /^(schemas|id|meta)(\.\w+)?$/i

/** The `name` sub-attributes Benchline keeps (`middleName`, `honorificPrefix`… are ignored). */
const NAME_PARTS = ['formatted', 'givenName', 'familyName'] as const
const NAME_OBJECT = 'givenName, familyName, formatted'
const OTHER_NAME_PART = /^name\.(middleName|honorificPrefix|honorificSuffix)$/i

/**
 * An `emails` path: `emails`, `emails.value`, or with a value filter (Entra: `emails[type eq "work"].value`).
 * The filter is read as a list's filter is (scim-filter.ts): terms `type|primary|value|display eq …` joined by `and`.
 */
const EMAILS_PATH = /^emails(?:\[([^\]]*)\])?(?:\.(value|type|primary|display))?$/i
const EMAIL_FILTER = 'type eq "…", primary eq true or value eq "…"'

/**
 * RFC 7644 §3.5.2: a value filter that matches no value is 400 `noTarget`, rather than answered 200
 * with nothing changed (or, before, a change made to a value it did not name).
 */
const noTarget = (path: string) =>
	new AppError('VALIDATION', `${path}: the filter matches no address of this user`, {
		scimType: 'noTarget',
		fields: [{ field: 'path', message: 'matches no address of this user' }],
	})

/**
 * What an `emails` filter picks: the one address Benchline keeps, the work address (`type eq "work"`,
 * `primary eq true`, `value eq` that address, joined by `and`), or another one (`type eq "home"`,
 * `primary eq false`), which is not kept and is ignored. A `value eq` naming another address picks
 * nothing of a work address: `noTarget` (the operations before it counted, `address` is the
 * address they left).
 */
function emailFilterPicks(path: string, filter: string, address: string): 'work' | 'other' {
	let valueMatches = true
	try {
		for (const term of filterTerms(filter, '', EMAIL_FILTER)) {
			if (term.path === 'type' && textOf(term).toLowerCase() !== 'work') return 'other'
			if (term.path === 'primary' && !booleanOf(term)) return 'other'
			if (term.path === 'value' && normalEmail(textOf(term)) !== normalEmail(address)) valueMatches = false
			// `display eq "…"` must compare with text, and picks nothing more: the work address's display is not kept.
			if (term.path === 'display') textOf(term)
			else if (!['type', 'primary', 'value'].includes(term.path)) throw unsupportedFilter(`${term.path} is not an attribute of an address`)
		}
	} catch (error) {
		// A filter that cannot be read is a path that cannot (`invalidPath`), not a list's `invalidFilter`.
		if (error instanceof AppError && error.fields?.some((f) => f.field === 'filter')) throw invalidPath(path, `the emails filter must be ${EMAIL_FILTER}`)
		throw error
	}
	if (!valueMatches) throw noTarget(path)
	return 'work'
}

/** RFC 7644 §3.5.2.2: removing the work address would remove the `userName`, which is required. */
function workAddressNotRemoved(): never {
	throw new AppError('VALIDATION', 'The work address is the userName, which is required: it cannot be removed', { scimType: 'mutability' })
}

const isPrimary = (e: Json) => e.primary === true || (typeof e.primary === 'string' && e.primary.trim().toLowerCase() === 'true')
const typeOf = (e: Json) => (typeof e.type === 'string' ? e.type.trim().toLowerCase() || undefined : undefined)

/**
 * The work address in an `emails` value: among the entries typed "work" or of no type, the primary
 * one, else the one typed "work", else the only one (of no type). An entry of another type ("home",
 * "other") is never it, primary or not: it is not kept, and taken as primary it once replaced the
 * person's sign-in address.
 */
function workAddress(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined
	if (typeof value === 'string') return value
	if (typeof value !== 'object') throw invalid([{ field: 'emails', message: 'must be a list of addresses ({value, type, primary})' }])
	const entries = Array.isArray(value) ? value : [value]
	entries.forEach((e, i) => {
		if (!isObject(e)) throw invalid([{ field: `emails[${i}]`, message: 'must be an address ({value, type, primary})' }])
	})
	const work = entries.filter((e) => typeOf(e) === undefined || typeOf(e) === 'work')
	const entry = work.find(isPrimary) ?? work.find((e) => typeOf(e) === 'work') ?? (work.length === 1 ? work[0] : undefined)
	return entry === undefined ? undefined : text(entry.value, 'emails.value')
}

/**
 * A User PATCH as changes to `current`; attributes Benchline does not keep are ignored, and so are
 * those of an extension it does not know (`ownPath`); an unknown attribute of a schema it knows is
 * refused. `emails` paths act on the work address only: a filter picking another address is ignored,
 * one picking none is `noTarget`, and removing the work address (`emails`, `emails.value`, a filter
 * picking it) is `mutability`, as removing `userName` is.
 */
export function userPatch(ops: PatchOperation[], current: Pick<ScimPerson, 'email'>): { input: ScimUserInput; name: NameParts } {
	const input: ScimUserInput = {}
	const name: NameParts = {}
	const emails = (path: string, value: unknown, remove: boolean) => {
		const [, filter, sub] = EMAILS_PATH.exec(path)!
		if (filter !== undefined && emailFilterPicks(path, filter, input.userName ?? current.email) === 'other') return
		// Only the address itself is kept; `type`, `primary` and `display` of the work address are fixed.
		if (sub !== undefined && sub.toLowerCase() !== 'value') return
		if (remove || value === null) workAddressNotRemoved()
		const email = sub === undefined ? workAddress(value) : text(value, 'emails.value')
		if (email !== undefined) input.userName = email
	}
	const set = (sentPath: string, value: unknown, remove: boolean) => {
		const path = ownPath(sentPath, value, remove, USER_SCHEMA, [ENTERPRISE_USER])
		if (path === null) return
		const key = path.toLowerCase()
		// null is "unassigned" (RFC 7643 §2.5): set to null, an attribute is cleared as if removed, never
		// taken as not sent. A name part cleared is '' (the name is then made of the other parts, or the address's).
		const cleared = remove || value === null
		const sent = (attribute: string) => (cleared ? '' : nameText(value, attribute))
		if (key === 'active') input.active = remove ? undefined : bool(value, 'active')
		else if (key === 'username') Object.assign(input, patchedUserName(cleared ? requiredNotRemoved('userName') : text(value, 'userName')))
		else if (key === 'externalid') input.externalId = cleared ? null : externalIdOf(value)
		else if (key === 'displayname') name.displayName = sent('displayName')
		else if (key === 'name.formatted') name.formatted = sent('name.formatted')
		else if (key === 'name.givenname') name.givenName = sent('name.givenName')
		else if (key === 'name.familyname') name.familyName = sent('name.familyName')
		else if (key === 'name') {
			const parts = cleared ? undefined : complex(value, 'name', NAME_OBJECT)
			if (!parts) name.formatted = ''
			else for (const part of NAME_PARTS) if (parts[part] !== undefined) name[part] = parts[part] === null ? '' : nameText(parts[part], `name.${part}`)
		} else if (EMAILS_PATH.test(path)) emails(path, value, remove)
		else if (key === 'groups') throw new AppError('VALIDATION', 'A person’s groups are their role: change them through /Groups', { scimType: 'mutability' })
		else if (![IGNORED_USER_ATTRIBUTE, OTHER_NAME_PART, STRUCTURAL_ATTRIBUTE].some((kept) => kept.test(path)))
			throw invalidPath(sentPath, 'is not an attribute of a User')
	}
	for (const op of ops) {
		if (op.path) set(op.path, op.value, op.op === 'remove')
		else if (isObject(op.value)) for (const [k, v] of Object.entries(op.value)) set(k, v, op.op === 'remove')
		else throw invalid([{ field: 'Operations', message: 'an operation without a path needs an object value' }])
	}
	return { input, name }
}

/** A userName set by PATCH: an address is the account's (none kept beside it); other text is kept as sent, the address unchanged. */
function patchedUserName(sent: string | undefined): Pick<ScimUserInput, 'userName' | 'userNameText'> {
	if (sent === undefined || isEmailAddress(normalEmail(sent))) return { userName: sent, userNameText: null }
	return { userNameText: userNameText(sent) }
}

/** Member ids in a value (`[{value: id}]`; null, "unassigned", is none). */
function memberIds(value: unknown): string[] {
	const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
	return list.map((m, i) => {
		const id = isObject(m) ? str(m.value) : undefined
		if (!id) throw invalid([{ field: `members[${i}].value`, message: 'must be a user id' }])
		return id
	})
}

export interface GroupChange {
	add: string[]
	remove: string[]
	/** The whole list of members, once an operation set it (later operations then change this list). */
	replace?: string[]
	displayName?: string
}

/**
 * One membership operation added to the change so far, in the request's order (RFC 7644 §3.5.2: the
 * operations apply in sequence). `all`: a `remove` of `members` without a value or filter removes
 * every member (§3.5.2.2).
 */
function changeMembersBy(out: GroupChange, op: PatchOperation['op'], ids: string[] | 'all'): void {
	if (op === 'replace' || ids === 'all') {
		out.replace = ids === 'all' ? [] : [...ids]
		out.add = []
		out.remove = []
	} else if (out.replace) out.replace = op === 'add' ? [...new Set([...out.replace, ...ids])] : out.replace.filter((id) => !ids.includes(id))
	else if (op === 'add') {
		out.add.push(...ids)
		out.remove = out.remove.filter((id) => !ids.includes(id))
	} else {
		out.remove.push(...ids)
		out.add = out.add.filter((id) => !ids.includes(id))
	}
}

/**
 * The member a filtered path names (`members[value eq "<user id>"]`, as Entra removes one), read as a
 * list's filter is (scim-filter.ts); null for a path without a value filter. Any other filter is `invalidPath`.
 */
function filteredMember(path: string): string | null {
	const supported = 'members[value eq "<user id>"]'
	try {
		const filtered = valueFilterOf(withoutUrn(path, ''), supported)
		if (!filtered) return null
		const [term, ...more] = filtered.terms
		if (filtered.attribute === 'members' && filtered.sub === undefined && term?.path === 'value' && !more.length) return textOf(term)
	} catch (error) {
		if (!(error instanceof AppError && error.fields?.some((f) => f.field === 'filter'))) throw error
	}
	throw invalidPath(path, `a filtered members path must be ${supported}`)
}

/** A Group PATCH as changes to its members; a `displayName` sent must stay the group's own. */
export function groupPatch(ops: PatchOperation[]): GroupChange {
	const out: GroupChange = { add: [], remove: [] }
	const own = (sentPath: string, value: unknown, op: PatchOperation['op']) => ownPath(sentPath, value, op === 'remove', GROUP_SCHEMA, [])
	for (const op of ops) {
		const path = op.path === undefined ? undefined : own(op.path, op.value, op.op)
		// An attribute of an extension Benchline does not know: ignored, as on POST and PUT.
		if (path === null) continue
		const filtered = path ? filteredMember(path) : null
		if (filtered) {
			if (op.op !== 'remove') throw invalid([{ field: 'path', message: 'a filtered members path can only be removed' }])
			changeMembersBy(out, 'remove', [filtered])
			continue
		}
		const entries: [string, unknown][] = op.path ? [[op.path, op.value]] : isObject(op.value) ? Object.entries(op.value) : []
		if (!entries.length) throw invalid([{ field: 'Operations', message: 'an operation without a path needs an object value' }])
		for (const [sentPath, value] of entries) {
			const key = (op.path ? path : own(sentPath, value, op.op))?.toLowerCase()
			if (key === undefined) continue
			if (key === 'members') changeMembersBy(out, op.op, op.op === 'remove' && (value === undefined || value === null) ? 'all' : memberIds(value))
			else if (key === 'displayname') out.displayName = op.op === 'remove' || value === null ? requiredNotRemoved('displayName') : text(value, 'displayName')
			else if (key !== 'externalid' && key !== 'id') throw invalidPath(sentPath, 'is not an attribute of a Group')
		}
	}
	return out
}

export const membersOf = (body: Json) => (body.members === undefined ? undefined : memberIds(body.members))

/** What a list asks (the query of a GET, or the body of a `.search`): each as the query parameter's text. */
export interface ListParameters {
	filter?: string
	startIndex?: string
	count?: string
	attributes?: string
	excludedAttributes?: string
}

/**
 * A `.search` body (RFC 7644 §3.4.3: `POST /Users/.search`) as the query of a GET says it: `startIndex`
 * and `count` numbers, `attributes` and `excludedAttributes` lists of names. `sortBy` and `sortOrder`
 * are ignored, as on a GET (ServiceProviderConfig says sorting is not supported).
 */
export function searchRequestOf(body: Json): ListParameters {
	withSchema(body, SEARCH_SCHEMA)
	const field = (name: string, kinds: string): string | undefined => {
		const v = body[name]
		if (v === undefined || v === null) return undefined
		if (typeof v === 'string') return v
		// Written out in digits (1e21 is an integer too), as a query parameter would be.
		if (typeof v === 'number' && kinds.includes('number')) return Number.isInteger(v) ? BigInt(v).toString() : String(v)
		if (Array.isArray(v) && kinds.includes('list') && v.every((n) => typeof n === 'string')) return v.join(',')
		throw invalid([{ field: name, message: `must be ${kinds}` }])
	}
	// As long as a GET's query may say them (scim-routes.ts): a body has room for far more.
	const names = (name: string) => {
		const list = field(name, 'a list of attribute names')
		if (list !== undefined && list.length > MAX_ATTRIBUTES_LENGTH)
			throw invalid([{ field: name, message: `must be at most ${MAX_ATTRIBUTES_LENGTH} characters, the names joined by commas` }])
		return list
	}
	return {
		filter: field('filter', 'a string'),
		startIndex: field('startIndex', 'a number'),
		count: field('count', 'a number'),
		attributes: names('attributes'),
		excludedAttributes: names('excludedAttributes'),
	}
}
