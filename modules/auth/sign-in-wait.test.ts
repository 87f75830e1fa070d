/**
 * A sign-in refused for too many failures says how long to wait, in `Retry-After` and on the page,
 * counted from the failures that keep the limit reached: the page said "Wait 15 minutes" however
 * long was left, with no `Retry-After` (the service knew the wait; the page dropped it).
 */
import { afterEach, beforeAll, expect, test } from 'bun:test'
import { clock, newPerson, newWorkspace } from '../../tests/helpers.ts'
import { PortalClient, portalApp, uniqueAddress } from '../../tests/portal.ts'

// Opening the shared test database can take seconds on a busy machine: before the first test.
beforeAll(() => portalApp(), 60_000)
afterEach(() => clock.reset())

const errorOf = (page: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(page)?.[1]

test('the refusal says the time left, in Retry-After and in words, and it shrinks as the failures age', async () => {
	const person = await newPerson(await newWorkspace(), 'recruiter')
	const { app } = await portalApp()
	const client = new PortalClient(app, { address: uniqueAddress() })
	await client.get('/sign-in')
	for (let i = 0; i < 5; i++) expect((await client.post('/sign-in', { email: person.email, password: `wrong ${i}` })).status).toBe(401)

	const first = await client.post('/sign-in', { email: person.email, password: person.password })
	expect(first.status).toBe(429)
	expect(Number(first.headers.get('retry-after'))).toBeWithin(870, 901)
	expect(errorOf(first.text)).toBe('Too many failed attempts. Wait 15 minutes, then try again.')

	clock.advance(10 * 60_000)
	const later = await client.post('/sign-in', { email: person.email, password: person.password })
	expect(later.status).toBe(429)
	expect(Number(later.headers.get('retry-after'))).toBeWithin(270, 301)
	expect(errorOf(later.text)).toBe('Too many failed attempts. Wait 5 minutes, then try again.')

	clock.advance(5 * 60_000 - 40_000)
	const last = await client.post('/sign-in', { email: person.email, password: person.password })
	expect(last.status).toBe(429)
	const seconds = Number(last.headers.get('retry-after'))
	expect(seconds).toBeWithin(10, 41)
	expect(errorOf(last.text)).toBe(`Too many failed attempts. Wait ${seconds} seconds, then try again.`)

	clock.advance(seconds * 1000)
	expect((await client.post('/sign-in', { email: person.email, password: person.password })).status).toBe(303)
})
