/**
 * The pipeline board's Move menu (issue 31): each card offers the workspace's stages to people who
 * may move applications, and moving from it is the application page's Move to stage (same service,
 * rules, activity line and event): without script it comes back to the board (303); asked for JSON
 * (the board's script) it answers what moved, and a refusal in words.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newVendor, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { activity as activityLog } from '../activity/table.ts'
import { applications } from './table.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
let job: string
const apps: string[] = []

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	const { vendorId } = await newVendor(ws, 'Quick Staffing', deps)
	job = await newVendorJob(ws, { vendorId, title: 'Quick Move Engineer' }, deps)
	for (let i = 1; i <= 3; i++)
		apps.push(await newApplication(ws, await newCandidate(ws, { name: `Quick Person ${i}`, email: `quick${i}@mail.example` }, deps), job, {}, deps))
})

const stageOf = async (id: string) => (await deps.db.select({ s: applications.stageKey }).from(applications).where(eq(applications.id, id)))[0]!.s

describe('the Move menu on pipeline cards', () => {
	test('each card has a labelled stage select and button; a viewer-like role without the permission gets none', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const page = await recruiter.get(`/jobs/${job}`)
		expect(page.status).toBe(200)
		for (const id of apps) {
			expect(page.text).toContain(`<form method="post" action="/applications/${id}/stage" data-quick-move>`)
			expect(page.text).toContain(`<label for="move-${id}">Stage for Quick Person`)
		}
		expect(page.text).toContain('<option value="screening">Screening</option>')
		expect(page.text).toContain('role="status" id="pipeline-status"')
		// Dragging a card is offered beside the menu (the script shows the hint on a desktop only).
		expect(page.text).toContain('<p class="meta" data-drag-hint hidden>Drag a card to another column to move it, or use its Move menu.</p>')
		const viewer = await signedIn(await newPerson(ws, 'viewer', {}, deps))
		const viewed = await viewer.get(`/jobs/${job}`)
		expect(viewed.text).not.toContain('data-quick-move')
		expect(viewed.text).not.toContain('data-drag-hint')
		// A move the role does not allow is refused as an action, in words the board's script shows.
		const refused = await viewer.post(`/applications/${apps[0]}/stage`, { stageKey: 'screening', back: `/jobs/${job}` }, { accept: 'application/json' })
		expect(refused.status).toBe(403)
		expect(refused.text).toContain('<p>Your role does not allow this action.</p>')
		expect((await viewer.get(`/applications/${apps[0]}`)).text).toContain('<p>Your role does not allow this page.</p>')
	})

	test('without script: the move comes back to the board (303), logged once with from and to', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await recruiter.get(`/jobs/${job}`)
		const res = await recruiter.submit(`/applications/${apps[0]}/stage`, { stageKey: 'screening', back: `/jobs/${job}` })
		expect(res.redirectedTo).toBe(`/jobs/${job}?done=moved#done`)
		expect(res.text).toContain('The application was moved')
		expect(await stageOf(apps[0]!)).toBe('screening')
		const lines = await deps.db
			.select({ detail: activityLog.detail })
			.from(activityLog)
			.where(and(eq(activityLog.targetId, apps[0]!), eq(activityLog.action, 'application.stage_changed')))
		expect(lines.map((l) => l.detail)).toEqual([expect.objectContaining({ from: 'applied', to: 'screening' })])
		const [event] = await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from events where type = 'application.stage_changed' and data->>'applicationId' = ${apps[0]!}`,
		)
		expect(event!.n).toBe(1)
		// The same move again (a form sent twice) changes nothing, and the board says so.
		const again = await recruiter.submit(`/applications/${apps[0]}/stage`, { stageKey: 'screening', back: `/jobs/${job}` })
		expect(again.redirectedTo).toBe(`/jobs/${job}?done=not-moved#done`)
		expect(again.text).toContain('The application was already in that stage; nothing changed.')
		// Somewhere else than a job's board is not a place to come back to: the application page.
		const elsewhere = await recruiter.post(`/applications/${apps[0]}/stage`, { stageKey: 'offer', back: 'https://evil.example/jobs/x' })
		expect(elsewhere.headers.get('location')).toBe(`/applications/${apps[0]}?done=stage#done`)
	})

	test('with script: JSON says what moved; a stage that is not one is refused in words; a hiring manager off the team gets 404', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await recruiter.get(`/jobs/${job}`)
		const json = { accept: 'application/json' }
		const moved = await recruiter.post(`/applications/${apps[1]}/stage`, { stageKey: 'submitted', back: `/jobs/${job}` }, json)
		expect(moved.status).toBe(200)
		expect(JSON.parse(moved.text)).toMatchObject({
			moved: true,
			from: { key: 'applied', label: 'Applied' },
			to: { key: 'submitted', label: 'Submitted to client' },
		})
		expect(await stageOf(apps[1]!)).toBe('submitted')
		const again = await recruiter.post(`/applications/${apps[1]}/stage`, { stageKey: 'submitted', back: `/jobs/${job}` }, json)
		expect(JSON.parse(again.text)).toMatchObject({ moved: false })
		const bad = await recruiter.post(`/applications/${apps[1]}/stage`, { stageKey: 'nowhere', back: `/jobs/${job}` }, json)
		expect(bad.status).toBe(422)
		expect(JSON.parse(bad.text).error).toContain('stages')
		const manager = await signedIn(await newPerson(ws, 'hiring_manager', {}, deps))
		await manager.get('/portal')
		const off = await manager.post(`/applications/${apps[2]}/stage`, { stageKey: 'offer', back: `/jobs/${job}` }, json)
		expect(off.status).toBe(404)
		expect(await stageOf(apps[2]!)).toBe('applied')
	})
})
