import { describe, expect, test } from 'bun:test'
import { lastModifiedOf, notModified, parseHttpDate, validatorHeaders } from './conditional.ts'

const AT = Date.UTC(1994, 10, 6, 8, 49, 37)

describe('HTTP dates (RFC 9110 section 5.6.7)', () => {
	test('the three forms a recipient must accept', () => {
		expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(AT)
		expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(AT)
		expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(AT)
		expect(parseHttpDate('Thu, 31 Dec 2026 23:59:59 GMT')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59))
	})

	test('anything else is not a date, whatever Date.parse makes of it', () => {
		for (const text of [
			'',
			'3000',
			'12/31/2099',
			'x 2099',
			'2026-12-01T00:00:00Z',
			'Sun, 06 Nov 1994 08:49:37 UTC',
			'Sun, 6 Nov 1994 08:49:37 GMT',
			'sun, 06 nov 1994 08:49:37 GMT',
			'Sun, 31 Feb 1994 08:49:37 GMT',
			'Sun, 06 Nov 1994 24:00:00 GMT',
			'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
		])
			expect([text, parseHttpDate(text)]).toEqual([text, Number.NaN])
	})
})

describe('notModified', () => {
	const v = { etag: '"abc"', lastModified: new Date(AT + 500) }
	const ask = (headers: Record<string, string>) => notModified(new Request('http://x/', { headers }), v, new Date(AT + 3_600_000))

	test('If-Modified-Since: a date at or after the last change (in whole seconds) is current; an earlier one is not', () => {
		expect(ask({ 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' })).toBe(true)
		expect(ask({ 'if-modified-since': 'Sun, 06 Nov 1994 08:49:36 GMT' })).toBe(false)
	})

	test('a date after the server clock, or no date at all, is ignored', () => {
		expect(ask({ 'if-modified-since': 'Sun, 06 Nov 1994 09:49:38 GMT' })).toBe(false)
		expect(ask({ 'if-modified-since': '3000' })).toBe(false)
	})

	test('while the last change is in the current second, Last-Modified is weak: not sent, and no If-Modified-Since gets a 304', () => {
		const sameSecond = new Date(AT + 900)
		expect(validatorHeaders(v, sameSecond)).toEqual({ ETag: '"abc"' })
		expect(notModified(new Request('http://x/', { headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' } }), v, sameSecond)).toBe(false)
		expect(validatorHeaders(v, new Date(AT + 1000))).toEqual({ ETag: '"abc"', 'Last-Modified': 'Sun, 06 Nov 1994 08:49:37 GMT' })
	})

	test('Last-Modified of several inputs is the latest of their changes', () => {
		expect(lastModifiedOf(new Date(AT), null, new Date(AT + 5)).getTime()).toBe(AT + 5)
		expect(lastModifiedOf(null).getTime()).toBe(0)
	})

	test('If-None-Match decides alone when sent', () => {
		expect(ask({ 'if-none-match': 'W/"abc"', 'if-modified-since': 'Sun, 06 Nov 1994 08:49:36 GMT' })).toBe(true)
		expect(ask({ 'if-none-match': '"other"', 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' })).toBe(false)
	})
})
