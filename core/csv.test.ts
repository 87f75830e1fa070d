/** The one CSV writer (core/csv.ts): what a spreadsheet reads from a cell of someone else's text is text. */
import { describe, expect, test } from 'bun:test'
import { csvRows, csvText } from './csv.ts'

describe('csvText', () => {
	test('a cell whose first visible character starts a formula starts with a quote mark, spaces or not', () => {
		for (const formula of ['=1+1', '+1', '-2+3', '@SUM(A1)', '\uff1d1+1', ' =1+1', '\u00a0 +1', '\u3000@x', '\t=1', '\n=1', '\r=1'])
			expect(csvText(formula)).toStartWith("'")
		for (const plain of ['Java Developer', 'a=b', '1-2', 'x@example.com', "'quoted", '']) expect(csvText(plain)).toBe(plain)
	})

	test('what is not text goes first: a NUL, a zero-width space or a byte-order mark cannot hide a formula', () => {
		expect(csvText('\u0000=1+1')).toBe("'=1+1")
		expect(csvText('\u200b=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`)
		expect(csvText('\ufeff@x')).toBe("'@x")
		expect(csvText('a\u0001\u001b\u007fb\ufffe\uffff\ufdd0\u202ec')).toBe('abc')
		expect(csvText('a\ud800b')).toBe('a\ufffdb')
	})
})

describe('csvRows', () => {
	test('a cell holding ; or a tab is quoted: Excel where ; separates lists cannot split a formula out of it', () => {
		const csv = csvRows([["Dev;=cmd|' /C calc'!A0", 'tab\there', 'plain', 7, -1, null]])
		expect(csv).toBe(`"Dev;=cmd|' /C calc'!A0","tab\there",plain,7,-1,\n`)
		// Read with ; as the separator, no cell starts with = (the quoted one stays whole).
		expect(csv.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/).some((c) => c.trimStart().startsWith('='))).toBe(false)
	})

	test('commas, quotes and line breaks stay inside their cell; numbers stay numbers; a byte-order mark when asked', () => {
		const csv = csvRows(
			[
				['a', 'b'],
				['x, "y"\r\nz', 3],
			],
			{ bom: true },
		)
		expect(csv.startsWith('\ufeff')).toBe(true)
		expect(csv.slice(1)).toBe('a,b\n"x, ""y""\nz",3\n')
	})
})
