/**
 * To-dos: list_todos through the official MCP client for every role (own to-dos, open first;
 * all to-dos on a candidate within reach), paging across open and done, `createTodo` for flows
 * (once per source record and person), and the to-dos page.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { allPages, closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { eq } from 'drizzle-orm'
import { createTodo } from './index.ts'
import { todos } from './table.ts'

setDefaultTimeout(30_000)
const HOUR = 3_600_000
let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson>; kim: string; lou: string; titles: string[] }

async function add(
	person: McpPerson,
	title: string,
	o: { dueAt?: Date | null; doneAt?: Date; candidateId?: string; createdAt?: Date; source?: string; sourceRef?: string } = {},
) {
	const deps = await testDeps()
	return deps.db.transaction(async (tx) => {
		const { id } = await createTodo(tx, {
			workspaceId: w.ws.id,
			assigneeUserId: person.userId,
			createdByUserId: o.source ? null : person.userId,
			title,
			dueAt: o.dueAt ?? null,
			candidateId: o.candidateId ?? null,
			source: o.source,
			sourceRef: o.sourceRef,
		})
		if (o.doneAt || o.createdAt)
			await tx
				.update(todos)
				.set({ doneAt: o.doneAt ?? null, createdAt: o.createdAt ?? new Date() })
				.where(eq(todos.id, id))
		return id
	})
}

beforeAll(async () => {
	await testApp()
	const { ws, people } = await everyRole()
	const job = await newVendorJob(ws, { title: 'DevOps Engineer' })
	const other = await newVendorJob(ws, { title: 'Business Analyst' })
	await onTeam(job, people.hiring_manager.userId)
	const kim = await newCandidate(ws, { name: 'Kim Ortiz' })
	const lou = await newCandidate(ws, { name: 'Lou Barnes' })
	await newApplication(ws, kim, job)
	await newApplication(ws, lou, other)
	w = { ws, people, kim, lou, titles: [] }
	const now = Date.now()
	const r = people.recruiter
	// Expected order for the recruiter: overdue, due soon, due later, undated (newest first), then done (latest first).
	await add(r, 'Done yesterday', { doneAt: new Date(now - 24 * HOUR), dueAt: new Date(now - 30 * HOUR) })
	await add(r, 'Undated, older', { createdAt: new Date(now - 5 * 24 * HOUR), candidateId: lou })
	await add(r, 'Due in two days', { dueAt: new Date(now + 48 * HOUR), candidateId: kim })
	await add(r, 'Done an hour ago', { doneAt: new Date(now - HOUR) })
	await add(r, 'Overdue call', { dueAt: new Date(now - 2 * HOUR), candidateId: kim })
	await add(r, 'Undated, newer', { createdAt: new Date(now - HOUR) })
	await add(r, 'Due tomorrow', { dueAt: new Date(now + 24 * HOUR) })
	w.titles = ['Overdue call', 'Due tomorrow', 'Due in two days', 'Undated, newer', 'Undated, older', 'Done an hour ago', 'Done yesterday']
	await add(people.admin, 'Admin check on Kim', { candidateId: kim })
	await add(people.hiring_manager, 'Interview Kim', { candidateId: kim, dueAt: new Date(now + 3 * HOUR) })
}, 120_000)
afterAll(closeClients)

describe('list_todos', () => {
	test('my to-dos: open first (overdue and soonest first, then undated newest first), then done; paged across the boundary', async () => {
		const all = await w.people.recruiter.tool('list_todos', {})
		expect(all.isError).toBe(false)
		expect(all.words.todos.map((t: any) => t.title)).toEqual(w.titles)
		expect(all.words.todos[0]).toMatchObject({
			overdue: true,
			done: false,
			candidate: { id: w.kim, name: 'Kim Ortiz' },
			source: 'person',
			assignee: { userId: w.people.recruiter.userId },
		})
		expect(all.words.todos[5]).toMatchObject({ done: true, overdue: false })
		for (const limit of [1, 2, 3]) {
			const paged = await allPages(w.people.recruiter, 'list_todos', { limit }, 'todos')
			expect(paged.rows.map((t) => t.title)).toEqual(w.titles)
			expect(paged.pages).toBe(Math.ceil(w.titles.length / limit))
		}
		const first = await w.people.recruiter.tool('list_todos', { limit: 2 })
		expect((await w.people.admin.tool('list_todos', { limit: 2, cursor: first.words.nextCursor })).isError).toBe(true)
		expect((await w.people.recruiter.tool('list_todos', { limit: 2, candidateId: w.kim, cursor: first.words.nextCursor })).isError).toBe(true)
	})

	test('every role: own to-dos; viewers have none', async () => {
		expect((await w.people.admin.tool('list_todos', {})).words.todos.map((t: any) => t.title)).toEqual(['Admin check on Kim'])
		expect((await w.people.hiring_manager.tool('list_todos', {})).words.todos.map((t: any) => t.title)).toEqual(['Interview Kim'])
		expect((await w.people.owner.tool('list_todos', {})).words).toEqual({ todos: [], nextCursor: null })
		expect(await w.people.viewer.toolNames()).not.toContain('list_todos')
	})

	test('on one candidate: everyone’s to-dos about them, if the candidate is within reach', async () => {
		const kim = await w.people.owner.tool('list_todos', { candidateId: w.kim })
		expect(kim.words.todos.map((t: any) => t.title).sort()).toEqual(['Admin check on Kim', 'Due in two days', 'Interview Kim', 'Overdue call'])
		expect((await w.people.hiring_manager.tool('list_todos', { candidateId: w.kim })).words.todos).toHaveLength(4)
		const hidden = await w.people.hiring_manager.tool('list_todos', { candidateId: w.lou })
		const absent = await w.people.hiring_manager.tool('list_todos', { candidateId: 'cand_nobody' })
		expect(hidden.isError).toBe(true)
		expect(hidden.text).toBe(absent.text)
		expect((await w.people.recruiter.tool('list_todos', { candidateId: w.lou })).words.todos.map((t: any) => t.title)).toEqual(['Undated, older'])
	})

	test('flows create a to-do once per record and person', async () => {
		const a = await add(w.people.admin, 'Review the documents', { source: 'document', sourceRef: 'dr_123', candidateId: w.kim })
		const b = await add(w.people.admin, 'Review the documents (again)', { source: 'document', sourceRef: 'dr_123', candidateId: w.kim })
		expect(b).toBe(a)
		const c = await add(w.people.recruiter, 'Review the documents', { source: 'document', sourceRef: 'dr_123', candidateId: w.kim })
		expect(c).not.toBe(a)
		const admin = (await w.people.admin.tool('list_todos', {})).words.todos
		// The flow's sentence carries no names: the candidate is named when it is shown.
		expect(admin.filter((t: any) => t.source === 'document')).toEqual([expect.objectContaining({ title: 'Review the documents — Kim Ortiz', createdBy: null })])
		// A flow's title names the candidate (their words); a person's is that person's words: the admin's own here.
		const labels = (await w.people.admin.tool('list_todos', {})).data.todos.map((t: any) => [t.source, t.title.writtenBy, t.title.untrusted])
		expect(labels).toContainEqual(['document', 'candidate', true])
		expect(labels).toContainEqual(['person', 'self', true])
	})
})

describe('the to-dos page', () => {
	test('add (with a due time and a candidate), mark done, open again; bad input is shown', async () => {
		const page = await signedIn(w.people.hiring_manager)
		expect((await page.get('/todos')).text).toContain('Interview Kim')
		const added = await page.submit('/todos', {
			title: 'Send Kim the schedule',
			dueAt: '2030-01-02T09:30',
			candidateId: w.kim,
			notes: 'Include the panel names.',
		})
		expect(added.redirectedTo).toBe('/todos?done=added')
		expect(added.text).toContain('The to-do was added.')
		const mine = (await w.people.hiring_manager.tool('list_todos', {})).words.todos
		const made = mine.find((t: any) => t.title === 'Send Kim the schedule')
		expect(made).toMatchObject({ dueAt: '2030-01-02T09:30:00.000Z', candidate: { id: w.kim }, notes: 'Include the panel names.' })
		expect((await page.submit(`/todos/${made.id}/done`)).text).toContain('Marked done.')
		expect((await w.people.hiring_manager.tool('list_todos', {})).words.todos.find((t: any) => t.id === made.id).done).toBe(true)
		await page.post(`/todos/${made.id}/reopen`)
		expect((await w.people.hiring_manager.tool('list_todos', {})).words.todos.find((t: any) => t.id === made.id).done).toBe(false)
		expect((await page.post('/todos', { title: 'Bad due', dueAt: 'soon' })).status).toBe(422)
		// A field sent twice (a forged or doubled form) is read once, as every form reads it: never joined with commas.
		await page.submit('/todos', { title: ['Doubled title', 'Second copy'], dueAt: '', candidateId: '', notes: '' })
		const titles = (await w.people.hiring_manager.tool('list_todos', {})).words.todos.map((t: any) => t.title)
		expect(titles).toContain('Doubled title')
		expect(titles.some((t: string) => t.includes('Second copy'))).toBe(false)
		const outOfReach = await page.post('/todos', { title: 'About Lou', candidateId: w.lou })
		expect(outOfReach.status).toBe(422)
		expect(outOfReach.text).toContain('no candidate with this id')
		// Another person's to-do is not theirs to close (owners and admins may: see reach.test.ts).
		const other = await signedIn(w.people.recruiter)
		await other.get('/todos')
		expect((await other.post(`/todos/${made.id}/done`)).status).toBe(404)
		expect((await (await signedIn(w.people.viewer)).get('/todos')).status).toBe(403)
	})
})
