/**
 * The identity providers' SCIM clients replayed against the real server (a loopback HTTP port): the
 * requests Microsoft Entra ID's provisioning service and its SCIM validator, Okta's SCIM 2.0 client and
 * its test suite, and OneLogin send, in the shapes their public documentation gives (bodies, query
 * strings as they encode them, headers), each answered as it expects or with a SCIM error body.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { AppDeps } from '../../../core/deps.ts'
import { newPerson, newWorkspace, serveApp, unique } from '../../../tests/helpers.ts'
import { personActor } from '../index.ts'
import { createScimToken } from './scim-tokens.ts'

setDefaultTimeout(120_000)

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'

let url: string
let deps: AppDeps
beforeAll(async () => {
	;({ url, deps } = await serveApp())
})

interface Answer {
	status: number
	type: string | null
	json: any
}

/** A workspace with a SCIM token; `scim` sends as the clients do: the body's bytes as given, their headers. */
async function client(name: string) {
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const { token } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name })
	const scim = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
		const res = await fetch(`${url}/scim/v2${path}`, {
			method,
			headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', 'content-type': 'application/scim+json; charset=utf-8', ...headers },
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		})
		const text = await res.text()
		return { status: res.status, type: res.headers.get('content-type'), json: text ? JSON.parse(text) : undefined }
	}
	return { ws, owner, scim }
}

const address = () => `${unique('idp')}@example.test`
/** The SCIM error body with its status (RFC 7644 §3.12), answered as application/scim+json. */
const scimError = (status: number, scimType?: string) => ({
	status,
	type: 'application/scim+json',
	json: expect.objectContaining({ schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail: expect.any(String) }),
})
/** The query string as Entra writes it: spaces as `+`, quotes and `@` encoded. */
const entraQuery = (filter: string) => encodeURIComponent(filter).replace(/%20/g, '+')

describe('Microsoft Entra ID', () => {
	/** Entra's create-user request (its SCIM endpoint tutorial), userName mapped from the userPrincipalName. */
	const entraUser = (upn: string, externalId: string) => ({
		schemas: [USER, ENTERPRISE],
		externalId,
		userName: upn,
		active: true,
		emails: [{ primary: true, type: 'work', value: upn }],
		meta: { resourceType: 'User' },
		name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
		roles: [],
		[ENTERPRISE]: { department: 'Talent', employeeNumber: '7', manager: { value: 'm-1' } },
	})

	test('the provisioning cycle: query by userName and externalId, create, PATCH as it sends them, disable, delete', async () => {
		const { scim } = await client('Entra ID')
		const upn = address()
		const externalId = crypto.randomUUID()
		const none = await scim('GET', `/Users?filter=${entraQuery(`userName eq "${upn}"`)}`)
		expect(none).toMatchObject({ status: 200, type: 'application/scim+json', json: { schemas: [LIST], totalResults: 0, Resources: [] } })

		const created = await scim('POST', '/Users', entraUser(upn, externalId))
		expect(created).toMatchObject({ status: 201, type: 'application/scim+json', json: { userName: upn, externalId, active: true } })
		const id = created.json.id
		for (const filter of [`userName eq "${upn}"`, `externalId eq "${externalId}"`]) {
			const found = await scim('GET', `/Users?filter=${entraQuery(filter)}`)
			expect(found.json).toMatchObject({ totalResults: 1, Resources: [{ id }] })
		}

		// Its documented updates: multi-valued and single-valued attributes, op names capitalised.
		const moved = address()
		const update = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [
				{ op: 'Replace', path: 'emails[type eq "work"].value', value: moved },
				{ op: 'Replace', path: 'name.familyName', value: 'updatedFamily' },
				{ op: 'Add', path: `${ENTERPRISE}:manager`, value: '2819c223-7f76-453a-919d-413861904646' },
			],
		})
		expect(update).toMatchObject({ status: 200, json: { userName: moved, name: { familyName: 'updatedFamily' } } })
		expect((await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: `${ENTERPRISE}:manager` }] })).status).toBe(200)

		// Without a path: a value object whose keys are paths, booleans as the strings "False"/"True".
		const pathless = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [
				{
					op: 'Add',
					value: {
						'name.givenName': 'Dana',
						'emails[type eq "work"].value': upn,
						[`${ENTERPRISE}:manager`]: 'boss',
						[`${ENTERPRISE}:department`]: 'Sourcing',
						displayName: 'Dana updatedFamily',
					},
				},
				{ op: 'Replace', value: { active: 'False' } },
			],
		})
		expect(pathless).toMatchObject({ status: 200, json: { userName: upn, displayName: 'Dana updatedFamily', active: false } })
		const back = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] })
		expect(back.json.active).toBe(true)
		const disabled = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: false }] })
		expect(disabled.json.active).toBe(false)

		expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204)
		expect(await scim('GET', `/Users/${id}`)).toMatchObject(scimError(404))
	})

	test('a custom extension attribute the tenant mapped (its own extension schema) is ignored on PATCH, as on POST: every update still applies', async () => {
		const { scim } = await client('Entra ID')
		const custom = 'urn:ietf:params:scim:schemas:extension:CustomExtensionName:2.0:User'
		const upn = address()
		const created = await scim('POST', '/Users', {
			...entraUser(upn, crypto.randomUUID()),
			schemas: [USER, ENTERPRISE, custom],
			[custom]: { CustomAttribute: 'x' },
		})
		expect(created.status).toBe(201)
		const id = created.json.id
		const update = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [
				{ op: 'Replace', path: 'name.familyName', value: 'Okafor' },
				{ op: 'Add', path: `${custom}:CustomAttribute`, value: 'Badge 7' },
				{ op: 'Replace', value: { [`${custom}:CustomAttribute`]: 'Badge 8', displayName: 'Dana Okafor' } },
				{ op: 'Remove', path: `${custom}:CustomAttribute` },
				{ op: 'Replace', path: 'active', value: 'False' },
			],
		})
		expect(update).toMatchObject({ status: 200, json: { displayName: 'Dana Okafor', name: { familyName: 'Okafor' }, active: false } })
		expect(update.json[custom]).toBeUndefined()
		// An attribute the enterprise extension does not have is still refused, and nothing applied.
		const refused = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [
				{ op: 'Replace', path: 'active', value: 'True' },
				{ op: 'Add', path: `${ENTERPRISE}:CustomAttribute`, value: 'Badge 7' },
			],
		})
		expect(refused).toMatchObject(scimError(400, 'invalidPath'))
		expect((await scim('GET', `/Users/${id}`)).json.active).toBe(false)
	})

	test('the validator’s probes: a user that does not exist, any id or a long one, is 404 with the SCIM error body; attributes= and excludedAttributes', async () => {
		const { scim } = await client('Entra ID')
		const user = (await scim('POST', '/Users', entraUser(address(), crypto.randomUUID()))).json
		for (const id of [crypto.randomUUID(), 'x'.repeat(101), 'usr_'.repeat(300)]) {
			expect(await scim('GET', `/Users/${id}`)).toMatchObject(scimError(404))
			expect(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: false }] })).toMatchObject(
				scimError(404),
			)
			expect(await scim('PUT', `/Users/${id}`, entraUser(address(), 'x'))).toMatchObject(scimError(404))
			expect(await scim('DELETE', `/Users/${id}`)).toMatchObject(scimError(404))
			expect(await scim('GET', `/Groups/${id}`)).toMatchObject(scimError(404))
		}
		// An empty `attributes` asks for the default set; excluding what a User has not is no change.
		const all = await scim('GET', `/Users/${user.id}?attributes=`)
		expect(all.json).toEqual(user)
		expect((await scim('GET', `/Users/${user.id}?excludedAttributes=members`)).json).toEqual(user)
		expect((await scim('GET', `/Users?filter=${entraQuery(`userName eq "${user.userName}"`)}&attributes=`)).json.Resources).toEqual([user])
	})

	test('a userName that is no address (its validator’s Test_User_…, a mapping to an employee id) is kept as sent beside the work address of emails', async () => {
		const { scim } = await client('Entra ID')
		const userName = `Test_User_${crypto.randomUUID()}`
		const work = `Test_User_${unique('w')}@example.test`
		const created = await scim('POST', '/Users', { ...entraUser(userName, crypto.randomUUID()), emails: [{ primary: true, type: 'work', value: work }] })
		expect(created).toMatchObject({ status: 201, json: { userName, emails: [{ value: work.toLowerCase(), type: 'work', primary: true }] } })
		const id = created.json.id
		// Found by it, in any case, never by the address it stands beside.
		for (const [filter, ids] of [
			[`userName eq "${userName.toUpperCase()}"`, [id]],
			[`userName eq "${work}"`, []],
			[`emails[type eq "work"].value eq "${work}"`, [id]],
		] as const)
			expect([filter, (await scim('GET', `/Users?filter=${entraQuery(filter)}`)).json.Resources.map((r: { id: string }) => r.id)]).toEqual([filter, ids])
		// Unique in the workspace (uniqueness: server), in any case.
		const twin = await scim('POST', '/Users', { ...entraUser(userName.toLowerCase(), 'x'), emails: [{ primary: true, type: 'work', value: address() }] })
		expect(twin).toMatchObject(scimError(409, 'uniqueness'))
		// Changed by PATCH, as text or as an address (which is then the account's, nothing kept beside it).
		const renamed = `E${unique('emp')}`
		expect((await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'userName', value: renamed }] })).json).toMatchObject({
			userName: renamed,
			emails: [{ value: work.toLowerCase() }],
		})
		const moved = address()
		expect((await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'userName', value: moved }] })).json).toMatchObject({
			userName: moved,
			emails: [{ value: moved }],
		})
		// A PUT with text again keeps it; one without a work address leaves nothing to be the account's address.
		const put = await scim('PUT', `/Users/${id}`, { ...entraUser(renamed, 'x'), emails: [{ type: 'work', value: moved }] })
		expect(put).toMatchObject({ status: 200, json: { userName: renamed, emails: [{ value: moved }] } })
		expect(await scim('POST', '/Users', { schemas: [USER], userName: `Test_User_${unique('n')}` })).toMatchObject(scimError(400, 'invalidValue'))
		expect(await scim('POST', '/Users', { ...entraUser('two\nlines', 'y'), emails: [{ type: 'work', value: address() }] })).toMatchObject(
			scimError(400, 'invalidValue'),
		)
	})

	test('groups: queried without their members, members added and removed as it sends them', async () => {
		const { scim } = await client('Entra ID')
		const user = (await scim('POST', '/Users', entraUser(address(), crypto.randomUUID()))).json
		// Its create-group request, with Microsoft's own schema beside the core one: a role's name is that role.
		const created = await scim('POST', '/Groups', {
			schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
			externalId: crypto.randomUUID(),
			displayName: 'Hiring manager',
			meta: { resourceType: 'Group' },
		})
		expect(created).toMatchObject({ status: 201, json: { id: 'hiring_manager' } })
		const found = await scim('GET', `/Groups?excludedAttributes=members&filter=${entraQuery('displayName eq "Hiring manager"')}`)
		expect(found.json).toMatchObject({ totalResults: 1, Resources: [{ id: 'hiring_manager', displayName: 'Hiring manager' }] })
		expect(found.json.Resources[0].members).toBeUndefined()

		const add = await scim('PATCH', '/Groups/hiring_manager', {
			schemas: [PATCH],
			Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: user.id }] }],
		})
		expect(add.status).toBe(200)
		// Is the user a member? Entra asks with `id` and `members`; the value filter alone says the same.
		for (const filter of [`id eq "hiring_manager" and members eq "${user.id}"`, `members[value eq "${user.id}"]`]) {
			const member = await scim('GET', `/Groups?excludedAttributes=members&filter=${entraQuery(filter)}`)
			expect(member.json.Resources.map((g: { id: string }) => g.id)).toEqual(['hiring_manager'])
		}
		// Removed by a value filter in the path, spaced as a client may.
		const removed = await scim('PATCH', '/Groups/hiring_manager', {
			schemas: [PATCH],
			Operations: [{ op: 'Remove', path: `members[ value  eq  "${user.id}" ]` }],
		})
		expect(removed.status).toBe(200)
		expect((await scim('GET', `/Users/${user.id}`)).json.groups).toEqual([expect.objectContaining({ value: 'recruiter' })])
		const badFilter = await scim('PATCH', '/Groups/hiring_manager', { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members[display eq "x"]' }] })
		expect(badFilter).toMatchObject(scimError(400, 'invalidPath'))
	})
})

describe('Okta', () => {
	/** Okta's create-user request (its SCIM 2.0 protocol reference), with the password and locale it sends. */
	const oktaUser = (email: string, extra: Record<string, unknown> = {}) => ({
		schemas: [USER],
		userName: email,
		name: { givenName: 'Test', familyName: 'User' },
		emails: [{ primary: true, value: email, type: 'work' }],
		displayName: 'Test User',
		locale: 'en-US',
		externalId: '00ujl29u0le5T6Aj10h7',
		groups: [],
		password: '1mz050nq',
		active: true,
		...extra,
	})

	test('the test suite’s look-ups: paging with count=1, a random userName (none), the created one in another case', async () => {
		const { scim } = await client('Okta')
		const email = address()
		const page = await scim('GET', '/Users?count=1&startIndex=1')
		expect(page.json).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, itemsPerPage: 1 })
		const random = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${crypto.randomUUID()}@example.test"`)}&startIndex=1&count=100`)
		expect(random.json).toMatchObject({ totalResults: 0, Resources: [] })
		const created = await scim('POST', '/Users', oktaUser(email))
		expect(created).toMatchObject({ status: 201, json: { userName: email, displayName: 'Test User', active: true } })
		const again = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}&startIndex=1&count=100`)
		expect(again.json).toMatchObject({ totalResults: 1, Resources: [{ id: created.json.id }] })
		expect(await scim('GET', `/Users/${crypto.randomUUID()}`)).toMatchObject(scimError(404))
	})

	test('PUT of the whole user updates it and deactivates it; PATCH toggles active; the primary email is the userName', async () => {
		const { scim } = await client('Okta')
		const email = address()
		const id = (await scim('POST', '/Users', oktaUser(email))).json.id
		// Okta's PUT: the whole user, with its id, a blank middle name, the password again.
		const renamed = await scim(
			'PUT',
			`/Users/${id}`,
			oktaUser(email, { id, name: { givenName: 'Another', middleName: '', familyName: 'User' }, displayName: 'Another User' }),
		)
		expect(renamed).toMatchObject({ status: 200, json: { displayName: 'Another User', active: true } })
		const off = await scim('PUT', `/Users/${id}`, oktaUser(email, { id, displayName: 'Another User', active: false }))
		expect(off.json.active).toBe(false)
		const on = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] })
		expect(on.json.active).toBe(true)
		const offAgain = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] })
		expect(offAgain.json.active).toBe(false)
		const password = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { password: 'x9y8z7' } }] })
		expect(password.status).toBe(200)
		// A new primary work address among others is the new userName.
		const moved = address()
		const emails = [
			{ value: 'home@example.net', type: 'home', primary: false },
			{ value: moved, type: 'work', primary: true },
		]
		const put = await scim('PUT', `/Users/${id}`, oktaUser(moved, { id, emails, active: true }))
		expect(put.json).toMatchObject({ userName: moved, emails: [{ value: moved, type: 'work', primary: true }], active: true })
	})

	test('groups: listed in pages, looked up by name, members added and removed', async () => {
		const { scim } = await client('Okta')
		const id = (await scim('POST', '/Users', oktaUser(address()))).json.id
		expect((await scim('GET', '/Groups?startIndex=1&count=100')).json).toMatchObject({ totalResults: 5, itemsPerPage: 5 })
		expect((await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Viewer"')}&startIndex=1&count=100`)).json.Resources[0].id).toBe('viewer')
		const add = await scim('PATCH', '/Groups/viewer', {
			schemas: [PATCH],
			Operations: [{ op: 'add', path: 'members', value: [{ value: id, display: 'Test User' }] }],
		})
		expect(add.json.members).toEqual([expect.objectContaining({ value: id })])
		// Okta's push of the group's own name (with its id) is no rename.
		const same = await scim('PATCH', '/Groups/viewer', { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: 'viewer', displayName: 'Viewer' } }] })
		expect(same.status).toBe(200)
		const remove = await scim('PATCH', '/Groups/viewer', { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] })
		expect(remove.json.members).toEqual([])
	})
})

describe('OneLogin', () => {
	test('create with the enterprise extension, update and deprovision by PUT, delete', async () => {
		const { scim } = await client('OneLogin')
		const email = address()
		const body = {
			schemas: [USER, ENTERPRISE],
			userName: email,
			name: { givenName: 'Lee', familyName: 'Park' },
			emails: [{ value: email, type: 'work', primary: true }],
			title: 'Recruiter',
			[ENTERPRISE]: { organization: 'Acme', department: 'Talent' },
		}
		const created = await scim('POST', '/Users', body)
		expect(created).toMatchObject({ status: 201, json: { userName: email, displayName: 'Lee Park', active: true } })
		const id = created.json.id
		expect((await scim('PUT', `/Users/${id}`, { ...body, name: { givenName: 'Lee', familyName: 'Kim' }, active: true })).json.displayName).toBe('Lee Kim')
		expect((await scim('PUT', `/Users/${id}`, { ...body, active: false })).json.active).toBe(false)
		expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204)
	})
})

describe('filters the clients send beyond eq on one attribute', () => {
	test('a value filter alone: emails[type eq "work" and value eq "…"], any spacing; one naming another address or type finds nobody', async () => {
		const { scim } = await client('Entra ID')
		const email = address()
		const id = (await scim('POST', '/Users', { schemas: [USER], userName: email, active: true })).json.id
		const ids = async (filter: string) => {
			const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`)
			expect(res.status).toBe(200)
			return res.json.Resources.map((r: { id: string }) => r.id)
		}
		expect(await ids(`emails[type eq "work" and value eq "${email.toUpperCase()}"]`)).toEqual([id])
		expect(await ids(`emails[value eq "${email}"]`)).toEqual([id])
		expect(await ids(`emails[ type eq "work" and value eq "${email}" ] and active eq true`)).toEqual([id])
		expect(await ids(`active eq true and emails[value eq "${email}"]`)).toEqual([id])
		expect(await ids(`${USER}:emails[primary eq true and value eq "${email}"]`)).toEqual([id])
		expect(await ids(`emails[type eq "home" and value eq "${email}"]`)).toEqual([])
		expect(await ids(`emails[value eq "someone-else@example.test"]`)).toEqual([])
		// As POST /Users/.search says it.
		const search = await scim('POST', '/Users/.search', {
			schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
			filter: `emails[type eq "work" and value eq "${email}"]`,
		})
		expect(search.json.Resources.map((r: { id: string }) => r.id)).toEqual([id])
		// What it cannot mean is still refused: another attribute, another operator, a value filter compared with nothing.
		for (const refused of ['phoneNumbers[type eq "work"]', 'emails[value co "x"]', 'emails[type eq "work"].value', 'emails[type eq "work"] or userName eq "x"'])
			expect(await scim('GET', `/Users?filter=${encodeURIComponent(refused)}`)).toMatchObject(scimError(400, 'invalidFilter'))
	})

	test('true and false quoted, in any case, are the booleans (active, an address’s primary); other text compared with a boolean is refused', async () => {
		const { scim } = await client('OneLogin')
		const email = address()
		const id = (await scim('POST', '/Users', { schemas: [USER], userName: email, active: true })).json.id
		const ids = async (filter: string) => (await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`)).json.Resources.map((r: { id: string }) => r.id)
		expect(await ids(`active eq "true" and userName eq "${email}"`)).toEqual([id])
		expect(await ids(`active eq "False" and userName eq "${email}"`)).toEqual([])
		expect(await ids(`emails[primary eq "True"].value eq "${email}"`)).toEqual([id])
		expect(await scim('GET', `/Users?filter=${encodeURIComponent('active eq "yes"')}`)).toMatchObject(scimError(400, 'invalidFilter'))
		// The PATCH path's value filter reads them alike: the primary address is the work one.
		const moved = address()
		const patched = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [{ op: 'replace', path: 'emails[primary eq "True"].value', value: moved }],
		})
		expect(patched).toMatchObject({ status: 200, json: { userName: moved } })
		const refused = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [{ op: 'replace', path: 'emails[primary eq "maybe"].value', value: email }],
		})
		expect(refused).toMatchObject(scimError(400, 'invalidPath'))
	})

	test('paging out of range is brought into range: count=0 answers the total alone, startIndex below 1 is 1, a count above the page size is the page size', async () => {
		const { scim } = await client('Okta')
		for (let i = 0; i < 2; i++) await scim('POST', '/Users', { schemas: [USER], userName: address() })
		expect((await scim('GET', '/Users?count=0')).json).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] })
		expect((await scim('GET', '/Users?startIndex=0&count=1')).json).toMatchObject({ startIndex: 1, itemsPerPage: 1 })
		expect((await scim('GET', '/Users?startIndex=-7&count=2')).json).toMatchObject({ startIndex: 1, itemsPerPage: 2 })
		const config = (await scim('GET', '/ServiceProviderConfig')).json
		const big = await scim('GET', `/Users?count=${config.filter.maxResults * 10}`)
		expect(big).toMatchObject({ status: 200, json: { totalResults: 3, itemsPerPage: 3 } })
	})
})

describe('bodies and media types', () => {
	test('application/scim+json and application/json, with a charset, are read; answers are application/scim+json', async () => {
		const { scim } = await client('Entra ID')
		for (const type of ['application/scim+json', 'application/scim+json; charset=utf-8', 'application/json', 'application/json;charset=UTF-8']) {
			const res = await scim('POST', '/Users', { schemas: [USER], userName: address() }, { 'content-type': type })
			expect([type, res.status, res.type]).toEqual([type, 201, 'application/scim+json'])
		}
		const latin = await scim('POST', '/Users', { schemas: [USER], userName: address() }, { 'content-type': 'application/scim+json; charset=iso-8859-1' })
		expect(latin).toMatchObject(scimError(415))
		expect(await scim('POST', '/Users', { schemas: [USER], userName: address() }, { 'content-encoding': 'gzip' })).toMatchObject(scimError(415))
		expect(await scim('POST', '/Users', { schemas: [USER], userName: address(), pad: 'x'.repeat(300_000) })).toMatchObject(scimError(413))
		expect(await scim('POST', '/Users', '{"schemas": [', {})).toMatchObject(scimError(400, 'invalidSyntax'))
	})

	test('a client asking only for application/json gets it, with the same body: resources, lists, errors, an unknown address', async () => {
		const { scim } = await client('Okta')
		const json = { accept: 'application/json' }
		const created = await scim('POST', '/Users', { schemas: [USER], userName: address() }, json)
		expect([created.status, created.type]).toEqual([201, 'application/json'])
		const id = created.json.id
		const asScim = await scim('GET', `/Users/${id}`)
		for (const [path, accept] of [
			[`/Users/${id}`, 'application/json'],
			[`/Users/${id}`, 'application/json; charset=utf-8'],
			[`/Users/${id}`, 'application/json, application/scim+json;q=0.5'],
			[`/Users/${id}`, 'application/json, */*;q=0.1'],
		] as const) {
			const res = await scim('GET', path, undefined, { accept })
			expect([accept, res.status, res.type, res.json]).toEqual([accept, 200, 'application/json', asScim.json])
		}
		const patched = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Jay' }] }, json)
		expect([patched.type, patched.json.displayName]).toEqual(['application/json', 'Jay'])
		expect((await scim('GET', '/Users', undefined, json)).type).toBe('application/json')
		expect((await scim('GET', '/ServiceProviderConfig', undefined, json)).type).toBe('application/json')
		for (const [method, path] of [
			['GET', `/Users/${crypto.randomUUID()}`],
			['GET', '/Nope'],
			['PATCH', `/Users/${id}`],
		] as const) {
			const res = await scim(
				method,
				path,
				method === 'PATCH' ? { schemas: [PATCH], Operations: [{ op: 'replace', path: 'activ', value: 1 }] } : undefined,
				json,
			)
			expect([path, res.type, res.json.schemas]).toEqual([path, 'application/json', [ERROR]])
		}
		const stranger = await fetch(`${url}/scim/v2/Users`, { headers: { authorization: 'Bearer bl_scim_nope', accept: 'application/json' } })
		expect([stranger.status, stranger.headers.get('content-type')]).toEqual([401, 'application/json'])
		// Both named, any type, or none said: application/scim+json, the type SCIM defines.
		for (const accept of [
			'application/scim+json',
			'application/scim+json, application/json',
			'application/json;q=0.5, application/scim+json',
			'*/*',
			'application/*',
			'',
		])
			expect([accept, (await scim('GET', `/Users/${id}`, undefined, { accept })).type]).toEqual([accept, 'application/scim+json'])
	})

	test('attributes no schema here has are ignored, on a create as on a replace', async () => {
		const { scim } = await client('Okta')
		const email = address()
		const created = await scim('POST', '/Users', {
			schemas: [USER, 'urn:okta:custom:1.0:User'],
			userName: email,
			nickName: 'D',
			costCenter: '42',
			'urn:okta:custom:1.0:User': { badge: '7' },
		})
		expect(created).toMatchObject({ status: 201, json: { userName: email } })
		expect(created.json.costCenter).toBeUndefined()
		expect((await scim('PUT', `/Users/${created.json.id}`, { schemas: [USER], userName: email, favouriteColour: 'teal', active: true })).status).toBe(200)
	})

	test('schemas: a body must name what the address takes, when it says; one naming another resource, or not a list, is 400 invalidSyntax and changes nothing', async () => {
		const { scim } = await client('Okta')
		const email = address()
		const id = (await scim('POST', '/Users', { schemas: [USER], userName: email, active: true })).json.id
		const wrong: [string, string, unknown][] = [
			['POST', '/Users', { schemas: [GROUP], userName: address() }],
			['POST', '/Users', { schemas: USER, userName: address() }],
			['POST', '/Users', { schemas: [], userName: address() }],
			['PUT', `/Users/${id}`, { schemas: [PATCH], userName: email, active: false }],
			['PATCH', `/Users/${id}`, { schemas: [USER], Operations: [{ op: 'replace', path: 'active', value: false }] }],
			['PATCH', `/Users/${id}`, { schemas: [PATCH, 7], Operations: [{ op: 'replace', path: 'active', value: false }] }],
			['POST', '/Groups', { schemas: [USER], displayName: 'Viewer', members: [{ value: id }] }],
			['PUT', '/Groups/viewer', { schemas: [USER], displayName: 'Viewer', members: [{ value: id }] }],
			['POST', '/Users/.search', { schemas: [USER], filter: 'active eq true' }],
		]
		for (const [method, path, body] of wrong) expect([method, path, await scim(method, path, body)]).toEqual([method, path, scimError(400, 'invalidSyntax')])
		expect((await scim('GET', `/Users/${id}`)).json).toMatchObject({ active: true, groups: [{ value: 'recruiter' }] })
		expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`)).json.totalResults).toBe(1)
		// Named in another case, beside an extension, or left out: read.
		expect((await scim('PATCH', `/Users/${id}`, { schemas: [PATCH.toUpperCase()], Operations: [{ op: 'replace', path: 'active', value: true }] })).status).toBe(
			200,
		)
		expect((await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'No Schemas' }] })).json.displayName).toBe(
			'No Schemas',
		)
	})
})

describe('discovery', () => {
	test('ServiceProviderConfig says what is supported (filter with its page size, PATCH) and what is not (sort, ETags, bulk, passwords)', async () => {
		const { scim } = await client('Entra ID')
		const config = await scim('GET', '/ServiceProviderConfig')
		expect(config).toMatchObject({
			status: 200,
			type: 'application/scim+json',
			json: {
				patch: { supported: true },
				filter: { supported: true, maxResults: expect.any(Number) },
				sort: { supported: false },
				etag: { supported: false },
				bulk: { supported: false },
				changePassword: { supported: false },
				authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken', name: expect.any(String), description: expect.any(String) })],
			},
		})
		// Every address it names answers (a documentationUri once named a page that does not exist).
		const named = [
			config.json.documentationUri,
			config.json.meta.location,
			...config.json.authenticationSchemes.map((a: { documentationUri?: string }) => a.documentationUri),
		]
		for (const uri of named.filter((u): u is string => typeof u === 'string' && u.startsWith(url)))
			expect([uri, (await scim('GET', uri.slice(`${url}/scim/v2`.length))).status]).toEqual([uri, 200])
		expect(named.filter((u) => typeof u === 'string' && !u.startsWith(`${url}/scim/v2/`))).toEqual([])
		const types = await scim('GET', '/ResourceTypes')
		expect(types.json.Resources.map((r: { endpoint: string }) => r.endpoint)).toEqual(['/Users', '/Groups'])
		expect((await scim('GET', '/Schemas')).json.Resources.map((s: { id: string }) => s.id)).toEqual([USER, GROUP])
		// What is not here answers SCIM's error, never a page.
		for (const path of [`/Schemas/${ENTERPRISE}`, '/ResourceTypes/Device', '/Bulk', '/Me', '/Users/x/y'])
			expect([path, await scim('GET', path)]).toEqual([path, scimError(404)])
	})
})
