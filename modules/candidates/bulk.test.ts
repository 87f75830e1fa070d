/**
 * Bulk actions on a job's stage list (issue 31): one POST moves or rejects the ticked applications,
 * each through its own service (one activity line per record), and the report says per record what
 * was done and what was refused; it is shown once (Post/Redirect/Get).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newVendor, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'
import { jobTeam } from '../jobs/table.ts'
import { applications } from './table.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
let job: string
let other: string
const apps: string[] = []
let elsewhere: string

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	const { vendorId } = await newVendor(ws, 'Bulk Staffing', deps)
	job = await newVendorJob(ws, { vendorId, title: 'Bulk Data Engineer' }, deps)
	other = await newVendorJob(ws, { vendorId, title: 'Bulk Other Job' }, deps)
	for (let i = 1; i <= 7; i++)
		apps.push(await newApplication(ws, await newCandidate(ws, { name: `Bulk Person ${i}`, email: `bulk${i}@mail.example` }, deps), job, {}, deps))
	elsewhere = await newApplication(ws, await newCandidate(ws, { name: 'Elsewhere Person', email: 'elsewhere@mail.example' }, deps), other, {}, deps)
})

const stages = async (ids: string[]) =>
	Object.fromEntries(
		(
			await deps.db.select({ id: applications.id, s: applications.stageKey, o: applications.outcome }).from(applications).where(inArray(applications.id, ids))
		).map((r) => [r.id, r]),
	)

describe('bulk actions on a job’s stage list', () => {
	test('five applicants moved to Screening in one action: one POST and its redirect, five activity lines, a report per record', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const list = await recruiter.get(`/jobs/${job}?stage=applied`)
		expect(list.text).toContain('<form method="post" action="/applications/bulk" class="bulk" data-bulk>')
		expect(list.text).toContain('Select all on this page')
		for (const id of apps) expect(list.text).toContain(`<input type="checkbox" name="application" value="${id}" id="pick-${id}">`)
		const five = apps.slice(0, 5)
		let requests = 0
		const post = await recruiter.post('/applications/bulk', { application: five, action: 'move', stageKey: 'screening', back: `/jobs/${job}?stage=applied` })
		requests++
		expect(post.status).toBe(303)
		const report = await recruiter.get(post.headers.get('location')!)
		requests++
		expect(report.status).toBe(200)
		expect(requests).toBe(2)
		expect(report.text).toContain('Move to Screening: 5 records done.')
		for (let i = 1; i <= 5; i++) expect(report.text).toContain(`<td>Bulk Person ${i}</td>`)
		expect(report.text).toContain(`<a href="/jobs/${job}?stage=applied">Back to the list</a>`)
		const now = await stages(five)
		expect(five.map((id) => now[id]!.s)).toEqual(Array(5).fill('screening'))
		const lines = await deps.db
			.select({ target: activity.targetId })
			.from(activity)
			.where(and(eq(activity.action, 'application.stage_changed'), inArray(activity.targetId, five)))
		expect(lines.map((l) => l.target).sort()).toEqual([...five].sort())
		// Shown once: the report page again has nothing to report, and nothing is posted.
		expect((await recruiter.get('/applications/bulk')).text).toContain('There is nothing to report')
	})

	test('per record: already there is unchanged; out of a hiring manager’s reach is refused like an absent one; the others are done', async () => {
		const manager = await newPerson(ws, 'hiring_manager', {}, deps)
		await deps.db.insert(jobTeam).values({ jobId: job, userId: manager.userId, teamRole: 'hiring_manager' })
		const c = await signedIn(manager)
		await c.get(`/jobs/${job}?stage=applied`)
		const res = await c.submit('/applications/bulk', {
			application: [apps[0]!, apps[5]!, elsewhere],
			action: 'move',
			stageKey: 'screening',
			back: `/jobs/${job}`,
		})
		expect(res.text).toContain('Move to Screening: 1 record done, 1 unchanged, 1 refused.')
		expect(res.text).toContain('Already at Screening.')
		expect(res.text).toContain('Not found, or not yours to change.')
		expect(res.text).not.toContain('Elsewhere Person')
		const now = await stages([apps[5]!, elsewhere])
		expect([now[apps[5]!]!.s, now[elsewhere]!.s]).toEqual(['screening', 'applied'])
	})

	test('reject with a reason: the outcome and the reason in the activity line; rejecting again is refused by the rule', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await recruiter.get(`/jobs/${job}?stage=applied`)
		const res = await recruiter.submit('/applications/bulk', { application: [apps[6]!], action: 'reject', reason: 'rate', back: `/jobs/${job}` })
		expect(res.text).toContain('Reject: Rate or salary does not fit: 1 record done.')
		expect((await stages([apps[6]!]))[apps[6]!]!.o).toBe('rejected')
		const [line] = await deps.db
			.select({ detail: activity.detail })
			.from(activity)
			.where(and(eq(activity.action, 'application.rejected'), eq(activity.targetId, apps[6]!)))
		expect(line!.detail).toMatchObject({ reason: 'rate' })
		await recruiter.get(`/jobs/${job}?stage=applied`)
		const again = await recruiter.submit('/applications/bulk', { application: [apps[6]!], action: 'reject', reason: 'rate', back: `/jobs/${job}` })
		expect(again.text).toContain('It is already rejected.')
		await recruiter.get(`/jobs/${job}?stage=applied`)
		const none = await recruiter.submit('/applications/bulk', { action: 'move', stageKey: 'screening', back: `/jobs/${job}` })
		expect(none.text).toContain('Nothing done: Choose the applications first')
		const viewer = await signedIn(await newPerson(ws, 'viewer', {}, deps))
		await viewer.get('/portal')
		expect((await viewer.post('/applications/bulk', { application: [apps[0]!], action: 'move', stageKey: 'offer' })).status).toBe(403)
	})

	test('an action the list has no button for (delete, none, MOVE) is refused with 422 as a whole, never taken for a move', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const before = await stages([apps[1]!])
		for (const action of ['delete', '', 'MOVE']) {
			await recruiter.get(`/jobs/${job}?stage=applied`)
			const unknown = await recruiter.post('/applications/bulk', { application: [apps[1]!], action, stageKey: 'hired', back: `/jobs/${job}` })
			expect({ action, status: unknown.status }).toEqual({ action, status: 422 })
			expect(unknown.text).toContain('Choose Move to stage or Reject')
		}
		expect(await stages([apps[1]!])).toEqual(before)
	})
})
