/**
 * Who sees which to-dos, and who may act on a flow's: a to-do is seen only by someone who reaches
 * its job, application and candidate (a hiring manager: their teams' jobs), a flow's only by a role
 * that sees that flow's records (documents: not hiring managers), others' words without contact
 * details for those who may not see them; a flow's to-do goes to someone who can act on it, and
 * owners and admins see and close those left by people who are gone.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { changeRole, operatorActor, personActor, removePerson } from '../auth/index.ts'
import { followupSource } from './calendar.ts'
import { createTodo, flowAssignee } from './index.ts'
import { addTodo, listTodos } from './service.ts'

setDefaultTimeout(30_000)
const HOUR = 3_600_000
let deps: AppDeps
let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson>; x: string; jobA: string; jobZ: string; appA: string; appZ: string }

const flow = (assignee: string, o: { source: string; ref: string; title: string; jobId?: string; applicationId?: string; dueAt?: Date; notes?: string }) =>
	deps.db.transaction((tx) =>
		createTodo(tx, {
			workspaceId: w.ws.id,
			assigneeUserId: assignee,
			title: o.title,
			notes: o.notes,
			candidateId: w.x,
			jobId: o.jobId ?? null,
			applicationId: o.applicationId ?? null,
			dueAt: o.dueAt ?? null,
			source: o.source,
			sourceRef: o.ref,
		}),
	)

beforeAll(async () => {
	await testApp()
	deps = await testDeps()
	const { ws, people } = await everyRole()
	const jobA = await newVendorJob(ws, { title: 'Platform Engineer' })
	const jobZ = await newVendorJob(ws, { title: 'Salesforce Developer' })
	await onTeam(jobA, people.hiring_manager.userId)
	const x = await newCandidate(ws, { name: 'Fatima Wilson' })
	const appA = await newApplication(ws, x, jobA)
	const appZ = await newApplication(ws, x, jobZ)
	w = { ws, people, x, jobA, jobZ, appA, appZ }
	const r = people.recruiter.userId
	const soon = new Date(Date.now() + 2 * HOUR)
	await flow(r, { source: 'interview', ref: 'int_z', title: 'Review the AI interview (score 49)', jobId: jobZ, applicationId: appZ, dueAt: soon })
	await flow(r, { source: 'interview', ref: 'int_a', title: 'Review the AI interview (score 77)', jobId: jobA, applicationId: appA, dueAt: soon })
	await flow(r, { source: 'document', ref: 'dr_a:visa', title: 'Review the Visa uploaded', applicationId: appA })
	const recruiter = await personActor(deps, ws.slug, people.recruiter.email)
	await addTodo(deps, recruiter, { title: 'Call Fatima on +1 415 555 0100', notes: 'Or write to fatima@example.test', candidateId: x })
}, 120_000)
afterAll(closeClients)

describe('who sees a to-do', () => {
	test('a hiring manager sees the to-dos of their jobs only, no document to-dos, and no contact details in others’ words', async () => {
		const seen = (await w.people.hiring_manager.tool('list_todos', { candidateId: w.x })).words.todos
		expect(seen.map((t: any) => t.title).sort()).toEqual([
			'Call Fatima on [phone hidden]',
			'Review the AI interview (score 77) — Fatima Wilson, Platform Engineer',
		])
		expect(seen.some((t: any) => t.jobId === w.jobZ || t.applicationId === w.appZ)).toBe(false)
		expect(seen.find((t: any) => t.source === 'person').notes).toBe('Or write to [e-mail hidden]')
		// The recruiter sees every one, as written.
		const all = (await w.people.recruiter.tool('list_todos', { candidateId: w.x })).words.todos
		expect(all).toHaveLength(4)
		expect(all.find((t: any) => t.source === 'person')).toMatchObject({ title: 'Call Fatima on +1 415 555 0100', notes: 'Or write to fatima@example.test' })
		expect(all.map((t: any) => t.title)).toContain('Review the AI interview (score 49) — Fatima Wilson, Salesforce Developer')
	})

	test('the candidate page and the calendar follow the same rule', async () => {
		const page = await (await signedIn(w.people.hiring_manager)).get(`/candidates/${w.x}`)
		expect(page.status).toBe(200)
		expect(page.text).toContain('score 77')
		expect(page.text).not.toContain('score 49')
		expect(page.text).not.toContain('Salesforce Developer')
		expect(page.text).not.toContain('555 0100')
		expect(page.text).not.toContain('fatima@example.test')
		const manager = await personActor(deps, w.ws.slug, w.people.hiring_manager.email)
		const entries = await followupSource.entries(deps, manager, {
			from: new Date(Date.now() - HOUR),
			to: new Date(Date.now() + 24 * HOUR),
			userIds: null,
			limit: 50,
		})
		expect(entries.map((e) => e.jobId)).toEqual([w.jobA])
	})

	test('a person who loses the role or the job no longer sees their to-dos about it', async () => {
		const demoted = await newPerson(w.ws, 'admin', {}, deps)
		await flow(demoted.userId, { source: 'interview', ref: 'int_demoted', title: 'Review the AI interview (score 12)', jobId: w.jobZ, applicationId: w.appZ })
		const before = await personActor(deps, w.ws.slug, demoted.email)
		expect((await listTodos(deps, before, { limit: 25 })).todos).toHaveLength(1)
		await changeRole(deps, operatorActor(w.ws), w.ws, { userId: demoted.userId }, 'hiring_manager')
		const after = await personActor(deps, w.ws.slug, demoted.email)
		expect((await listTodos(deps, after, { limit: 25 })).todos).toEqual([])
	})
})

describe('who acts on a flow’s to-do', () => {
	test('it goes to the person concerned while they may act on it, else to the longest-standing owner', async () => {
		const base = { workspaceId: w.ws.id, candidateId: w.x }
		const { recruiter, hiring_manager, owner } = w.people
		expect(await flowAssignee(deps, { ...base, userId: recruiter.userId, source: 'document', applicationId: w.appZ })).toBe(recruiter.userId)
		expect(await flowAssignee(deps, { ...base, userId: hiring_manager.userId, source: 'interview', jobId: w.jobA, applicationId: w.appA })).toBe(
			hiring_manager.userId,
		)
		// Not their job, or a document (hiring managers see none): an owner.
		expect(await flowAssignee(deps, { ...base, userId: hiring_manager.userId, source: 'interview', jobId: w.jobZ, applicationId: w.appZ })).toBe(owner.userId)
		expect(await flowAssignee(deps, { ...base, userId: hiring_manager.userId, source: 'document', applicationId: w.appA })).toBe(owner.userId)
		const gone = await newPerson(w.ws, 'recruiter', {}, deps)
		await removePerson(deps, operatorActor(w.ws), w.ws, { userId: gone.userId })
		expect(await flowAssignee(deps, { ...base, userId: gone.userId, source: 'document', applicationId: w.appA })).toBe(owner.userId)
	})

	test('the open to-dos of someone who left show on owners’ and admins’ lists, and they close them', async () => {
		const gone = await newPerson(w.ws, 'recruiter', {}, deps)
		const { id } = await flow(gone.userId, { source: 'document', ref: 'dr_gone:dl', title: 'Review the Driver’s license uploaded', applicationId: w.appA })
		await removePerson(deps, operatorActor(w.ws), w.ws, { userId: gone.userId })
		const ownerPage = await signedIn(w.people.owner)
		const list = await ownerPage.get('/todos')
		expect(list.text).toContain('Review the Driver’s license uploaded')
		expect(list.text).toContain('they left the workspace')
		expect((await w.people.admin.tool('list_todos', {})).words.todos.map((t: any) => t.id)).toContain(id)
		// Not a recruiter's: a colleague's to-do is not theirs.
		expect((await w.people.recruiter.tool('list_todos', {})).words.todos.map((t: any) => t.id)).not.toContain(id)
		expect((await ownerPage.post(`/todos/${id}/done`)).status).toBe(303)
		expect((await ownerPage.get('/todos')).text).not.toContain('Review the Driver’s license uploaded')
	})
})

describe('the to-dos’ words and pages', () => {
	test('notes lose direction overrides and invisible characters, as titles do, and keep their lines', async () => {
		const owner = await personActor(deps, w.ws.slug, w.people.owner.email)
		await addTodo(deps, owner, { title: 'Check \u202erevo\u202c', notes: 'First \u202eenil\u202c\u200b\nSecond line' })
		const mine = (await w.people.owner.tool('list_todos', {})).words.todos.find((t: any) => t.title === 'Check revo')
		expect(mine.notes).toBe('First enil\nSecond line')
	})

	test('a page address changed by hand is said on the page, not the error page', async () => {
		const page = await signedIn(w.people.recruiter)
		for (const path of ['/todos?cursor=forged.cursor', '/notifications?cursor=forged.cursor']) {
			const answer = await page.get(path)
			expect(answer.status).toBe(422)
			expect(answer.text).toContain('This page’s address was changed: start again from the first page.')
		}
	})
})
