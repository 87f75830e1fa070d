/**
 * The analytics page (`/analytics`) and the home page's charts, as each role sees them: the
 * numbers of `get_analytics_summary` (asked through the MCP client), and every chart's bars and
 * table checked against counts taken from the database in the test, not from the page's code.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newWorkspace, newPerson, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { analyticsCounts, SOURCE_LABELS } from '../../tests/analytics-counts.ts'
import { bars, count, links, parsePage, section, tableRows, textOf } from '../../tests/page-reading.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { recordActivity } from '../activity/index.ts'
import { personActor } from '../auth/index.ts'
import { applications } from '../candidates/table.ts'
import { careersEvents } from './table.ts'

setDefaultTimeout(60_000)
const DAY = 86_400_000
const HOUR = 3_600_000

let deps: AppDeps
let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson>; java: string; dba: string; qa: string; portal: Partial<Record<TestRole, PortalClient>> }

async function events(jobId: string, kind: 'view' | 'application', source: string, n: number, daysAgo: number) {
	const at = new Date(deps.now().getTime() - daysAgo * DAY - 60_000)
	await deps.db.insert(careersEvents).values(Array.from({ length: n }, () => ({ id: newId('cev'), workspaceId: w.ws.id, jobId, kind, source, at })))
}

async function application(jobId: string, o: { daysAgo: number; stage?: string; outcome?: string; kind?: string; movedAfterHours?: number }) {
	const id = newId('app')
	const created = new Date(deps.now().getTime() - o.daysAgo * DAY)
	const moved = o.movedAfterHours === undefined ? created : new Date(created.getTime() + o.movedAfterHours * HOUR)
	await deps.db.insert(applications).values({
		id,
		workspaceId: w.ws.id,
		candidateId: await newCandidate(w.ws, { resume: false }, deps),
		jobId,
		stageKey: o.stage ?? 'applied',
		outcome: o.outcome ?? null,
		kind: o.kind ?? 'applicant',
		createdAt: created,
		stageChangedAt: moved,
	})
	return id
}

const portal = async (role: TestRole) => (w.portal[role] ??= await signedIn(w.people[role]))

beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	const { ws, people } = await everyRole()
	w = {
		ws,
		people,
		java: await newVendorJob(ws, { title: 'Senior Java Developer' }, deps),
		dba: await newVendorJob(ws, { title: 'Oracle DBA' }, deps),
		qa: await newVendorJob(ws, { title: 'QA Automation Engineer' }, deps),
		portal: {},
	}
	await onTeam(w.java, people.hiring_manager.userId)
	await events(w.java, 'view', 'linkedin', 80, 3)
	await events(w.java, 'application', 'linkedin', 8, 3)
	await events(w.java, 'view', 'indeed', 100, 5)
	await events(w.java, 'application', 'indeed', 1, 5)
	await events(w.dba, 'view', 'google', 50, 20)
	await events(w.dba, 'application', 'google', 2, 20)
	await events(w.qa, 'view', 'linkedin', 30, 2)
	await events(w.qa, 'application', 'dice', 3, 10)
	await events(w.java, 'view', 'linkedin', 100, 40)
	await events(w.java, 'application', 'linkedin', 4, 40)
	// Applications received: in the last 30 days (some moved on, one moved and logged), and before.
	await application(w.java, { daysAgo: 2, stage: 'screening', movedAfterHours: 6 })
	await application(w.java, { daysAgo: 4, stage: 'submitted', movedAfterHours: 30 })
	await application(w.java, { daysAgo: 4, stage: 'applied' })
	await application(w.dba, { daysAgo: 12, stage: 'client_interview', movedAfterHours: 100 })
	await application(w.dba, { daysAgo: 15, stage: 'hired', outcome: 'hired', movedAfterHours: 400 })
	await application(w.qa, { daysAgo: 1, stage: 'applied', outcome: 'rejected' })
	await application(w.qa, { daysAgo: 3, stage: 'offer', kind: 'lead' })
	const logged = await application(w.qa, { daysAgo: 6, stage: 'screening', movedAfterHours: 50 })
	const owner = await personActor(deps, ws.slug, people.owner.email)
	await recordActivity(deps.db, owner, {
		action: 'application.stage_changed',
		targetType: 'application',
		targetId: logged,
		detail: { from: 'applied', to: 'screening' },
	})
	await deps.database.rows(
		sql`update activity set at = ${new Date(deps.now().getTime() - 6 * DAY + 2 * HOUR).toISOString()}::timestamptz where target_id = ${logged}`,
	)
	await application(w.java, { daysAgo: 45, stage: 'offer' })
}, 120_000)
afterAll(closeClients)

/** The period the page says it covers (its two `<time>` elements). */
function periodOf(html: string) {
	const [from, to] = [...html.matchAll(/<time datetime="([^"]+)">/g)].slice(0, 2).map((m) => new Date(m[1]!))
	return { from: from!, to: to! }
}

const databaseCounts = (period: { from: Date; to: Date }, jobIds: string[]) => analyticsCounts(deps, w.ws.id, period, jobIds)

const TITLES = () => ({ [w.java]: 'Senior Java Developer', [w.dba]: 'Oracle DBA', [w.qa]: 'QA Automation Engineer' })

describe('/analytics', () => {
	test('owners, admins and recruiters see the tool’s numbers and insight sentences; viewers are refused; signed-out people sign in first', async () => {
		for (const role of ['owner', 'admin', 'recruiter', 'hiring_manager'] as const) {
			const res = await (await portal(role)).get('/analytics')
			expect(res.status).toBe(200)
			const tool = (await w.people[role].tool('get_analytics_summary', {})).data
			const page = parsePage(res.text)
			const tiles = section(page, 'totals')
			expect(textOf(tiles)).toContain(`Job page views ${tool.totals.views.toLocaleString('en-US')} `)
			expect(textOf(tiles)).toContain(`Applications ${tool.totals.applications.toLocaleString('en-US')} `)
			for (const insight of tool.insights) expect(textOf(tiles)).toContain(typeof insight === 'string' ? insight : insight.text)
		}
		const viewer = await (await portal('viewer')).get('/analytics')
		expect(viewer.status).toBe(403)
		expect(viewer.text).not.toContain('Job page views')
		const { app } = await portalApp()
		const anonymous = await app.handle(new Request('http://localhost/analytics'))
		expect([anonymous.status, anonymous.headers.get('location')]).toEqual([303, '/sign-in?next=%2Fanalytics'])
	})

	test('every chart of the 30 days shows the database’s numbers, in its bars and in its table', async () => {
		const res = await (await portal('owner')).get('/analytics')
		const page = parsePage(res.text)
		const period = periodOf(res.text)
		expect(period.to.getTime() - period.from.getTime()).toBe(30 * DAY)
		const db = await databaseCounts(period, [w.java, w.dba, w.qa])

		// Per day: one column per UTC day of the period for each series, as many as the database has.
		const columns = bars(section(page, 'per-day'))
		const days = 31
		expect(columns.length).toBe(2 * days)
		for (const kind of ['view', 'application'] as const) {
			const shown = columns.filter((c) => c.series === (kind === 'view' ? 'Job page views' : 'Applications'))
			expect(shown.reduce((s, c) => s + c.value, 0)).toBe(db.perDay.filter((d) => d.kind === kind).reduce((s, d) => s + d.n, 0))
			for (const d of db.perDay.filter((x) => x.kind === kind)) {
				const label = new Date(`${d.day}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' })
				expect({ day: d.day, kind, n: shown.find((c) => c.label === label)?.value }).toEqual({ day: d.day, kind, n: d.n })
			}
			// Each column is as tall as its value against the panel's scale (the tallest one's value or more).
			const max = Math.max(...shown.map((c) => c.value))
			const tallest = Math.max(...shown.map((c) => Number(c.height)))
			for (const c of shown) expect(Number(c.height)).toBeCloseTo((c.value / max) * tallest, 1)
		}
		expect(tableRows(section(page, 'per-day')).reduce((s, r) => s + count(r[1]!) + count(r[2]!), 0)).toBe(db.perDay.reduce((s, d) => s + d.n, 0))

		// By source and by job: the sources and jobs with applications, most first, bars against the largest.
		const sourceBars = bars(section(page, 'by-source'))
		expect(sourceBars.map((b) => [b.label, b.value]).sort()).toEqual(db.bySource.map((s) => [SOURCE_LABELS[s.source]!, s.n]).sort())
		expect(sourceBars.map((b) => b.value)).toEqual([...sourceBars.map((b) => b.value)].sort((a, b) => b - a))
		for (const b of sourceBars) expect(Number(b.width.replace('%', ''))).toBeCloseTo((b.value / sourceBars[0]!.value) * 100, 1)
		expect(
			tableRows(section(page, 'by-source'))
				.map((r) => [r[0], count(r[1]!)])
				.sort(),
		).toEqual(db.bySource.map((s) => [SOURCE_LABELS[s.source]!, s.n]).sort())
		const jobBars = bars(section(page, 'by-job'))
		expect(jobBars.map((b) => [b.label, b.value]).sort()).toEqual(db.byJob.map((j) => [j.title, j.n]).sort())
		expect(links(section(page, 'by-job')).sort()).toEqual(db.byJob.map((j) => `/jobs/${Object.entries(TITLES()).find(([, t]) => t === j.title)![0]}`).sort())

		// The funnel: careers views, then the applicants received and how far they got.
		const funnel = bars(section(page, 'funnel'))
		expect(funnel.map((b) => b.value)).toEqual([db.views, db.received, ...db.reached.slice(1)])
		expect(db.busiestDay).toBeLessThanOrEqual(20)
		expect(funnel.map((b) => b.label)).toEqual([
			'Job page views',
			'Applications received',
			'Screening',
			'Submitted to client',
			'Client interview',
			'Offer',
			'Hired',
		])
		expect(tableRows(section(page, 'funnel')).map((r) => count(r[1]!))).toEqual([db.views, db.received, ...db.reached.slice(1)])

		// Time to first response: answered ones by band, then those still waiting.
		const response = bars(section(page, 'response'))
		expect(response.map((b) => b.value)).toEqual(db.bands)
		expect(response.at(-1)!.label).toBe('Still waiting in Applied')
	})

	test('a hiring manager sees only the jobs of their hiring teams, in every chart', async () => {
		const res = await (await portal('hiring_manager')).get('/analytics')
		expect(res.status).toBe(200)
		for (const other of ['Oracle DBA', 'QA Automation Engineer']) expect(res.text).not.toContain(other)
		const page = parsePage(res.text)
		const db = await databaseCounts(periodOf(res.text), [w.java])
		expect(bars(section(page, 'by-job')).map((b) => [b.label, b.value])).toEqual(db.byJob.map((j) => [j.title, j.n]))
		expect(bars(section(page, 'funnel')).map((b) => b.value)).toEqual([db.views, db.received, ...db.reached.slice(1)])
		expect(bars(section(page, 'response')).map((b) => b.value)).toEqual(db.bands)
		expect(bars(section(page, 'per-day')).reduce((s, c) => s + c.value, 0)).toBe(db.perDay.reduce((s, d) => s + d.n, 0))
	})

	test('the last 7 days with ?range=7; any other range is a clear 422', async () => {
		const owner = await portal('owner')
		const week = await owner.get('/analytics?range=7')
		const period = periodOf(week.text)
		expect(period.to.getTime() - period.from.getTime()).toBe(7 * DAY)
		expect(week.text).toContain('<a href="/analytics?range=7" aria-current="page">Last 7 days</a>')
		const tool = (await w.people.owner.tool('get_analytics_summary', { range: 7 })).data
		const page = parsePage(week.text)
		expect(bars(section(page, 'per-day')).reduce((s, c) => s + c.value, 0)).toBe(tool.totals.views + tool.totals.applications)
		expect(bars(section(page, 'funnel'))[1]!.value).toBe((await databaseCounts(period, [w.java, w.dba, w.qa])).received)
		for (const bad of ['14', '0', 'seven', '30 ']) {
			const res = await owner.get(`/analytics?range=${encodeURIComponent(bad)}`)
			expect([res.status, res.text.includes('range must be 7 or 30')]).toEqual([422, true])
		}
	})

	test('a workspace without data says so instead of drawing empty charts', async () => {
		const ws = await newWorkspace(deps)
		const owner = await signedIn(await newPerson(ws, 'owner', {}, deps))
		const res = await owner.get('/analytics')
		expect(res.status).toBe(200)
		expect(res.text).not.toContain('<svg role="img"')
		for (const sentence of [
			'No job page views or applications were recorded in the last 30 days.',
			'No applications came through your careers site in the last 30 days.',
			'No applications arrived in this period, so there is no response time to show.',
		])
			expect(res.text).toContain(sentence)
	})
})

describe('the home page’s charts', () => {
	test('applications per day for the last 14 days, and the pipeline of the open jobs listed, from the database', async () => {
		const res = await (await portal('recruiter')).get('/portal')
		const page = parsePage(res.text)
		const perDay = bars(section(page, 'applications-per-day'))
		expect(perDay.length).toBe(14)
		const today = Math.floor(deps.now().getTime() / DAY) * DAY
		const [row] = await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from careers_events where workspace_id = ${w.ws.id} and kind = 'application' and at >= ${new Date(today - 13 * DAY).toISOString()}::timestamptz`,
		)
		expect(perDay.reduce((s, b) => s + b.value, 0)).toBe(row!.n)
		expect(textOf(section(page, 'applications-per-day'))).toContain(`${row!.n} applications on your careers site in the last 14 days`)
		// The pipeline: applicants and leads per stage, added up over the open jobs listed; rejected and
		// withdrawn ones stand in no stage (candidates/progress.ts), as on the job's board.
		const listed = links(section(page, 'open-jobs'))
			.filter((l) => l.startsWith('/jobs/job_'))
			.map((l) => l.slice(6))
		const stages = await deps.database.rows<{ label: string; n: number }>(
			sql`select coalesce(s.label, a.stage_key) as label, count(*)::int as n from applications a left join pipeline_stages s on s.workspace_id = a.workspace_id and s.key = a.stage_key
			where a.workspace_id = ${w.ws.id} and a.archived = false and (a.outcome is null or a.outcome = 'hired') and a.job_id in (${sql.join(
				listed.map((j) => sql`${j}`),
				sql`, `,
			)}) group by 1`,
		)
		const pipeline = bars(section(page, 'open-jobs'))
		const defaults: Record<string, string> = {
			applied: 'Applied',
			screening: 'Screening',
			submitted: 'Submitted to client',
			client_interview: 'Client interview',
			offer: 'Offer',
			hired: 'Hired',
		}
		for (const s of stages) expect([s.label, pipeline.find((b) => b.label === (defaults[s.label] ?? s.label))?.value]).toEqual([s.label, s.n])
		expect(pipeline.reduce((sum, b) => sum + b.value, 0)).toBe(stages.reduce((sum, s) => sum + s.n, 0))
	})

	test('a hiring manager’s home counts only their jobs; a viewer has no analytics chart', async () => {
		const hm = parsePage((await (await portal('hiring_manager')).get('/portal')).text)
		const [row] = await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from careers_events where workspace_id = ${w.ws.id} and job_id = ${w.java} and kind = 'application' and at >= ${new Date(Math.floor(deps.now().getTime() / DAY) * DAY - 13 * DAY).toISOString()}::timestamptz`,
		)
		expect(bars(section(hm, 'applications-per-day')).reduce((s, b) => s + b.value, 0)).toBe(row!.n)
		const viewer = await (await portal('viewer')).get('/portal')
		expect(viewer.status).toBe(200)
		expect(viewer.text).not.toContain('applications-per-day')
		expect(viewer.text).not.toContain('<svg')
	})
})
