import { describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { newCredential } from './credentials.ts'
import { checkValue } from './schema-check.ts'
import { cleanLine, cutText, defuse, isBlank, TEXT_AUTHORS, textOf, typedLine, untrusted, untrustedLine, UntrustedLine, UntrustedText } from './untrusted.ts'

test('HTML is removed from untrusted text: known elements, and any tag with attributes', () => {
	expect(defuse('Hi <b>there</b><br/><script>alert(1)</script>')).toBe('Hi therealert(1)')
	expect(defuse('<IMG SRC=x>cv<iframe></iframe>')).toBe('cv')
	expect(defuse('<T onclick="steal()">x</T> <my-widget data-x=1>y')).toBe('x</T> y')
	expect(defuse('<svg><set attributeName=href to=//evil.example /></svg>ok')).toBe('ok')
})

test('type parameters and other angle-bracketed words that are not HTML stay as written', () => {
	expect(defuse('Skills: Java (List<T>, Map<String, Integer>, Optional<Employee>), C++ vector<int>')).toBe(
		'Skills: Java (List<T>, Map<String, Integer>, Optional<Employee>), C++ vector<int>',
	)
	expect(defuse('closing </T> and self-closing <T/> stay too')).toBe('closing </T> and self-closing <T/> stay too')
})

// Issue 16, item 8: a text cut through a credential kept most of it, where no later clean-up (which
// recognises whole credentials only) could find it. Every cut now blanks credentials first.

/** Every run of 8 characters of the credential's random part that survives in `text`. */
const leftOf = (credential: string, text: string) => {
	const body = credential.slice(credential.lastIndexOf('_') + 1)
	const found: string[] = []
	for (let i = 0; i + 8 <= body.length; i++) if (text.includes(body.slice(i, i + 8))) found.push(body.slice(i, i + 8))
	return found
}

test('a cut never keeps part of a credential, wherever the cut falls: lines, stored texts, envelopes, schema truncation', () => {
	for (const type of ['vk', 'pat', 'at', 'rt', 'code', 'ul'] as const) {
		const credential = newCredential(type)
		for (const [max, lead] of [
			[160, 120],
			[160, 135],
			[160, 150],
			[160, 159],
			[200, 170],
			[120, 100],
			[300, 280],
			[4000, 3990],
		] as const) {
			for (const around of [
				(c: string) => `${'word '.repeat(lead / 5)}${c}`,
				(c: string) => `${'x'.repeat(lead)} https://benchline.example/upload/${c} and more`,
			]) {
				const text = around(credential)
				const where = { type, max, lead, text: text.slice(-80) }
				expect({ ...where, left: leftOf(credential, cleanLine(text, max)) }).toEqual({ ...where, left: [] })
				expect({ ...where, left: leftOf(credential, cutText(text, max)) }).toEqual({ ...where, left: [] })
				expect({ ...where, left: leftOf(credential, untrustedLine(text, 'candidate', max).text) }).toEqual({ ...where, left: [] })
				expect({ ...where, left: leftOf(credential, untrusted(text, 'candidate', max).text) }).toEqual({ ...where, left: [] })
				const truncated = checkValue<string>(t.String({ maxLength: max, 'x-truncate': true }), text, { unknown: 'reject' }).value
				expect({ ...where, left: leftOf(credential, truncated) }).toEqual({ ...where, left: [] })
			}
		}
	}
	// What is not a credential is cut as before: to the limit, and a line marks its cut.
	expect(cutText('é'.repeat(10), 4)).toBe('éééé')
	expect(cleanLine('a b  c\nd', 5)).toBe('a b …')
	expect(cleanLine(`see bl_pat_short and ${'x'.repeat(10)}`, 100)).toBe(`see bl_pat_short and ${'x'.repeat(10)}`)
})

test('labelled lines: cleaned, inert, one line, capped with truncated set; null stays null; every author is a label', () => {
	expect(untrustedLine('  Eve\u202E <b>x</b>\n![i](https://evil.example/i)  ', 'candidate', 200)).toEqual({
		untrusted: true,
		writtenBy: 'candidate',
		text: 'Eve x [image: i]',
		truncated: false,
	})
	expect(untrustedLine('abcdef', 'vendor', 3)).toEqual({ untrusted: true, writtenBy: 'vendor', text: 'abc', truncated: true })
	expect(untrustedLine(null, 'colleague')).toBeNull()
	for (const author of TEXT_AUTHORS) expect(Value.Check(UntrustedLine, untrustedLine('x', author))).toBe(true)
	expect(Value.Check(UntrustedText, { untrusted: true, writtenBy: 'someone', text: 'x', truncated: false })).toBe(false)
	expect(textOf('ours')).toBe('ours')
	expect(textOf(untrustedLine('theirs', 'outside'))).toBe('theirs')
})

// A plain line (most names, titles, places) is passed on after one test; the test must let through
// nothing the full clean-up would change. Random lines of pieces that each trigger a step of it.
test('a line passed on unchanged is exactly what the full clean-up makes of it', () => {
	const pieces = [
		'a',
		'Senior Java Developer',
		'Austin, TX',
		'é',
		' ',
		'  ',
		'\t',
		'\n',
		'\r',
		'\f',
		'\v',
		'\u00a0',
		'\u1680',
		'\u2000',
		'\u202f',
		'\u3000',
		'\u0085',
		'\u0007',
		'\u200b',
		'\u2028',
		'\ufeff',
		'\ud800',
		'\udc00',
		'\ud83d\ude00',
		'\u{E0041}',
		'<',
		'<b>',
		'[',
		'[x](http://a)',
		'![i](http://a)',
		'bl_',
		`bl_pat_${'a'.repeat(36)}`,
		'<!-- -->',
		' -',
	]
	const full = (text: string) => cleanLine(defuse(cleanLine(text, Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER)
	let seed = 7
	const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
	for (let i = 0; i < 50_000; i++) {
		let line = ''
		for (let j = next(7); j > 0; j--) line += pieces[next(pieces.length)]
		expect(untrustedLine(line, 'vendor', 10_000)!.text).toBe(full(line))
	}
})

describe('isBlank', () => {
	test('text that draws nothing is blank; anything readable is not', () => {
		for (const blank of ['', ' ', '\u00a0\u3000', '\u200b\u200b', '\u2800\u115f', '\ufeff\u00ad', '\u202e \u2066', '\u0301', '\u3164\uffa0'])
			expect([blank, isBlank(blank)]).toEqual([blank, true])
		for (const text of ['a', ' Java ', '\u200bx', '日本', '😀', '\u0915\u094d\u0937']) expect([text, isBlank(text)]).toEqual([text, false])
	})
})

describe('typedLine: a name or label a person types', () => {
	test('direction controls and invisible characters are dropped; spaces are collapsed', () => {
		expect(typedLine('Lap\u202etop\u200b  on\u00a0my desk ', 80)).toEqual({ line: 'Laptop on my desk', problem: null })
		expect(typedLine('Ana\u2066 María\u2069', 120)).toEqual({ line: 'Ana María', problem: null })
	})

	test('a line break, a tab or another control character is refused, not joined', () => {
		for (const text of ['Evil\nName', 'Lap\r\n[admin] evil', 'a\tb', 'red\u001b[31m', 'x\u0085y', 'x\u2028y', 'x\u2029y', 'x\u0000'])
			expect([text, typedLine(text, 80).problem]).toEqual([text, 'must be one line, without control characters'])
	})

	test('a noncharacter, in any plane, is refused as the Job Publish API and the tools refuse it', () => {
		for (const text of ['a\uffffb', '\ufffe', 'x\ufdd0', 'end\u{1fffe}', '\u{10ffff}'])
			expect([text, typedLine(text, 80, { optional: true }).problem]).toEqual([text, 'holds a noncharacter (such as U+FFFF), which is not text'])
		// Next to them, private-use and unassigned-looking characters are text.
		expect(typedLine('\ue000 \ufffd \u{10fffd}', 80).problem).toBeNull()
	})

	test('nothing visible is blank: refused, or empty when the field is optional', () => {
		for (const text of ['', '  ', '\u200b', '\u202e\u202c', '\u0301', '\u3164'])
			expect([text, typedLine(text, 80)]).toEqual([text, { line: '', problem: 'must be 1 to 80 characters' }])
		expect(typedLine('\u200b', 80, { optional: true })).toEqual({ line: '', problem: null })
	})

	test('at most `max` code points once cleaned', () => {
		expect(typedLine('😀'.repeat(80), 80).problem).toBeNull()
		expect(typedLine(`${'x'.repeat(80)}\u200b\u202e`, 80).problem).toBeNull()
		expect(typedLine('x'.repeat(81), 80).problem).toBe('must be 1 to 80 characters')
		expect(typedLine('x'.repeat(81), 80, { optional: true }).problem).toBe('must be at most 80 characters')
	})
})
