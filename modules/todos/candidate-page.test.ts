/**
 * Add to-do on the candidate page (`addTodo`) and the to-dos section (`list_todos`' service with a
 * candidate): CSRF, bad input with the values kept, Post/Redirect/Get with a notice and an activity
 * line, and reach (a hiring manager only on their jobs' applicants).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { activityOf, candidatePageWorld, confirmations, postWithoutToken, summaryErrors, type CandidatePageWorld } from '../../tests/candidate-pages.ts'

setDefaultTimeout(60_000)

let w: CandidatePageWorld
const path = (candidateId = w.onTeam.id) => `/candidates/${candidateId}/todos`
const titles = async () => (await w.deps.database.rows<{ title: string }>(sql`select title from todos where workspace_id = ${w.ws.id}`)).map((r) => r.title)

beforeAll(async () => {
	w = await candidatePageWorld()
}, 120_000)

describe('Add to-do', () => {
	test('a post without the CSRF token is refused and adds nothing', async () => {
		expect((await postWithoutToken(w.people.recruiter, path(), { title: 'Forged' })).status).toBe(403)
		expect(await titles()).toEqual([])
	})

	test('bad input is answered 422 with the field’s message and every value kept', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const empty = await recruiter.post(path(), { title: ' ', dueAt: '2031-05-04T09:30', notes: 'Ask about the notice period' })
		expect(empty.status).toBe(422)
		expect(summaryErrors(empty.text)).toEqual(['What to do must be 1 to 200 characters.'])
		expect(empty.text).toContain('value="2031-05-04T09:30"')
		expect(empty.text).toContain('>Ask about the notice period</textarea>')
		const badDue = await recruiter.post(path(), { title: 'Call back', dueAt: 'next tuesday' })
		expect(badDue.status).toBe(422)
		expect(summaryErrors(badDue.text)).toEqual(['Due must be a date and time.'])
		expect(badDue.text).toContain('value="Call back"')
		expect(badDue.text).toContain('value="next tuesday"')
		expect(await titles()).toEqual([])
	})

	test('added with Post/Redirect/Get, a notice, the to-do in the section and an activity line', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const res = await recruiter.post(path(), { title: 'Call about the Kafka role', dueAt: '2031-05-04T09:30', notes: '' })
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe(`/candidates/${w.onTeam.id}?done=todo-added#done`)
		const page = await recruiter.get(res.headers.get('location')!)
		expect(confirmations(page.text)).toEqual([{ text: 'The to-do was added to your to-dos.', form: 'add-todo', afterButton: true, takesFocus: true }])
		expect(page.text).toContain('Call about the Kafka role')
		expect(page.text).toContain('datetime="2031-05-04T09:30:00.000Z"')
		const [line] = await activityOf(w.deps, w.ws, 'todo.created')
		expect(line).toMatchObject({ actorUserId: w.userIds.recruiter, credentialKind: 'session', targetType: 'todo' })
		// Everyone who can see the candidate sees the to-dos about them (as list_todos with a candidate does).
		expect((await w.people.hiring_manager.get(`/candidates/${w.onTeam.id}`)).text).toContain('Call about the Kafka role')
	})

	test('a hiring manager adds to-dos on their jobs’ applicants only (404 like an absent one); a viewer may not (403)', async () => {
		const manager = w.people.hiring_manager
		await manager.get(`/candidates/${w.onTeam.id}`)
		expect((await manager.post(path(), { title: 'Manager follow-up' })).status).toBe(303)
		expect((await manager.post(path(w.offTeam.id), { title: 'Not my candidate' })).status).toBe(404)
		expect((await manager.post(path(w.foreign.id), { title: 'Not my workspace' })).status).toBe(404)
		await w.people.viewer.get('/portal')
		expect((await w.people.viewer.post(path(), { title: 'Viewer to-do' })).status).toBe(403)
		const all = await titles()
		expect(all).toContain('Manager follow-up')
		for (const t of ['Not my candidate', 'Not my workspace', 'Viewer to-do']) expect(all).not.toContain(t)
	})
})
