/**
 * Checks a value against a TypeBox schema (the JSON-Schema subset we use) and reports every
 * problem at once, with messages a person or a model can act on.
 *
 * Why our own checker instead of TypeBox's `Value.Check`: lengths are counted in Unicode code
 * points (not UTF-16 units), NUL / lone surrogates / control characters / noncharacters are refused
 * in every string, items marked `truncate` are cut rather than refused, and unknown properties are either
 * ignored (REST: named in a warning) or refused (MCP: with the allowed names). A choice of
 * strings marked `x-any-case` accepts its values in any case and gives back the canonical one
 * (REST: `"remote"` is `"Remote"`, named in a warning), so what is stored is always a listed value.
 */
import type { TSchema } from '@sinclair/typebox'
import type { FieldError } from './errors.ts'
import { CONTROL_CHARS, cutText, firstCodePoints, isBlank, NONCHARACTER } from './untrusted.ts'

type Schema = TSchema & Record<string, any>

export interface CheckOptions {
	/** What to do with properties the schema does not declare. */
	unknown: 'ignore' | 'reject'
}

export interface CheckResult<T> {
	value: T
	errors: FieldError[]
	/** Properties ignored because the schema does not know them (paths). */
	ignored: string[]
	/** Strings cut to their maximum length (paths). */
	truncated: string[]
	/** Values of `x-any-case` choices sent in another case, and the listed value taken for each. */
	recased: { path: string; sent: string; taken: string }[]
}

/** Length in Unicode code points. */
export const codePoints = (s: string) => {
	let n = 0
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i)
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
			const d = s.charCodeAt(i + 1)
			if (d >= 0xdc00 && d <= 0xdfff) i++
		}
		n++
	}
	return n
}

/** Control characters a string may not hold (`CONTROL_CHARS`). Every door's other check of typed text uses this one. */
export const FORBIDDEN_CONTROL = new RegExp(`[${CONTROL_CHARS}]`)

/**
 * Why a string is not text a field may hold, or null: a lone surrogate, NUL, another control
 * character (`FORBIDDEN_CONTROL`) or a noncharacter. Every string the checker sees; and a job's
 * description once sanitised, since the sanitiser decodes character references (`&#27;` is ESC).
 */
export function notTextProblem(value: string): string | null {
	if (!value.isWellFormed()) return 'contains an invalid Unicode sequence (a lone surrogate)'
	if (value.includes('\u0000')) return 'contains a NUL character'
	if (FORBIDDEN_CONTROL.test(value)) return 'contains a control character'
	if (NONCHARACTER.test(value)) return 'contains a noncharacter (such as U+FFFE), which is not text'
	return null
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

function literalValues(schema: Schema): unknown[] | null {
	if ('const' in schema) return [schema.const]
	if (Array.isArray(schema.enum)) return schema.enum
	if (Array.isArray(schema.anyOf) && schema.anyOf.every((s: Schema) => 'const' in s)) return schema.anyOf.map((s: Schema) => s.const)
	return null
}

export function checkValue<T>(schema: TSchema, input: unknown, options: CheckOptions): CheckResult<T> {
	const result: CheckResult<T> = { value: undefined as T, errors: [], ignored: [], truncated: [], recased: [] }
	result.value = walk(schema as Schema, input, '', options, result) as T
	return result
}

function walk(schema: Schema, value: unknown, path: string, options: CheckOptions, out: CheckResult<unknown>): unknown {
	const field = path || '(body)'
	const fail = (message: string) => {
		out.errors.push({ field, message })
		return value
	}

	const literals = literalValues(schema)
	if (literals) {
		if (literals.includes(value)) return value
		if (schema['x-any-case'] && typeof value === 'string') {
			const taken = literals.find((l): l is string => typeof l === 'string' && l.toLowerCase() === value.toLowerCase())
			if (taken !== undefined) {
				out.recased.push({ path: field, sent: value, taken })
				return taken
			}
		}
		return fail(`must be one of: ${literals.map((l) => (l === null ? 'null' : String(l))).join(', ')}`)
	}
	if (Array.isArray(schema.anyOf)) {
		// Nullable fields: `anyOf: [X, null]`.
		const nullable = schema.anyOf.some((s: Schema) => s.type === 'null')
		if (value === null && nullable) return null
		const inner = schema.anyOf.filter((s: Schema) => s.type !== 'null')
		if (inner.length === 1) {
			const before = out.errors.length
			const v = walk(inner[0], value, path, options, out)
			if (out.errors.length > before && nullable && out.errors[out.errors.length - 1]!.message.startsWith('must be'))
				out.errors[out.errors.length - 1]!.message += ' or null'
			return v
		}
		return oneOf(inner, value, path, options, out, fail)
	}

	switch (schema.type) {
		case 'string':
			return checkString(schema, value, path, fail, out)
		case 'integer':
		case 'number': {
			if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`must be ${schema.type === 'integer' ? 'a whole number' : 'a number'}`)
			if (schema.type === 'integer' && !Number.isInteger(value)) return fail('must be a whole number')
			if (typeof schema.minimum === 'number' && value < schema.minimum) return fail(rangeMessage(schema))
			if (typeof schema.maximum === 'number' && value > schema.maximum) return fail(rangeMessage(schema))
			return value
		}
		case 'boolean':
			return typeof value === 'boolean' ? value : fail('must be true or false')
		case 'null':
			return value === null ? null : fail('must be null')
		case 'array': {
			if (!Array.isArray(value)) return fail(`must be an array (got ${typeName(value)})`)
			if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return fail(`must have at most ${schema.maxItems} items`)
			if (typeof schema.minItems === 'number' && value.length < schema.minItems)
				return fail(`must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`)
			return value.map((item, i) => walk(schema.items as Schema, item, `${field === '(body)' ? '' : path}[${i}]`, options, out))
		}
		case 'object':
			return checkObject(schema, value, path, options, out, fail)
		default:
			return value
	}
}

/**
 * A value of one of several shapes (a plain string or a labelled text, say): the first shape it
 * fits wins. When it fits none, the problems are those of the one shape of its own JSON type, or
 * one line naming the types allowed.
 */
function oneOf(shapes: Schema[], value: unknown, path: string, options: CheckOptions, out: CheckResult<unknown>, fail: (m: string) => unknown): unknown {
	const tries = shapes.map((shape) => {
		const scratch: CheckResult<unknown> = { value: undefined, errors: [], ignored: [], truncated: [], recased: [] }
		return { shape, scratch, value: walk(shape, value, path, options, scratch) }
	})
	const fits = tries.find((t) => !t.scratch.errors.length)
	const sameType = tries.filter((t) => t.shape.type === typeName(value) || (t.shape.type === 'integer' && typeof value === 'number'))
	const chosen = fits ?? (sameType.length === 1 ? sameType[0] : undefined)
	if (!chosen) return fail(`must be one of: ${[...new Set(shapes.map((s) => s.type ?? 'a listed value'))].join(', ')}`)
	out.errors.push(...chosen.scratch.errors)
	out.ignored.push(...chosen.scratch.ignored)
	out.truncated.push(...chosen.scratch.truncated)
	out.recased.push(...chosen.scratch.recased)
	return chosen.value
}

function rangeMessage(schema: Schema): string {
	if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') return `must be from ${schema.minimum} to ${schema.maximum}`
	if (typeof schema.minimum === 'number') return `must be at least ${schema.minimum}`
	return `must be at most ${schema.maximum}`
}

function checkString(schema: Schema, value: unknown, path: string, fail: (m: string) => unknown, out: CheckResult<unknown>): unknown {
	if (typeof value !== 'string') return fail(`must be a string (got ${typeName(value)})`)
	const notText = notTextProblem(value)
	if (notText) return fail(notText)
	const length = codePoints(value)
	if (typeof schema.minLength === 'number' && length < schema.minLength)
		return fail(schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`)
	if (schema['x-not-blank'] && isBlank(value)) return fail('must not be blank')
	if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
		if (schema['x-truncate']) {
			out.truncated.push(path)
			// Credentials are blanked first, so the cut cannot keep part of one (core/untrusted.ts).
			return cutText(value, schema.maxLength)
		}
		return fail(`must be at most ${schema.maxLength} characters (got ${length})`)
	}
	if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return fail(schema['x-pattern-message'] ?? 'has an invalid format')
	return value
}

function checkObject(schema: Schema, value: unknown, path: string, options: CheckOptions, out: CheckResult<unknown>, fail: (m: string) => unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`must be an object (got ${typeName(value)})`)
	const properties: Record<string, Schema> = schema.properties ?? {}
	// A record (TypeBox `Record`): any key matching a pattern, its value checked against that pattern's schema.
	const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>).map(([p, s]) => [new RegExp(p, 'u'), s] as const)
	const patternOf = (key: string) => patterns.find(([p]) => p.test(key))?.[1]
	// A null-prototype copy: keys such as `__proto__` can never reach a real object's prototype.
	const copy: Record<string, unknown> = Object.create(null)
	const unknown: string[] = []
	for (const key of Object.keys(value)) {
		if (Object.hasOwn(properties, key)) continue
		const pattern = patternOf(key)
		if (pattern) copy[key] = walk(pattern, (value as Record<string, unknown>)[key], join(path, key), options, out)
		else unknown.push(key)
	}
	if (unknown.length) {
		if (options.unknown === 'reject') {
			const allowed = Object.keys(properties)
			out.errors.push({
				field: path || '(arguments)',
				message: `unknown propert${unknown.length === 1 ? 'y' : 'ies'} ${namesToShow(unknown.map((k) => JSON.stringify(k)))}; allowed: ${allowed.length ? allowed.join(', ') : 'none'}`,
			})
		} else {
			out.ignored.push(...unknown.map((k) => join(path, k)))
		}
	}
	for (const key of schema.required ?? []) {
		if (!Object.hasOwn(value, key) || (value as Record<string, unknown>)[key] === undefined) out.errors.push({ field: join(path, key), message: 'is required' })
	}
	for (const [key, propSchema] of Object.entries(properties)) {
		if (!Object.hasOwn(value, key)) {
			if ('default' in propSchema) copy[key] = structuredClone(propSchema.default)
			continue
		}
		copy[key] = walk(propSchema, (value as Record<string, unknown>)[key], join(path, key), options, out)
	}
	return { ...copy }
}

/**
 * Names a caller sent that are shown back in a message (unknown properties): each cut to 64
 * characters and at most ten of them, then how many more. Names are the caller's own input, of any
 * length and number within the body's limit: a 100,000-character key came back whole in the error.
 */
export function namesToShow(names: readonly string[]): string {
	const shown = names.slice(0, 10).map((name) => (name.length > 64 ? `${firstCodePoints(name, 63)}…` : name))
	return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ')
}
