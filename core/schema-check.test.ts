/** The checker's unions of shapes and records, which tool results use (tests/mcp/tool-results.test.ts checks every result with it). */
import { expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { checkValue } from './schema-check.ts'

const reject = { unknown: 'reject' } as const

test('a union of shapes: the first shape the value fits wins; otherwise the problems of the shape of its type, or the types allowed', () => {
	const labelled = t.Object({ untrusted: t.Literal(true), text: t.String({ maxLength: 5 }) }, { additionalProperties: false })
	const title = t.Union([t.String({ maxLength: 10 }), labelled])
	expect(checkValue(title, 'Busy', reject).errors).toEqual([])
	expect(checkValue(title, { untrusted: true, text: 'Hi' }, reject).errors).toEqual([])
	expect(checkValue(title, { untrusted: true, text: 'Too long' }, reject).errors).toEqual([{ field: 'text', message: 'must be at most 5 characters (got 8)' }])
	expect(checkValue(title, { untrusted: true, text: 'Hi', extra: 1 }, reject).errors).toEqual([
		{ field: '(arguments)', message: 'unknown property "extra"; allowed: untrusted, text' },
	])
	expect(checkValue(title, 'A string far too long', reject).errors).toEqual([{ field: '(body)', message: 'must be at most 10 characters (got 21)' }])
	expect(checkValue(title, 42, reject).errors).toEqual([{ field: '(body)', message: 'must be one of: string, object' }])
	expect(checkValue(t.Union([title, t.Null()]), null, reject).errors).toEqual([])
})

test('a record: every key its pattern allows, each value checked; other keys unknown', () => {
	const counts = t.Object({ byStage: t.Record(t.String(), t.Integer({ minimum: 0 })) }, { additionalProperties: false })
	expect(checkValue(counts, { byStage: { applied: 3, hired: 0 } }, reject)).toMatchObject({ errors: [], value: { byStage: { applied: 3, hired: 0 } } })
	expect(checkValue(counts, { byStage: { applied: -1, hired: 'x' } }, reject).errors).toEqual([
		{ field: 'byStage.applied', message: 'must be at least 0' },
		{ field: 'byStage.hired', message: 'must be a whole number' },
	])
	const lower = t.Object({}, { patternProperties: { '^[a-z]+$': t.Boolean() } })
	expect(checkValue(lower, { ok: true, NotOk: true }, reject).errors).toEqual([{ field: '(arguments)', message: 'unknown property "NotOk"; allowed: none' }])
})

test('control characters are refused in every string: C0 but tab and line breaks, DEL and the C1 controls', () => {
	for (const text of ['a\u0001', 'a\u001b[31m', 'a\u007f', 'a\u0080', 'next\u0085line', 'a\u009b31m', 'a\u009f'])
		expect([text, checkValue(t.String(), text, reject).errors]).toEqual([text, [{ field: '(body)', message: 'contains a control character' }]])
	for (const text of ['a\tb', 'a\nb', 'a\r\nb', 'a\u00a0b', '€ ‚ …']) expect([text, checkValue(t.String(), text, reject).errors]).toEqual([text, []])
})

test('unknown properties are named back cut short, ten at most: a caller’s 100,000-character key is not its error', () => {
	const schema = t.Object({ id: t.String() }, { additionalProperties: false })
	const long = 'P'.repeat(100_000)
	const [one] = checkValue(schema, { id: 'x', [long]: 1 }, { unknown: 'reject' }).errors
	expect(one!.message).toBe(`unknown property "${'P'.repeat(62)}…; allowed: id`)
	const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i]))
	const [all] = checkValue(schema, { id: 'x', ...many }, { unknown: 'reject' }).errors
	expect(all!.message).toBe(`unknown properties ${Array.from({ length: 10 }, (_, i) => `"k${i}"`).join(', ')} and 15 more; allowed: id`)
})
