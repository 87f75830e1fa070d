/**
 * /activity in words and narrowed: a stage change names the stage it left and the one it entered
 * (an older line says what it recorded), and the page filters by person, record type and days in
 * a GET form whose values stay in the address and the pager; filters that are not valid answer 422
 * with the values kept, never 500.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { newId } from '../../core/credentials.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { moveToStage } from '../candidates/index.ts'
import { recordActivity } from './index.ts'
import { activity } from './table.ts'

beforeAll(async () => {
	await portalApp()
}, 30_000)

/** The page as a person reads it: text only, one space between words. */
const readable = (html: string) =>
	html
		.replace(/<[^>]+>/g, ' ')
		.replace(/&amp;/g, '&')
		.replace(/&#39;/g, "'")
		.replace(/\s+/g, ' ')
/** The "What happened" sentences, in the order shown. */
const sentences = (html: string) => [...html.matchAll(/<td data-label="What happened">([\s\S]*?)<\/td>/g)].map((m) => readable(m[1]!).trim())

/** A line written at a given time (the log's own writer stamps the current time). */
async function lineAt(ws: TestWorkspace, at: string, o: { action: string; targetType: string; targetId: string; name?: string; userId?: string | null }) {
	const deps = await testDeps()
	await deps.db.insert(activity).values({
		id: newId('act'),
		workspaceId: ws.id,
		at: new Date(at),
		actorUserId: o.userId ?? null,
		actorName: o.name ?? 'Operator',
		credentialKind: o.userId ? 'session' : 'cli',
		credentialId: o.userId ? 'ses_test' : 'cli',
		credentialName: o.userId ? 'Portal' : 'CLI',
		action: o.action,
		targetType: o.targetType,
		targetId: o.targetId,
	})
}

describe('a stage change in words', () => {
	test('names the stage left and the one entered; an older line says what it recorded', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const deps = await testDeps()
		const actor = await personActor(deps, ws.slug, owner.email)
		const candidateId = await newCandidate(ws, { name: 'Jane Doe' }, deps)
		const jobId = await newVendorJob(ws, { title: 'Platform Engineer' }, deps)
		const applicationId = await newApplication(ws, candidateId, jobId, {}, deps)
		await moveToStage(deps, actor, { applicationId, stageKey: 'screening' })
		await moveToStage(deps, actor, { applicationId, stageKey: 'client_interview' })
		// Lines from before the stages were recorded: one knows only where it went, one nothing.
		await recordActivity(deps.db, actor, { action: 'application.stage_changed', targetType: 'application', targetId: applicationId, detail: { to: 'offer' } })
		await recordActivity(deps.db, actor, { action: 'application.stage_changed', targetType: 'application', targetId: applicationId })
		const page = await (await signedIn(owner)).get('/activity')
		expect(page.status).toBe(200)
		const name = 'owner person'
		expect(sentences(page.text).slice(0, 4)).toEqual([
			`${name} moved Jane Doe for Platform Engineer`,
			`${name} moved Jane Doe for Platform Engineer to Offer`,
			`${name} moved Jane Doe for Platform Engineer from Screening to Client interview`,
			`${name} moved Jane Doe for Platform Engineer from Applied to Screening`,
		])
		expect(page.text).not.toContain('stage changed')
		// The application is a link, the stages plain words after it.
		expect(page.text).toContain(`<a href="/applications/${applicationId}">Jane Doe for Platform Engineer</a> from Applied to Screening`)
	})
})

describe('filters', () => {
	let ws: TestWorkspace
	let owner: Awaited<ReturnType<typeof newPerson>>
	let ownerId: string
	let recruiterId: string

	beforeAll(async () => {
		ws = await newWorkspace()
		owner = await newPerson(ws, 'owner')
		ownerId = owner.userId
		recruiterId = (await newPerson(ws, 'recruiter')).userId
		// The recruiter: 60 job lines in January 2020 and a candidate line on 15 March 2020; the owner: a job line on 10 March 2020; the CLI: a vendor line.
		for (let i = 0; i < 60; i++)
			await lineAt(ws, `2020-01-${String(1 + (i % 28)).padStart(2, '0')}T12:${String(i).padStart(2, '0')}:00Z`, {
				action: 'job.checked',
				targetType: 'job',
				targetId: `job_${i}`,
				name: 'recruiter person',
				userId: recruiterId,
			})
		await lineAt(ws, '2020-03-15T12:00:00Z', {
			action: 'candidate.reviewed',
			targetType: 'candidate',
			targetId: 'cand_x',
			name: 'recruiter person',
			userId: recruiterId,
		})
		await lineAt(ws, '2020-03-10T12:00:00Z', { action: 'job.reviewed', targetType: 'job', targetId: 'job_o', name: 'owner person', userId: ownerId })
		await lineAt(ws, '2020-02-01T12:00:00Z', { action: 'vendor.checked', targetType: 'vendor', targetId: 'ven_x' })
	})

	const whoAndWhat = (html: string) => sentences(html).map((s) => s.split(' ').slice(0, 4).join(' '))

	test('the form offers the people who acted and the record types in the log; a filter narrows the lines', async () => {
		const portal = await signedIn(owner)
		const all = await portal.get('/activity')
		expect(all.text).toContain('<form method="get" action="/activity"')
		expect(all.text).toContain(`<option value="${recruiterId}">recruiter person</option>`)
		expect(all.text).toContain(`<option value="${ownerId}">owner person</option>`)
		for (const [type, label] of [
			['candidate', 'Candidate'],
			['job', 'Job'],
			['vendor', 'Vendor'],
		])
			expect(all.text).toContain(`<option value="${type}">${label}</option>`)

		const owners = await portal.get(`/activity?person=${ownerId}`)
		expect(owners.status).toBe(200)
		expect(whoAndWhat(owners.text)).toEqual(['owner person job: reviewed'])
		expect(owners.text).toContain(`<option value="${ownerId}" selected>owner person</option>`)

		const candidates = await portal.get('/activity?type=candidate')
		expect(whoAndWhat(candidates.text)).toEqual(['recruiter person candidate: reviewed'])

		// Days: From and Until both included, whole days.
		const march = await portal.get('/activity?from=2020-03-10&until=2020-03-15')
		expect(whoAndWhat(march.text)).toEqual(['recruiter person candidate: reviewed', 'owner person job: reviewed'])
		expect(march.text).toContain('value="2020-03-10"')
		expect(march.text).toContain('value="2020-03-15"')
		const oneDay = await portal.get('/activity?from=2020-03-10&until=2020-03-10')
		expect(whoAndWhat(oneDay.text)).toEqual(['owner person job: reviewed'])

		// All together, and nothing matching says so.
		const none = await portal.get(`/activity?person=${ownerId}&type=candidate`)
		expect(none.status).toBe(200)
		expect(none.text).toContain('Nothing in the activity matches these filters.')
	})

	test('the pager keeps the filters: the recruiter’s 61 lines come in two pages, newest first', async () => {
		const portal = await signedIn(owner)
		const first = await portal.get(`/activity?person=${recruiterId}`)
		expect(sentences(first.text)).toHaveLength(50)
		const next = first.text.match(/<a href="(\/activity\?[^"]+)" rel="next">Next page<\/a>/)?.[1]?.replace(/&amp;/g, '&')
		expect(next).toStartWith(`/activity?person=${recruiterId}&before=`)
		const second = await portal.get(next!)
		expect(second.status).toBe(200)
		expect(sentences(second.text)).toHaveLength(11)
		expect(second.text).toContain(`<a href="/activity?person=${recruiterId}">First page</a>`)
		expect(new Set(whoAndWhat(second.text))).toEqual(new Set(['recruiter person job: checked']))
		const times = [...first.text.matchAll(/<time datetime="([^"]+)">/g), ...second.text.matchAll(/<time datetime="([^"]+)">/g)].map((m) => Date.parse(m[1]!))
		expect(times).toEqual([...times].sort((x, y) => y - x))
		// Only the recruiter's lines on both pages: 60 job lines and the candidate line.
		expect(times).toHaveLength(61)
	})

	test('filters that are not valid answer 422 with each problem, the values kept and no lines, never 500', async () => {
		const portal = await signedIn(owner)
		const bad = await portal.get('/activity?person=usr_nobody&type=spaceship&from=yesterday&until=2020-13-45')
		expect(bad.status).toBe(422)
		expect(bad.text).toContain('class="error-summary"')
		for (const message of [
			'Choose a person from the list',
			'Choose a record type from the list',
			'From must be a date such as 2026-01-31',
			'Until must be a date such as 2026-01-31',
		])
			expect(bad.text).toContain(`>${message}</a>`)
		expect(bad.text).toContain('<option value="usr_nobody" selected>usr_nobody (not in the log)</option>')
		expect(bad.text).toContain('<option value="spaceship" selected>spaceship (not in the log)</option>')
		expect(bad.text).toContain('value="yesterday"')
		expect(bad.text).toContain('value="2020-13-45"')
		expect(sentences(bad.text)).toEqual([])

		const backwards = await portal.get('/activity?from=2020-03-15&until=2020-03-10')
		expect(backwards.status).toBe(422)
		expect(backwards.text).toContain('>Until must be the same day as From or later</a>')

		// A page address changed by hand: said on the page, the filters kept.
		const tampered = await portal.get(`/activity?type=job&before=not-a-cursor`)
		expect(tampered.status).toBe(422)
		expect(tampered.text).toContain('<option value="job" selected>Job</option>')

		// A control character is not echoed into the page (a NUL went into an <option> as it came).
		const nul = await portal.get('/activity?person=usr_x%00y&type=job%01')
		expect(nul.status).toBe(422)
		expect(nul.text).not.toMatch(/[\u0000\u0001]/)
		expect(nul.text).toContain('<option value="usr_xy" selected>usr_xy (not in the log)</option>')

		// Over-long values are refused before anything is read (the query's schema), not a 500.
		const long = await portal.get(`/activity?person=${'x'.repeat(300)}`)
		expect(long.status).toBeGreaterThanOrEqual(400)
		expect(long.status).toBeLessThan(500)
	})
})
