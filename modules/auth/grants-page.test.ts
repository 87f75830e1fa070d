/**
 * Extra permissions (grants) on the people page: an owner or admin ticks or unticks them and presses
 * Save extra permissions, which sets exactly the ticked ones through `setGrants` (its checks, its
 * activity line); none ticked ends them. Refused for people who do not manage people, for a form
 * without its CSRF token, for an id that is not a member of this workspace, and for an admin on an
 * owner (only an owner changes an owner's, as with roles). Add a person offers the same boxes, and the
 * ticked ones go with the invitation through the same rule.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { addPerson, acceptInvitation, invitePerson, listPeople, operatorActor, personActor, setGrants } from './index.ts'
import { OWNER_GRANTS_ONLY } from './people.ts'
import { invitations, memberships, users } from './table.ts'

setDefaultTimeout(60_000)

const GRANT = 'jobs:actively_hiring'
const grantsOf = async (ws: TestWorkspace, userId: string) => (await listPeople((await testDeps()).db, ws.id)).find((p) => p.userId === userId)?.grants
/** A grant stored before grants the role includes were left out (as `changeRole` and `setGrants` leave them out). */
const storeGrant = async (ws: TestWorkspace, userId: string) =>
	(await testDeps()).db
		.update(memberships)
		.set({ grants: [GRANT] })
		.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, userId)))
const grantLines = async (ws: TestWorkspace, userId: string) => {
	const deps = await testDeps()
	const rows = await deps.db
		.select({ detail: activity.detail })
		.from(activity)
		.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, userId), eq(activity.action, 'person.grants_set')))
	return rows.map((r) => r.detail)
}

describe('Save extra permissions on the people page', () => {
	test('an admin ends a member’s grant and gives it back; the same form again changes nothing; each change is logged once', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const admin = await signedIn(await newPerson(ws, 'admin'))
		const member = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		const page = await admin.get('/people')
		// The member's row: a form with the grant ticked; the admin's own row has none.
		expect(page.text).toContain(`action="/people/${member.userId}/grants"`)
		expect(page.text).toMatch(new RegExp(`action="/people/${member.userId}/grants"[^]*?value="${GRANT}" checked`))
		expect(page.text).toContain('aria-label="Save extra permissions: recruiter person"')

		const ended = await admin.submit(`/people/${member.userId}/grants`, {})
		expect(ended.redirectedTo).toBe('/people?done=grants-ended')
		expect(ended.text).toContain('The person’s extra permissions ended; they apply to their next request.')
		expect(await grantsOf(ws, member.userId)).toEqual([])
		expect(deps.permissions.can(await personActor(deps, ws.slug, member.email), GRANT)).toBe(false)
		// The box is offered unticked, so it can be given again.
		expect(ended.text).toMatch(new RegExp(`action="/people/${member.userId}/grants"[^]*?value="${GRANT}">`))

		const given = await admin.submit(`/people/${member.userId}/grants`, { grant: [GRANT] })
		expect(given.redirectedTo).toBe('/people?done=grants')
		expect(given.text).toContain('The extra permissions were saved')
		expect(deps.permissions.can(await personActor(deps, ws.slug, member.email), GRANT)).toBe(true)

		const again = await admin.submit(`/people/${member.userId}/grants`, { grant: [GRANT] })
		expect(again.redirectedTo).toBe('/people?done=grants-unchanged')
		expect(again.text).toContain('Nothing changed: the person already had exactly these extra permissions.')
		const lines = await grantLines(ws, member.userId)
		expect(lines).toHaveLength(2)
		expect(lines).toContainEqual({ email: member.email, from: [GRANT], to: [] })
		expect(lines).toContainEqual({ email: member.email, from: [], to: [GRANT] })
	})

	test('a grant the person’s role already includes is not kept, and the page says so', async () => {
		const ws = await newWorkspace()
		const owner = await signedIn(await newPerson(ws, 'owner'))
		const admin = await newPerson(ws, 'admin')
		await storeGrant(ws, admin.userId)
		await owner.get('/people')
		const res = await owner.submit(`/people/${admin.userId}/grants`, { grant: [GRANT] })
		expect(res.redirectedTo).toBe('/people?done=grants-in-role')
		expect(res.text).toContain('Those their role already includes were not kept (the role gives them).')
		expect(await grantsOf(ws, admin.userId)).toEqual([])
	})

	test('refused: a recruiter (403), a form without its CSRF token (403), a permission that cannot be granted, an id from another workspace; nothing changes', async () => {
		const ws = await newWorkspace()
		const admin = await signedIn(await newPerson(ws, 'admin'))
		const member = await newPerson(ws, 'recruiter', { grants: [GRANT] })
		const recruiter = await signedIn(await newPerson(ws, 'recruiter'))
		await recruiter.get('/portal')
		expect((await recruiter.post(`/people/${member.userId}/grants`, {})).status).toBe(403)
		expect((await recruiter.get('/people')).status).toBe(403)

		await admin.get('/people')
		expect((await admin.request('POST', `/people/${member.userId}/grants`, { form: {} })).status).toBe(403)

		await admin.get('/people')
		const bad = await admin.post(`/people/${member.userId}/grants`, { grant: ['workspace:admin'] })
		expect(bad.status).toBe(422)
		expect(bad.text).toContain('grants &quot;workspace:admin&quot; is not a permission that can be granted')

		const elsewhere = await newWorkspace()
		const stranger = await newPerson(elsewhere, 'recruiter', { grants: [GRANT] })
		await admin.get('/people')
		const foreign = await admin.post(`/people/${stranger.userId}/grants`, {})
		expect(foreign.status).toBe(422)
		expect(foreign.text).toContain('This person is not in this workspace')

		expect(await grantsOf(ws, member.userId)).toEqual([GRANT])
		expect(await grantsOf(elsewhere, stranger.userId)).toEqual([GRANT])
		expect(await grantLines(ws, member.userId)).toEqual([])
	})

	test('only an owner changes an owner’s extra permissions: an admin is neither offered the form nor let through', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		await storeGrant(ws, owner.userId)
		const adminPerson = await newPerson(ws, 'admin')
		const admin = await signedIn(adminPerson)
		expect((await admin.get('/people')).text).not.toContain(`/people/${owner.userId}/grants`)
		const refused = await admin.post(`/people/${owner.userId}/grants`, {})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain(OWNER_GRANTS_ONLY)
		expect(await grantsOf(ws, owner.userId)).toEqual([GRANT])
		// The service refuses the admin on every path; another owner may.
		const adminActor = await personActor(deps, ws.slug, adminPerson.email)
		await expect(setGrants(deps, adminActor, ws, { userId: owner.userId }, [])).rejects.toMatchObject({ code: 'FORBIDDEN', message: OWNER_GRANTS_ONLY })
		const second = await personActor(deps, ws.slug, (await newPerson(ws, 'owner')).email)
		expect((await setGrants(deps, second, ws, { userId: owner.userId }, [])).grants).toEqual([])
	})

	test('a grant the role already includes is not stored when a person is added or invited with it (it would come back unasked on a later demotion)', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const added = await addPerson(deps, operatorActor(ws), ws, {
			email: `added-${ws.slug}@example.test`,
			name: 'Added',
			role: 'admin',
			password: 'a long enough password',
			grants: [GRANT, GRANT],
		})
		expect(await grantsOf(ws, added.userId)).toEqual([])
		const email = `invited-${ws.slug}@example.test`
		const { invitationId } = await invitePerson(deps, operatorActor(ws), ws, {
			email,
			name: 'Invited',
			role: 'admin',
			password: 'a long enough password',
			grants: [GRANT],
		})
		const [invited] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
		await acceptInvitation(deps, invited!.id, invitationId, { kind: 'session', id: '', name: 'test' })
		expect(await grantsOf(ws, invited!.id)).toEqual([])
		// A grant the role does not include is kept, once.
		const recruiter = await newPerson(ws, 'recruiter', { grants: [GRANT, GRANT] })
		expect(await grantsOf(ws, recruiter.userId)).toEqual([GRANT])
	})
})

describe('Add a person with extra permissions', () => {
	const invitedGrants = async (ws: TestWorkspace, email: string) =>
		(
			await (
				await testDeps()
			).db
				.select({ grants: invitations.grants })
				.from(invitations)
				.where(and(eq(invitations.workspaceId, ws.id), eq(invitations.email, email)))
		).map((r) => r.grants)

	test('the form offers every grantable permission in the same fieldset as Save extra permissions; the ticked ones go with the invitation and are the member’s once accepted', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const admin = await signedIn(await newPerson(ws, 'admin'))
		await newPerson(ws, 'recruiter')
		const page = await admin.get('/people')
		const fieldsets = [...page.text.matchAll(/<fieldset class="grants"[^>]*>[\s\S]*?<\/fieldset>/g)].map((m) => m[0])
		const added = fieldsets.find((f) => f.includes('id="p-grants"'))!
		expect(added).toContain('<legend>Extra permissions (optional)</legend>')
		expect(added).toContain(`<label class="check"><input type="checkbox" name="grant" value="${GRANT}"> ${GRANT}</label>`)
		// One component: a member's row has the same boxes, its legend read by screen readers only.
		expect(fieldsets.some((f) => f.includes('class="visually-hidden">Extra permissions of recruiter person</legend>') && f.includes(`value="${GRANT}"`))).toBe(
			true,
		)

		const email = `granted-${ws.slug}@example.test`
		const sent = await admin.submit('/people', { name: 'Granted', email, role: 'recruiter', password: 'temporary password', grant: [GRANT] })
		expect(sent.redirectedTo).toBe('/people?done=added')
		expect(await invitedGrants(ws, email)).toEqual([[GRANT]])
		const [invitation] = await deps.db
			.select({ id: invitations.id })
			.from(invitations)
			.where(and(eq(invitations.workspaceId, ws.id), eq(invitations.email, email)))
		const [user] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
		await acceptInvitation(deps, user!.id, invitation!.id, { kind: 'session', id: '', name: 'test' })
		expect(await grantsOf(ws, user!.id)).toEqual([GRANT])
		expect(deps.permissions.can(await personActor(deps, ws.slug, email), GRANT)).toBe(true)

		// Through the same rule as Save extra permissions: one the chosen role includes is not kept.
		const adminEmail = `admin-${ws.slug}@example.test`
		await admin.get('/people')
		expect(
			(await admin.submit('/people', { name: 'Admin', email: adminEmail, role: 'admin', password: 'temporary password', grant: [GRANT] })).redirectedTo,
		).toBe('/people?done=added')
		expect(await invitedGrants(ws, adminEmail)).toEqual([[]])
	})

	test('refused: what was ticked stays ticked, and a permission that cannot be granted is named on the fieldset; nothing is invited', async () => {
		const ws = await newWorkspace()
		const owner = await signedIn(await newPerson(ws, 'owner'))
		await owner.get('/people')
		const typo = await owner.post('/people', { name: 'Typo', email: 'not an address', role: 'viewer', password: 'temporary password', grant: [GRANT] })
		expect(typo.status).toBe(422)
		expect(typo.text).toMatch(new RegExp(`id="p-grants"[^]*?value="${GRANT}" checked`))
		const email = `refused-${ws.slug}@example.test`
		await owner.get('/people')
		const bad = await owner.post('/people', { name: 'Bad', email, role: 'viewer', password: 'temporary password', grant: ['workspace:admin'] })
		expect(bad.status).toBe(422)
		expect(bad.text).toContain('<a href="#p-grants">Extra permissions &quot;workspace:admin&quot; is not a permission that can be granted.</a>')
		expect(bad.text).toContain('<span class="field-error" id="p-grants-error">')
		expect(await invitedGrants(ws, email)).toEqual([])
	})
})
