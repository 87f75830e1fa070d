/** A document uploaded through the link gives the requester a to-do and a "documents received" review entry. */
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { operatorActor, personActor, removePerson } from '../auth/index.ts'
import { signedIn } from '../../tests/portal.ts'
import { reviewQueue } from '../review/service.ts'
import { todos } from '../todos/table.ts'
import { textToSend } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob, samplePng } from '../../tests/staffing-fixtures.ts'
import { requestCandidateDocuments } from './requests.ts'
import { samplePdf } from './seed.ts'
import { storeUpload } from './uploads.ts'

test('an upload creates one to-do per kind for the requester and shows in their review queue until done', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'recruiter')
	const recruiter = await personActor(deps, ws.slug, person.email)
	const vendorId = await newSubmissionVendor(ws)
	const email = `${unique('mei')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Mei Chen', email, workAuthorization: 'H1B' })
	const jobId = await newVendorJob(ws, { vendorId, title: 'Data Engineer' })
	const applicationId = await newApplication(ws, candidateId, jobId)
	await requestCandidateDocuments(deps, recruiter, { candidateId, applicationId, items: ['visa', 'dl'], includeJobLink: false })
	// The link only ever travels in the e-mail (and message) to the candidate.
	const [mail] = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
	const token = (await textToSend(deps.secret, mail!)).match(/\/upload\/(bl_ul_[0-9A-Za-z]+)/)![1]!

	await storeUpload(deps, token, 'visa', { name: 'visa.pdf', bytes: samplePdf('visa') })
	await storeUpload(deps, token, 'visa', { name: 'visa-2.pdf', bytes: samplePdf('visa again') })
	await storeUpload(deps, token, 'dl', { name: 'licence.png', bytes: samplePng() })

	const open = await deps.db
		.select()
		.from(todos)
		.where(and(eq(todos.workspaceId, ws.id), eq(todos.source, 'document')))
	expect(open.map((t) => t.title).sort()).toEqual(['Review the Driver’s license uploaded', 'Review the Visa uploaded'].sort())
	expect(open.every((t) => t.assigneeUserId === recruiter.userId && t.candidateId === candidateId && t.applicationId === applicationId)).toBe(true)

	const queue = await reviewQueue(deps, recruiter, { limit: 25 })
	const received = queue.items.filter((i) => i.type === 'documents_received')
	expect(received).toHaveLength(2)
	expect(received[0]!.reason).toContain('Documents received')

	await deps.db.update(todos).set({ doneAt: new Date() }).where(eq(todos.id, open[0]!.id))
	const after = await reviewQueue(deps, recruiter, { limit: 25 })
	expect(after.items.filter((i) => i.type === 'documents_received')).toHaveLength(1)
})

test('a document uploaded after the requester left goes to an owner, who can close it', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const person = await newPerson(ws, 'recruiter')
	const recruiter = await personActor(deps, ws.slug, person.email)
	const email = `${unique('ana')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Ana Diaz', email, workAuthorization: 'H1B' })
	const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, { title: 'QA Engineer' }))
	await requestCandidateDocuments(deps, recruiter, { candidateId, applicationId, items: ['visa'], includeJobLink: false })
	const [mail] = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
	const token = (await textToSend(deps.secret, mail!)).match(/\/upload\/(bl_ul_[0-9A-Za-z]+)/)![1]!
	await removePerson(deps, operatorActor(ws), ws, { userId: person.userId })
	await storeUpload(deps, token, 'visa', { name: 'visa.pdf', bytes: samplePdf('visa') })
	const [todo] = await deps.db
		.select()
		.from(todos)
		.where(and(eq(todos.workspaceId, ws.id), eq(todos.source, 'document')))
	expect(todo!.assigneeUserId).toBe(owner.userId)
	const page = await signedIn(owner)
	expect((await page.get('/todos')).text).toContain('Review the Visa uploaded')
	expect((await page.post(`/todos/${todo!.id}/done`)).status).toBe(303)
})

test('the same request made twice within moments (a retried call) sends one e-mail and says it was repeated', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'recruiter')
	const recruiter = await personActor(deps, ws.slug, person.email)
	const email = `${unique('li')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Li Wei', email, workAuthorization: 'H1B' })
	const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, { vendorId: await newSubmissionVendor(ws), title: 'SRE' }))
	const ask = () => requestCandidateDocuments(deps, recruiter, { candidateId, applicationId, items: ['visa', 'i94'], message: 'Thanks!' })
	const first = await ask()
	const second = await ask()
	expect([first.repeated, second.repeated]).toEqual([false, true])
	expect(second.id).toBe(first.id)
	const mails = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
	expect(mails).toHaveLength(1)
	const other = await requestCandidateDocuments(deps, recruiter, { candidateId, applicationId, items: ['visa'], message: 'Thanks!' })
	expect(other.repeated).toBe(false)
})
