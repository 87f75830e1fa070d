/**
 * The jobs pages (`/jobs`, `/jobs/new`, `/jobs/<id>`, the status and actively-hiring buttons),
 * in-process through the real sign-in, with every role: the same role rules as the job tools,
 * nothing out of reach, no 500, CSRF on every form, bad input kept and explained, every change in
 * the activity log with the portal session.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'
import { jobs, jobTeam } from './table.ts'

setDefaultTimeout(30_000)

type Who = 'owner' | 'admin' | 'recruiter' | 'granted' | 'manager' | 'outsider' | 'viewer'
let deps: AppDeps
let ws: TestWorkspace
let people: Record<Who, { userId: string; email: string; password: string }>
const portal = {} as Record<Who, PortalClient>
let teamJob: string
let otherJob: string
let foreignJob: string

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	const add = (role: string, grants?: string[]) => newPerson(ws, role, { grants }, deps)
	people = {
		owner: await add('owner'),
		admin: await add('admin'),
		recruiter: await add('recruiter'),
		granted: await add('recruiter', ['jobs:actively_hiring']),
		manager: await add('hiring_manager'),
		outsider: await add('hiring_manager'),
		viewer: await add('viewer'),
	}
	teamJob = await newVendorJob(ws, { title: 'Team Java Developer', status: 'Draft' }, deps)
	otherJob = await newVendorJob(ws, { title: 'Other Team Analyst' }, deps)
	await deps.db.insert(jobTeam).values({ jobId: teamJob, userId: people.manager.userId })
	foreignJob = await newVendorJob(await newWorkspace(deps), { title: 'Foreign Secret Role' }, deps)
	for (const who of Object.keys(people) as Who[]) portal[who] = await signedIn(people[who])
}, 60_000)

const statusOf = async (id: string) => (await deps.db.select({ status: jobs.status, activelyHiring: jobs.activelyHiring }).from(jobs).where(eq(jobs.id, id)))[0]
const logFor = (targetId: string) =>
	deps.db
		.select()
		.from(activity)
		.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, targetId)))
		.orderBy(asc(activity.at), asc(activity.seq))
/** The button names of the forms on a page. */
/** The page's own buttons (in <main>: not the header's, the shortcut list's or Sign out). */
const buttons = (text: string) =>
	[...text.slice(text.indexOf('<main'), text.indexOf('</main>')).matchAll(/<button type="submit"[^>]*>([^<]+)<\/button>/g)].map((m) => m[1])

describe('who opens which jobs page', () => {
	const expected: Record<Who, { list: number; form: number; team: number; other: number }> = {
		owner: { list: 200, form: 200, team: 200, other: 200 },
		admin: { list: 200, form: 200, team: 200, other: 200 },
		recruiter: { list: 200, form: 200, team: 200, other: 200 },
		granted: { list: 200, form: 200, team: 200, other: 200 },
		manager: { list: 200, form: 200, team: 200, other: 404 },
		outsider: { list: 200, form: 200, team: 404, other: 404 },
		viewer: { list: 200, form: 403, team: 200, other: 200 },
	}
	for (const who of Object.keys(expected) as Who[]) {
		test(`${who}: /jobs, /jobs/new, a job in reach or not, another workspace's job`, async () => {
			const p = portal[who]
			const e = expected[who]
			const list = await p.get('/jobs')
			expect(list.status).toBe(e.list)
			// Hiring managers list only their team's jobs; nobody lists another workspace's.
			expect(list.text.includes('Team Java Developer')).toBe(e.team === 200)
			expect(list.text.includes('Other Team Analyst')).toBe(e.other === 200)
			expect(list.text).not.toContain('Foreign Secret Role')
			expect(list.text.includes('>New job</a>')).toBe(e.form === 200)
			expect((await p.get('/jobs/new')).status).toBe(e.form)
			expect((await p.get(`/jobs/${teamJob}`)).status).toBe(e.team)
			expect((await p.get(`/jobs/${otherJob}`)).status).toBe(e.other)
			const foreign = await p.get(`/jobs/${foreignJob}`)
			expect(foreign.status).toBe(404)
			expect(foreign.text).not.toContain('Foreign Secret Role')
			// Out of reach answers exactly like absent (and an id no job can have, without a query).
			expect((await p.get('/jobs/job_doesnotexist')).status).toBe(404)
			expect((await p.get('/jobs/%00nul')).status).toBe(404)
			for (const path of [`/jobs/${teamJob}?stage=applied`, `/jobs/${teamJob}?list=bench`, `/jobs/${foreignJob}?stage=applied`])
				expect((await p.get(path)).status).toBeLessThan(500)
		})
	}

	test('signed out: every jobs page sends to sign-in', async () => {
		const { app } = await portalApp()
		for (const path of ['/jobs', '/jobs/new', `/jobs/${teamJob}`]) {
			const res = await app.handle(new Request(`http://localhost${path}`))
			expect(res.status).toBe(303)
			expect(res.headers.get('location')).toStartWith('/sign-in')
		}
	})
})

describe('status and actively-hiring buttons', () => {
	test('only owners and admins get Publish, Close and Move to draft; the flag with its permission', async () => {
		const shown: Record<Who, string[]> = {} as never
		for (const who of ['owner', 'admin', 'recruiter', 'granted', 'manager', 'viewer'] as const)
			shown[who] = buttons((await portal[who].get(`/jobs/${teamJob}`)).text)
		// The job is a Draft: publishing or closing it are the changes there are; its hiring team
		// (the manager on it, others to add) is changed with the same permission.
		expect(shown.owner).toEqual(['Publish', 'Close', 'Actively hiring', 'Take off the team', 'Add to the team'])
		expect(shown.admin).toEqual(['Publish', 'Close', 'Actively hiring', 'Take off the team', 'Add to the team'])
		expect(shown.granted).toEqual(['Actively hiring'])
		for (const who of ['recruiter', 'manager', 'viewer'] as const) expect(shown[who]).toEqual([])
	})

	test('an owner publishes, closes and drafts a job; each change is logged with the portal session', async () => {
		const job = await newVendorJob(ws, { title: 'Status Walk', status: 'Draft' }, deps)
		const owner = portal.owner
		await owner.get(`/jobs/${job}`)
		const published = await owner.submit(`/jobs/${job}/status`, { status: 'Open' })
		expect(published.redirectedTo).toBe(`/jobs/${job}?done=published#done`)
		expect(published.text).toContain('The job is published')
		expect(buttons(published.text)).toEqual(expect.arrayContaining(['Close', 'Move to draft']))
		expect(buttons(published.text)).not.toContain('Publish')
		expect((await statusOf(job))!.status).toBe('Open')
		await owner.submit(`/jobs/${job}/status`, { status: 'Closed' })
		expect((await statusOf(job))!.status).toBe('Closed')
		const drafted = await owner.submit(`/jobs/${job}/status`, { status: 'Draft' })
		expect(drafted.text).toContain('The job is back to Draft')
		expect((await statusOf(job))!.status).toBe('Draft')
		const log = await logFor(job)
		expect(log.map((l) => [l.action, l.credentialKind, l.actorUserId, l.detail])).toEqual([
			['job.status_set', 'session', people.owner.userId, { from: 'Draft', to: 'Open' }],
			['job.status_set', 'session', people.owner.userId, { from: 'Open', to: 'Closed' }],
			['job.status_set', 'session', people.owner.userId, { from: 'Closed', to: 'Draft' }],
		])
		expect((await owner.post(`/jobs/${job}/status`, { status: 'Live' })).status).toBe(422)
		expect((await statusOf(job))!.status).toBe('Draft')
	})

	test('a recruiter, hiring manager or viewer posting to the status route is refused and nothing changes', async () => {
		const job = await newVendorJob(ws, { title: 'Refused Walk', status: 'Draft' }, deps)
		await deps.db.insert(jobTeam).values({ jobId: job, userId: people.manager.userId })
		for (const who of ['recruiter', 'granted', 'manager', 'viewer'] as const) {
			await portal[who].get('/jobs')
			expect((await portal[who].post(`/jobs/${job}/status`, { status: 'Open' })).status).toBe(403)
		}
		// An owner of another workspace reaches nothing here.
		expect((await portal.owner.post(`/jobs/${foreignJob}/status`, { status: 'Closed' })).status).toBe(404)
		expect((await statusOf(job))!.status).toBe('Draft')
		expect((await statusOf(foreignJob))!.status).toBe('Open')
		expect(await logFor(job)).toEqual([])
	})

	test('actively hiring: on and off with the permission (granted to a recruiter too), refused without it', async () => {
		const job = await newVendorJob(ws, { title: 'Hiring Flag' }, deps)
		const granted = portal.granted
		const page = await granted.get(`/jobs/${job}`)
		expect(page.text).toContain('aria-pressed="false">Actively hiring</button>')
		const on = await granted.submit(`/jobs/${job}/actively-hiring`, { activelyHiring: 'on' })
		expect(on.redirectedTo).toBe(`/jobs/${job}?done=hiring-on#done`)
		expect(on.text).toContain('aria-pressed="true">Actively hiring</button>')
		expect((await statusOf(job))!.activelyHiring).toBe(true)
		for (const who of ['recruiter', 'manager', 'viewer'] as const) {
			await portal[who].get('/jobs')
			expect((await portal[who].post(`/jobs/${job}/actively-hiring`, { activelyHiring: 'off' })).status).toBe(403)
		}
		expect((await statusOf(job))!.activelyHiring).toBe(true)
		await portal.admin.get(`/jobs/${job}`)
		expect((await portal.admin.submit(`/jobs/${job}/actively-hiring`, { activelyHiring: 'off' })).text).toContain('no longer marked as actively hiring')
		expect((await statusOf(job))!.activelyHiring).toBe(false)
		const log = await logFor(job)
		expect(log.map((l) => [l.action, l.credentialKind, l.actorUserId])).toEqual([
			['job.actively_hiring_on', 'session', people.granted.userId],
			['job.actively_hiring_off', 'session', people.admin.userId],
		])
		expect((await granted.post(`/jobs/${job}/actively-hiring`, { activelyHiring: 'maybe' })).status).toBe(422)
	})

	test('every form refuses a post without its CSRF token, and changes nothing', async () => {
		const job = await newVendorJob(ws, { title: 'Forged Post', status: 'Draft' }, deps)
		const owner = portal.owner
		await owner.get('/jobs')
		const before = (await deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.workspaceId, ws.id))).length
		const forged = (path: string, form: Record<string, string>) => owner.request('POST', path, { form })
		expect((await forged(`/jobs/${job}/status`, { status: 'Open' })).status).toBe(403)
		expect((await forged(`/jobs/${job}/actively-hiring`, { activelyHiring: 'on' })).status).toBe(403)
		expect((await forged('/jobs/new', { title: 'Forged job' })).status).toBe(403)
		expect((await forged(`/jobs/${job}/status`, { status: 'Open', csrf: 'not-the-token' })).status).toBe(403)
		expect(await statusOf(job)).toEqual({ status: 'Draft', activelyHiring: false })
		expect((await deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.workspaceId, ws.id))).length).toBe(before)
	})
})

describe('the jobs list', () => {
	test('filters by status and title, pages with Next page, says what is empty', async () => {
		const w = await newWorkspace(deps)
		for (let i = 0; i < 27; i++) await newVendorJob(w, { title: `Paged Role ${String(i).padStart(2, '0')}`, status: i % 3 === 0 ? 'Closed' : 'Open' }, deps)
		const owner = await signedIn(await newPerson(w, 'owner', {}, deps))
		const first = await owner.get('/jobs?q=paged')
		expect(first.text.match(/Paged Role \d\d/g)!.length).toBe(25)
		const next = first.text.match(/href="([^"]+)" rel="next">Next page/)![1]!.replaceAll('&amp;', '&')
		const second = await owner.get(next)
		expect(second.text.match(/Paged Role \d\d/g)!.length).toBe(2)
		expect(second.text).toContain('>First page</a>')
		const closed = await owner.get('/jobs?status=Closed')
		expect(closed.text.match(/Paged Role \d\d/g)!.length).toBe(9)
		expect(closed.text).toContain('<option value="Closed" selected>')
		expect((await owner.get('/jobs?q=nothing+like+this')).text).toContain('No jobs match these filters')
	})

	test('a bad filter or page link is a 422 with the values kept, never a 500', async () => {
		const owner = portal.owner
		const status = await owner.get('/jobs?status=Live&q=java')
		expect(status.status).toBe(422)
		expect(status.text).toContain('Status must be Open, Draft or Closed')
		expect(status.text).toContain('value="java"')
		const long = 'x'.repeat(121)
		const query = await owner.get(`/jobs?q=${long}`)
		expect(query.status).toBe(422)
		expect(query.text).toContain('Title search must be at most 120 characters')
		expect(query.text).toContain(`value="${long}"`)
		const cursor = await owner.get('/jobs?cursor=forged.cursor')
		expect(cursor.status).toBe(422)
		expect(cursor.text).toContain('This page link is out of date')
		expect((await owner.get(`/jobs?q=${'y'.repeat(2000)}`)).status).toBeLessThan(500)
	})
})
