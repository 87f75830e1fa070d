/**
 * SCIM 2.0 as a validator and the identity providers check it (RFC 7643/7644, Microsoft Entra ID,
 * Okta): `attributes`/`excludedAttributes` on every answer carrying resources, PUT as a replacement,
 * `startIndex`/`count` brought into range, the filters the providers send (`eq`, `and`), `.search`,
 * PATCH operations applied in order, and discovery documents that describe what the resources carry.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { callOn, newPerson, newWorkspace, testDeps, unique } from '../../../tests/helpers.ts'
import { portalApp } from '../../../tests/portal.ts'
import { personActor } from '../index.ts'
import { users } from '../table.ts'
import { createScimToken } from './scim-tokens.ts'
import { sharedAccountInDomainOf } from '../../../tests/sso/domains.ts'

setDefaultTimeout(120_000)

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest'

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

async function provisioned() {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const { token } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Entra ID' })
	const scim = (method: string, path: string, body?: unknown, contentType = 'application/scim+json') =>
		callOn(app, method, `/scim/v2${path}`, {
			key: token,
			raw: body === undefined ? undefined : JSON.stringify(body),
			headers: { 'content-type': contentType, accept: 'application/scim+json' },
		})
	/** A user made through SCIM, with an externalId and a two-part name. */
	const newUser = async (extra: Record<string, unknown> = {}) => {
		const email = `${unique('scim')}@example.test`
		const res = await scim('POST', '/Users', {
			schemas: [USER],
			userName: email,
			externalId: unique('ext'),
			name: { givenName: 'Dana', familyName: 'Reyes' },
			emails: [{ value: email, type: 'work', primary: true }],
			active: true,
			...extra,
		})
		expect(res.status).toBe(201)
		return res.json
	}
	return { deps, ws, owner, scim, newUser }
}

const q = (filter: string) => encodeURIComponent(filter)
const keys = (o: object) => Object.keys(o).sort()

describe('attributes and excludedAttributes (RFC 7644 §3.4.2.5, §3.9)', () => {
	test('on a user: sub-attributes, any case, the schema URN; id and schemas always stay', async () => {
		const { scim, newUser } = await provisioned()
		const user = await newUser()
		const only = await scim('GET', `/Users/${user.id}?attributes=USERNAME,name.givenName,emails.value`)
		expect(only.status).toBe(200)
		expect(only.json).toEqual({
			schemas: [USER],
			id: user.id,
			userName: user.userName,
			name: { givenName: 'Dana' },
			emails: [{ value: user.userName }],
		})
		const urn = await scim('GET', `/Users/${user.id}?attributes=${encodeURIComponent(`${USER}:userName,${USER}:meta.location`)}`)
		expect(urn.json).toEqual({ schemas: [USER], id: user.id, userName: user.userName, meta: { location: user.meta.location } })
		// Another schema's attribute, or an unknown name, picks nothing; id and schemas stay.
		const none = await scim('GET', `/Users/${user.id}?attributes=urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager,nickName,id`)
		expect(none.json).toEqual({ schemas: [USER], id: user.id })

		const without = await scim('GET', `/Users/${user.id}?excludedAttributes=id,schemas,Emails,name.familyName,meta.location,groups`)
		expect(without.json.id).toBe(user.id)
		expect(without.json.schemas).toEqual([USER])
		expect(without.json.emails).toBeUndefined()
		expect(without.json.groups).toBeUndefined()
		expect(without.json.name).toEqual({ formatted: 'Dana Reyes', givenName: 'Dana' })
		expect(keys(without.json.meta)).toEqual(['created', 'lastModified', 'resourceType'])
		expect(without.json).toMatchObject({ userName: user.userName, displayName: 'Dana Reyes', active: true, externalId: user.externalId })
	})

	test('Entra’s group requests leave the members out; attributes=id answers the ids only', async () => {
		const { ws, scim } = await provisioned()
		const person = await newPerson(ws, 'admin')
		const one = await scim('GET', '/Groups/admin?excludedAttributes=MEMBERS')
		expect(one.json).toMatchObject({ schemas: [GROUP], id: 'admin', displayName: 'Admin' })
		expect(one.json.members).toBeUndefined()
		expect((await scim('GET', '/Groups/admin')).json.members.map((m: any) => m.value)).toContain(person.userId)
		// Entra's check that someone is in a group.
		const member = await scim('GET', `/Groups?filter=${q(`id eq "admin" and members eq "${person.userId}"`)}&attributes=id`)
		expect(member.json).toMatchObject({ totalResults: 1, Resources: [{ schemas: [GROUP], id: 'admin' }] })
		expect(keys(member.json.Resources[0])).toEqual(['id', 'schemas'])
		const sub = await scim('GET', `/Groups?filter=${q('displayName eq "Admin"')}&attributes=members.value`)
		expect(sub.json.Resources[0].members).toEqual([{ value: person.userId }])
	})

	test('on the answers of POST, PUT and PATCH, and on a list', async () => {
		const { ws, scim, newUser } = await provisioned()
		const user = await newUser()
		const email = `${unique('scim')}@example.test`
		const created = await scim('POST', '/Users?attributes=userName', { schemas: [USER], userName: email })
		expect(created.status).toBe(201)
		expect(keys(created.json)).toEqual(['id', 'schemas', 'userName'])
		expect(created.headers.get('location')).toContain(`/scim/v2/Users/${created.json.id}`)
		const put = await scim('PUT', `/Users/${user.id}?excludedAttributes=groups,emails,meta`, { schemas: [USER], userName: user.userName, active: true })
		expect(put.status).toBe(200)
		expect(put.json.groups).toBeUndefined()
		expect(put.json.meta).toBeUndefined()
		expect(put.json.userName).toBe(user.userName)
		const patched = await scim('PATCH', `/Users/${user.id}?attributes=displayName`, {
			schemas: [PATCH],
			Operations: [{ op: 'replace', path: 'displayName', value: 'Dana Okafor' }],
		})
		expect(patched.json).toEqual({ schemas: [USER], id: user.id, displayName: 'Dana Okafor' })
		const list = await scim('GET', `/Users?filter=${q(`userName eq "${user.userName}"`)}&attributes=active`)
		expect(list.json.Resources).toEqual([{ schemas: [USER], id: user.id, active: true }])

		const person = await newPerson(ws, 'viewer')
		const group = await scim('PATCH', '/Groups/admin?excludedAttributes=members', {
			schemas: [PATCH],
			Operations: [{ op: 'add', path: 'members', value: [{ value: person.userId }] }],
		})
		expect(group.status).toBe(200)
		expect(group.json.members).toBeUndefined()
		const pushed = await scim('POST', '/Groups?attributes=displayName', { schemas: [GROUP], displayName: 'Viewer' })
		expect(pushed.json).toEqual({ schemas: [GROUP], id: 'viewer', displayName: 'Viewer' })
	})
})

describe('POST .search (RFC 7644 §3.4.3)', () => {
	test('Users and Groups answer a SearchRequest like the GET, with its filter, paging and attributes', async () => {
		const { scim, newUser } = await provisioned()
		const user = await newUser()
		const found = await scim('POST', '/Users/.search', {
			schemas: [SEARCH],
			filter: `userName eq "${user.userName.toUpperCase()}"`,
			attributes: ['userName', 'externalId'],
			startIndex: 1,
			count: 10,
			sortBy: 'userName',
		})
		expect(found.status).toBe(200)
		expect(found.headers.get('content-type')).toContain('application/scim+json')
		expect(found.json).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 })
		expect(found.json.Resources).toEqual([{ schemas: [USER], id: user.id, userName: user.userName, externalId: user.externalId }])
		const paged = await scim('POST', '/Users/.search', { schemas: [SEARCH], count: 1, startIndex: 2, excludedAttributes: ['groups'] })
		expect(paged.json).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 })
		expect(paged.json.Resources[0].groups).toBeUndefined()
		const groups = await scim('POST', '/Groups/.search', { schemas: [SEARCH], filter: 'displayName eq "Owner"', excludedAttributes: ['members'] })
		expect(groups.json.Resources).toEqual([expect.objectContaining({ id: 'owner', displayName: 'Owner' })])
		expect(groups.json.Resources[0].members).toBeUndefined()
		const refused = await scim('POST', '/Users/.search', { schemas: [SEARCH], count: 'ten' })
		expect(refused.status).toBe(400)
		expect(refused.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidValue' })
		// A number JSON writes with an exponent is still an integer, brought into range.
		expect((await scim('POST', '/Users/.search', { schemas: [SEARCH], count: 1e21 })).json).toMatchObject({ totalResults: 2, itemsPerPage: 2 })
		// A body can carry a far longer filter than a query: refused past the GET's 1000 characters.
		const long = await scim('POST', '/Users/.search', { schemas: [SEARCH], filter: `userName eq "${'a'.repeat(1000)}@example.test"` })
		expect(long.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' })
	})

	test('attribute lists are bounded as on a GET: a body’s 200 KB of names (each compared with every attribute of every resource) is refused, not read', async () => {
		const { scim } = await provisioned()
		const names = Array.from({ length: 40_000 }, (_, i) => `x${i % 10}`)
		for (const key of ['attributes', 'excludedAttributes']) {
			for (const path of ['/Users/.search', '/Groups/.search']) {
				const refused = await scim('POST', path, { schemas: [SEARCH], [key]: names })
				expect([refused.status, refused.json.scimType]).toEqual([400, 'invalidValue'])
				expect(refused.json.detail).toContain(`${key} must be at most 2000 characters`)
				expect((await scim('POST', path, { schemas: [SEARCH], [key]: names.join(',').slice(0, 2000).split(',') })).status).toBe(200)
			}
			expect((await scim('GET', `/Users?${key}=${names.join(',').slice(0, 2001)}`)).status).toBe(400)
		}
	})
})

describe('PUT replaces the resource (RFC 7644 §3.5.1)', () => {
	test('a User: what the body leaves out is cleared or set to its default; the name is not completed from the stored one', async () => {
		const { deps, scim, newUser } = await provisioned()
		const user = await newUser()
		const local = user.userName.slice(0, user.userName.indexOf('@'))
		const bare = await scim('PUT', `/Users/${user.id}`, { schemas: [USER], userName: user.userName })
		expect(bare.status).toBe(200)
		expect(bare.json.externalId).toBeUndefined()
		expect(bare.json).toMatchObject({ displayName: local, active: true })
		const stored = await scim('GET', `/Users?filter=${q(`externalId eq "${user.externalId}"`)}`)
		expect(stored.json.totalResults).toBe(0)

		const given = await scim('PUT', `/Users/${user.id}`, { schemas: [USER], userName: user.userName, name: { givenName: 'Dana', familyName: 'Reyes' } })
		expect(given.json.displayName).toBe('Dana Reyes')
		const givenOnly = await scim('PUT', `/Users/${user.id}`, { schemas: [USER], userName: user.userName, name: { givenName: 'Dana' } })
		expect(givenOnly.json.displayName).toBe('Dana')
		const [row] = await deps.db.select({ name: users.name }).from(users).where(eq(users.id, user.id))
		expect(row!.name).toBe('Dana')

		// Deactivated, then replaced without `active` (or with null, "unassigned"): still deactivated. Giving
		// access back is never a default; only an explicit `active: true` does it (scim-users.ts).
		await scim('PATCH', `/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })
		const again = await scim('PUT', `/Users/${user.id}`, { schemas: [USER], userName: user.userName, name: { givenName: 'Dana' }, active: null })
		expect(again.json.active).toBe(false)
		expect((await scim('PUT', `/Users/${user.id}`, { schemas: [USER], userName: user.userName, active: true })).json.active).toBe(true)
		// userName is required.
		const nameless = await scim('PUT', `/Users/${user.id}`, { schemas: [USER], displayName: 'Dana' })
		expect(nameless.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidValue' })
	})

	test('the account rules hold on a PUT: the name of an account also in another workspace is ignored (its own), a changed userName refused (mutability)', async () => {
		const { deps, ws, scim } = await provisioned()
		const { own, shared, address } = await sharedAccountInDomainOf(deps, ws)
		const attached = await scim('POST', '/Users', { schemas: [USER], userName: address, displayName: 'admin person' })
		expect(attached.status).toBe(201)
		// Left out, the name would be the address's local part: a value this workspace may not change, ignored (§3.5.1).
		const nameless = await scim('PUT', `/Users/${shared.userId}`, { schemas: [USER], userName: address })
		expect(nameless.status).toBe(200)
		expect(nameless.json).toMatchObject({ userName: address, displayName: 'admin person' })
		const moved = await scim('PUT', `/Users/${shared.userId}`, { schemas: [USER], userName: `${unique('n')}@${own}`, displayName: 'admin person' })
		expect(moved.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
		const same = await scim('PUT', `/Users/${shared.userId}`, { schemas: [USER], userName: address, displayName: 'admin person' })
		expect(same.status).toBe(200)
	})

	test('a Group: members left out, or null, leave it empty (its people get the new-person role)', async () => {
		const { ws, scim } = await provisioned()
		const a = await newPerson(ws, 'admin')
		const b = await newPerson(ws, 'admin')
		const emptied = await scim('PUT', '/Groups/admin', { schemas: [GROUP], displayName: 'Admin' })
		expect(emptied.status).toBe(200)
		expect(emptied.json.members).toEqual([])
		expect((await scim('GET', `/Users/${a.userId}`)).json.groups[0].value).toBe('recruiter')
		await scim('PUT', '/Groups/admin', { schemas: [GROUP], displayName: 'Admin', members: [{ value: a.userId }, { value: b.userId }] })
		const nulled = await scim('PUT', '/Groups/admin', { schemas: [GROUP], displayName: 'Admin', members: null })
		expect(nulled.status).toBe(200)
		expect(nulled.json.members).toEqual([])
		// Renaming stays refused.
		const renamed = await scim('PUT', '/Groups/admin', { schemas: [GROUP], displayName: 'Admins' })
		expect(renamed.status).toBe(400)
	})
})

describe('startIndex and count (RFC 7644 §3.4.2.4)', () => {
	test('long numbers are brought into range, below 1 is 1, a negative count is 0; text that is no integer is 400 invalidValue', async () => {
		const { scim, newUser } = await provisioned()
		await newUser()
		const huge = await scim('GET', `/Users?count=${'9'.repeat(40)}&startIndex=1`)
		expect(huge.status).toBe(200)
		expect(huge.json).toMatchObject({ totalResults: 2, itemsPerPage: 2, startIndex: 1 })
		const far = await scim('GET', `/Users?startIndex=${'9'.repeat(400)}`)
		expect(far.status).toBe(200)
		expect(far.json).toMatchObject({ totalResults: 2, itemsPerPage: 0, Resources: [] })
		expect(Number.isSafeInteger(far.json.startIndex)).toBe(true)
		const groups = await scim('GET', `/Groups?startIndex=${'9'.repeat(30)}&count=${'1'.repeat(30)}`)
		expect(groups.json).toMatchObject({ totalResults: 5, itemsPerPage: 0 })
		expect((await scim('GET', '/Users?startIndex=-5&count=1')).json).toMatchObject({ startIndex: 1, itemsPerPage: 1 })
		expect((await scim('GET', '/Users?startIndex=0')).json).toMatchObject({ startIndex: 1, itemsPerPage: 2 })
		expect((await scim('GET', '/Users?count=-3')).json).toMatchObject({ totalResults: 2, itemsPerPage: 0, Resources: [] })
		expect((await scim('GET', '/Groups?count=-3')).json).toMatchObject({ totalResults: 5, itemsPerPage: 0 })
		for (const bad of ['count=abc', 'count=1.5', 'startIndex=1e3', 'startIndex=2x', 'count=0x10']) {
			const res = await scim('GET', `/Users?${bad}`)
			expect(res.status).toBe(400)
			expect(res.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidValue' })
			expect(res.json.detail).toContain(`${bad.split('=')[0]} must be an integer`)
		}
	})
})

describe('filters the providers send: eq, joined by and', () => {
	test('Users: userName, externalId, id, displayName, emails[type eq "work"].value, active; names and operators in any case', async () => {
		const { scim, newUser } = await provisioned()
		const user = await newUser()
		const ids = async (filter: string) => {
			const res = await scim('GET', `/Users?filter=${q(filter)}`)
			expect(res.status).toBe(200)
			return res.json.Resources.map((r: any) => r.id)
		}
		expect(await ids(`userName eq "${user.userName}" and externalId eq "${user.externalId}"`)).toEqual([user.id])
		expect(await ids(`userName eq "${user.userName}" and externalId eq "other"`)).toEqual([])
		expect(await ids(`USERNAME EQ "${user.userName.toUpperCase()}" AND id eq "${user.id}"`)).toEqual([user.id])
		expect(await ids(`${USER}:userName eq "${user.userName}"`)).toEqual([user.id])
		expect(await ids(`emails[type eq "work"].value eq "${user.userName}"`)).toEqual([user.id])
		expect(await ids(`emails[type eq "home"].value eq "${user.userName}"`)).toEqual([])
		expect(await ids(`emails[primary eq true].value eq "${user.userName}" and displayName eq "dana REYES"`)).toEqual([user.id])
		expect(await ids(`userName eq "${user.userName}" and active eq true`)).toEqual([user.id])
		await scim('PATCH', `/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })
		expect(await ids('active eq false')).toEqual([user.id])

		for (const filter of [`userName co "${user.userName}"`, `userName eq "a" or userName eq "b"`, 'title eq "x"', 'userName eq true', 'userName eq "a" and']) {
			const res = await scim('GET', `/Users?filter=${q(filter)}`)
			expect(res.status).toBe(400)
			expect(res.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' })
		}
	})

	test('Groups: displayName (any case), id, members; externalId finds none', async () => {
		const { ws, scim } = await provisioned()
		const person = await newPerson(ws, 'hiring_manager')
		const ids = async (filter: string) => (await scim('GET', `/Groups?filter=${q(filter)}`)).json.Resources.map((r: any) => r.id)
		expect(await ids('displayName eq "hiring MANAGER"')).toEqual(['hiring_manager'])
		expect(await ids(`members eq "${person.userId}"`)).toEqual(['hiring_manager'])
		expect(await ids(`id eq "admin" and members eq "${person.userId}"`)).toEqual([])
		expect(await ids(`${GROUP}:displayName eq "Viewer" and id eq "viewer"`)).toEqual(['viewer'])
		expect(await ids('externalId eq "8b0c"')).toEqual([])
		const refused = await scim('GET', `/Groups?filter=${q('displayName sw "Hi"')}`)
		expect(refused.json).toMatchObject({ status: '400', scimType: 'invalidFilter' })
	})
})

describe('PATCH operations', () => {
	test('Group: remove of members without a value removes every member; operations apply in order', async () => {
		const { ws, scim } = await provisioned()
		const a = await newPerson(ws, 'viewer')
		const b = await newPerson(ws, 'viewer')
		const members = async () => ((await scim('GET', '/Groups/admin')).json.members ?? []).map((m: any) => m.value).sort()
		const replacedThenAdded = await scim('PATCH', '/Groups/admin', {
			schemas: [PATCH],
			Operations: [
				{ op: 'replace', path: 'members', value: [{ value: a.userId }] },
				{ op: 'add', path: 'members', value: [{ value: b.userId }] },
			],
		})
		expect(replacedThenAdded.status).toBe(200)
		expect(await members()).toEqual([a.userId, b.userId].sort())
		const all = await scim('PATCH', '/Groups/admin', { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members' }] })
		expect(all.status).toBe(200)
		expect(await members()).toEqual([])
		expect((await scim('GET', `/Users/${a.userId}`)).json.groups[0].value).toBe('recruiter')
	})

	test('User: a name part removed is cleared; a required attribute removed is refused (mutability), nothing applied', async () => {
		const { scim, newUser } = await provisioned()
		const user = await newUser()
		const res = await scim('PATCH', `/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'name.familyName' }] })
		expect(res.status).toBe(200)
		expect(res.json.displayName).toBe('Dana')
		const refused = await scim('PATCH', `/Users/${user.id}`, {
			schemas: [PATCH],
			Operations: [
				{ op: 'replace', path: 'displayName', value: 'Dana Okafor' },
				{ op: 'remove', path: 'userName' },
			],
		})
		expect(refused.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
		expect((await scim('GET', `/Users/${user.id}`)).json).toMatchObject({ userName: user.userName, displayName: 'Dana' })
		const group = await scim('PATCH', '/Groups/viewer', { schemas: [PATCH], Operations: [{ op: 'remove', path: 'displayName' }] })
		expect(group.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
	})
})

describe('discovery describes what the resources carry', () => {
	test('every attribute and sub-attribute of a User and a Group is in /Schemas; sorting and ETags are said unsupported and not sent', async () => {
		const { scim, ws, newUser } = await provisioned()
		await newPerson(ws, 'admin')
		const user = await newUser()
		const group = (await scim('GET', '/Groups/admin')).json
		const described = async (id: string) => (await scim('GET', `/Schemas/${id}`)).json.attributes as { name: string; subAttributes?: { name: string }[] }[]
		// Common attributes (RFC 7643 §3.1) are in every resource, not in its schema.
		const COMMON = ['schemas', 'id', 'externalId', 'meta']
		for (const [resource, schema] of [
			[user, USER],
			[group, GROUP],
		] as const) {
			const attributes = await described(schema)
			for (const [name, value] of Object.entries(resource)) {
				if (COMMON.includes(name)) continue
				const attribute = attributes.find((a) => a.name === name)
				expect(attribute, `${schema} ${name}`).toBeDefined()
				const first = Array.isArray(value) ? value[0] : value
				if (first && typeof first === 'object')
					for (const sub of Object.keys(first))
						expect(
							attribute!.subAttributes?.map((s) => s.name),
							`${schema} ${name}.${sub}`,
						).toContain(sub)
			}
		}
		const config = (await scim('GET', '/ServiceProviderConfig')).json
		expect(config).toMatchObject({ sort: { supported: false }, etag: { supported: false }, filter: { supported: true, maxResults: 200 } })
		expect((await scim('GET', `/Users/${user.id}`)).headers.get('etag')).toBeNull()
		// A body sent as application/json is read as application/scim+json; answers are application/scim+json.
		const plain = await scim('POST', '/Users/.search', { filter: `id eq "${user.id}"` }, 'application/json')
		expect(plain.json.totalResults).toBe(1)
		expect(plain.headers.get('content-type')).toContain('application/scim+json')
	})
})
