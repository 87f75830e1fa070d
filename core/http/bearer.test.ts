/** The one bearer parser every door reads its credential with (the API, MCP, SCIM, metrics). */
import { describe, expect, test } from 'bun:test'
import { parseBearer } from './bearer.ts'

describe('parseBearer', () => {
	test('RFC 6750: "Bearer" 1*SP b64token, the scheme in any case', () => {
		for (const header of ['Bearer abc.DEF-1~+/=', 'bearer abc.DEF-1~+/=', 'Bearer  abc.DEF-1~+/=', 'BEARER    abc.DEF-1~+/='])
			expect([header, parseBearer(header)]).toEqual([header, { token: 'abc.DEF-1~+/=' }])
	})

	test('anything else is missing or malformed', () => {
		expect(parseBearer(null)).toEqual({ problem: 'missing' })
		expect(parseBearer('')).toEqual({ problem: 'missing' })
		for (const header of ['Bearer', 'Bearer ', 'Bearer\tabc', 'Bearerabc', 'Basic abc', 'Bearer abc def', 'Bearer "abc"', `Bearer ${'a'.repeat(513)}`])
			expect([header, parseBearer(header)]).toEqual([header, { problem: 'malformed' }])
	})
})
