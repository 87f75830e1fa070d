/** A name a JSON object holds twice is found wherever it is, and only then. */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { repeatedName } from './json-names.ts'

describe('repeatedName', () => {
	test('finds a name held twice by one object, at any depth, however it is written', () => {
		expect(repeatedName('{"title":"A","title":"B"}')).toBe('title')
		expect(repeatedName('{"a":1,"\\u0061":2}')).toBe('a')
		expect(repeatedName('{"x":[{"k":1},{"k":2,"k":3}]}')).toBe('k')
		expect(repeatedName('{"x":{"y":{"z":1}},"q":{"z":2,"z":3}}')).toBe('z')
		expect(repeatedName(`{"deep":${'['.repeat(50_000)}{"a":1,"a":2}${']'.repeat(50_000)}}`)).toBe('a')
		expect(repeatedName('{ "a\\"b" : 1 , "a\\"b" : 2 }')).toBe('a"b')
		expect(repeatedName('{"😀":1,"😀":2}')).toBe('😀')
		// A name ending in a backslash: the quote after it closes the name.
		expect(repeatedName('{"a\\\\":"\\\\","a\\\\":2}')).toBe('a\\')
	})

	test('finds none where each object names each member once: the same name in other objects, or as a value', () => {
		for (const json of [
			'{}',
			'{"a":{},"b":[]}',
			'{"a":"a","b":["a","a"],"c":{"a":"b"}}',
			'{"k":[{"k":1},{"k":2}],"x":{"k":{"k":3}}}',
			'{"a\\"":1,"a":2,"\\\\":3,"\\\\\\"":4}',
			'{"e":"\\u0065","E":1}',
			'{"a":[{},{}],"b":[[],[{"a":1}]]}',
		])
			expect([json, repeatedName(json)]).toEqual([json, null])
	})

	test('agrees with JSON.parse on any object: a name is repeated exactly when parsing drops a member', () => {
		// Objects written with some names repeated on purpose: parsing keeps fewer members than were written.
		const members = fc.array(fc.tuple(fc.constantFrom('a', 'b', '\\u0061', 'a"', 'ü', '😀'), fc.jsonValue()), { maxLength: 6 })
		fc.assert(
			fc.property(members, (pairs) => {
				const json = `{${pairs.map(([k, v]) => `"${k.replace('"', '\\"')}":${JSON.stringify(v)}`).join(',')}}`
				const written = pairs.length
				const kept = Object.keys(JSON.parse(json)).length
				// Nested values come from JSON.stringify, whose objects never repeat a name.
				return (repeatedName(json) !== null) === kept < written
			}),
		)
	})
})
