/** The answer's media type from Accept (RFC 9110 §12.5.1): the most specific range decides each type's q. */
import { describe, expect, test } from 'bun:test'
import { preferredMediaType } from './media-type.ts'

const SCIM = ['application/scim+json', 'application/json'] as const

describe('preferredMediaType', () => {
	test('the type asked for, the first offered on a tie or when none is acceptable', () => {
		for (const [accept, type] of [
			[null, 'application/scim+json'],
			['', 'application/scim+json'],
			['application/json', 'application/json'],
			['Application/JSON; charset=utf-8', 'application/json'],
			['application/json, application/scim+json', 'application/scim+json'],
			['application/json, application/scim+json;q=0.5', 'application/json'],
			['application/json;q=0.5, application/scim+json', 'application/scim+json'],
			['application/json, */*;q=0.1', 'application/json'],
			['application/*, application/scim+json;q=0', 'application/json'],
			['*/*', 'application/scim+json'],
			['text/html', 'application/scim+json'],
			['application/json;q=0', 'application/scim+json'],
			['application/json;q=nonsense', 'application/json'],
		] as const)
			expect([accept, preferredMediaType(accept, SCIM)]).toEqual([accept, type])
	})
})
