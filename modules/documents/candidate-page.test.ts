/**
 * Request documents on the candidate page: the service and limits of `request_candidate_documents`
 * (CSRF, bad input and the hourly limit answered with the values kept, a repeat sends nothing),
 * Post/Redirect/Get with a notice and an activity line; who sees the section and its form.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { activityOf, candidatePageWorld, confirmations, postWithoutToken, summaryErrors, type CandidatePageWorld } from '../../tests/candidate-pages.ts'
import { MAX_REQUESTS_PER_CANDIDATE_HOUR } from './requests.ts'

setDefaultTimeout(60_000)

let w: CandidatePageWorld
const path = () => `/candidates/${w.onTeam.id}/document-requests`
const requestCount = async (candidateId: string) =>
	(await w.deps.database.rows<{ n: number }>(sql`select count(*)::int as n from document_requests where candidate_id = ${candidateId}`))[0]!.n

beforeAll(async () => {
	w = await candidatePageWorld()
}, 120_000)

describe('Request documents', () => {
	test('a post without the CSRF token is refused and sends nothing', async () => {
		expect((await postWithoutToken(w.people.recruiter, path(), { items: 'dl' })).status).toBe(403)
		expect(await requestCount(w.onTeam.id)).toBe(0)
	})

	test('bad input is answered 422 with the field’s message and every value kept', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const none = await recruiter.post(path(), { message: 'Please send these by Friday.' })
		expect(none.status).toBe(422)
		expect(summaryErrors(none.text)).toEqual(['Documents to ask for must name 1 to 4 document kinds (dl, visa, i94, workAuth).'])
		expect(none.text).toContain('>Please send these by Friday.</textarea>')
		// The job link was left unticked: it stays unticked.
		expect(none.text).toContain('name="includeJobLink" value="yes">')
		const long = 'x'.repeat(2001)
		const tooLong = await recruiter.post(path(), { items: 'visa', message: long })
		expect(tooLong.status).toBe(422)
		expect(summaryErrors(tooLong.text)).toEqual(['Message must be at most 2,000 characters.'])
		expect(tooLong.text).toContain(`>${long}</textarea>`)
		expect(tooLong.text).toMatch(/value="visa" checked/)
		const otherApplication = await recruiter.post(path(), { items: 'dl', applicationId: w.offTeam.applicationId })
		expect(otherApplication.status).toBe(422)
		expect(await requestCount(w.onTeam.id)).toBe(0)
	})

	test('a request goes out with Post/Redirect/Get, a notice, the requests table and an activity line; the same again sends nothing', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const fields = { items: ['i94', 'workAuth'], message: 'Thanks!', includeJobLink: 'yes' }
		const sent = await recruiter.post(path(), fields)
		expect(sent.status).toBe(303)
		// No messaging provider in tests: the e-mail goes, the text message is recorded as not sent.
		expect(sent.headers.get('location')).toBe(`/candidates/${w.onTeam.id}?done=documents-requested-email#done`)
		const page = await recruiter.get(sent.headers.get('location')!)
		expect(confirmations(page.text)).toEqual([
			{
				text: 'The request is on its way by e-mail. No text message was sent: there is no messaging provider, or no phone number a message can go to.',
				form: 'request-documents',
				afterButton: true,
				takesFocus: true,
			},
		])
		expect(page.text).toContain('Requests sent')
		expect(page.text).toContain('I-94 record, Work authorization')
		const [line] = await activityOf(w.deps, w.ws, 'documents.requested')
		expect(line).toMatchObject({ actorUserId: w.userIds.recruiter, credentialKind: 'session', targetId: w.onTeam.id, detail: { items: ['i94', 'workAuth'] } })
		const again = await recruiter.post(path(), fields)
		expect(again.headers.get('location')).toBe(`/candidates/${w.onTeam.id}?done=documents-repeated#done`)
		expect(confirmations((await recruiter.get(again.headers.get('location')!)).text)).toMatchObject([
			{ text: 'You sent this same request moments ago: nothing was sent again.', form: 'request-documents' },
		])
		expect(await requestCount(w.onTeam.id)).toBe(1)
	})

	test('over the hourly limit the page says so (429) with the values kept, and sends nothing', async () => {
		const admin = w.people.admin
		await admin.get(`/candidates/${w.onTeam.id}`)
		const before = await requestCount(w.onTeam.id)
		const kinds = ['dl', 'visa', 'i94', 'workAuth']
		for (let i = 0; i < MAX_REQUESTS_PER_CANDIDATE_HOUR; i++) expect((await admin.post(path(), { items: kinds[i]!, message: `Request ${i}` })).status).toBe(303)
		const over = await admin.post(path(), { items: 'workAuth', message: 'One too many' })
		expect(over.status).toBe(429)
		expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(summaryErrors(over.text)[0]).toContain('nothing was sent')
		expect(over.text).toContain('>One too many</textarea>')
		expect(await requestCount(w.onTeam.id)).toBe(before + MAX_REQUESTS_PER_CANDIDATE_HOUR)
	})

	test('hiring managers and viewers have no documents section, and their posts are refused (403)', async () => {
		for (const role of ['hiring_manager', 'viewer'] as const) {
			const client = w.people[role]
			await client.get('/portal')
			expect((await client.post(path(), { items: 'dl' })).status).toBe(403)
		}
		const page = (await w.people.hiring_manager.get(`/candidates/${w.onTeam.id}`)).text
		expect(page).not.toContain('id="documents"')
		expect(page).not.toContain('/document-requests')
	})
})
