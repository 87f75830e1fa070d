/**
 * A write sent twice by mistake is made once (core/repeats.ts): a note added twice at once (a double
 * click on Add note) is one note, logged and notified once; a to-do added twice at once is one to-do.
 * The same words later, or other words, are new ones.
 */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { personActor } from '../modules/auth/index.ts'
import { addNote } from '../modules/candidates/notes.ts'
import { addTodo } from '../modules/todos/service.ts'
import { newPerson, newWorkspace, testDeps } from './helpers.ts'
import { newCandidate } from './staffing-fixtures.ts'

async function world() {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
	const colleague = await newPerson(ws, 'admin', {}, deps)
	const candidateId = await newCandidate(ws, { name: 'Twice Clicked' }, deps)
	return { deps, ws, recruiter, colleague, candidateId }
}

test('a note added twice at once is one note, one activity line and one notification; other words are another note', async () => {
	const { deps, ws, recruiter, colleague, candidateId } = await world()
	const note = { candidateId, text: 'Strong on Spark, @admin person please call', private: false }
	const [a, b] = await Promise.all([addNote(deps, recruiter, note), addNote(deps, recruiter, note)])
	expect(a.id).toBe(b.id)
	const other = await addNote(deps, recruiter, { ...note, text: 'Second thought' })
	expect(other.id).not.toBe(a.id)
	const count = async (q: ReturnType<typeof sql>) => (await deps.database.rows<{ n: number }>(q))[0]!.n
	expect(await count(sql`select count(*)::int as n from notes where candidate_id = ${candidateId}`)).toBe(2)
	expect(await count(sql`select count(*)::int as n from activity where workspace_id = ${ws.id} and action = 'note.added'`)).toBe(2)
	expect(await count(sql`select count(*)::int as n from notifications where user_id = ${colleague.userId}`)).toBe(1)
})

test('a to-do added twice at once is one to-do; the same title with another due date is another', async () => {
	const { deps, recruiter, candidateId } = await world()
	const todo = { title: 'Call Twice Clicked back', notes: 'About the offer', candidateId }
	const [a, b] = await Promise.all([addTodo(deps, recruiter, todo), addTodo(deps, recruiter, todo)])
	expect(a).toBe(b)
	const later = await addTodo(deps, recruiter, { ...todo, dueAt: new Date(Date.now() + 86_400_000) })
	expect(later).not.toBe(a)
	const [{ n }] = (await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from todos where assignee_user_id = ${recruiter.userId}`)) as [
		{ n: number },
	]
	expect(n).toBe(2)
})
