/**
 * Reading what identity providers send to `/scim/v2`: User bodies and PATCH operations, as Okta and
 * Microsoft Entra ID write them (Entra capitalises `op` — "Replace" — and sends booleans as
 * "True"/"False"; both send attributes Benchline does not keep, such as `title`, which are ignored).
 */
import { invalid } from '../../../core/errors.ts'
import type { ScimUserInput } from './scim-users.ts'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

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

/** The display name from what was sent (undefined: nothing about the name), completing given or family name from `current`. */
export function nameFrom(parts: NameParts, current = ''): string | undefined {
	const whole = parts.displayName ?? parts.formatted
	if (whole !== undefined) return whole
	if (parts.givenName === undefined && parts.familyName === undefined) return undefined
	const [given, ...family] = current.split(' ')
	return [parts.givenName ?? given ?? '', parts.familyName ?? family.join(' ')].join(' ').trim()
}

/** What a User body (POST or PUT) says about the person. */
export function userFromBody(body: Json): { input: ScimUserInput; name: NameParts } {
	const name = isObject(body.name) ? body.name : {}
	const primaryEmail = Array.isArray(body.emails) ? (body.emails.find((e) => isObject(e) && e.primary === true) ?? body.emails[0]) : undefined
	const input: ScimUserInput = {
		userName: str(body.userName) ?? (isObject(primaryEmail) ? str(primaryEmail.value) : undefined),
		externalId: body.externalId === undefined ? undefined : (str(body.externalId) ?? null),
		active: body.active === undefined ? undefined : bool(body.active, 'active'),
	}
	return {
		input,
		name: { displayName: str(body.displayName), formatted: str(name.formatted), givenName: str(name.givenName), familyName: str(name.familyName) },
	}
}

export interface PatchOperation {
	op: 'add' | 'replace' | 'remove'
	path: string | undefined
	value: unknown
}

/** The `Operations` of a PATCH body (RFC 7644 §3.5.2), `op` in any case. */
export function patchOperations(body: Json): PatchOperation[] {
	const ops = body.Operations ?? body.operations
	if (!Array.isArray(ops) || !ops.length) throw invalid([{ field: 'Operations', message: 'must list at least one operation' }])
	return ops.map((o, i) => {
		if (!isObject(o)) throw invalid([{ field: `Operations[${i}]`, message: 'must be an object' }])
		const op = String(o.op ?? '').toLowerCase()
		if (op !== 'add' && op !== 'replace' && op !== 'remove') throw invalid([{ field: `Operations[${i}].op`, message: 'must be add, replace or remove' }])
		return { op, path: str(o.path)?.trim() || undefined, value: o.value }
	})
}

/** A User PATCH as changes to the person (attributes Benchline does not keep are ignored). */
export function userPatch(ops: PatchOperation[]): { input: ScimUserInput; name: NameParts } {
	const input: ScimUserInput = {}
	const name: NameParts = {}
	const set = (path: string, value: unknown, remove: boolean) => {
		const key = path.toLowerCase()
		if (key === 'active') input.active = remove ? undefined : bool(value, 'active')
		else if (key === 'username') input.userName = str(value)
		else if (key === 'externalid') input.externalId = remove ? null : (str(value) ?? null)
		else if (key === 'displayname') name.displayName = str(value)
		else if (key === 'name.formatted') name.formatted = str(value)
		else if (key === 'name.givenname') name.givenName = str(value)
		else if (key === 'name.familyname') name.familyName = str(value)
		else if (key === 'name' && isObject(value)) {
			for (const part of ['formatted', 'givenName', 'familyName'] as const) if (value[part] !== undefined) name[part] = str(value[part])
		} else if (/^emails(\[type eq "work"\])?\.value$/i.test(path) || (key === 'emails' && Array.isArray(value))) {
			const email = Array.isArray(value) ? value.find(isObject)?.value : value
			if (typeof email === 'string') input.userName = email
		}
	}
	for (const op of ops) {
		if (op.path) set(op.path, op.value, op.op === 'remove')
		else if (isObject(op.value)) for (const [k, v] of Object.entries(op.value)) set(k, v, op.op === 'remove')
		else throw invalid([{ field: 'Operations', message: 'an operation without a path needs an object value' }])
	}
	return { input, name }
}

/** Member ids in a value (`[{value: id}]`). */
function memberIds(value: unknown): string[] {
	const list = Array.isArray(value) ? value : value === undefined ? [] : [value]
	return list.map((m, i) => {
		const id = isObject(m) ? str(m.value) : undefined
		if (!id) throw invalid([{ field: `members[${i}].value`, message: 'must be a user id' }])
		return id
	})
}

/** A Group PATCH as changes to its members; a `displayName` sent must stay the group's own. */
export function groupPatch(ops: PatchOperation[]): { add: string[]; remove: string[]; replace?: string[]; displayName?: string } {
	const out: { add: string[]; remove: string[]; replace?: string[]; displayName?: string } = { add: [], remove: [] }
	for (const op of ops) {
		const filtered = op.path ? /^members\[value eq "((?:[^"\\]|\\.)*)"\]$/i.exec(op.path) : null
		if (filtered) {
			if (op.op !== 'remove') throw invalid([{ field: 'path', message: 'a filtered members path can only be removed' }])
			out.remove.push(filtered[1]!.replace(/\\(.)/g, '$1'))
			continue
		}
		const entries: [string, unknown][] = op.path ? [[op.path, op.value]] : isObject(op.value) ? Object.entries(op.value) : []
		if (!entries.length) throw invalid([{ field: 'Operations', message: 'an operation without a path needs an object value' }])
		for (const [path, value] of entries) {
			const key = path.toLowerCase()
			if (key === 'members') {
				const ids = memberIds(value)
				if (op.op === 'add') out.add.push(...ids)
				else if (op.op === 'remove') out.remove.push(...ids)
				else out.replace = ids
			} else if (key === 'displayname') out.displayName = str(value)
			else if (key !== 'externalid' && key !== 'id') throw invalid([{ field: 'path', message: `${path} cannot be changed on a group` }])
		}
	}
	return out
}

export const membersOf = (body: Json) => (body.members === undefined ? undefined : memberIds(body.members))
