/**
 * Request bodies are read as UTF-8 only (core/http/body.ts): bytes that are not valid UTF-8 are a
 * 400, and a declared other character set or a content coding a 415, on every door that reads a body, each answering in
 * its own error format. Replacing bad bytes with U+FFFD once made different vendorJobIds equal.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { call, newPersonWithToken, newScimToken, newVendor, newWorkspace, testApp } from '../../tests/helpers.ts'
import { MCP_HEADERS } from '../../tests/mcp/rpc.ts'
import { AppError } from '../errors.ts'
import { readBodyText, readJsonObject } from './body.ts'

beforeAll(() => testApp(), 60_000)

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : Uint8Array.from(p))))
/** `{"vendorJobId":"M-\xe9","title":"Cafe job"}`: é in ISO-8859-1, not UTF-8. */
const latin1Body = bytes('{"vendorJobId":"M-', [0xe9], '","title":"Cafe job"}')
const post = (body: BodyInit, contentType = 'application/json') =>
	new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': contentType }, body })

async function refusal(read: Promise<unknown>): Promise<AppError> {
	const error = await read.then(
		() => null,
		(e: unknown) => e,
	)
	expect(error).toBeInstanceOf(AppError)
	return error as AppError
}

describe('reading a request body', () => {
	test('bytes that are not valid UTF-8 are a 400 saying so, never replaced', async () => {
		for (const bad of [[0xe9], [0xfc], [0xc3], [0xed, 0xa0, 0x80], [0xff, 0xfe]]) {
			const error = await refusal(readJsonObject(post(bytes('{"a":"', bad, '"}')), 1024))
			expect([error.status, error.message]).toEqual([400, 'The request body is not valid UTF-8'])
		}
		expect(await readJsonObject(post(bytes('{"a":"caf', [0xc3, 0xa9], '"}')), 1024)).toEqual({ a: 'café' })
	})

	test('a declared charset other than UTF-8 is a 415; utf-8 in any case, quoted, or us-ascii is read', async () => {
		for (const type of ['application/json; charset=iso-8859-1', 'application/json;charset="windows-1252"', 'text/plain; charset=UTF-16']) {
			const error = await refusal(readBodyText(post('{}', type), 1024))
			expect(error.status).toBe(415)
			expect(error.message).toContain('UTF-8')
		}
		for (const type of [
			'application/json; charset=UTF-8',
			'application/json; charset="utf-8"',
			'application/json;charset=utf8',
			'application/json; charset=us-ascii',
		])
			expect(await readBodyText(post('{"a":1}', type), 1024)).toBe('{"a":1}')
	})

	test('a body sent compressed (Content-Encoding) is a 415 naming the coding, with Accept-Encoding: identity; identity is no coding', async () => {
		const json = '{"a":1}'
		for (const [coding, body] of [
			['gzip', gzipSync(json)],
			['br', brotliCompressSync(json)],
			['deflate', deflateSync(json)],
			// Declared but not applied: still refused, never read as though the coding were not named.
			['GZIP, identity', json],
		] as const) {
			const request = new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': coding }, body })
			const error = await refusal(readBodyText(request, 1024))
			expect([coding, error.status, error.message, error.headers]).toEqual([
				coding,
				415,
				`The request body is sent with Content-Encoding: ${coding.split(',')[0]!.toLowerCase()}; send it uncompressed (no Content-Encoding)`,
				{ 'Accept-Encoding': 'identity' },
			])
		}
		const identity = new Request('http://localhost/x', { method: 'POST', headers: { 'content-encoding': 'identity' }, body: json })
		expect(await readBodyText(identity, 1024)).toBe(json)
	})

	test('an object naming a member twice is a 400 naming it: a member is never dropped without a word', async () => {
		const error = await refusal(readJsonObject(post('{"vendorJobId":"A","title":"T","vendorJobId":"B"}'), 1024))
		expect([error.status, error.message]).toEqual([400, 'The request body names "vendorJobId" more than once in one object; send each name once'])
		expect(await readJsonObject(post('{"a":{"k":1},"b":{"k":2}}'), 1024)).toEqual({ a: { k: 1 }, b: { k: 2 } })
	})

	test('the size limit still comes first (413)', async () => {
		const error = await refusal(readBodyText(post(bytes('x'.repeat(2000), [0xe9]), 'application/json; charset=latin1'), 1024))
		expect(error.status).toBe(413)
	})
})

describe('every door that reads a body answers in its own format', () => {
	test('Job Publish API, webhooks: {error}', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		for (const path of ['/api/v1/jobs', '/api/v1/webhooks']) {
			const res = await call('POST', path, { key, raw: latin1Body, headers: { 'content-type': 'application/json' } })
			expect([res.status, res.json]).toEqual([400, { error: 'The request body is not valid UTF-8' }])
			const declared = await call('POST', path, { key, raw: '{}', headers: { 'content-type': 'application/json; charset=iso-8859-1' } })
			expect(declared.status).toBe(415)
			expect(declared.json).toEqual({ error: expect.stringContaining('charset=iso-8859-1') })
			const twice = await call('POST', path, { key, raw: '{"url":"https://a.example/x","events":["job.closed"],"url":"https://b.example/x"}' })
			expect([twice.status, twice.json]).toEqual([400, { error: 'The request body names "url" more than once in one object; send each name once' }])
			const compressed = await call('POST', path, { key, raw: gzipSync('{}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
			expect([compressed.status, compressed.json, compressed.headers.get('accept-encoding')]).toEqual([
				415,
				{ error: 'The request body is sent with Content-Encoding: gzip; send it uncompressed (no Content-Encoding)' },
				'identity',
			])
		}
	})

	test('MCP: a JSON-RPC error', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const res = await call('POST', '/api/mcp', { key: token, raw: latin1Body, headers: { ...MCP_HEADERS, 'content-type': 'application/json' } })
		expect(res.status).toBe(400)
		expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32700, message: 'The request body is not valid UTF-8' }, id: null })
		const latin1 = await call('POST', '/api/mcp', {
			key: token,
			raw: '{}',
			headers: { ...MCP_HEADERS, 'content-type': 'application/json; charset=iso-8859-1' },
		})
		expect(latin1.status).toBe(415)
		expect(latin1.json.error.code).toBe(-32000)
	})

	test('SCIM: a SCIM error body', async () => {
		const ws = await newWorkspace()
		const token = await newScimToken(ws)
		const res = await call('POST', '/scim/v2/Users', { key: token, raw: latin1Body, headers: { 'content-type': 'application/scim+json' } })
		expect(res.status).toBe(400)
		expect(res.json).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], scimType: 'invalidSyntax' })
	})

	test('OAuth client registration: an OAuth error', async () => {
		const res = await call('POST', '/oauth/register', { raw: latin1Body, headers: { 'content-type': 'application/json' } })
		expect(res.status).toBe(400)
		expect(res.json).toMatchObject({ error: 'invalid_client_metadata' })
	})
})
