/** `breakable`: break points after the separators of an address, never inside a word, the text escaped and unchanged. */
import { describe, expect, test } from 'bun:test'
import { breakable } from './html.ts'
import { untrusted } from './untrusted.ts'

describe('breakable', () => {
	test('a break point after / . @ - _ ? & = # (not before a space or at the end), every character kept and escaped', () => {
		expect(String(breakable('https://ex-ample.com/api/mcp?a=1&b=<2>#top'))).toBe(
			'https:/<wbr>/<wbr>ex-<wbr>ample.<wbr>com/<wbr>api/<wbr>mcp?<wbr>a=<wbr>1&amp;<wbr>b=<wbr>&lt;2&gt;#<wbr>top',
		)
		expect(String(breakable('jane.doe@example.test'))).toBe('jane.<wbr>doe@<wbr>example.<wbr>test')
		expect(String(breakable('Thanks. See you.'))).toBe('Thanks. See you.')
		expect(String(breakable('{{candidate.firstName}}'))).toBe('{{candidate.<wbr>firstName}}')
		expect(String(breakable(null))).toBe('')
	})

	test('untrusted text is shown as its text', () => {
		expect(String(breakable(untrusted('a@b.c', 'candidate')))).toBe('a@<wbr>b.<wbr>c')
	})
})
