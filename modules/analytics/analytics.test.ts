/**
 * Careers analytics: the job page records views with their source (utm_source, referring site,
 * direct; crawlers not counted), applications are recorded through `recordCareersEvent`, and
 * get_analytics_summary (through the official MCP client, for every role) computes totals,
 * conversion, top jobs and sources, the change against the previous period and its insights.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { call, clock, newVendor, newWorkspace, plain, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { jobs } from '../jobs/table.ts'
import { careersSource, normalizeSource, recordCareersEvent } from './index.ts'
import { operatorActor } from '../auth/index.ts'
import { careersPerDay, periodOf } from './service.ts'
import { careersEvents } from './table.ts'

setDefaultTimeout(30_000)
const DAY = 86_400_000

let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson>; java: string; dba: string; qa: string }

/** `n` events of one kind for a job and source, `daysAgo` days back. */
async function events(jobId: string, kind: 'view' | 'application', source: string, n: number, daysAgo: number) {
	const deps = await testDeps()
	const at = new Date(Date.now() - daysAgo * DAY - 60_000)
	await deps.db.insert(careersEvents).values(Array.from({ length: n }, () => ({ id: newId('cev'), workspaceId: w.ws.id, jobId, kind, source, at })))
}

beforeAll(async () => {
	await testApp()
	const { ws, people } = await everyRole()
	const java = await newVendorJob(ws, { title: 'Senior Java Developer' })
	const dba = await newVendorJob(ws, { title: 'Oracle DBA' })
	const qa = await newVendorJob(ws, { title: 'QA Automation Engineer' })
	await onTeam(java, people.hiring_manager.userId)
	w = { ws, people, java, dba, qa }
	// Last 30 days: 200 views and 10 applications on Java (LinkedIn converts, Indeed does not),
	// 50 views and none on the DBA job; 2 days ago a burst on QA. The 30 days before: 100 views, 4 applications.
	await events(java, 'view', 'linkedin', 80, 3)
	await events(java, 'application', 'linkedin', 8, 3)
	await events(java, 'view', 'indeed', 100, 5)
	await events(java, 'application', 'indeed', 1, 5)
	await events(java, 'view', 'direct', 20, 10)
	await events(java, 'application', 'direct', 1, 10)
	await events(dba, 'view', 'google', 50, 20)
	await events(qa, 'view', 'linkedin', 30, 2)
	await events(qa, 'application', 'linkedin', 3, 2)
	await events(java, 'view', 'linkedin', 100, 40)
	await events(java, 'application', 'linkedin', 4, 40)
	await events(java, 'view', 'linkedin', 500, 70)
}, 120_000)
afterAll(closeClients)

describe('recording', () => {
	test('the job page records a view with its source; crawlers, HEAD requests and other pages do not', async () => {
		const ws = await newWorkspace()
		const { apiKey } = await newVendor(ws)
		const res = await call('POST', '/api/v1/jobs', { key: apiKey, body: { vendorJobId: 'A-1', title: 'Analytics Probe' } })
		const path = new URL(res.json.job.url).pathname
		expect((await call('GET', `${path}?utm_source=LinkedIn&utm_medium=social`)).status).toBe(200)
		await call('GET', path, { headers: { referer: 'https://www.google.co.uk/search?q=jobs' } })
		await call('GET', path, { headers: { referer: 'https://news.example.org/article' } })
		await call('GET', path)
		await call('GET', path, { headers: { referer: `http://localhost/careers/${ws.slug}` } })
		await call('GET', path, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' } })
		// A link checker's HEAD shows the page to nobody.
		expect((await call('HEAD', path, { headers: { referer: 'https://www.bing.com/' } })).status).toBe(200)
		await call('GET', `/careers/${ws.slug}`)
		const deps = await testDeps()
		const rows = await deps.db
			.select({ kind: careersEvents.kind, source: careersEvents.source })
			.from(careersEvents)
			.where(eq(careersEvents.workspaceId, ws.id))
		expect(rows.map((r) => r.source).sort()).toEqual(['careers_site', 'direct', 'google', 'linkedin', 'news.example.org'])
		expect(rows.every((r) => r.kind === 'view')).toBe(true)
	})

	test('sources are normalised; a failed insert never breaks the page', async () => {
		expect(normalizeSource(' Indeed.com ')).toBe('indeed')
		expect(normalizeSource('')).toBe('direct')
		expect(normalizeSource('Spring Newsletter!')).toBe('spring_newsletter')
		expect(careersSource(new Request('http://localhost/x?utm_source=dice'))).toBe('dice')
		const deps = await testDeps()
		await recordCareersEvent(deps, { workspaceId: 'ws_missing', jobId: 'job_missing', kind: 'application', source: 'linkedin' })
		await recordCareersEvent(deps, { workspaceId: w.ws.id, jobId: w.qa, kind: 'view', source: null })
	})
})

describe('get_analytics_summary', () => {
	test('totals, conversion, change against the previous period, top jobs and sources, insights', async () => {
		const got = await w.people.recruiter.tool('get_analytics_summary', {})
		expect(got.isError).toBe(false)
		const s = plain(got.data)
		expect(s.range).toBe(30)
		expect(new Date(s.to).getTime() - new Date(s.from).getTime()).toBe(30 * DAY)
		expect(s.totals).toEqual({ views: 280, applications: 13, conversionRate: 4.6 })
		expect(s.previous).toEqual({ views: 100, applications: 4, conversionRate: 4 })
		expect(s.change).toEqual({ views: 180, applications: 225, conversionRate: 0.6 })
		expect(s.topJobs.map((j: any) => [j.title, j.views, j.applications, j.conversionRate])).toEqual([
			['Senior Java Developer', 200, 10, 5],
			['QA Automation Engineer', 30, 3, 10],
			['Oracle DBA', 50, 0, 0],
		])
		expect(s.topSources.map((x: any) => [x.source, x.label, x.views, x.applications])).toEqual([
			['linkedin', 'LinkedIn', 110, 11],
			['indeed', 'Indeed', 100, 1],
			['direct', 'Direct visits', 20, 1],
			['google', 'Google', 50, 0],
		])
		expect(s.insights).toEqual([
			'Job page views rose 180%, from 100 to 280, and applications rose 225%, from 4 to 13, compared with the previous 30 days.',
			'4.6% of job page views turned into applications, up from 4%.',
			'LinkedIn brought the most applications: 11 of 13 (84.6%).',
			'Indeed sends 35.7% of the views but converts at 1%, under half the 4.6% average: review how your jobs appear there.',
			'QA Automation Engineer converts best: 10% of its 30 views became applications.',
			'Oracle DBA had at least 20 views but no applications.',
		])
		// Our sentences are plain; one quoting a source (a link's words) or a job's title is labelled with who wrote that.
		expect(got.data.insights.map((i: any) => (typeof i === 'string' ? 'ours' : i.writtenBy))).toEqual([
			'ours',
			'ours',
			'outside',
			'outside',
			'colleague',
			'colleague',
		])
		expect(got.data.topSources[0]).toMatchObject({
			source: { untrusted: true, writtenBy: 'outside', text: 'linkedin' },
			label: { untrusted: true, writtenBy: 'outside', text: 'LinkedIn' },
		})
		expect(got.data.topJobs[0].title).toMatchObject({ untrusted: true, writtenBy: 'colleague', text: 'Senior Java Developer' })
	})

	test('range 7; only 7 or 30; hiring managers see their jobs; viewers have no analytics', async () => {
		const week = (await w.people.owner.tool('get_analytics_summary', { range: 7 })).data
		expect(week.totals).toEqual({ views: 210, applications: 12, conversionRate: 5.7 })
		expect(week.previous).toEqual({ views: 20, applications: 1, conversionRate: 5 })
		for (const bad of [14, '30', 0]) expect((await w.people.owner.tool('get_analytics_summary', { range: bad })).isError).toBe(true)
		const hm = plain((await w.people.hiring_manager.tool('get_analytics_summary', {})).data)
		expect(hm.topJobs.map((j: any) => j.title)).toEqual(['Senior Java Developer'])
		expect(hm.totals).toEqual({ views: 200, applications: 10, conversionRate: 5 })
		expect(await w.people.viewer.toolNames()).not.toContain('get_analytics_summary')
		for (const role of ['owner', 'admin', 'recruiter'] as const) expect((await w.people[role].tool('get_analytics_summary', {})).data.totals.views).toBe(280)
	})

	test('a workspace without traffic gets a plain sentence, not an error', async () => {
		const { people } = await everyRole()
		const s = (await people.admin.tool('get_analytics_summary', { range: 7 })).data
		expect(s.totals).toEqual({ views: 0, applications: 0, conversionRate: null })
		expect(s.change).toEqual({ views: null, applications: null, conversionRate: null })
		expect(s.insights).toEqual(['No careers-site visits or applications were recorded in the last 7 days.'])
	})
})

test('demo data: sixty days of events on open jobs only, none after now', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const { seedCareersEvents } = await import('./seed.ts')
	const open = await newVendorJob(ws, { title: 'Open Role' })
	const closed = await newVendorJob(ws, { title: 'Closed Role', status: 'Closed' })
	await deps.db
		.update(jobs)
		.set({ publishedAt: new Date(Date.now() - 90 * DAY) })
		.where(eq(jobs.id, open))
	await seedCareersEvents(deps, ws)
	const rows = await deps.db.select().from(careersEvents).where(eq(careersEvents.workspaceId, ws.id))
	// A job's popularity is drawn from its (random) id, so only the floor is certain: every weekday of the
	// sixty gets at least one view, and any three days in a row hold a weekday.
	expect(rows.length).toBeGreaterThanOrEqual(40)
	expect(Math.min(...rows.map((r) => r.at.getTime()))).toBeLessThan(Date.now() - 57 * DAY)
	expect(rows.every((r) => r.jobId === open && r.at.getTime() > Date.now() - 61 * DAY)).toBe(true)
	expect(rows.filter((r) => r.at.getTime() > Date.now())).toEqual([])
	expect(closed).toBeTruthy()
	await seedCareersEvents(deps, ws)
	expect((await deps.db.select().from(careersEvents).where(eq(careersEvents.workspaceId, ws.id))).length).toBe(rows.length)
})

test('a day’s bar is that whole UTC day in every chart: the last 7 days start mid-day, their first bar does not', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const job = await newVendorJob(ws, { title: 'Chart Role' })
	const noon = Date.parse('2026-03-20T12:00:00Z')
	const firstDay = '2026-03-13'
	// Before and after noon on the day the last 7 days start in (at noon), and one the day after.
	const at = [`${firstDay}T06:00:00Z`, `${firstDay}T18:00:00Z`, '2026-03-14T09:00:00Z'].map((t) => new Date(t))
	await deps.db
		.insert(careersEvents)
		.values(at.map((t) => ({ id: newId('cev'), workspaceId: ws.id, jobId: job, kind: 'view' as const, source: 'direct', at: t })))
	clock.offsetMs = noon - Date.now()
	try {
		const actor = operatorActor(ws)
		const week = await careersPerDay(deps, actor, periodOf(deps, 7))
		const month = await careersPerDay(deps, actor, periodOf(deps, 30))
		const home = await careersPerDay(deps, actor, { from: new Date(Date.parse('2026-03-07T00:00:00Z')), to: deps.now() })
		expect(week[0]).toEqual({ day: firstDay, views: 2, applications: 0 })
		for (const chart of [month, home]) expect(chart.find((d) => d.day === firstDay)).toEqual(week[0]!)
		expect(week.map((d) => d.day)).toHaveLength(8)
	} finally {
		clock.reset()
	}
})
