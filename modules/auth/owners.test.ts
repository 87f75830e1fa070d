/**
 * Issue 16, item 5: only owners make, demote or remove owners, on every path (inviting, re-inviting
 * a former owner, changing a role, removing, withdrawing an owner's invitation, accepting one after
 * the inviter stopped being an owner); the last owner is never removed or demoted; and changes made
 * at the same time (two owners acting on each other) always leave an owner.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Actor } from '../../core/actor.ts'
import { newPerson, newWorkspace, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { acceptInvitation, cancelInvitation, changeRole, invitePerson, listPeople, operatorActor, personActor, removePerson } from './index.ts'

setDefaultTimeout(30_000)
beforeAll(async () => {
	await portalApp()
}, 30_000)

const OWNERS_ONLY = /Only an owner can make, demote or remove an owner/
const errorOf = (html: string) => html.match(/<p class="error" role="alert">([^<]*)<\/p>/)?.[1]
const actorOf = async (ws: TestWorkspace, person: { email: string }) => personActor(await testDeps(), ws.slug, person.email)
const roleOf = async (ws: TestWorkspace, person: { email: string }) => (await actorOf(ws, person).catch(() => null))?.role ?? null
const owners = async (ws: TestWorkspace) => (await listPeople((await testDeps()).db, ws.id)).filter((p) => p.role === 'owner').length
const invite = async (actor: Actor, ws: TestWorkspace, role: string, email = `${unique('i')}@example.test`) =>
	invitePerson(await testDeps(), actor, ws, { email, name: 'Invited', role, password: 'temporary password' })

/** A workspace with two owners and an admin. */
async function team() {
	const ws = await newWorkspace()
	const [o1, o2, admin] = [await newPerson(ws, 'owner'), await newPerson(ws, 'owner'), await newPerson(ws, 'admin')]
	return { ws, o1, o2, admin, asO1: await actorOf(ws, o1), asO2: await actorOf(ws, o2), asAdmin: await actorOf(ws, admin) }
}

describe('an admin cannot make, demote or remove an owner; an owner can', () => {
	test('inviting as owner', async () => {
		const { ws, asAdmin, asO1 } = await team()
		await expect(invite(asAdmin, ws, 'owner')).rejects.toThrow(OWNERS_ONLY)
		await expect(invite(asO1, ws, 'owner')).resolves.toHaveProperty('invitationId')
	})

	test('removing an owner', async () => {
		const { ws, o2, asAdmin, asO1 } = await team()
		const deps = await testDeps()
		await expect(removePerson(deps, asAdmin, ws, { email: o2.email })).rejects.toThrow(OWNERS_ONLY)
		expect(await roleOf(ws, o2)).toBe('owner')
		await removePerson(deps, asO1, ws, { email: o2.email })
		expect(await roleOf(ws, o2)).toBeNull()
	})

	test('demoting an owner, and making a member an owner (themselves included)', async () => {
		const { ws, o2, admin, asAdmin, asO1 } = await team()
		const deps = await testDeps()
		await expect(changeRole(deps, asAdmin, ws, { email: o2.email }, 'viewer')).rejects.toThrow(OWNERS_ONLY)
		await expect(changeRole(deps, asAdmin, ws, { email: admin.email }, 'owner')).rejects.toThrow(OWNERS_ONLY)
		expect([await roleOf(ws, o2), await roleOf(ws, admin)]).toEqual(['owner', 'admin'])
		await changeRole(deps, asO1, ws, { email: o2.email }, 'viewer')
		await changeRole(deps, asO1, ws, { email: admin.email }, 'owner')
		expect([await roleOf(ws, o2), await roleOf(ws, admin)]).toEqual(['viewer', 'owner'])
		// Roles other than owner are an admin's to change.
		const recruiter = await newPerson(ws, 'recruiter')
		await changeRole(deps, asAdmin, ws, { email: recruiter.email }, 'hiring_manager')
		expect(await roleOf(ws, recruiter)).toBe('hiring_manager')
	})

	test('inviting a former owner back with another role', async () => {
		const { ws, o2, asAdmin, asO1 } = await team()
		const deps = await testDeps()
		await removePerson(deps, asO1, ws, { email: o2.email })
		await expect(invite(asAdmin, ws, 'viewer', o2.email)).rejects.toThrow(OWNERS_ONLY)
		const { invitationId } = await invite(asO1, ws, 'viewer', o2.email)
		await acceptInvitation(deps, o2.userId, invitationId, { kind: 'session', id: '', name: 'test' })
		expect(await roleOf(ws, o2)).toBe('viewer')
	})

	test('withdrawing an invitation to be an owner', async () => {
		const { ws, asAdmin, asO1 } = await team()
		const deps = await testDeps()
		const { invitationId } = await invite(asO1, ws, 'owner')
		await expect(cancelInvitation(deps, asAdmin, ws, invitationId)).rejects.toThrow(OWNERS_ONLY)
		await cancelInvitation(deps, asO1, ws, invitationId)
	})

	test('accepting an invitation to be an owner after its sender stopped being one', async () => {
		const { ws, o2, asO1, asO2 } = await team()
		const deps = await testDeps()
		const elsewhere = await newWorkspace()
		const invited = await newPerson(elsewhere, 'viewer')
		const { invitationId } = await invite(asO2, ws, 'owner', invited.email)
		await changeRole(deps, asO1, ws, { email: o2.email }, 'admin')
		await expect(acceptInvitation(deps, invited.userId, invitationId, { kind: 'session', id: '', name: 'test' })).rejects.toThrow(/no longer valid/)
		expect(await roleOf(ws, invited)).toBeNull()
	})

	test('on the people page: no owner controls for an admin, and the forms are refused when posted anyway', async () => {
		const { ws, o2, admin } = await team()
		const client = await signedIn(admin)
		const page = await client.get('/people')
		expect(page.text).not.toContain(`action="/people/${o2.userId}/remove"`)
		expect(page.text).not.toContain(`action="/people/${o2.userId}/role"`)
		expect(page.text).not.toContain('<option value="owner"')
		for (const [path, form] of [
			[`/people/${o2.userId}/remove`, {}],
			[`/people/${o2.userId}/role`, { role: 'viewer' }],
			[`/people/${admin.userId}/role`, { role: 'owner' }],
			['/people', { name: 'X', email: `${unique()}@example.test`, role: 'owner', password: 'temporary password' }],
		] as const) {
			const res = await client.post(path, form)
			expect(res.status).toBe(422)
			expect(errorOf(res.text)).toMatch(OWNERS_ONLY)
		}
		expect([await roleOf(ws, o2), await roleOf(ws, admin)]).toEqual(['owner', 'admin'])
		// An owner's page offers them.
		const ownerPage = await (await signedIn(await newPerson(ws, 'owner'))).get('/people')
		expect(ownerPage.text).toContain(`action="/people/${o2.userId}/role"`)
		expect(ownerPage.text).toContain('<option value="owner"')
	})
})

describe('the last owner stays', () => {
	test('cannot be removed or demoted, by themselves or by the operator', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const deps = await testDeps()
		const self = await actorOf(ws, owner)
		for (const actor of [self, operatorActor(ws)]) {
			await expect(removePerson(deps, actor, ws, { email: owner.email })).rejects.toThrow(/last owner/)
			await expect(changeRole(deps, actor, ws, { email: owner.email }, 'admin')).rejects.toThrow(/last owner cannot be demoted/)
		}
		expect(await roleOf(ws, owner)).toBe('owner')
		const client = await signedIn(owner)
		await client.get('/people')
		const res = await client.post(`/people/${owner.userId}/role`, { role: 'viewer' })
		expect(errorOf(res.text)).toMatch(/last owner cannot be demoted/)
	})

	test('an owner demoted a moment ago cannot still act as one with what they had', async () => {
		const { ws, o1, o2, admin, asO1, asO2 } = await team()
		const deps = await testDeps()
		await changeRole(deps, asO1, ws, { email: o2.email }, 'admin')
		// asO2 was fetched while o2 was an owner.
		await expect(removePerson(deps, asO2, ws, { email: o1.email })).rejects.toThrow(OWNERS_ONLY)
		await expect(changeRole(deps, asO2, ws, { email: o1.email }, 'viewer')).rejects.toThrow(OWNERS_ONLY)
		await expect(changeRole(deps, asO2, ws, { email: admin.email }, 'owner')).rejects.toThrow(OWNERS_ONLY)
		expect(await roleOf(ws, o1)).toBe('owner')
	})
})

describe('at the same time', () => {
	const rounds = 5
	test(`two owners demoting each other, or one demoting while the other removes: one owner always stays (${rounds} rounds each)`, async () => {
		const deps = await testDeps()
		for (let i = 0; i < rounds; i++) {
			const { ws, o1, o2, asO1, asO2 } = await team()
			const results = await Promise.allSettled([
				changeRole(deps, asO1, ws, { email: o2.email }, 'viewer'),
				changeRole(deps, asO2, ws, { email: o1.email }, 'viewer'),
			])
			expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
			for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/Only an owner|last owner/)
			expect(await owners(ws)).toBe(1)
		}
		for (let i = 0; i < rounds; i++) {
			const { ws, o1, o2, asO1, asO2 } = await team()
			const results = await Promise.allSettled([changeRole(deps, asO1, ws, { email: o2.email }, 'admin'), removePerson(deps, asO2, ws, { email: o1.email })])
			expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
			expect(await owners(ws)).toBe(1)
		}
	})
})
