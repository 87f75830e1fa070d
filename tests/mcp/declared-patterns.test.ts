/**
 * Every pattern a tool publishes in tools/list against the server's argument check: for each string
 * parameter with a pattern (items of arrays included), a probe is accepted by the published schema
 * (the pattern compiled with the `u` flag, as JSON Schema reads ECMA-262, and the lengths in code
 * points) exactly when the server's check accepts it. So a client is never refused for a shape its
 * schema did not show (text of zero-width spaces, a vertical tab before a date), and the schema
 * refuses nothing the server would take. tests/mcp/declared-limits.test.ts does the same for
 * lengths, ranges and choices against what the tools refuse at run time.
 *
 * The probes: characters that draw nothing (spaces of every kind, zero-width and format characters,
 * combining marks, blank-drawn letters), every control character, line breaks, and ordinary text,
 * each alone, doubled and next to ordinary words and dates.
 */
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Type as t, type TSchema } from '@sinclair/typebox'
import { publicJsonSchema } from '../../core/mcp/standard-schema.ts'
import { checkValue, codePoints } from '../../core/schema-check.ts'
import { DECLARED_BLANK, isBlank } from '../../core/untrusted.ts'
import { newPersonWithToken, newWorkspace, serveApp, testDeps } from '../helpers.ts'

setDefaultTimeout(120_000)

type Schema = Record<string, any>

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))

/** Characters to try: every C0/C1 control and Latin-1 space, the general punctuation block (spaces, zero-width, direction marks, word joiner…), and the other ones that draw nothing. */
const CHARACTERS = [
	...range(0x00, 0xa0),
	'\u00ad',
	'\u034f',
	'\u0301',
	'\u115f',
	'\u1160',
	'\u1680',
	'\u180e',
	...range(0x2000, 0x206f),
	'\u2800',
	'\u3000',
	'\u3164',
	'\ufeff',
	'\uffa0',
	'\ufff9',
	'\ufffd',
	'\u{e0001}',
	'\u{e0041}',
	'é',
	'😀',
]

const TEXTS = ['a', 'ab', 'Java Developer', '2026-03-02', '2026-03-02T09:30:00Z']

const PROBES = [
	...new Set([
		'',
		...TEXTS,
		...CHARACTERS.flatMap((c) => [c, c + c, `${c} ${c}`, ...TEXTS.flatMap((text) => [`${c}${text}`, `${text}${c}`, `${text}${c}${text}`])]),
	]),
]

/** What the published JSON Schema of a string says of a value: its lengths (code points) and its pattern (ECMA-262, `u`). */
function publishedAccepts(s: Schema, value: string): boolean {
	const length = codePoints(value)
	if (typeof s.minLength === 'number' && length < s.minLength) return false
	if (typeof s.maxLength === 'number' && length > s.maxLength) return false
	return compiled(s.pattern).test(value)
}

const patterns = new Map<string, RegExp>()
const compiled = (pattern: string) => patterns.get(pattern) ?? patterns.set(pattern, new RegExp(pattern, 'u')).get(pattern)!

/** Each string with a pattern in a published schema, with the server's own schema at the same place. */
function patterned(published: Schema, server: Schema, path: string): { path: string; published: Schema; server: Schema }[] {
	if (published.type === 'string' && typeof published.pattern === 'string') return [{ path, published, server }]
	if (published.type === 'object' && published.properties)
		return Object.entries(published.properties as Record<string, Schema>).flatMap(([k, v]) => patterned(v, server.properties[k], `${path}.${k}`))
	if (published.type === 'array' && published.items) return patterned(published.items, server.items, `${path}[]`)
	if (Array.isArray(published.anyOf)) return published.anyOf.flatMap((v: Schema, i: number) => patterned(v, server.anyOf[i], path))
	return []
}

/**
 * A character blank to the checker that a published pattern cannot name without `\p{…}` (a combining
 * mark of another block, a format character beyond U+FFFF): text of only those is refused as blank
 * when checked, though the pattern accepted it (core/untrusted.ts `DRAWS_NOTHING_MORE`).
 */
const undeclaredBlank = (c: string) => isBlank(c) && !DECLARED_BLANK.test(c)

/** Probes on which the published schema and the server's check disagree. */
function disagreements(path: string, published: Schema, server: Schema): string[] {
	const out: string[] = []
	for (const probe of PROBES) {
		const declared = publishedAccepts(published, probe)
		const errors = checkValue(server as TSchema, probe, { unknown: 'reject' }).errors
		const checked = errors.length === 0
		const knownGap = declared && errors.length === 1 && errors[0]!.message === 'must not be blank' && [...probe].some(undeclaredBlank)
		if (declared !== checked && !knownGap)
			out.push(`${path} ${JSON.stringify(probe)}: published ${declared ? 'accepts' : 'refuses'}, the server ${checked ? 'accepts' : 'refuses'}`)
	}
	return out
}

const open: { close(): Promise<void> }[] = []
afterAll(async () => {
	for (const c of open) await c.close()
})

async function publishedFields() {
	const { url } = await serveApp()
	const owner = await newPersonWithToken(await newWorkspace(), 'owner')
	const client = new Client({ name: 'test', version: '1.0.0' })
	await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${owner.token}` } } }))
	open.push(client)
	const { tools } = await client.listTools()
	const byName = new Map((await testDeps()).registry.tools.map((tool) => [tool.name, tool]))
	return tools.flatMap((tool) => patterned(tool.inputSchema as Schema, byName.get(tool.name)!.params as Schema, tool.name))
}

test('every published pattern accepts a value exactly when the server’s argument check does (read through the SDK client)', async () => {
	const fields = await publishedFields()
	expect(fields.flatMap((f) => disagreements(f.path, f.published, f.server))).toEqual([])
	// The tools that publish patterns today: the one-line and free text fields, search texts and dates.
	for (const field of ['create_job.title', 'create_job.requirements[]', 'create_job.description', 'list_jobs.query', 'search.q', 'get_calendar.from'])
		expect(fields.map((f) => f.path)).toContain(field)
})

test('a string marked not blank without a pattern of its own is published with core’s not-blank pattern, which agrees with the check', () => {
	const server = t.String({ maxLength: 50, 'x-not-blank': true }) as Schema
	const published = publicJsonSchema(server as TSchema)
	expect(published.pattern).toBeString()
	expect(disagreements('(not blank)', published, server)).toEqual([])
})

test('text of zero-width characters alone is refused by the published pattern, as by the server, not only text of spaces', async () => {
	const deps = await testDeps()
	const title = deps.registry.tools.find((tool) => tool.name === 'create_job')!.params.properties.title as Schema
	const published = publicJsonSchema(title as TSchema)
	for (const blank of ['\u200b', '\u2060', '\ufeff', '\u00ad\u200b', ' \u200b ']) {
		expect([blank, publishedAccepts(published, blank)]).toEqual([blank, false])
		expect(checkValue(title as TSchema, blank, { unknown: 'reject' }).errors.map((e) => e.message)).toEqual(['must not be blank'])
	}
	expect(publishedAccepts(published, '\u200bJava')).toBe(true)
})

test('every published pattern compiles in the engines clients and model providers use: ECMA-262 with and without `u`, Python’s `re`; none uses `\\p{…}` or looks around (Rust’s and Go’s engines cannot)', async () => {
	const patterns = [...new Set((await publishedFields()).map((f) => f.published.pattern as string))]
	expect(patterns.length).toBeGreaterThan(3)
	for (const pattern of patterns) {
		expect({ pattern, lookaround: /\(\?<?[=!]/.test(pattern), property: /\\[pP]\{/.test(pattern), braced: /\\u\{/.test(pattern) }).toEqual({
			pattern,
			lookaround: false,
			property: false,
			braced: false,
		})
		expect(() => new RegExp(pattern)).not.toThrow()
	}
	// Python's own `re`, where the machine has Python (a fresh machine may have only Node and npm).
	if (!Bun.which('python3')) return
	const python = Bun.spawnSync(['python3', '-c', 'import json, re, sys\nfor p in json.load(sys.stdin): re.compile(p)\nprint("ok")'], {
		stdin: new TextEncoder().encode(JSON.stringify(patterns)),
	})
	expect({ out: python.stdout.toString().trim(), err: python.stderr.toString() }).toEqual({ out: 'ok', err: '' })
})

test('what a published pattern counts as blank is blank to the checker too (every character of the Basic Multilingual Plane)', () => {
	const declaredNotBlank: string[] = []
	for (let c = 0; c <= 0xffff; c++) {
		const ch = String.fromCharCode(c)
		if (c >= 0xd800 && c <= 0xdfff) continue
		if (DECLARED_BLANK.test(ch) && !isBlank(ch)) declaredNotBlank.push(c.toString(16))
	}
	expect(declaredNotBlank).toEqual([])
})
