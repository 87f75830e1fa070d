/**
 * The review queue through the official MCP client for every role: entries contributed by
 * several modules (new applications on the person's jobs, completed AI interviews not opened yet,
 * replies not read yet), merged oldest first with the reason, paged across sources, and leaving
 * the queue once dealt with.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { allPages, closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { applications } from '../candidates/table.ts'
import { inboxThreads } from '../inbox/table.ts'
import { interviews } from '../interviews/table.ts'

setDefaultTimeout(30_000)
const HOUR = 3_600_000
let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson>; team: string; other: string; expected: string[]; apps: Record<string, string> }

beforeAll(async () => {
	await testApp()
	const deps = await testDeps()
	const { ws, people } = await everyRole()
	const team = await newVendorJob(ws, { title: 'Java Developer' })
	const other = await newVendorJob(ws, { title: 'Tableau Analyst' })
	await onTeam(team, people.recruiter.userId, people.hiring_manager.userId)
	const t0 = Date.now() - 10 * HOUR
	const at = (h: number) => new Date(t0 + h * HOUR)
	const apps: Record<string, string> = {}
	for (const [name, job, hours] of [
		['Ann Applied', team, 1],
		['Bo Applied', team, 4],
		['Cal Elsewhere', other, 2],
	] as const) {
		const c = await newCandidate(ws, { name })
		apps[name] = await newApplication(ws, c, job, { createdAt: at(hours) })
	}
	// A completed interview (at hour 3) and one completed at the very instant Bo applied (hour 4: at equal
	// times entries are ordered by type, then id, the same on every page).
	for (const [name, hours] of [
		['Dee Interviewed', 3],
		['Eli Interviewed', 4],
	] as const) {
		const c = await newCandidate(ws, { name })
		const app = await newApplication(ws, c, team, { createdAt: at(0) })
		await deps.db.update(applications).set({ stageKey: 'screening' }).where(eq(applications.id, app))
		apps[name] = app
		await deps.db.insert(interviews).values({
			id: newId('int'),
			workspaceId: ws.id,
			candidateId: c,
			jobId: team,
			applicationId: app,
			ownerUserId: people.recruiter.userId,
			status: 'completed',
			scheduledAt: at(2),
			deadlineAt: at(20),
			completedAt: at(hours),
			overallScore: 77,
			verdict: 'recommended',
		})
	}
	// A candidate wrote back at hour 5.
	const fay = await newCandidate(ws, { name: 'Fay Replied', email: `fay.${ws.slug}@example.test` })
	await deps.db.insert(inboxThreads).values({
		id: newId('thr'),
		workspaceId: ws.id,
		counterpartKey: `candidate:${fay}`,
		counterpartType: 'candidate',
		candidateId: fay,
		counterpartName: 'Fay Replied',
		counterpartAddress: `fay.${ws.slug}@example.test`,
		subject: 'Re: next steps',
		messageCount: 2,
		lastMessageAt: at(5),
		lastInboundAt: at(5),
	})
	w = { ws, people, team, other, apps, expected: ['Ann Applied', 'Dee Interviewed', 'Eli Interviewed', 'Bo Applied', 'Fay Replied'] }
}, 120_000)
afterAll(closeClients)

describe('get_review_queue', () => {
	test('the recruiter: every kind of entry, oldest first, with the reason; paged across sources', async () => {
		const got = await w.people.recruiter.tool('get_review_queue', {})
		expect(got.isError).toBe(false)
		const items = got.words.items
		expect(items.map((i: any) => i.candidate.name)).toEqual(w.expected)
		expect(items.map((i: any) => i.type)).toEqual(['new_application', 'interview_completed', 'interview_completed', 'new_application', 'reply_waiting'])
		expect(items[0]).toMatchObject({ recordId: w.apps['Ann Applied'], applicationId: w.apps['Ann Applied'], job: { id: w.team, title: 'Java Developer' } })
		// The reason is ours; the job it is about is beside it, labelled as its author's words.
		expect(items[0].reason).toContain('Applied for one of your jobs')
		expect(got.data.items[0].job.title).toMatchObject({ untrusted: true, writtenBy: 'colleague', text: 'Java Developer' })
		expect(items[1].reason).toContain('77/100')
		expect(items[4]).toMatchObject({ job: null, applicationId: null })
		for (let i = 1; i < items.length; i++) expect(items[i - 1].since <= items[i].since).toBe(true)
		const paged = await allPages(w.people.recruiter, 'get_review_queue', { limit: 1 }, 'items')
		expect(paged.rows.map((i) => i.candidate.name)).toEqual(w.expected)
		expect(paged.pages).toBe(5)
		const two = await allPages(w.people.recruiter, 'get_review_queue', { limit: 2 }, 'items')
		expect(two.rows.map((i) => i.recordId)).toEqual(items.map((i: any) => i.recordId))
		const first = await w.people.recruiter.tool('get_review_queue', { limit: 1 })
		expect((await w.people.hiring_manager.tool('get_review_queue', { limit: 1, cursor: first.words.nextCursor })).isError).toBe(true)
	})

	test('every role: hiring managers get their jobs’ applications and interviews, no inbox; others only their own teams; viewers none', async () => {
		const hm = await w.people.hiring_manager.tool('get_review_queue', {})
		expect(hm.words.items.map((i: any) => i.candidate.name)).toEqual(['Ann Applied', 'Dee Interviewed', 'Eli Interviewed', 'Bo Applied'])
		// Owners and admins are on no hiring team here: only the reply waits for them.
		for (const role of ['owner', 'admin'] as const)
			expect((await w.people[role].tool('get_review_queue', {})).words.items.map((i: any) => i.type)).toEqual(['reply_waiting'])
		expect(await w.people.viewer.toolNames()).not.toContain('get_review_queue')
		expect((await w.people.recruiter.tool('get_review_queue', { limit: 0 })).isError).toBe(true)
	})

	test('entries leave once dealt with: the application moves on, the result is opened, the reply read', async () => {
		const deps = await testDeps()
		await deps.db.update(applications).set({ stageKey: 'screening' }).where(eq(applications.id, w.apps['Ann Applied']!))
		const queue = (await w.people.recruiter.tool('get_review_queue', {})).words.items
		await w.people.recruiter.tool('get_interview_result', { interviewId: queue.find((i: any) => i.candidate.name === 'Dee Interviewed').recordId })
		await w.people.recruiter.tool('get_inbox_thread', { threadId: queue.find((i: any) => i.type === 'reply_waiting').recordId })
		expect((await w.people.recruiter.tool('get_review_queue', {})).words.items.map((i: any) => i.candidate.name)).toEqual(['Eli Interviewed', 'Bo Applied'])
		// Opening the result was the recruiter's: the hiring manager still has Dee waiting.
		expect((await w.people.hiring_manager.tool('get_review_queue', {})).words.items.map((i: any) => i.candidate.name)).toEqual([
			'Dee Interviewed',
			'Eli Interviewed',
			'Bo Applied',
		])
	})
})
