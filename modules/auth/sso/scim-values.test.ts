/**
 * What a SCIM request's values may hold, on every User request that carries them (POST, PUT,
 * PATCH): a name is one line of visible text by the rule of every typed name (`typedLine`); a home
 * or other address never becomes the sign-in address; an `emails` filter that matches no address is
 * `noTarget`, and removing the work address `mutability` (RFC 7644 §3.5.2); null clears, and a
 * value of the wrong type is refused, neither is ever taken as "not sent". Each refusal is a SCIM
 * 400 naming the attribute, and changes nothing.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { callOn, newPerson, newWorkspace, testDeps, unique } from '../../../tests/helpers.ts'
import { portalApp } from '../../../tests/portal.ts'
import { personActor } from '../index.ts'
import { MAX_EXTERNAL_ID } from './scim-requests.ts'
import { createScimToken } from './scim-tokens.ts'

setDefaultTimeout(60_000)

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

let scim: (method: string, path: string, body?: unknown) => ReturnType<typeof callOn>
beforeAll(async () => {
	const { app } = await portalApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const { token } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
	scim = (method, path, body) =>
		callOn(app, method, `/scim/v2${path}`, {
			key: token,
			raw: body === undefined ? undefined : JSON.stringify(body),
			headers: { 'content-type': 'application/scim+json' },
		})
})

const email = () => `${unique('scim')}@example.test`
const user = (address = email(), extra: Record<string, unknown> = {}) => ({
	schemas: [USER],
	userName: address,
	name: { givenName: 'Dana', familyName: 'Reyes' },
	emails: [{ value: address, type: 'work', primary: true }],
	...extra,
})
const patch = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations })

async function created(extra: Record<string, unknown> = {}) {
	const res = await scim('POST', '/Users', user(email(), extra))
	expect(res.status).toBe(201)
	return res.json
}

/** 400 invalidValue whose detail names `attribute` and says `why`. */
async function refused(method: string, path: string, body: unknown, attribute: string, why: string | RegExp) {
	const res = await scim(method, path, body)
	expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(400)
	expect(res.json).toMatchObject({ schemas: [ERROR], scimType: 'invalidValue' })
	expect(res.json.detail).toContain(attribute)
	expect(res.json.detail).toMatch(why)
}

describe('a name is one line of visible text (typedLine), on POST, PUT and PATCH', () => {
	const broken: [string, string | RegExp][] = [
		['Evil\u001b[31mRed\u202eOwner\u200b\u0007', 'must be one line, without control characters'],
		['Line1\nLine2', 'must be one line, without control characters'],
		['\u200b\u200b', 'must be 1 to 120 characters'],
		['half\ud800x', 'lone surrogate'],
		['x'.repeat(121), 'must be 1 to 120 characters'],
	]

	test('each attribute that breaks it is refused, naming it; nothing changes', async () => {
		const person = await created()
		const at = `/Users/${person.id}`
		for (const [value, why] of broken) {
			await refused('POST', '/Users', user(email(), { displayName: value }), 'displayName', why)
			await refused('POST', '/Users', user(email(), { name: { givenName: value, familyName: 'Reyes' } }), 'name.givenName', why)
			await refused('PUT', at, user(person.userName, { name: { formatted: value } }), 'name.formatted', why)
			await refused('PUT', at, user(person.userName, { name: { givenName: 'Dana', familyName: value } }), 'name.familyName', why)
			await refused('PATCH', at, patch({ op: 'replace', path: 'displayName', value }), 'displayName', why)
			await refused('PATCH', at, patch({ op: 'replace', path: 'name.givenName', value }), 'name.givenName', why)
			await refused('PATCH', at, patch({ op: 'replace', value: { name: { familyName: value } } }), 'name.familyName', why)
			await refused('PATCH', at, patch({ op: 'add', value: { displayName: value } }), 'displayName', why)
		}
		expect((await scim('GET', at)).json).toMatchObject({ displayName: 'Dana Reyes', name: { givenName: 'Dana', familyName: 'Reyes' } })
	})

	test('direction controls and zero-width characters are dropped; an empty name is the address’s', async () => {
		const person = await created({ displayName: '\u202eDana\u200b Reyes\u2066' })
		expect(person.displayName).toBe('Dana Reyes')
		const patched = await scim('PATCH', `/Users/${person.id}`, patch({ op: 'replace', path: 'name.givenName', value: 'Ma\u200bry' }))
		expect(patched.json.name.givenName).toBe('Mary')
		const emptied = await scim('PUT', `/Users/${person.id}`, user(person.userName, { name: { givenName: '', familyName: '' } }))
		expect(emptied.json.displayName).toBe(person.userName.split('@')[0])
	})
})

describe('the sign-in address is the work address: an address typed home or other never becomes it, primary or not', () => {
	test('POST and PUT: a home address marked primary beside the work one', async () => {
		const work = email()
		const both = [
			{ value: 'dana@personal.test', type: 'home', primary: true },
			{ value: work, type: 'work' },
		]
		const made = await scim('POST', '/Users', { schemas: [USER], emails: both })
		expect(made.status).toBe(201)
		expect(made.json.userName).toBe(work)
		const other = email()
		const put = await scim('PUT', `/Users/${made.json.id}`, {
			schemas: [USER],
			emails: [{ value: 'x@personal.test', type: 'other', primary: 'True' }, { value: other }],
		})
		expect(put.status).toBe(200)
		expect(put.json.userName).toBe(other)
	})

	test('PATCH: a home address added as primary changes nothing; the primary work entry or one of no type still does', async () => {
		const person = await created()
		const at = `/Users/${person.id}`
		for (const op of [
			{ op: 'add', path: 'emails', value: [{ value: 'home@personal.test', type: 'home', primary: true }] },
			{ op: 'replace', value: { emails: [{ value: 'other@personal.test', type: 'Other', primary: true }] } },
		]) {
			const res = await scim('PATCH', at, patch(op))
			expect(res.status, JSON.stringify(op)).toBe(200)
			expect(res.json.userName).toBe(person.userName)
		}
		const moved = email()
		const res = await scim(
			'PATCH',
			at,
			patch({
				op: 'replace',
				path: 'emails',
				value: [
					{ value: 'h@personal.test', type: 'home', primary: true },
					{ value: moved, type: '', primary: true },
				],
			}),
		)
		expect(res.json.userName).toBe(moved)
	})
})

describe('emails paths: a value filter matching no address is noTarget, removing the work address is mutability (RFC 7644 §3.5.2)', () => {
	test('a value filter acts on the work address only when it names it (in any case); another value is 400 noTarget, nothing changed', async () => {
		const person = await created()
		const at = `/Users/${person.id}`
		for (const op of [
			{ op: 'replace', path: 'emails[value eq "nomatch@x.test"].value', value: email() },
			{ op: 'replace', path: 'emails[type eq "work" and value eq "nomatch@x.test"]', value: { value: email() } },
			{ op: 'remove', path: 'emails[value eq "nomatch@x.test"]' },
		]) {
			const res = await scim('PATCH', at, patch(op))
			expect(res.status, JSON.stringify(op)).toBe(400)
			expect(res.json).toMatchObject({ schemas: [ERROR], scimType: 'noTarget' })
		}
		expect((await scim('GET', at)).json.userName).toBe(person.userName)
		const moved = email()
		const named = await scim('PATCH', at, patch({ op: 'replace', path: `emails[value eq "${person.userName.toUpperCase()}"].value`, value: moved }))
		expect(named.status).toBe(200)
		expect(named.json.userName).toBe(moved)
		// Operations apply in order: a filter after a change names the new address.
		const again = email()
		const chained = await scim(
			'PATCH',
			at,
			patch({ op: 'replace', path: 'userName', value: again }, { op: 'replace', path: `emails[value eq "${again}"].display`, value: 'Work' }),
		)
		expect(chained.status).toBe(200)
	})

	test('removing the work address (emails, emails.value, a filter picking it) is 400 mutability; a home address removed is ignored', async () => {
		const person = await created()
		const at = `/Users/${person.id}`
		for (const path of ['emails', 'emails.value', 'emails[type eq "work"]', 'emails[primary eq true].value', `emails[value eq "${person.userName}"]`]) {
			const res = await scim('PATCH', at, patch({ op: 'remove', path }))
			expect(res.status, path).toBe(400)
			expect(res.json).toMatchObject({ schemas: [ERROR], scimType: 'mutability' })
		}
		expect((await scim('PATCH', at, patch({ op: 'remove', path: 'emails[type eq "home"]' }))).status).toBe(200)
		expect((await scim('GET', at)).json.userName).toBe(person.userName)
	})
})

describe('null clears (as remove does), a value of the wrong type is refused: neither is taken as "not sent"', () => {
	test('PATCH null clears the name, a part of it or the externalId, as remove does; userName or the work address set to null is 400 mutability', async () => {
		const shown = (u: Record<string, any>) => ({ externalId: u.externalId, displayName: u.displayName, name: u.name })
		for (const path of ['displayName', 'name.givenName', 'name.familyName', 'name.formatted', 'name', 'externalId']) {
			const [a, b] = [await created({ externalId: 'ext-1', displayName: 'Dee Reyes' }), await created({ externalId: 'ext-1', displayName: 'Dee Reyes' })]
			const removed = await scim('PATCH', `/Users/${a.id}`, patch({ op: 'remove', path }))
			const nulled = await scim('PATCH', `/Users/${b.id}`, patch({ op: 'replace', path, value: null }))
			expect(nulled.status, path).toBe(200)
			const local = (u: Record<string, any>) => JSON.stringify(shown(u)).replaceAll(u.userName.split('@')[0], 'LOCAL')
			expect(local(nulled.json), path).toBe(local(removed.json))
			expect(local(nulled.json), path).not.toBe(local(b))
		}
		const person = await created({ externalId: 'ext-1' })
		const at = `/Users/${person.id}`
		expect((await scim('PATCH', at, patch({ op: 'replace', value: { externalId: null, name: { familyName: null } } }))).json).toMatchObject({
			displayName: 'Dana',
			name: { givenName: 'Dana', familyName: '' },
		})
		for (const op of [
			{ op: 'replace', path: 'userName', value: null },
			{ op: 'replace', value: { userName: null } },
			{ op: 'replace', path: 'emails', value: null },
			{ op: 'replace', path: 'emails[type eq "work"].value', value: null },
		]) {
			const res = await scim('PATCH', at, patch(op))
			expect(res.status, JSON.stringify(op)).toBe(400)
			expect(res.json).toMatchObject({ schemas: [ERROR], scimType: 'mutability' })
		}
		expect((await scim('GET', at)).json.userName).toBe(person.userName)
	})

	test('a name or emails that is not an object (or a list of them) is 400 invalidValue naming it, on POST, PUT and PATCH; the message says it once', async () => {
		const person = await created()
		const at = `/Users/${person.id}`
		await refused('POST', '/Users', user(email(), { name: 'John Smith' }), 'name', 'must be an object')
		await refused('PUT', at, user(person.userName, { name: ['x'] }), 'name', 'must be an object')
		await refused('POST', '/Users', user(email(), { emails: 5 }), 'emails', 'must be a list of addresses')
		await refused('PUT', at, user(person.userName, { emails: ['a@b.test'] }), 'emails[0]', 'must be an address')
		await refused('PATCH', at, patch({ op: 'replace', path: 'name', value: 'John Smith' }), 'name', 'must be an object')
		await refused('PATCH', at, patch({ op: 'replace', value: { name: 7 } }), 'name', 'must be an object')
		await refused('PATCH', at, patch({ op: 'replace', path: 'emails', value: 5 }), 'emails', 'must be a list of addresses')
		await refused('PATCH', at, patch({ op: 'add', path: 'emails', value: [true] }), 'emails[0]', 'must be an address')
		const wrong = await scim('PATCH', at, patch({ op: 'replace', path: 'userName', value: 7 }))
		expect(wrong.json.detail).toBe('One or more fields are not valid: userName must be a string')
		expect((await scim('GET', at)).json).toMatchObject({ userName: person.userName, displayName: 'Dana Reyes' })
	})

	test('a Group displayName set to null is 400 mutability, as removing it is', async () => {
		const res = await scim('PATCH', '/Groups/viewer', patch({ op: 'replace', path: 'displayName', value: null }))
		expect(res.status).toBe(400)
		expect(res.json).toMatchObject({ schemas: [ERROR], scimType: 'mutability' })
	})
})

describe('an externalId is one the provider can look up again', () => {
	test('longer than a filter can hold is refused on POST, PUT and PATCH; the longest kept is found by its filter', async () => {
		const tooLong = 'x'.repeat(MAX_EXTERNAL_ID + 1)
		await refused('POST', '/Users', user(email(), { externalId: tooLong }), 'externalId', /at most 480 characters/)
		const made = await created()
		await refused('PUT', `/Users/${made.id}`, user(made.userName, { externalId: tooLong }), 'externalId', /at most 480/)
		await refused('PATCH', `/Users/${made.id}`, patch({ op: 'replace', path: 'externalId', value: tooLong }), 'externalId', /at most 480/)
		// The longest, every character one a filter escapes: still found.
		const longest = '"\\'.repeat(MAX_EXTERNAL_ID / 2)
		const kept = await created({ externalId: longest })
		const filter = `externalId eq ${JSON.stringify(longest)}`
		const found = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`)
		expect(found.status).toBe(200)
		expect(found.json.Resources.map((r: { id: string }) => r.id)).toEqual([kept.id])
	})
})
