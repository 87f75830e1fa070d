/**
 * A query parameter given more than once is read as its first value on every route, as a posted
 * form's field is: the order of repeated parameters no longer decides between an answer and a 400.
 */
import { beforeAll, expect, test } from 'bun:test'
import { call, newWorkspace, testApp } from '../../tests/helpers.ts'
import { firstQueryValues, undecodableQueryNames, unreadableFields, unreadableFormBody, unreadableFormText } from './query.ts'

beforeAll(() => testApp(), 120_000)

test('the first value of a repeated parameter is kept; others are left as they are', () => {
	const query: Record<string, unknown> = { a: '3', b: 'x', c: 'only' }
	firstQueryValues('http://localhost/p?a=1&b=x&a=2&c=only&a=3', query)
	expect(query).toEqual({ a: '1', b: 'x', c: 'only' })
	const untouched = { a: 'z' }
	firstQueryValues('http://localhost/p?a=z', untouched)
	expect(untouched).toEqual({ a: 'z' })
})

test('the careers search answers a repeated filter by its first value, in either order', async () => {
	const ws = await newWorkspace()
	const path = (types: string[]) => `/careers/${ws.slug}?${types.map((t) => `type=${t}`).join('&')}`
	expect((await call('GET', path(['Contract', 'Bogus']))).status).toBe(200)
	expect((await call('GET', path(['Bogus', 'Contract']))).status).toBe(400)
	expect((await call('GET', path(['Contract']))).status).toBe(200)
})

test('parameters whose text the address does not hold readably are named: broken escapes, bytes that are not UTF-8', () => {
	expect(undecodableQueryNames('http://localhost/careers/x?q=%zz&location=Austin%2C%20TX&page=%ED%A0%80&type=a+b&x%zz=1&remote=%')).toEqual([
		'q',
		'page',
		'x%zz',
		'remote',
	])
	expect(undecodableQueryNames('http://localhost/careers/x?q=%F0%9F%98%80&location=%25')).toEqual([])
	expect(undecodableQueryNames('http://localhost/careers/x')).toEqual([])
})

test('the fields the one rule refuses: each parameter named once, a name that cannot be read as (query); a form body alike', () => {
	expect(unreadableFields('http://localhost/jobs?q=%zz&q=%FF&x%C0%80=1&ok=caf%C3%A9')).toEqual([
		{ field: 'q', message: 'q could not be read from this address (a broken %-escape)' },
		{ field: '(query)', message: 'A parameter’s name could not be read from this address (a broken %-escape)' },
	])
	expect(unreadableFields('http://localhost/jobs?q=%25zz')).toEqual([])
	expect(unreadableFormText('csrf=abc&title=Call%20back%zz&notes=%')).toEqual([
		{ field: 'title', message: 'title could not be read from this form (a broken %-escape)' },
		{ field: 'notes', message: 'notes could not be read from this form (a broken %-escape)' },
	])
})

test('a form body’s bytes that are not UTF-8, sent unescaped, cannot be read either; the other fields can', () => {
	const body = new Uint8Array([...new TextEncoder().encode('csrf=abc&title=caf'), 0xe9, ...new TextEncoder().encode('&notes=ok%C3%A9')])
	expect(unreadableFormBody(body)).toEqual([{ field: 'title', message: 'title could not be read from this form (a broken %-escape)' }])
	expect(unreadableFormBody(new TextEncoder().encode('title=caf\u00e9&x=\ufffd'))).toEqual([])
})
