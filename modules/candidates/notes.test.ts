/**
 * Add note on the candidate page: CSRF, bad input answered with the values kept, Post/Redirect/Get
 * with a notice and an activity line, who may write where, and who reads a private note.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { activityOf, candidatePageWorld, confirmations, postWithoutToken, summaryErrors, type CandidatePageWorld } from '../../tests/candidate-pages.ts'
import { MAX_NOTE_CHARS } from './notes.ts'

setDefaultTimeout(60_000)

let w: CandidatePageWorld
const notesPath = () => `/candidates/${w.onTeam.id}/notes`
const notesOf = (candidateId: string) =>
	w.deps.database.rows<{ body: string; visibility: string; authorUserId: string; applicationId: string | null }>(
		sql`select body, visibility, author_user_id as "authorUserId", application_id as "applicationId" from notes where candidate_id = ${candidateId}`,
	)

beforeAll(async () => {
	w = await candidatePageWorld()
}, 120_000)

describe('Add note', () => {
	test('a post without the CSRF token is refused and writes nothing', async () => {
		const res = await postWithoutToken(w.people.recruiter, notesPath(), { text: 'Forged note', visibility: 'shared' })
		expect(res.status).toBe(403)
		expect((await notesOf(w.onTeam.id)).map((n) => n.body)).not.toContain('Forged note')
	})

	test('bad input is answered 422 with the error summary, each field’s message and every value kept', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const empty = await recruiter.post(notesPath(), { text: '   ', visibility: 'private', applicationId: w.onTeam.applicationId })
		expect(empty.status).toBe(422)
		expect(empty.text).toContain('<title>Error: Priya Raman')
		expect(summaryErrors(empty.text)).toEqual(['Note must be 1 to 5,000 characters (it has 0).'])
		expect(empty.text).toMatch(/<option value="private" selected>/)
		expect(empty.text).toContain(`<option value="${w.onTeam.applicationId}" selected>`)
		expect(empty.text).toContain('aria-invalid="true"')

		const long = 'é'.repeat(MAX_NOTE_CHARS + 1)
		const tooLong = await recruiter.post(notesPath(), { text: long, visibility: 'shared' })
		expect(tooLong.status).toBe(422)
		expect(tooLong.text).toContain(`>${long}</textarea>`)
		// Another candidate's application is not a choice for this note.
		const foreignApp = await recruiter.post(notesPath(), { text: 'About the wrong job', visibility: 'shared', applicationId: w.offTeam.applicationId })
		expect(foreignApp.status).toBe(422)
		expect(summaryErrors(foreignApp.text)).toEqual(['About is not one of this candidate’s applications that you can see.'])
		expect(foreignApp.text).toContain('>About the wrong job</textarea>')
		const badVisibility = await recruiter.post(notesPath(), { text: 'Kept text', visibility: 'everyone' })
		expect(badVisibility.status).toBe(422)
		expect(badVisibility.text).toContain('>Kept text</textarea>')
		expect((await notesOf(w.onTeam.id)).map((n) => n.body)).not.toContain('Kept text')
	})

	test('a note is added with Post/Redirect/Get, a notice and an activity line naming the portal session', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const res = await recruiter.post(notesPath(), {
			text: 'Strong on Kafka <b>streams</b>\nSecond line',
			visibility: 'shared',
			applicationId: w.onTeam.applicationId,
		})
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe(`/candidates/${w.onTeam.id}?done=note-added#done`)
		const page = await recruiter.get(res.headers.get('location')!)
		// The confirmation is next to Add note (the address's anchor), and takes the focus.
		expect(confirmations(page.text)).toEqual([{ text: 'The note was added.', form: 'add-note', afterButton: true, takesFocus: true }])
		// Colleagues' text is shown as text: markup in it is made inert (as get_candidate does), never rendered.
		expect(page.text).toContain('<div class="note-body">Strong on Kafka streams\nSecond line</div>')
		const [line] = await activityOf(w.deps, w.ws, 'note.added')
		expect(line).toMatchObject({
			actorUserId: w.userIds.recruiter,
			credentialKind: 'session',
			targetType: 'candidate',
			targetId: w.onTeam.id,
			detail: { visibility: 'shared', applicationId: w.onTeam.applicationId },
		})
		expect(JSON.stringify(line!.detail)).not.toContain('Kafka')
	})

	test('a private note is read by its author, owners and admins only', async () => {
		const manager = w.people.hiring_manager
		await manager.get(`/candidates/${w.onTeam.id}`)
		expect((await manager.post(notesPath(), { text: 'Private thought of the manager', visibility: 'private' })).status).toBe(303)
		const shows = async (role: keyof CandidatePageWorld['people']) =>
			(await w.people[role].get(`/candidates/${w.onTeam.id}`)).text.includes('Private thought of the manager')
		expect({ manager: await shows('hiring_manager'), owner: await shows('owner'), admin: await shows('admin'), recruiter: await shows('recruiter') }).toEqual({
			manager: true,
			owner: true,
			admin: true,
			recruiter: false,
		})
	})

	test('hiring managers write only on their jobs’ applicants (404 like an absent one); viewers may not write (403)', async () => {
		const manager = w.people.hiring_manager
		await manager.get(`/candidates/${w.onTeam.id}`)
		expect((await manager.post(`/candidates/${w.offTeam.id}/notes`, { text: 'Not my candidate', visibility: 'shared' })).status).toBe(404)
		expect((await manager.post(`/candidates/${w.foreign.id}/notes`, { text: 'Not my workspace', visibility: 'shared' })).status).toBe(404)
		const viewer = w.people.viewer
		await viewer.get('/portal')
		expect((await viewer.post(notesPath(), { text: 'Viewer note', visibility: 'shared' })).status).toBe(403)
		const bodies = (await notesOf(w.onTeam.id)).map((n) => n.body).concat((await notesOf(w.offTeam.id)).map((n) => n.body))
		for (const b of ['Not my candidate', 'Not my workspace', 'Viewer note']) expect(bodies).not.toContain(b)
	})
})
