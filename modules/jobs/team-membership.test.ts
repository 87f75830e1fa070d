/**
 * A person's hiring teams end with their place in the workspace: someone removed (on the people
 * page, or deactivated by SCIM) is taken off every team there, so being invited back later brings
 * back none of those jobs; someone made a viewer is taken off too, while a hiring manager made a
 * recruiter stays on their teams.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { callOn, newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { acceptInvitation, changeRole, invitePerson, operatorActor, personActor } from '../auth/index.ts'
import { createScimToken } from '../auth/sso/scim-tokens.ts'
import { teamJobIds } from './index.ts'
import { jobTeam } from './table.ts'

setDefaultTimeout(60_000)

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

/** A hiring manager on the hiring team of one job of `ws`. */
async function onTeam(ws: TestWorkspace, role = 'hiring_manager') {
	const deps = await testDeps()
	const person = await newPerson(ws, role)
	const job = await newVendorJob(ws)
	await deps.db.insert(jobTeam).values({ jobId: job, userId: person.userId, teamRole: 'hiring_manager' })
	expect(await teamJobIds(deps, ws.id, person.userId)).toEqual([job])
	return { person, job }
}

describe('hiring teams end with the membership', () => {
	test('removed on the people page and invited back: the job is out of reach', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const { person: hm, job } = await onTeam(ws)
		expect((await (await signedIn(hm)).get(`/jobs/${job}`)).status).toBe(200)

		const page = await signedIn(owner)
		await page.get('/people')
		expect((await page.submit(`/people/${hm.userId}/remove`)).redirectedTo).toBe('/people?done=removed')
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([])

		const { invitationId } = await invitePerson(deps, operatorActor(ws), ws, {
			email: hm.email,
			name: 'Back again',
			role: 'hiring_manager',
			password: hm.password,
		})
		await acceptInvitation(deps, hm.userId, invitationId, { kind: 'session', id: '', name: 'test' })
		expect((await personActor(deps, ws.slug, hm.email)).role).toBe('hiring_manager')
		expect((await (await signedIn(hm)).get(`/jobs/${job}`)).status).toBe(404)
	})

	test('deactivated by SCIM: off the team', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await personActor(deps, ws.slug, (await newPerson(ws, 'owner')).email)
		const { token } = await createScimToken(deps, { ...owner, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
		const { person: hm } = await onTeam(ws)
		const off = await callOn(app, 'PATCH', `/scim/v2/Users/${hm.userId}`, {
			key: token,
			raw: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }),
			headers: { 'content-type': 'application/scim+json' },
		})
		expect(off.status).toBe(200)
		expect(await teamJobIds(deps, ws.id, hm.userId)).toEqual([])
	})

	test('made a viewer: off the team; made a recruiter: still on it', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const toViewer = await onTeam(ws)
		const toRecruiter = await onTeam(ws)
		await changeRole(deps, operatorActor(ws), ws, { userId: toViewer.person.userId }, 'viewer')
		await changeRole(deps, operatorActor(ws), ws, { userId: toRecruiter.person.userId }, 'recruiter')
		expect(await teamJobIds(deps, ws.id, toViewer.person.userId)).toEqual([])
		expect(await teamJobIds(deps, ws.id, toRecruiter.person.userId)).toEqual([toRecruiter.job])
	})
})
