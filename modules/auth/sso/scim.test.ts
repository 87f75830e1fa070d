/**
 * SCIM 2.0 provisioning (issue 26) over HTTP, as Okta and Microsoft Entra ID speak it: the discovery
 * documents, Users (create, get, filter, paging, replace, PATCH, delete), Groups as the roles, SCIM
 * error bodies, the token reaching SCIM only, and deactivation ending every way in at once while
 * the person's history stays.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { callOn, newPerson, newPersonWithToken, newWorkspace, testDeps, unique } from '../../../tests/helpers.ts'
import { MCP_HEADERS } from '../../../tests/mcp/rpc.ts'
import { portalApp, signedIn } from '../../../tests/portal.ts'
import { activity } from '../../activity/table.ts'
import { personActor } from '../index.ts'
import { memberships, ssoDomains, users } from '../table.ts'
import { createScimToken } from './scim-tokens.ts'
import { sharedAccountInDomainOf } from '../../../tests/sso/domains.ts'

setDefaultTimeout(120_000)

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

/** A workspace with an owner and a SCIM token made by them. */
async function provisioned() {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const { token, tokenId } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
	const scim = (method: string, path: string, body?: unknown, key = token) =>
		callOn(app, method, `/scim/v2${path}`, {
			key,
			raw: body === undefined ? undefined : JSON.stringify(body),
			headers: { 'content-type': 'application/scim+json' },
		})
	return { deps, ws, owner, token, tokenId, scim }
}

/** A workspace with SCIM whose own verified domain holds the address of an admin of another workspace (a shared account). */
async function sharedAccountInOwnDomain() {
	const { deps, ws, scim } = await provisioned()
	return { deps, ws, scim, ...(await sharedAccountInDomainOf(deps, ws)) }
}

const newUser = (email: string, extra: Record<string, unknown> = {}) => ({
	schemas: [USER],
	userName: email,
	name: { givenName: 'Dana', familyName: 'Reyes' },
	emails: [{ value: email, type: 'work', primary: true }],
	active: true,
	...extra,
})

const email = (domain = 'example.test') => `${unique('scim')}@${domain}`

describe('discovery', () => {
	test('ServiceProviderConfig, ResourceTypes and Schemas answer application/scim+json', async () => {
		const { scim } = await provisioned()
		const config = await scim('GET', '/ServiceProviderConfig')
		expect(config.status).toBe(200)
		expect(config.headers.get('content-type')).toContain('application/scim+json')
		expect(config.headers.get('cache-control')).toContain('no-store')
		expect(config.json.patch.supported).toBe(true)
		expect(config.json.filter.supported).toBe(true)
		expect(config.json.authenticationSchemes[0].type).toBe('oauthbearertoken')
		const types = await scim('GET', '/ResourceTypes')
		expect(types.json.Resources.map((r: any) => r.endpoint)).toEqual(['/Users', '/Groups'])
		const schemas = await scim('GET', '/Schemas')
		expect(schemas.json.Resources.map((r: any) => r.id)).toEqual([USER, 'urn:ietf:params:scim:schemas:core:2.0:Group'])
		expect((await scim('GET', `/Schemas/${USER}`)).json.attributes.map((a: any) => a.name)).toContain('userName')
	})
})

describe('the SCIM token', () => {
	test('is required, reaches SCIM only, and stops at once when revoked; other credentials never reach SCIM', async () => {
		const { scim, token, ws } = await provisioned()
		const none = await callOn(app, 'GET', '/scim/v2/Users')
		expect(none.status).toBe(401)
		expect(none.json).toMatchObject({ schemas: [ERROR], status: '401' })
		expect(none.headers.get('www-authenticate')).toContain('Bearer')
		// A personal token of an owner opens nothing on SCIM.
		const person = await newPersonWithToken(ws, 'owner')
		expect((await scim('GET', '/Users', undefined, person.token)).status).toBe(401)
		// The SCIM token opens neither the MCP endpoint nor the REST API.
		expect((await callOn(app, 'POST', '/api/mcp', { key: token, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: MCP_HEADERS })).status).toBe(
			401,
		)
		expect((await callOn(app, 'GET', '/api/v1/jobs', { key: token })).status).toBe(401)
		expect((await scim('GET', '/Users')).status).toBe(200)
	})

	test('owners create it at /settings/sso, shown once (a replayed cookie shows nothing), and revoke it', async () => {
		const { ws } = await provisioned()
		const owner = await newPerson(ws, 'owner')
		const page = await signedIn(owner)
		const posted = await page.post('/settings/sso/scim-tokens', { name: 'Entra ID' })
		expect(posted.headers.get('location')).toBe('/settings/sso#scim')
		const sealed = page.cookies.get('bl_new_scim_token')!
		const created = await page.get('/settings/sso')
		const token = /<code id="new-scim-token">(bl_scim_[0-9A-Za-z]+)<\/code>/.exec(created.text)?.[1]
		expect(token).toBeDefined()
		expect(created.text).toContain('/scim/v2')
		// Reloading, or replaying the sealed cookie, does not show it again.
		expect((await page.get('/settings/sso')).text).not.toContain(token!)
		page.cookies.set('bl_new_scim_token', sealed)
		expect((await page.get('/settings/sso')).text).not.toContain(token!)
		expect((await callOn(app, 'GET', '/scim/v2/Users', { key: token })).status).toBe(200)
		const id = /action="\/settings\/sso\/scim-tokens\/(scim_[a-z2-7]+)\/revoke"/.exec((await page.get('/settings/sso')).text)?.[1]
		const revoked = await page.submit(`/settings/sso/scim-tokens/${id}/revoke`)
		expect(revoked.text).toContain('The SCIM token was revoked')
		const refused = await callOn(app, 'GET', '/scim/v2/Users', { key: token })
		expect(refused.status).toBe(401)
		expect(refused.json.schemas).toEqual([ERROR])
	})

	test('its name is one line of visible text: line breaks and control characters refused, direction controls dropped, none typed is "Identity provider"', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'owner')
		const owner = { ...(await personActor(deps, ws.slug, person.email)), credential: { kind: 'session' as const, id: 'test', name: 'portal session' } }
		for (const name of ['Okta\r\n[admin] evil', 'a\u001b[31mred'])
			expect(await createScimToken(deps, owner, { name }).catch((e) => e.fields?.[0]?.field)).toBe('name')
		const named = async (name: string) => {
			const { tokenId } = await createScimToken(deps, owner, { name })
			return (await deps.database.rows<{ name: string }>(sql`select name from scim_tokens where id = ${tokenId}`))[0]!.name
		}
		expect(await named('Ok\u202eta')).toBe('Okta')
		expect(await named('   ')).toBe('Identity provider')
	})

	test('only owners see /settings/sso', async () => {
		const { ws } = await provisioned()
		const admin = await newPerson(ws, 'admin')
		const page = await signedIn(admin)
		expect((await page.get('/settings/sso')).status).toBe(403)
		expect((await page.get('/portal')).text).not.toContain('href="/settings/sso"')
	})
})

describe('Users', () => {
	test('create, get, find by userName, page through, replace and delete', async () => {
		const { scim } = await provisioned()
		const address = email()
		const created = await scim('POST', '/Users', newUser(address, { externalId: '00u1okta' }))
		expect(created.status).toBe(201)
		expect(created.json).toMatchObject({ schemas: [USER], userName: address, displayName: 'Dana Reyes', active: true, externalId: '00u1okta' })
		expect(created.json.groups).toEqual([expect.objectContaining({ value: 'recruiter', display: 'Recruiter' })])
		expect(created.headers.get('location')).toBe(created.json.meta.location)
		const id = created.json.id

		const again = await scim('POST', '/Users', newUser(address.toUpperCase()))
		expect(again.status).toBe(409)
		expect(again.json).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' })

		expect((await scim('GET', `/Users/${id}`)).json.userName).toBe(address)
		const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${address.toUpperCase()}"`)}`)
		expect(found.json).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 })
		expect(found.json.Resources[0].id).toBe(id)
		const byExternal = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "00u1okta"')}`)
		expect(byExternal.json.Resources.map((r: any) => r.id)).toEqual([id])
		const nobody = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@example.test"')}`)
		expect(nobody.json).toMatchObject({ totalResults: 0, Resources: [] })

		// Paging: the owner and this person; one a page.
		const first = await scim('GET', '/Users?startIndex=1&count=1')
		const second = await scim('GET', '/Users?startIndex=2&count=1')
		expect(first.json).toMatchObject({ totalResults: 2, itemsPerPage: 1, startIndex: 1 })
		expect(second.json).toMatchObject({ totalResults: 2, itemsPerPage: 1, startIndex: 2 })
		expect(first.json.Resources[0].id).not.toBe(second.json.Resources[0].id)

		const replaced = await scim('PUT', `/Users/${id}`, newUser(address, { name: { givenName: 'Dana', familyName: 'Reyes-Ortiz' } }))
		expect(replaced.status).toBe(200)
		expect(replaced.json.displayName).toBe('Dana Reyes-Ortiz')

		expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204)
		const gone = await scim('GET', `/Users/${id}`)
		expect(gone.status).toBe(404)
		expect(gone.json).toMatchObject({ schemas: [ERROR], status: '404' })
	})

	test('a PUT that deactivates and renames at once (as Okta and Entra send them) applies both: the new userName and name, and the person is off', async () => {
		const { deps, ws, scim } = await provisioned()
		const person = await newPersonWithToken(ws, 'recruiter')
		const page = await signedIn(person)
		const before = (await scim('GET', `/Users/${person.userId}`)).json
		const renamedTo = email()
		const put = await scim('PUT', `/Users/${person.userId}`, newUser(renamedTo, { name: { givenName: 'Dana', familyName: 'Reyes-Ortiz' }, active: false }))
		expect([put.status, put.json.detail]).toEqual([200, undefined])
		expect(put.json).toMatchObject({ userName: renamedTo, displayName: 'Dana Reyes-Ortiz', active: false })
		expect(before.userName).not.toBe(renamedTo)
		expect((await page.get('/portal')).status).toBe(303)
		const lines = await deps.db
			.select({ action: activity.action })
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, person.userId)))
		expect(lines.map((l) => l.action)).toEqual(expect.arrayContaining(['person.details_changed', 'person.deactivated']))
	})

	test('a deactivation whose new userName another account has is applied, the address left as it was; without the deactivation it is refused', async () => {
		const { ws, scim } = await provisioned()
		const [leaver, other] = [await newPersonWithToken(ws, 'recruiter'), await newPersonWithToken(ws, 'recruiter')]
		const page = await signedIn(leaver)
		const renaming = (active?: boolean) => newUser(other.email, { name: { givenName: 'Lee', familyName: 'Ver' }, ...(active === undefined ? {} : { active }) })
		expect((await scim('PUT', `/Users/${leaver.userId}`, renaming())).status).toBe(409)
		expect((await page.get('/portal')).status).toBe(200)
		const put = await scim('PUT', `/Users/${leaver.userId}`, renaming(false))
		expect([put.status, put.json.active, put.json.userName]).toEqual([200, false, leaver.email])
		expect((await page.get('/portal')).status).toBe(303)
	})

	test('PATCH active=false (Entra: "Replace", "False") ends the person’s sessions and personal tokens at once; history stays; active=true lets them back', async () => {
		const { deps, ws, scim } = await provisioned()
		const person = await newPersonWithToken(ws, 'recruiter')
		const page = await signedIn(person)
		expect((await page.get('/portal')).status).toBe(200)
		const id = person.userId

		const off = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })
		expect(off.status).toBe(200)
		expect(off.json.active).toBe(false)
		// The next request of each credential is refused.
		const portal = await page.get('/portal')
		expect(portal.status).toBe(303)
		expect(portal.headers.get('location')).toStartWith('/sign-in')
		const mcp = await callOn(app, 'POST', '/api/mcp', { key: person.token, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: MCP_HEADERS })
		expect(mcp.status).toBe(401)
		// The person can no longer sign in to this workspace with their password either.
		expect((await signedIn(person).catch((e: Error) => e)) instanceof Error).toBe(true)
		// SCIM still answers for them, inactive; their history stays under their name.
		expect((await scim('GET', `/Users/${id}`)).json.active).toBe(false)
		const lines = await deps.db
			.select()
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, id)))
		expect(lines.map((l) => l.action)).toContain('person.deactivated')
		expect(lines.find((l) => l.action === 'person.deactivated')!.credentialKind).toBe('scim_token')

		// Okta's form: no path, a value object.
		const on = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] })
		expect(on.json.active).toBe(true)
		expect((await signedIn(person)).cookies.size).toBeGreaterThan(0)
	})

	test('a PUT that leaves out active keeps the person as they are (a deactivated one stays out); only an explicit active: true lets them back', async () => {
		const { deps, ws, scim } = await provisioned()
		const address = email()
		const created = await scim('POST', '/Users', newUser(address))
		const id = created.json.id
		const { active: _left, ...withoutActive } = newUser(address, { name: { givenName: 'Dana', familyName: 'Reyes-Ortiz' } })
		expect((await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).json.active).toBe(false)

		const kept = await scim('PUT', `/Users/${id}`, withoutActive)
		expect(kept.status).toBe(200)
		expect(kept.json).toMatchObject({ displayName: 'Dana Reyes-Ortiz', active: false })
		const [membership] = await deps.db
			.select({ removedAt: memberships.removedAt })
			.from(memberships)
			.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, id)))
		expect(membership!.removedAt).not.toBeNull()
		// `active: null` is the attribute unassigned (RFC 7643 §2.5): the same as leaving it out.
		expect((await scim('PUT', `/Users/${id}`, { ...withoutActive, active: null })).json.active).toBe(false)

		const back = await scim('PUT', `/Users/${id}`, { ...withoutActive, active: true })
		expect(back.json.active).toBe(true)
		// An active person stays active when a PUT leaves it out, too.
		expect((await scim('PUT', `/Users/${id}`, withoutActive)).json.active).toBe(true)
		const lines = await deps.db.select({ action: activity.action }).from(activity).where(eq(activity.targetId, id))
		expect(lines.filter((l) => l.action === 'person.reactivated')).toHaveLength(1)
	})

	test('delete ends access at once and keeps the account and its history', async () => {
		const { deps, ws, scim } = await provisioned()
		const person = await newPerson(ws, 'recruiter')
		const page = await signedIn(person)
		expect((await scim('DELETE', `/Users/${person.userId}`)).status).toBe(204)
		expect((await page.get('/portal')).status).toBe(303)
		const [membership] = await deps.db
			.select()
			.from(memberships)
			.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, person.userId)))
		expect(membership!.removedAt).not.toBeNull()
		const lines = await deps.db.select({ action: activity.action }).from(activity).where(eq(activity.targetId, person.userId))
		expect(lines.map((l) => l.action)).toEqual(expect.arrayContaining(['person.added', 'person.deactivated', 'person.deprovisioned']))
	})

	test('PATCH paths: the core schema’s URN names the same attribute; attributes Benchline does not keep, the enterprise extension’s and those of an extension it does not know are ignored; a malformed path or an unknown attribute of a known schema is refused, nothing applied', async () => {
		const { scim } = await provisioned()
		const created = await scim('POST', '/Users', newUser(email()))
		const id = created.json.id
		const patch = (...Operations: unknown[]) => scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations })

		// RFC 7644 §3.10: `urn:…:User:active` is `active`, in a path or a value object's key, in any case.
		const off = await patch({ op: 'replace', path: `${USER}:active`, value: false })
		expect(off.status).toBe(200)
		expect(off.json.active).toBe(false)
		const on = await patch({ op: 'replace', value: { [`${USER.toUpperCase()}:active`]: true } })
		expect(on.json.active).toBe(true)

		// What Entra and Okta map by default, beside what Benchline keeps.
		const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'
		const moved = email()
		const mapped = await patch(
			{ op: 'Replace', path: 'emails[type eq "work"].value', value: moved },
			{ op: 'Replace', path: `${USER}:name.familyName`, value: 'Okafor' },
			{ op: 'Add', path: 'title', value: 'Sourcer' },
			{ op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
			{ op: 'Add', path: 'addresses[type eq "work"].streetAddress', value: '1 Main St' },
			{ op: 'Add', path: 'name.middleName', value: 'J' },
			{ op: 'Add', path: `${enterprise}:manager`, value: 'boss' },
			{ op: 'Add', path: `${enterprise}:department`, value: 'Talent' },
			{ op: 'replace', value: { nickName: 'D', preferredLanguage: 'en-US', [enterprise]: { employeeNumber: '7' } } },
			// An extension Benchline does not know (a tenant's own): ignored, as POST and PUT ignore it.
			{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge', value: '1' },
			{ op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badges[type eq "door"].value', value: '7' },
			{ op: 'remove', path: 'urn:acme:scim:User:badge' },
			{ op: 'replace', value: { 'urn:ietf:params:scim:schemas:extension:acme:2.0:User': { badge: '1' }, 'urn:acme:scim:User:floor': 3 } },
			// What the resource carries but nobody sets, echoed in a path-less value.
			{ op: 'replace', value: { schemas: [USER], id, meta: { resourceType: 'User' }, active: true } },
		)
		expect(mapped.status).toBe(200)
		expect(mapped.json).toMatchObject({ userName: moved, displayName: 'Dana Okafor', active: true })

		// A path that is no attribute of a schema Benchline knows (the core schemas, the enterprise extension),
		// or no path at all: 400 invalidPath, and the request's other operations are not applied.
		for (const refused of [
			[{ op: 'replace', path: 'activ', value: false }],
			[{ op: 'replace', path: `${USER}:activ`, value: false }],
			[{ op: 'replace', path: `${USER}:`, value: false }],
			[{ op: 'replace', path: `${enterprise}:badge`, value: '1' }],
			[{ op: 'replace', path: `${enterprise}:manager.badge`, value: '1' }],
			[{ op: 'replace', value: { [enterprise]: { department: 'Talent', badge: '1' } } }],
			[{ op: 'add', path: 'urn:ietf:params:scim:schemas:core:2.0:Group:members', value: [{ value: id }] }],
			[{ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:Usr:active', value: false }],
			[{ op: 'replace', path: 'urn:acme', value: '1' }],
			[{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:', value: '1' }],
			[{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:bad name', value: '1' }],
			[{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badges[type eq "door"', value: '1' }],
			[
				{ op: 'replace', path: 'displayName', value: 'Someone Else' },
				{ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge', value: '1' },
				{ op: 'replace', value: { 'urn:acme:scim:User:floor': 3, [`${enterprise}:badge`]: '1' } },
			],
			[
				{ op: 'replace', path: 'displayName', value: 'Someone Else' },
				{ op: 'replace', value: { active: false, activ: false } },
			],
		]) {
			const res = await patch(...refused)
			expect([refused, res.status, res.json]).toEqual([refused, 400, expect.objectContaining({ schemas: [ERROR], status: '400', scimType: 'invalidPath' })])
		}
		// A person's groups are their role, set through /Groups.
		expect((await patch({ op: 'add', path: 'groups', value: [{ value: 'owner' }] })).json).toMatchObject({ status: '400', scimType: 'mutability' })
		expect((await scim('GET', `/Users/${id}`)).json).toMatchObject({ displayName: 'Dana Okafor', active: true, groups: [{ value: 'recruiter' }] })
	})

	test('an account also in another workspace is theirs there too: its name and userName are not changed here; re-sending them is fine', async () => {
		const { deps, scim, own, shared, address } = await sharedAccountInOwnDomain()
		const attached = await scim('POST', '/Users', newUser(address))
		expect(attached.status).toBe(201)
		const stored = attached.json.displayName
		const nameNow = async () => (await deps.db.select({ name: users.name }).from(users).where(eq(users.id, shared.userId)))[0]!.name

		for (const Operations of [
			[{ op: 'replace', path: 'displayName', value: 'Renamed By A' }],
			[{ op: 'replace', path: 'name.givenName', value: 'Renamed' }],
			[{ op: 'replace', path: 'userName', value: `${unique('n')}@${own}` }],
		]) {
			const refused = await scim('PATCH', `/Users/${shared.userId}`, { schemas: [PATCH], Operations })
			expect(refused.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
			expect(refused.json.detail).toContain('another workspace')
		}
		// A PUT's name this workspace may not change is ignored (RFC 7644 §3.5.1): the answer shows the account's.
		const put = await scim('PUT', `/Users/${shared.userId}`, newUser(address, { displayName: 'Renamed By A' }))
		expect(put.status).toBe(200)
		expect(put.json).toMatchObject({ displayName: stored, name: { formatted: stored } })
		expect(await nameNow()).toBe(stored)

		// The provider re-sending what is stored (Entra's PUT after each sync) is answered as usual.
		const same = await scim('PUT', `/Users/${shared.userId}`, newUser(address, { displayName: stored, externalId: 'e1' }))
		expect(same.status).toBe(200)
		expect(same.json).toMatchObject({ userName: address, displayName: stored, externalId: 'e1' })
	})

	test('a PUT deactivating a person also in another workspace deactivates them: the name and address it may not change are ignored, the rest applied', async () => {
		const { deps, ws, scim, shared, address, own } = await sharedAccountInOwnDomain()
		expect((await scim('POST', '/Users', newUser(address))).status).toBe(201)
		const [account] = await deps.db.select({ name: users.name }).from(users).where(eq(users.id, shared.userId))

		// A leaver renamed and deactivated in one PUT (Okta, Entra): the address it may not change is ignored like the name, and the person is off.
		const renamed = await scim('PUT', `/Users/${shared.userId}`, newUser(`${unique('n')}@${own}`, { displayName: 'Renamed By A', active: false }))
		expect([renamed.status, renamed.json.detail]).toEqual([200, undefined])
		expect(renamed.json).toMatchObject({ userName: address, displayName: account!.name, active: false })
		expect(await scim('PUT', `/Users/${shared.userId}`, newUser(address, { active: true }))).toMatchObject({ status: 200 })

		// Left out, the name would default to the address's local part: a change too, ignored as well.
		const { name: _, ...nameless } = newUser(address, { active: false, externalId: 'okta-1' })
		const put = await scim('PUT', `/Users/${shared.userId}`, nameless)
		expect(put.status).toBe(200)
		expect(put.json).toMatchObject({ active: false, externalId: 'okta-1', displayName: account!.name })
		const [membership] = await deps.db
			.select({ removedAt: memberships.removedAt })
			.from(memberships)
			.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, shared.userId)))
		expect(membership!.removedAt).not.toBeNull()

		const back = await scim('PUT', `/Users/${shared.userId}`, newUser(address, { displayName: 'Renamed By A', active: true }))
		expect(back.json).toMatchObject({ active: true, displayName: account!.name })
		// Entra's PATCH of several operations, renaming and deactivating a leaver: deactivated, the rename ignored.
		const leaver = await scim('PATCH', `/Users/${shared.userId}`, {
			schemas: [PATCH],
			Operations: [
				{ op: 'Replace', path: 'userName', value: `${unique('n')}@${own}` },
				{ op: 'Replace', path: 'displayName', value: 'Renamed By A' },
				{ op: 'Replace', path: 'active', value: 'False' },
			],
		})
		expect([leaver.status, leaver.json.detail]).toEqual([200, undefined])
		expect(leaver.json).toMatchObject({ userName: address, displayName: account!.name, active: false })
		expect((await scim('PATCH', `/Users/${shared.userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] })).status).toBe(
			200,
		)
		// A PATCH that names the name still asks for a change it may not make: refused.
		const patched = await scim('PATCH', `/Users/${shared.userId}`, {
			schemas: [PATCH],
			Operations: [{ op: 'replace', path: 'displayName', value: 'Renamed By A' }],
		})
		expect(patched.json).toMatchObject({ status: '400', scimType: 'mutability' })
	})

	test('an account another workspace’s SCIM deactivated is still held there: its userName and name are not changed here until that workspace deletes it', async () => {
		const a = await provisioned()
		const b = await provisioned()
		const own = `${unique('d')}.example.test`
		await b.deps.db.insert(ssoDomains).values({ domain: own, workspaceId: b.ws.id })
		const shared = await newPerson(a.ws, 'recruiter')
		const address = `${unique('m')}@${own}`
		await b.deps.db.update(users).set({ email: address }).where(eq(users.id, shared.userId))
		expect((await b.scim('POST', '/Users', newUser(address))).status).toBe(201)
		const deactivate = { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }
		expect((await b.scim('PATCH', `/Users/${shared.userId}`, deactivate)).json).toMatchObject({ active: false })

		// B can activate them again at any time: A renaming the account would hand B another sign-in.
		for (const Operations of [
			[{ op: 'replace', path: 'userName', value: `${unique('n')}@example.test` }],
			[{ op: 'replace', path: 'displayName', value: 'Renamed By A' }],
		]) {
			const refused = await a.scim('PATCH', `/Users/${shared.userId}`, { schemas: [PATCH], Operations })
			expect(refused.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
		}
		expect((await b.scim('GET', `/Users/${shared.userId}`)).json).toMatchObject({ userName: address, active: false })

		// Deleted by B's provider, nothing brings them back there but an invitation: the account is A's to change.
		expect((await b.scim('DELETE', `/Users/${shared.userId}`)).status).toBe(204)
		const renamed = `${unique('n')}@example.test`
		const changed = await a.scim('PATCH', `/Users/${shared.userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: renamed }] })
		expect(changed.json).toMatchObject({ userName: renamed })
	})

	test('the last owner is never deactivated', async () => {
		const { owner, scim } = await provisioned()
		const refused = await scim('PATCH', `/Users/${owner.userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })
		// RFC 7644 Table 9: `mutability` is 400 (409 is `uniqueness`'s).
		expect(refused.status).toBe(400)
		expect(refused.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
		expect(refused.json.detail).toContain('last owner')
	})

	test('an address of another workspace’s single sign-on domain, or an existing account outside this one’s, is never attached', async () => {
		const { deps, ws, scim } = await provisioned()
		const other = await newWorkspace()
		const claimed = `${unique('d')}.example.test`
		await deps.db.insert(ssoDomains).values({ domain: claimed, workspaceId: other.id })
		const foreign = await scim('POST', '/Users', newUser(email(claimed)))
		expect(foreign.status).toBe(409)
		expect(foreign.json.detail).toContain('another workspace')

		const elsewhere = await newPerson(other, 'recruiter')
		const existing = await scim('POST', '/Users', newUser(elsewhere.email))
		expect(existing.status).toBe(409)
		expect(existing.json.detail).toContain('invite the person')

		// Its own SSO domain: the firm's existing account (in another workspace too) is attached.
		const own = `${unique('d')}.example.test`
		await deps.db.insert(ssoDomains).values({ domain: own, workspaceId: ws.id })
		const mine = await newPerson(other, 'viewer')
		const [row] = await deps.db
			.update(users)
			.set({ email: `${unique('m')}@${own}` })
			.where(eq(users.id, mine.userId))
			.returning({ email: users.email })
		const attached = await scim('POST', '/Users', newUser(row!.email))
		expect(attached.status).toBe(201)
		expect(attached.json.id).toBe(mine.userId)
	})

	test('a user the provider deleted can be provisioned again (the same account, back in the workspace)', async () => {
		const { scim } = await provisioned()
		const address = email()
		const first = await scim('POST', '/Users', newUser(address))
		expect(first.status).toBe(201)
		expect((await scim('DELETE', `/Users/${first.json.id}`)).status).toBe(204)
		const again = await scim('POST', '/Users', newUser(address))
		expect(again.status).toBe(201)
		expect(again.json).toMatchObject({ id: first.json.id, userName: address, active: true })
		expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${address}"`)}`)).json.totalResults).toBe(1)
	})

	test('only the work address is kept: a home or other address added by PATCH, POST or PUT never becomes the sign-in address', async () => {
		const { scim } = await provisioned()
		const address = email()
		const made = await scim(
			'POST',
			'/Users',
			newUser(address, {
				emails: [
					{ value: 'dana.home@home.example', type: 'home' },
					{ value: address, type: 'work' },
				],
			}),
		)
		expect(made.status).toBe(201)
		expect(made.json.userName).toBe(address)
		const id = made.json.id
		for (const operation of [
			{ op: 'add', path: 'emails', value: [{ value: 'dana.home@home.example', type: 'home' }] },
			{ op: 'add', value: { emails: [{ value: 'dana.other@home.example', type: 'other' }] } },
			{ op: 'replace', path: 'emails', value: [{ value: 'dana.x@home.example', type: 'home', primary: false }] },
		]) {
			const patched = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [operation] })
			expect(patched.status, JSON.stringify(operation)).toBe(200)
			expect(patched.json.userName).toBe(address)
		}
		// The primary entry is the work address whatever its type; a lone entry without a type is it too.
		const moved = email()
		const primary = await scim('PATCH', `/Users/${id}`, {
			schemas: [PATCH],
			Operations: [{ op: 'replace', path: 'emails', value: [{ value: moved, primary: 'True' }] }],
		})
		expect(primary.json.userName).toBe(moved)
		const lone = email()
		expect(
			(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails', value: [{ value: lone }] }] })).json.userName,
		).toBe(lone)
	})

	test('a name sent in parts comes back in those parts; a part changed alone keeps the others whole', async () => {
		const { scim } = await provisioned()
		const made = await scim('POST', '/Users', newUser(email(), { name: { givenName: 'Mary Ann', familyName: 'Smith' } }))
		expect(made.json).toMatchObject({ displayName: 'Mary Ann Smith', name: { givenName: 'Mary Ann', familyName: 'Smith' } })
		const id = made.json.id
		const patched = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.familyName', value: 'van der Berg' }] })
		expect(patched.json).toMatchObject({ displayName: 'Mary Ann van der Berg', name: { givenName: 'Mary Ann', familyName: 'van der Berg' } })
		const given = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { 'name.givenName': 'Anne Marie' } }] })
		expect(given.json.name).toMatchObject({ givenName: 'Anne Marie', familyName: 'van der Berg' })
		// A PUT's parts are the whole of them; one that sends a whole name only keeps no parts.
		const put = await scim('PUT', `/Users/${id}`, { ...newUser(made.json.userName), name: undefined, displayName: 'Jo Lee Park' })
		expect(put.json).toMatchObject({ displayName: 'Jo Lee Park', name: { givenName: 'Jo', familyName: 'Lee Park' } })
	})

	test('a value of the wrong type is refused (invalidValue), never taken as "not sent": nothing is cleared', async () => {
		const { scim } = await provisioned()
		const made = await scim('POST', '/Users', newUser(email(), { externalId: 'ext-1' }))
		const id = made.json.id
		for (const [method, path, body] of [
			['POST', '/Users', newUser(email(), { externalId: 12345 })],
			['POST', '/Users', newUser(email(), { displayName: 123 })],
			['POST', '/Users', { ...newUser(email()), userName: [email()] }],
			['PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'externalId', value: { a: 1 } }] }],
			['PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.givenName', value: 7 }] }],
			['PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { externalId: 9 } }] }],
		] as const) {
			const refused = await scim(method, path, body)
			expect(refused.status, `${method} ${JSON.stringify(body)}`).toBe(400)
			expect(refused.json).toMatchObject({ schemas: [ERROR], scimType: 'invalidValue' })
		}
		expect((await scim('GET', `/Users/${id}`)).json).toMatchObject({ externalId: 'ext-1', name: { givenName: 'Dana', familyName: 'Reyes' } })
		// null is "unassigned" (RFC 7643 §2.5): it clears.
		expect(
			(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'externalId', value: null }] })).json.externalId,
		).toBeUndefined()
	})

	test('errors are SCIM error bodies: a filter not supported, a body that is not JSON, a userName that is not an address', async () => {
		const { scim } = await provisioned()
		const filter = await scim('GET', `/Users?filter=${encodeURIComponent('name.familyName co "x"')}`)
		expect(filter.status).toBe(400)
		expect(filter.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' })
		const syntax = await callOn(app, 'POST', '/scim/v2/Users', {
			key: (await provisioned()).token,
			raw: '{not json',
			headers: { 'content-type': 'application/scim+json' },
		})
		expect(syntax.status).toBe(400)
		expect(syntax.json).toMatchObject({ schemas: [ERROR], scimType: 'invalidSyntax' })
		const value = await scim('POST', '/Users', newUser('not-an-address'))
		expect(value.status).toBe(400)
		expect(value.json).toMatchObject({ schemas: [ERROR], scimType: 'invalidValue' })
		expect(value.headers.get('content-type')).toContain('application/scim+json')
	})
})

describe('Groups are the roles', () => {
	test('list, filter by displayName, membership sets the role, removal gives the new-person role', async () => {
		const { ws, scim } = await provisioned()
		const groups = await scim('GET', '/Groups')
		expect(groups.json.Resources.map((g: any) => g.displayName)).toEqual(['Owner', 'Admin', 'Recruiter', 'Hiring manager', 'Viewer'])
		const person = await newPerson(ws, 'viewer')
		const admins = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Admin"')}&excludedAttributes=members`)
		expect(admins.json.Resources).toEqual([expect.objectContaining({ id: 'admin', displayName: 'Admin' })])
		expect(admins.json.Resources[0].members).toBeUndefined()
		// An attribute groups do not have is named as such, whatever the value's type.
		const unsupported = await scim('GET', `/Groups?filter=${encodeURIComponent('active eq true')}`)
		expect(unsupported.status).toBe(400)
		expect(unsupported.json).toMatchObject({ scimType: 'invalidFilter', detail: expect.stringContaining('active is not supported') })

		const added = await scim('PATCH', '/Groups/admin', { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: person.userId }] }] })
		expect(added.status).toBe(200)
		expect(added.json.members.map((m: any) => m.value)).toContain(person.userId)
		expect((await scim('GET', `/Users/${person.userId}`)).json.groups[0].value).toBe('admin')

		const removed = await scim('PATCH', '/Groups/admin', { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${person.userId}"]` }] })
		expect(removed.json.members ?? []).not.toContainEqual(expect.objectContaining({ value: person.userId }))
		expect((await scim('GET', `/Users/${person.userId}`)).json.groups[0].value).toBe('recruiter')

		// A group pushed under a role's name is that role; any other name is refused.
		const pushed = await scim('POST', '/Groups', {
			schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
			displayName: 'Hiring manager',
			members: [{ value: person.userId }],
		})
		expect(pushed.status).toBe(201)
		expect(pushed.json.id).toBe('hiring_manager')
		expect((await scim('POST', '/Groups', { displayName: 'Engineering' })).status).toBe(400)
		expect((await scim('GET', '/Groups/engineering')).status).toBe(404)
	})

	test('a group request is all or nothing: a member refused leaves every member as they were (RFC 7644 §3.5.2)', async () => {
		const { deps, ws, owner, scim } = await provisioned()
		const viewer = await newPerson(ws, 'viewer')
		const admin = await newPerson(ws, 'admin')
		const foreign = await newPerson(await newWorkspace(), 'viewer')
		const roles = async () =>
			Object.fromEntries(
				(await deps.db.select({ userId: memberships.userId, role: memberships.role }).from(memberships).where(eq(memberships.workspaceId, ws.id))).map((m) => [
					m.userId,
					m.role,
				]),
			)
		const before = await roles()
		const members = [{ value: viewer.userId }, { value: foreign.userId }]
		// The viewer is made an admin before the foreign id is refused.
		for (const request of [
			() => scim('PATCH', '/Groups/admin', { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: members }] }),
			() => scim('PUT', '/Groups/admin', { displayName: 'Admin', members }),
			() => scim('POST', '/Groups', { displayName: 'Admin', members }),
		]) {
			const refused = await request()
			expect(refused.status).toBe(400)
			expect(refused.json.detail).toContain(foreign.userId)
			expect(await roles()).toEqual(before)
		}
		// Removals too: a second owner is demoted, then the last one is refused; both stay owners.
		const second = await newPerson(ws, 'owner')
		const owners = await roles()
		const emptied = await scim('PUT', '/Groups/owner', { displayName: 'Owner', members: [] })
		expect(emptied.status).toBe(400)
		expect(emptied.json).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
		expect(emptied.json.detail).toContain('last owner')
		expect(await roles()).toEqual(owners)
		expect([owners[owner.userId], owners[second.userId], owners[admin.userId]]).toEqual(['owner', 'owner', 'admin'])
	})

	test('Group PATCH paths may carry the Group schema’s URN; an extension Benchline does not know is ignored; any other path is refused (invalidPath)', async () => {
		const { ws, scim } = await provisioned()
		const person = await newPerson(ws, 'viewer')
		const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
		const added = await scim('PATCH', '/Groups/admin', {
			schemas: [PATCH],
			Operations: [{ op: 'add', path: `${GROUP}:members`, value: [{ value: person.userId }] }],
		})
		expect(added.status).toBe(200)
		expect(added.json.members.map((m: any) => m.value)).toContain(person.userId)
		const removed = await scim('PATCH', '/Groups/admin', {
			schemas: [PATCH],
			Operations: [{ op: 'remove', path: `${GROUP}:members[value eq "${person.userId}"]` }],
		})
		expect(removed.json.members ?? []).not.toContainEqual(expect.objectContaining({ value: person.userId }))
		for (const path of ['member', `${GROUP}:member`, `${USER}:members`, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', 'urn:acme']) {
			const refused = await scim('PATCH', '/Groups/admin', { schemas: [PATCH], Operations: [{ op: 'add', path, value: [{ value: person.userId }] }] })
			expect([path, refused.status, refused.json]).toEqual([path, 400, expect.objectContaining({ schemas: [ERROR], scimType: 'invalidPath' })])
		}
		// An extension Benchline does not know: ignored, with a path or as a value's key; the members are still changed.
		const extended = await scim('PATCH', '/Groups/admin', {
			schemas: [PATCH],
			Operations: [
				{ op: 'add', path: 'urn:ietf:params:scim:schemas:extension:acme:2.0:Group:site', value: 'Berlin' },
				{ op: 'add', value: { 'urn:ietf:params:scim:schemas:extension:acme:2.0:Group:floor': 3, members: [{ value: person.userId }] } },
			],
		})
		expect(extended.status).toBe(200)
		expect(extended.json.members.map((m: any) => m.value)).toContain(person.userId)
	})
})
