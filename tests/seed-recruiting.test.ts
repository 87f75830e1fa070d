/**
 * Demo data of the recruiting workflow modules (interviews, inbox, calendar, careers analytics,
 * saved searches, to-dos, review queue): `seed` fills them realistically, seeding again adds
 * nothing, and the tools have something worth showing.
 */
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runCommand } from '../core/cli.ts'
import { newWorkspace, testApp, testDeps } from './helpers.ts'
import { closeClients, mcpPerson } from './sdk.ts'

setDefaultTimeout(120_000)
afterAll(closeClients)

const TABLES = [
	'interviews',
	'interview_questions',
	'inbox_threads',
	'inbox_messages',
	'inbox_states',
	'calendar_feeds',
	'calendar_busy',
	'careers_events',
	'saved_searches',
	'todos',
] as const

async function counts(workspaceId: string) {
	const deps = await testDeps()
	const out: Record<string, number> = {}
	for (const table of TABLES) {
		const scoped =
			table === 'interview_questions'
				? sql`interview_id in (select id from interviews where workspace_id = ${workspaceId})`
				: table === 'inbox_states'
					? sql`thread_id in (select id from inbox_threads where workspace_id = ${workspaceId})`
					: sql`workspace_id = ${workspaceId}`
		const [row] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.raw(table)} where ${scoped}`)
		out[table] = row!.n
	}
	return out
}

test('seed fills every workflow realistically and deterministically', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await mcpPerson(ws, 'owner')
	const recruiter = await mcpPerson(ws, 'recruiter')
	await runCommand(deps, 'seed', { workspace: ws.slug })
	const first = await counts(ws.id)
	for (const table of TABLES) expect(first[table]).toBeGreaterThan(0)
	expect(first.interviews).toBeGreaterThanOrEqual(30)
	expect(first.careers_events).toBeGreaterThan(1000)
	await runCommand(deps, 'seed', { workspace: ws.slug })
	expect(await counts(ws.id)).toEqual(first)

	const completed = (await owner.tool('list_interview_results', { status: 'completed', limit: 1 })).words.interviews[0]
	const result = (await owner.tool('get_interview_result', { interviewId: completed.id })).data.interview
	expect(result.verdict).toEqual(expect.any(String))
	expect(result.questions.every((q: any) => q.answer?.text.length > 40 && q.score !== null)).toBe(true)
	const statuses = new Set((await owner.tool('list_interview_results', { limit: 100 })).words.interviews.map((i: any) => i.status))
	expect(statuses).toEqual(new Set(['invited', 'started', 'completed', 'expired']))

	const threads = (await recruiter.tool('list_inbox_threads', { limit: 100 })).words.threads
	expect(threads.some((t: any) => t.counterpart.type === 'candidate')).toBe(true)
	expect(threads.some((t: any) => t.unread)).toBe(true)
	const calendar = (await recruiter.tool('get_calendar', { scope: 'workspace', limit: 100 })).words.events
	expect(new Set(calendar.map((e: any) => e.type))).toEqual(new Set(['interview', 'followup', 'external']))
	const analytics = (await owner.tool('get_analytics_summary', {})).words
	expect(analytics.totals.views).toBeGreaterThan(0)
	expect(analytics.topSources.length).toBeGreaterThanOrEqual(3)
	expect(analytics.insights.length).toBeGreaterThanOrEqual(3)
	expect((await recruiter.tool('list_saved_searches', { list: 'candidates' })).words.searches.length).toBeGreaterThan(0)
	expect((await recruiter.tool('list_todos', {})).words.todos.length).toBeGreaterThan(3)
	expect((await recruiter.tool('get_review_queue', {})).words.items.length).toBeGreaterThan(0)
})
