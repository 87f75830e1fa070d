/**
 * A role change keeps the extra permissions (grants) the person was given and ends only those the new
 * role already includes, on every path that changes a role (the people page, SCIM groups); the people
 * page says what a change would end before it, and what ended after.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { callOn, newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { activity } from '../activity/table.ts'
import { and, eq } from 'drizzle-orm'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { listPeople, personActor, setGrants } from './index.ts'
import { createScimToken } from './sso/scim-tokens.ts'

setDefaultTimeout(60_000)

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

const GRANT = 'jobs:actively_hiring'
const grantsOf = async (ws: { id: string }, userId: string) => (await listPeople((await testDeps()).db, ws.id)).find((p) => p.userId === userId)?.grants

describe('a role change and extra permissions', () => {
	test('on the people page: said before the change; kept through a move and a demotion (a viewer keeps the flag it was given)', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		expect(deps.permissions.can(await personActor(deps, ws.slug, recruiter.email), GRANT)).toBe(true)

		const client = await signedIn(owner)
		const fate = `${GRANT} stays, and ends if the role becomes owner or admin, which includes it`
		const before = await client.get('/people')
		expect(before.text).toContain(`On a role change: ${fate}.`)
		expect(before.text).toContain(`data-confirm="Change the role of recruiter person? Extra permissions: ${fate}."`)

		for (const role of ['hiring_manager', 'viewer'] as const) {
			const moved = await client.submit(`/people/${recruiter.userId}/role`, { role })
			expect(moved.redirectedTo).toBe('/people?done=role')
			const now = await personActor(deps, ws.slug, recruiter.email)
			expect([now.role, now.grants, deps.permissions.can(now, GRANT)]).toEqual([role, [GRANT], true])
		}
		expect(await grantsOf(ws, recruiter.userId)).toEqual([GRANT])
	})

	test('a grant the new role already includes ends as redundant (an admin has it by role), and the page and the trail say so', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		const client = await signedIn(owner)
		await client.get('/people')
		const promoted = await client.submit(`/people/${recruiter.userId}/role`, { role: 'admin' })
		expect(promoted.redirectedTo).toBe('/people?done=role-grants')
		expect(promoted.text).toContain('The extra permissions the new role already includes ended (the role gives them)')
		const admin = await personActor(deps, ws.slug, recruiter.email)
		expect([admin.grants, deps.permissions.can(admin, GRANT)]).toEqual([[], true])
		const [line] = await deps.db
			.select({ detail: activity.detail })
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, recruiter.userId), eq(activity.action, 'person.role_changed')))
		expect(line?.detail).toMatchObject({ from: 'recruiter', to: 'admin', grantsEnded: [GRANT] })
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

	test('through SCIM: moving the person to another group keeps the grant; to the admins ends it (redundant)', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const actor = await personActor(deps, ws.slug, owner.email)
		const { token } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		const moveTo = (group: string) =>
			callOn(app, 'PATCH', `/scim/v2/Groups/${group}`, {
				key: token,
				raw: JSON.stringify({
					schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
					Operations: [{ op: 'add', path: 'members', value: [{ value: recruiter.userId }] }],
				}),
				headers: { 'content-type': 'application/scim+json' },
			})

		expect((await moveTo('viewer')).status).toBe(200)
		const viewer = await personActor(deps, ws.slug, recruiter.email)
		expect([viewer.role, deps.permissions.can(viewer, GRANT)]).toEqual(['viewer', true])
		expect(await grantsOf(ws, recruiter.userId)).toEqual([GRANT])
		expect((await moveTo('admin')).status).toBe(200)
		expect(await grantsOf(ws, recruiter.userId)).toEqual([])
	})
})

describe('setting extra permissions', () => {
	test('an admin ends a grant or gives one after the person joined; one the role includes is not kept; a permission that cannot be granted is refused; a recruiter may not', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const admin = await personActor(deps, ws.slug, (await newPerson(ws, 'admin')).email)
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		const can = async () => deps.permissions.can(await personActor(deps, ws.slug, recruiter.email), GRANT)

		expect(await setGrants(deps, admin, ws, { email: recruiter.email }, [])).toEqual({ userId: recruiter.userId, grants: [], alreadyInRole: [], changed: true })
		expect([await grantsOf(ws, recruiter.userId), await can()]).toEqual([[], false])
		const given = await setGrants(deps, admin, ws, { userId: recruiter.userId }, [GRANT])
		expect([given.grants, given.alreadyInRole, await can()]).toEqual([[GRANT], [], true])
		const otherAdmin = await newPerson(ws, 'admin')
		expect(await setGrants(deps, admin, ws, { userId: otherAdmin.userId }, [GRANT])).toEqual({
			userId: otherAdmin.userId,
			grants: [],
			alreadyInRole: [GRANT],
			changed: false,
		})
		const lines = await deps.db
			.select({ detail: activity.detail })
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.action, 'person.grants_set')))
		const details = lines.map((l) => l.detail)
		expect(details).toHaveLength(2)
		expect(details).toContainEqual({ email: recruiter.email, from: [GRANT], to: [] })
		expect(details).toContainEqual({ email: recruiter.email, from: [], to: [GRANT] })

		await expect(setGrants(deps, admin, ws, { userId: recruiter.userId }, ['workspace:admin'])).rejects.toMatchObject({ code: 'VALIDATION' })
		const colleague = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
		await expect(setGrants(deps, colleague, ws, { userId: recruiter.userId }, [])).rejects.toMatchObject({ code: 'FORBIDDEN' })
		expect(await can()).toBe(true)
	})
})
