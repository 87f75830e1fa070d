/**
 * A role change ends the extra permissions the person held beyond their old role, on every path
 * that changes a role (the people page, SCIM groups): a grant kept through a demotion left a viewer
 * with more than the README's viewers have.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { callOn, newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { listPeople, personActor } from './index.ts'
import { createScimToken } from './sso/scim-tokens.ts'

setDefaultTimeout(60_000)

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

const GRANT = 'jobs:actively_hiring'
const grantsOf = async (ws: { id: string }, userId: string) => (await listPeople((await testDeps()).db, ws.id)).find((p) => p.userId === userId)?.grants

describe('a role change ends extra permissions', () => {
	test('on the people page: the demoted person loses the grant, and the page says so', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		expect(deps.permissions.can(await personActor(deps, ws.slug, recruiter.email), GRANT)).toBe(true)

		const client = await signedIn(owner)
		await client.get('/people')
		const res = await client.submit(`/people/${recruiter.userId}/role`, { role: 'viewer' })
		expect(res.redirectedTo).toBe('/people?done=role-grants')
		expect(res.text).toContain('The extra permissions they held ended with their old role.')

		const demoted = await personActor(deps, ws.slug, recruiter.email)
		expect(demoted.role).toBe('viewer')
		expect(demoted.grants).toEqual([])
		expect(deps.permissions.can(demoted, GRANT)).toBe(false)
		expect(await grantsOf(ws, recruiter.userId)).toEqual([])
	})

	test('someone without extra permissions gets the usual confirmation', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const recruiter = await newPerson(ws, 'recruiter')
		const client = await signedIn(owner)
		await client.get('/people')
		const res = await client.submit(`/people/${recruiter.userId}/role`, { role: 'hiring_manager' })
		expect(res.redirectedTo).toBe('/people?done=role')
		expect(res.text).toContain('The role was changed; it applies to their next request.')
	})

	test('through SCIM: moving the person to another group ends the grant too', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const actor = await personActor(deps, ws.slug, owner.email)
		const { token } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT] })

		const moved = await callOn(app, 'PATCH', '/scim/v2/Groups/viewer', {
			key: token,
			raw: JSON.stringify({
				schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
				Operations: [{ op: 'add', path: 'members', value: [{ value: recruiter.userId }] }],
			}),
			headers: { 'content-type': 'application/scim+json' },
		})
		expect(moved.status).toBe(200)
		const demoted = await personActor(deps, ws.slug, recruiter.email)
		expect(demoted.role).toBe('viewer')
		expect(deps.permissions.can(demoted, GRANT)).toBe(false)
		expect(await grantsOf(ws, recruiter.userId)).toEqual([])
	})
})
