/**
 * A job's hiring team changed after the job was made: owners and admins (the permission that
 * publishes and closes the job) put a hiring manager of their workspace on it, and take people off,
 * on the job's page or through `addHiringManager` / `removeFromTeam`. Only a current member whose
 * role is hiring manager is added; the same change twice changes nothing and logs nothing; each
 * change is one activity line that names the person.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { newPerson, newWorkspace, testDeps, usingPostgres, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'
import { operatorActor, personActor, removePerson } from '../auth/index.ts'
import { teamJobIds } from './index.ts'
import { addHiringManager, removeFromTeam } from './team.ts'

setDefaultTimeout(60_000)

const teamLines = async (ws: TestWorkspace, jobId: string) => {
	const deps = await testDeps()
	return deps.db
		.select({ action: activity.action, detail: activity.detail })
		.from(activity)
		.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, jobId)))
}
const actorOf = async (ws: TestWorkspace, role: string) => personActor(await testDeps(), ws.slug, (await newPerson(ws, role)).email)

describe('the rules (service)', () => {
	test('an admin adds a hiring manager, who then reaches the job; again changes nothing; taken off, the job is out of reach', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const admin = await actorOf(ws, 'admin')
		const hm = await newPerson(ws, 'hiring_manager')
		const job = await newVendorJob(ws)
		expect((await (await signedIn(hm)).get(`/jobs/${job}`)).status).toBe(404)

		expect(await addHiringManager(deps, admin, job, hm.userId)).toEqual({ changed: true })
		expect(await addHiringManager(deps, admin, job, hm.userId)).toEqual({ changed: false })
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([job])
		expect((await (await signedIn(hm)).get(`/jobs/${job}`)).status).toBe(200)

		expect(await removeFromTeam(deps, admin, job, hm.userId)).toEqual({ changed: true })
		expect(await removeFromTeam(deps, admin, job, hm.userId)).toEqual({ changed: false })
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([])
		expect((await (await signedIn(hm)).get(`/jobs/${job}`)).status).toBe(404)
		const lines = await teamLines(ws, job)
		expect(lines).toHaveLength(2)
		expect(lines).toContainEqual({ action: 'job.team_member_added', detail: { userId: hm.userId, teamRole: 'hiring_manager' } })
		expect(lines).toContainEqual({ action: 'job.team_member_removed', detail: { userId: hm.userId, teamRole: 'hiring_manager' } })
	})

	test('only a current hiring manager of this workspace is added: not a recruiter, viewer, admin, someone removed or someone of another workspace', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await actorOf(ws, 'owner')
		const job = await newVendorJob(ws)
		const others = await Promise.all(['recruiter', 'viewer', 'admin'].map((role) => newPerson(ws, role)))
		const removed = await newPerson(ws, 'hiring_manager')
		await removePerson(deps, operatorActor(ws), ws, { userId: removed.userId })
		const stranger = await newPerson(await newWorkspace(), 'hiring_manager')
		for (const who of [...others, removed, stranger, { userId: 'usr_nobody' }])
			await expect(addHiringManager(deps, owner, job, who.userId)).rejects.toMatchObject({
				code: 'VALIDATION',
				fields: [{ field: 'userId', message: 'must be a hiring manager in this workspace' }],
			})
		expect(await teamLines(ws, job)).toEqual([])
	})

	test('only those who may publish the job change its team, and only on their workspace’s jobs', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const hm = await newPerson(ws, 'hiring_manager')
		const job = await newVendorJob(ws)
		for (const role of ['recruiter', 'hiring_manager', 'viewer']) {
			const actor = await actorOf(ws, role)
			await expect(addHiringManager(deps, actor, job, hm.userId)).rejects.toMatchObject({ code: 'FORBIDDEN' })
			await expect(removeFromTeam(deps, actor, job, hm.userId)).rejects.toMatchObject({ code: 'FORBIDDEN' })
		}
		const elsewhere = await newWorkspace()
		const theirOwner = await actorOf(elsewhere, 'owner')
		await expect(addHiringManager(deps, theirOwner, job, hm.userId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		const owner = await actorOf(ws, 'owner')
		await addHiringManager(deps, owner, job, hm.userId)
		await expect(removeFromTeam(deps, theirOwner, job, hm.userId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([job])
	})
})

describe('on the job’s page', () => {
	test('an owner adds a hiring manager with Add to the team and takes them off; each answer is confirmed in the section, and the activity log names the person', async () => {
		const ws = await newWorkspace()
		const owner = await signedIn(await newPerson(ws, 'owner'))
		const hm = await newPerson(ws, 'hiring_manager')
		const job = await newVendorJob(ws)
		const page = await owner.get(`/jobs/${job}`)
		expect(page.text).toContain(`<form method="post" action="/jobs/${job}/team"`)
		expect(page.text).toContain(`<option value="${hm.userId}">hiring_manager person</option>`)

		const added = await owner.submit(`/jobs/${job}/team`, { userId: hm.userId })
		expect(added.redirectedTo).toBe(`/jobs/${job}?done=team-added#done`)
		expect(added.text).toContain('The hiring manager is on the team: they now see this job and its applicants.')
		expect(added.text).toContain(`aria-label="Take off the team: hiring_manager person"`)
		// On the team, they are no longer offered.
		expect(added.text).not.toContain(`<option value="${hm.userId}">`)
		expect((await owner.submit(`/jobs/${job}/team`, { userId: hm.userId })).redirectedTo).toBe(`/jobs/${job}?done=team-already#done`)

		const removed = await owner.submit(`/jobs/${job}/team/${hm.userId}/remove`)
		expect(removed.redirectedTo).toBe(`/jobs/${job}?done=team-removed#done`)
		expect(removed.text).toContain('The person is off the hiring team.')
		expect((await owner.submit(`/jobs/${job}/team/${hm.userId}/remove`)).redirectedTo).toBe(`/jobs/${job}?done=team-not-on#done`)

		const log = (await owner.get('/activity')).text
		expect(log).toContain('changed the hiring team of the job')
		expect(log).toContain('by adding hiring_manager person')
		expect(log).toContain('by taking off hiring_manager person')
	})

	test('refused: a recruiter and a hiring manager (403, and offered nothing), no CSRF token (403), a person who is not a hiring manager (422, said on the field), another workspace’s job (404)', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const hm = await newPerson(ws, 'hiring_manager')
		const recruiter = await newPerson(ws, 'recruiter')
		const job = await newVendorJob(ws)
		await addHiringManager(deps, operatorActor(ws), job, hm.userId)
		for (const who of [recruiter, hm]) {
			const client = await signedIn(who)
			const page = await client.get(`/jobs/${job}`)
			expect(page.text).not.toContain(`/jobs/${job}/team`)
			expect((await client.post(`/jobs/${job}/team`, { userId: hm.userId })).status).toBe(403)
			expect((await client.post(`/jobs/${job}/team/${hm.userId}/remove`)).status).toBe(403)
		}

		const owner = await signedIn(await newPerson(ws, 'owner'))
		await owner.get(`/jobs/${job}`)
		expect((await owner.request('POST', `/jobs/${job}/team/${hm.userId}/remove`, { form: {} })).status).toBe(403)
		for (const [userId, message] of [
			[recruiter.userId, 'The person chosen is not a hiring manager in this workspace (any more): choose one from the list.'],
			['', 'Choose a hiring manager to add.'],
		]) {
			const refused = await owner.post(`/jobs/${job}/team`, { userId: userId! })
			expect(refused.status).toBe(422)
			expect(refused.text).toContain('<title>Error: ')
			expect(refused.text).toContain(`<a href="#team-add">${message}</a>`)
			expect(refused.text).toContain(`<span class="field-error" id="team-add-error">${message}</span>`)
		}
		const elsewhere = await newWorkspace()
		const theirJob = await newVendorJob(elsewhere)
		expect((await owner.post(`/jobs/${theirJob}/team`, { userId: hm.userId })).status).toBe(404)
		expect((await owner.post(`/jobs/${theirJob}/team/${hm.userId}/remove`)).status).toBe(404)
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([job])
		expect(await teamLines(elsewhere, theirJob)).toEqual([])
	})
})

describe.skipIf(!usingPostgres())('beside a removal of the person (PostgreSQL)', () => {
	test('an add that meets a removal in progress waits for it, and is then refused: nobody removed stays on a team', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await actorOf(ws, 'owner')
		const hm = await newPerson(ws, 'hiring_manager')
		const job = await newVendorJob(ws)
		let adding: Promise<unknown> | undefined
		// A removal as `removePerson` makes it: the membership row locked, then ended, the person's teams emptied.
		await deps.db.transaction(async (tx) => {
			await tx.execute(sql`select 1 from memberships where workspace_id = ${ws.id} and user_id = ${hm.userId} for update`)
			adding = addHiringManager(deps, owner, job, hm.userId).catch((error) => error)
			await Bun.sleep(300)
			await tx.execute(sql`update memberships set removed_at = now() where workspace_id = ${ws.id} and user_id = ${hm.userId}`)
			await tx.execute(sql`delete from job_team where user_id = ${hm.userId}`)
		})
		expect(await adding).toMatchObject({ code: 'VALIDATION' })
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([])
	})
})
