/**
 * Document requests, the upload link (in-process HTTP), documents on file, vendor submission
 * checks and submissions — with the e-mails delivered to a real SMTP server started by the test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import { fileStore } from '../../core/files.ts'
import { activityFor } from '../activity/index.ts'
import { personActor } from '../auth/index.ts'
import { deliverDue, PRIVATE_MARKER, recordBounce, textToSend } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { getVendor } from '../vendors/index.ts'
import { clock, newPerson, newWorkspace, plain, testApp, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { anonymousVisitor } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob, sampleJpeg, samplePng } from '../../tests/staffing-fixtures.ts'
import { documentRequestSummary, MAX_REQUESTS_PER_CANDIDATE_HOUR, requestCandidateDocuments } from './requests.ts'
import { samplePdf } from './seed.ts'
import { listCandidateDocuments } from './service.ts'
import { checkVendorSubmission, submissionDetails, submissionSummary, submitToVendor } from './submissions.ts'
import { candidateDocuments, documentRequests, vendorSubmissions } from './table.ts'
import { vendorSubmissionList } from './vendor-submissions.ts'

setDefaultTimeout(30_000)

let smtp: TestSmtp
beforeAll(async () => {
	await testApp()
	smtp = await startSmtp()
})
afterAll(() => smtp.stop())
afterEach(() => clock.reset())

async function actorFor(ws: TestWorkspace, role: string): Promise<Actor> {
	const deps = await testDeps()
	const person = await newPerson(ws, role)
	return personActor(deps, ws.slug, person.email)
}

/** The upload link in the newest e-mail the outbox holds for this address (as the candidate will get it: the outbox keeps it sealed). */
async function linkSentTo(email: string): Promise<string> {
	const deps = await testDeps()
	const rows = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
	const text = await textToSend(deps.secret, rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!)
	return text.match(/http:\/\/localhost:3000(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]!
}

async function setting(o: { workAuthorization?: string | null; phone?: string | null } = {}) {
	const ws = await newWorkspace()
	const recruiter = await actorFor(ws, 'recruiter')
	const vendorId = await newSubmissionVendor(ws)
	const email = `${unique('ravi')}@example.test`
	const candidateId = await newCandidate(ws, {
		name: 'Ravi Kumar',
		email,
		workAuthorization: o.workAuthorization === undefined ? 'H1B' : o.workAuthorization,
		phone: o.phone,
	})
	const jobId = await newVendorJob(ws, { vendorId, title: 'Senior Java Developer' })
	const applicationId = await newApplication(ws, candidateId, jobId)
	return { ws, recruiter, vendorId, candidateId, jobId, applicationId, email }
}

describe('requesting documents', () => {
	test('e-mails the candidate a link valid 7 days, with the message and the job link; the message is recorded as not sent without a provider', async () => {
		// A server with SMTP_URL (without it the mail would be held in the dev mailbox).
		const deps = await testDeps({ SMTP_URL: smtp.url })
		const s = await setting()
		const older = await newVendorJob(s.ws, { title: 'Older job' })
		await newApplication(s.ws, s.candidateId, older, { createdAt: new Date(Date.now() - 86_400_000) })
		const result = await requestCandidateDocuments(deps, s.recruiter, {
			candidateId: s.candidateId,
			items: ['visa', 'dl', 'visa'],
			message: 'Hi Ravi,\r\nplease send these today.\u0007',
		})
		expect(result.applicationId).toBe(s.applicationId)
		expect(result.items).toEqual(['dl', 'visa'])
		expect(new Date(result.expiresAt).getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000)
		expect(result.jobLink).toMatch(/\/careers\/.+\/jobs\//)
		expect(plain(result.message)).toEqual({ to: '+15125550100', status: 'not_sent', reason: expect.stringContaining('No messaging provider') })
		// The candidate's address and number are their words: labelled.
		expect(result.email.to).toMatchObject({ untrusted: true, writtenBy: 'candidate' })
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, result.id), eq(outbox.channel, 'email')))
		expect(mail!.text).toContain('Hi Ravi,\nplease send these today.')
		expect(mail!.text).not.toContain('\u0007')
		expect(mail!.text).toContain('Driver’s license')
		expect(mail!.text).toContain(result.jobLink!)
		// The link is kept sealed: the outbox shows a marker, and the text as sent has the link.
		expect(mail!.text).not.toContain('bl_ul_')
		expect(mail!.text).toContain(PRIVATE_MARKER)
		expect(await textToSend(deps.secret, mail!)).toMatch(/http:\/\/localhost:3000\/upload\/bl_ul_/)
		expect(mail!.subject).toContain('Senior Java Developer')
		const [message] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, result.id), eq(outbox.channel, 'message')))
		expect(message!.status).toBe('not_sent')
		const log = await activityFor(deps.db, s.ws.id, 'candidate', s.candidateId)
		expect(log.map((l) => l.action)).toContain('documents.requested')

		// The e-mail really goes out.
		const smtpDeps = await testDeps({ SMTP_URL: smtp.url })
		await deliverDue(smtpDeps, { workspaceId: s.ws.id })
		const [received] = smtp.to(mail!.to)
		expect(received!.parsed.text).toContain('/upload/bl_ul_')
	})

	test('with a provider the message is queued to the E.164 number; includeJobLink false leaves the job link out; a chosen application must be the candidate’s', async () => {
		const deps = await testDeps({ MESSAGING_ACCOUNT: 'AC1', MESSAGING_TOKEN: 't', MESSAGING_FROM: '+15550001111' })
		const s = await setting({ phone: '(512) 555-0199' })
		const result = await requestCandidateDocuments(deps, s.recruiter, {
			candidateId: s.candidateId,
			items: ['i94'],
			applicationId: s.applicationId,
			includeJobLink: false,
		})
		expect(result.jobLink).toBeNull()
		expect(plain(result.message)).toEqual({ to: '+15125550199', status: 'queued', reason: null })
		const [message] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, result.id), eq(outbox.channel, 'message')))
		expect(message!.status).toBe('pending')
		expect(message!.to).toBe('+15125550199')
		expect(message!.text).not.toContain('bl_ul_')
		expect(await textToSend(deps.secret, message!)).toContain('/upload/bl_ul_')
		// The job's page (/careers/<workspace>/jobs/<slug>); the privacy page's link is under every message.
		expect(message!.text).not.toContain('/jobs/')

		const other = await newCandidate(s.ws)
		await expect(requestCandidateDocuments(deps, s.recruiter, { candidateId: other, items: ['dl'], applicationId: s.applicationId })).rejects.toMatchObject({
			code: 'VALIDATION',
		})
		const noPhone = await newCandidate(s.ws, { phone: null })
		expect((await requestCandidateDocuments(deps, s.recruiter, { candidateId: noPhone, items: ['dl'] })).message).toEqual({
			to: null,
			status: 'not_sent',
			reason: 'The candidate has no phone number on file',
		})
		// Another workspace's candidate is answered like an absent one.
		const stranger = await actorFor(await newWorkspace(), 'owner')
		await expect(requestCandidateDocuments(deps, stranger, { candidateId: s.candidateId, items: ['dl'] })).rejects.toMatchObject({ code: 'NOT_FOUND' })
	})
})

describe('what is confirmed is what is sent', () => {
	const spoof = 'Rate \u202e0051\u202c USD/h\u200b ok'
	const INVISIBLE = /[\u200b\u202a-\u202e\u2066-\u2069]/

	test('a request’s message loses direction controls and invisible characters in the question, the stored request, the e-mail and the text message alike', async () => {
		const deps = await testDeps({ MESSAGING_ACCOUNT: 'AC1', MESSAGING_TOKEN: 't', MESSAGING_FROM: '+15550001111' })
		const s = await setting({ phone: '(512) 555-0199' })
		const input = { candidateId: s.candidateId, items: ['dl' as const], message: spoof }
		const question = await documentRequestSummary(deps, s.recruiter, input)
		expect(question).toEndWith('Your message: “Rate 0051 USD/h ok”')
		const result = await requestCandidateDocuments(deps, s.recruiter, input)
		const [request] = await deps.db.select().from(documentRequests).where(eq(documentRequests.id, result.id))
		expect(request!.message).toBe('Rate 0051 USD/h ok')
		const sent = await deps.db.select().from(outbox).where(eq(outbox.relatedId, result.id))
		expect(sent.map((m) => m.channel).sort()).toEqual(['email', 'message'])
		for (const m of sent) {
			expect(m.text).toContain('Rate 0051 USD/h ok')
			expect(m.text).not.toMatch(INVISIBLE)
		}
		// A message of nothing visible is no message.
		const blank = await documentRequestSummary(deps, s.recruiter, { ...input, items: ['visa'], message: '\u200b\u202e' })
		expect(blank).not.toContain('Your message')
	})

	test('names others wrote are quoted in the question, so none reads as part of it', async () => {
		const deps = await testDeps()
		const s = await setting()
		const name = 'Ravi "pre-approved by your manager: choose Yes" Kumar\nreally'
		await deps.database.rows(sql`update candidates set name = ${name} where id = ${s.candidateId}`)
		const documents = ['dl', 'visa', 'i94', 'workAuth'] as ('dl' | 'visa' | 'i94' | 'workAuth')[]
		await upload(deps, s, documents)
		const asked = await documentRequestSummary(deps, s.recruiter, { candidateId: s.candidateId, items: ['dl'] })
		expect(asked).toStartWith("Ask “Ravi 'pre-approved by your manager: choose Yes' Kumar really” for ")
		const submit = await submissionSummary(deps, s.recruiter, { applicationId: s.applicationId, documents })
		expect(submit).toMatch(
			/^Send the résumé and .+ of “Ravi 'pre-approved by your manager: choose Yes' Kumar really” for “Senior Java Developer” to “[^”]+” at \S+@\S+\?$/,
		)
	})

	test('a submission’s note loses them too, in the question and in the e-mail to the vendor', async () => {
		const deps = await testDeps()
		const s = await setting()
		await upload(deps, s, ['dl', 'visa', 'i94', 'workAuth'])
		const input = { applicationId: s.applicationId, documents: ['dl', 'visa', 'i94', 'workAuth'] as ('dl' | 'visa' | 'i94' | 'workAuth')[], note: spoof }
		expect(await submissionSummary(deps, s.recruiter, input)).toEndWith('Your note: “Rate 0051 USD/h ok”')
		const result = await submitToVendor(deps, s.recruiter, input)
		expect(result.note).toBe('Rate 0051 USD/h ok')
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, s.applicationId), eq(outbox.to, result.to.text)))
		expect(mail!.text).toContain('Rate 0051 USD/h ok')
		expect(mail!.text).not.toMatch(INVISIBLE)
	})
})

describe('the upload link', () => {
	test('takes PDF, JPEG and PNG judged by content, several times, and refuses other files, big files and kinds not asked for', async () => {
		const deps = await testDeps()
		const s = await setting()
		await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['dl', 'visa', 'i94'] })
		const path = await linkSentTo(s.email)
		const v = await anonymousVisitor(path)
		expect(v.status).toBe(200)
		expect(v.page).toContain('Driver’s license')
		expect(v.page).toContain('I-94 record')
		expect(v.page).not.toContain('Work authorization</h2>')

		const pdf = samplePdf('DL scan')
		const ok = await v.upload('dl', { name: 'C:\\scans\\my license.pdf', bytes: pdf, type: 'application/pdf' })
		expect(ok.status).toBe(303)
		expect(ok.location).toBe(`${path}?received=dl`)
		// A PNG named .pdf is stored as the PNG it is; a JPEG with no extension too.
		expect((await v.upload('visa', { name: 'visa.pdf', bytes: samplePng(), type: 'application/pdf' })).status).toBe(303)
		expect((await v.upload('i94', { name: 'i94', bytes: sampleJpeg() })).status).toBe(303)
		expect((await v.upload('dl', { name: 'dl-back.pdf', bytes: samplePdf('back') })).status).toBe(303)

		const fake = await v.upload('visa', { name: 'visa.pdf', bytes: new TextEncoder().encode('MZ this is a program'), type: 'application/pdf' })
		expect(fake.status).toBe(422)
		expect(fake.text).toContain('Must be a PDF, JPEG or PNG file')
		const big = new Uint8Array(10 * 1024 * 1024 + 1)
		big.set(pdf)
		const tooBig = await v.upload('dl', { name: 'huge.pdf', bytes: big })
		expect(tooBig.status).toBe(413)
		expect(tooBig.text).toContain('larger than 10 MB')
		const notAsked = await v.upload('workAuth', { name: 'ead.pdf', bytes: pdf })
		expect(notAsked.status).toBe(422)
		expect(notAsked.text).toContain('This link does not ask for that document')
		expect((await v.upload('dl', { name: 'empty.pdf', bytes: new Uint8Array() })).status).toBe(422)

		const docs = await listCandidateDocuments(deps, s.recruiter, s.candidateId)
		expect(docs.onFile).toEqual(['dl', 'visa', 'i94'])
		expect(docs.notOnFile).toEqual(['workAuth'])
		expect(docs.documents.map((d) => [d.kind, d.fileName.text, d.contentType, d.current])).toEqual([
			['dl', 'dl-back.pdf', 'application/pdf', true],
			['i94', 'i94', 'image/jpeg', true],
			['visa', 'visa.pdf', 'image/png', true],
			['dl', 'my license.pdf', 'application/pdf', false],
		])
		expect(JSON.stringify(docs)).not.toContain('storage')
		const [stored] = await deps.db
			.select()
			.from(candidateDocuments)
			.where(and(eq(candidateDocuments.candidateId, s.candidateId), eq(candidateDocuments.fileName, 'my license.pdf')))
		expect(await fileStore(deps.config).get(stored!.storageKey)).toEqual(pdf)

		const after = await anonymousVisitor(path)
		expect(after.page).toContain('my license.pdf')
		const log = await activityFor(deps.db, s.ws.id, 'candidate', s.candidateId)
		expect(log.filter((l) => l.action === 'document.uploaded')).toHaveLength(4)
		expect(log.find((l) => l.action === 'document.uploaded')!.actorName).toBe('Ravi Kumar (candidate)')
	})

	test('an expired link and a forged one get a clear page and store nothing', async () => {
		const deps = await testDeps()
		const s = await setting()
		const result = await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['dl'] })
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, result.id), eq(outbox.channel, 'email')))
		const path = (await textToSend(deps.secret, mail!)).match(/http:\/\/localhost:3000(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]!
		const live = await anonymousVisitor(path)
		expect(live.status).toBe(200)

		const forged = path.slice(0, -1) + (path.endsWith('a') ? 'b' : 'a')
		const f = await anonymousVisitor(forged)
		expect(f.status).toBe(404)
		expect(f.page).toContain('This upload link is not valid')
		expect((await anonymousVisitor('/upload/not-a-link')).status).toBe(404)

		clock.advance(7 * 86_400_000 + 1000)
		const expired = await anonymousVisitor(path)
		expect(expired.status).toBe(410)
		expect(expired.page).toContain('This upload link has expired')
		expect(expired.page).toContain('ask your recruiter')
		// A form opened before expiry and sent after it is refused too.
		const late = await live.upload('dl', { name: 'dl.pdf', bytes: samplePdf('late') })
		expect(late.status).toBe(410)
		expect((await listCandidateDocuments(deps, s.recruiter, s.candidateId)).documents).toHaveLength(0)
	})
})

/** The upload path (`/upload/bl_ul_…`) in the e-mail of one request. */
async function pathOf(requestId: string): Promise<string> {
	const deps = await testDeps()
	const [mail] = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.relatedId, requestId), eq(outbox.channel, 'email')))
	return (await textToSend(deps.secret, mail!)).match(/http:\/\/localhost:3000(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]!
}

describe('revoking a link, and what a link can reach (checklist H8)', () => {
	test('a new request for the same documents replaces the earlier link: the old one gets a clear page and stores nothing, even from a form opened before; a request for other kinds leaves it working', async () => {
		const deps = await testDeps()
		const s = await setting()
		const first = await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, applicationId: s.applicationId, items: ['dl', 'visa'] })
		const oldPath = await pathOf(first.id)
		const openBefore = await anonymousVisitor(oldPath)
		expect(openBefore.status).toBe(200)

		// Asking for something else does not touch the earlier link.
		const other = await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, applicationId: s.applicationId, items: ['i94'] })
		expect(other.replaced).toEqual([])
		expect((await anonymousVisitor(oldPath)).status).toBe(200)

		// Asking again for everything the first link asked for (and more) replaces it, not the i94 link.
		const again = await requestCandidateDocuments(deps, s.recruiter, {
			candidateId: s.candidateId,
			applicationId: s.applicationId,
			items: ['dl', 'visa', 'workAuth'],
		})
		expect(again.replaced).toEqual([first.id])
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, again.id), eq(outbox.channel, 'email')))
		expect(mail!.text).toContain('It replaces the link we sent you earlier')
		const log = await activityFor(deps.db, s.ws.id, 'candidate', s.candidateId)
		expect(log.find((l) => (l.detail as any)?.requestId === again.id)!.detail).toMatchObject({ replaced: [first.id] })

		const replaced = await anonymousVisitor(oldPath)
		expect(replaced.status).toBe(410)
		expect(replaced.page).toContain('This upload link was replaced by a newer one')
		expect(replaced.page).not.toContain('type="file"')
		const late = await openBefore.upload('dl', { name: 'dl.pdf', bytes: samplePdf('through the old link') })
		expect(late.status).toBe(410)
		expect(late.text).toContain('replaced by a newer one')
		expect((await listCandidateDocuments(deps, s.recruiter, s.candidateId)).documents).toHaveLength(0)
		const [oldRow] = await deps.db.select().from(documentRequests).where(eq(documentRequests.id, first.id))
		expect(oldRow).toMatchObject({ uploadCount: 0, replacedBy: again.id })

		// The i94 link and the new link both work.
		expect((await (await anonymousVisitor(await pathOf(other.id))).upload('i94', { name: 'i94.pdf', bytes: samplePdf('i94') })).status).toBe(303)
		expect((await (await anonymousVisitor(await pathOf(again.id))).upload('dl', { name: 'dl.pdf', bytes: samplePdf('dl') })).status).toBe(303)
		expect((await listCandidateDocuments(deps, s.recruiter, s.candidateId)).onFile).toEqual(['dl', 'i94'])
	})

	test('an operator withdraws a link by its address (documents revoke-link): it stores nothing from then on; a second revoke says it already stopped', async () => {
		const deps = await testDeps()
		const s = await setting()
		const request = await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['dl'] })
		const path = await pathOf(request.id)
		const openBefore = await anonymousVisitor(path)
		expect((await openBefore.upload('dl', { name: 'first.pdf', bytes: samplePdf('first') })).status).toBe(303)

		const revoked = await runCommand(deps, 'documents revoke-link', { link: `http://localhost:3000${path}` })
		expect(revoked.json).toEqual({ requestId: request.id, candidateId: s.candidateId, revoked: true, state: 'revoked' })
		const page = await anonymousVisitor(path)
		expect(page.status).toBe(410)
		expect(page.page).toContain('This upload link was withdrawn')
		expect((await openBefore.upload('dl', { name: 'second.pdf', bytes: samplePdf('second') })).status).toBe(410)
		const docs = await listCandidateDocuments(deps, s.recruiter, s.candidateId)
		expect(docs.documents.map((d) => d.fileName.text)).toEqual(['first.pdf'])
		const log = await activityFor(deps.db, s.ws.id, 'candidate', s.candidateId)
		expect(log.find((l) => l.action === 'documents.link_revoked')).toMatchObject({ actorName: 'Operator', detail: { requestId: request.id } })

		expect((await runCommand(deps, 'documents revoke-link', { request: request.id })).json).toMatchObject({ revoked: false, state: 'revoked' })
		await expect(runCommand(deps, 'documents revoke-link', { link: 'https://example.test/upload/nothing' })).rejects.toMatchObject({ code: 'VALIDATION' })
	})

	test('a link reaches only its own candidate and request: ids put in the form or the address are ignored, and another candidate’s kinds are refused', async () => {
		const deps = await testDeps()
		const s = await setting()
		const otherEmail = `${unique('ana')}@example.test`
		const other = await newCandidate(s.ws, { name: 'Ana Lopez', email: otherEmail })
		const otherApp = await newApplication(s.ws, other, s.jobId)
		const mine = await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, applicationId: s.applicationId, items: ['dl'] })
		const theirs = await requestCandidateDocuments(deps, s.recruiter, { candidateId: other, applicationId: otherApp, items: ['dl', 'visa'] })
		const path = await pathOf(mine.id)
		const stranger = await newWorkspace()

		// Ids of the other candidate, their request, their application and another workspace, in the
		// address and in the form, change nothing: the upload lands on the link's own candidate.
		const tampered = `${path}?candidateId=${other}&requestId=${theirs.id}&workspaceId=${stranger.id}`
		const v = await anonymousVisitor(tampered)
		expect(v.status).toBe(200)
		expect(v.page).toContain('Ravi Kumar')
		expect(v.page).not.toContain('Ana Lopez')
		const { app } = await testApp()
		const form = new FormData()
		const csrf = v.page.match(/name="csrf" value="([^"]*)"/)![1]!
		for (const [k, value] of Object.entries({ csrf, kind: 'dl', candidateId: other, requestId: theirs.id, applicationId: otherApp, workspaceId: stranger.id }))
			form.set(k, value)
		form.set('file', new File([samplePdf('tampered') as Uint8Array<ArrayBuffer>], 'dl.pdf', { type: 'application/pdf' }))
		const res = await app.handle(new Request(`http://localhost${tampered}`, { method: 'POST', body: form, headers: { cookie: v.cookie } }))
		expect(res.status).toBe(303)

		const [a, b] = await Promise.all([listCandidateDocuments(deps, s.recruiter, s.candidateId), listCandidateDocuments(deps, s.recruiter, other)])
		expect(a.documents).toHaveLength(1)
		expect(b.documents).toHaveLength(0)
		const stored = await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.requestId, mine.id))
		expect(
			stored.every((d) => d.candidateId === s.candidateId && d.workspaceId === s.ws.id && d.storageKey.startsWith(`documents/${s.ws.id}/${s.candidateId}/`)),
		).toBe(true)
		expect(await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.requestId, theirs.id))).toHaveLength(0)

		// A kind only the other candidate was asked for is refused on this link.
		expect((await v.upload('visa', { name: 'visa.pdf', bytes: samplePdf('visa') })).status).toBe(422)
		// The other request's id (or anything else) in place of the token is not a link.
		expect((await anonymousVisitor(`/upload/${theirs.id}`)).status).toBe(404)
		expect((await anonymousVisitor(`/upload/${path.split('/').pop()}x`)).status).toBe(404)
	})
})

describe('bounds on messaging a candidate (checklist J8)', () => {
	test(`one person sends one candidate at most ${MAX_REQUESTS_PER_CANDIDATE_HOUR} requests an hour: then a clear refusal that sends nothing; another person, another candidate and the next hour are not held back`, async () => {
		const deps = await testDeps()
		const s = await setting()
		const sent = []
		for (const items of [['dl'], ['visa'], ['i94']] as const)
			sent.push(await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: [...items] }))
		expect(sent.map((r) => r.repeated)).toEqual([false, false, false])
		// A retry of the last one is still answered (nothing sent), not refused.
		expect((await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['i94'] })).repeated).toBe(true)
		const refused = requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['workAuth'], message: 'Please, one more' })
		await expect(refused).rejects.toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('nothing was sent') })
		await expect(requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['workAuth'] })).rejects.toMatchObject({
			retryAfter: expect.any(Number),
		})
		const mails = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.to, s.email), eq(outbox.channel, 'email')))
		expect(mails).toHaveLength(3)

		const colleague = await actorFor(s.ws, 'recruiter')
		expect((await requestCandidateDocuments(deps, colleague, { candidateId: s.candidateId, items: ['workAuth'] })).repeated).toBe(false)
		const otherCandidate = await newCandidate(s.ws)
		expect((await requestCandidateDocuments(deps, s.recruiter, { candidateId: otherCandidate, items: ['dl'] })).repeated).toBe(false)

		clock.advance(60 * 60_000 + 1000)
		expect((await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['workAuth'] })).repeated).toBe(false)
	})

	test('the same request sent many times at once is one request, one e-mail and one message', async () => {
		const deps = await testDeps({ MESSAGING_ACCOUNT: 'AC1', MESSAGING_TOKEN: 't', MESSAGING_FROM: '+15550001111' })
		const s = await setting()
		const answers = await Promise.all(
			Array.from({ length: 8 }, () => requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: ['dl', 'visa'], message: 'Thanks!' })),
		)
		expect(new Set(answers.map((a) => a.id)).size).toBe(1)
		expect(answers.filter((a) => !a.repeated)).toHaveLength(1)
		const rows = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, answers[0]!.id)))
		expect(rows.map((r) => r.channel).sort()).toEqual(['email', 'message'])
		expect(await deps.db.select().from(documentRequests).where(eq(documentRequests.candidateId, s.candidateId))).toHaveLength(1)
	})
})

/** Puts documents on file through the real upload link. */
async function upload(deps: Awaited<ReturnType<typeof testDeps>>, s: Awaited<ReturnType<typeof setting>>, kinds: ('dl' | 'visa' | 'i94' | 'workAuth')[]) {
	await requestCandidateDocuments(deps, s.recruiter, { candidateId: s.candidateId, items: kinds })
	const v = await anonymousVisitor(await linkSentTo(s.email))
	for (const kind of kinds) expect((await v.upload(kind, { name: `${kind}.pdf`, bytes: samplePdf(`${kind} of Ravi`) })).status).toBe(303)
}

describe('vendor submissions', () => {
	test('the vendor’s rules by work authorization decide what is missing; submitting refuses with that list', async () => {
		const deps = await testDeps()
		const s = await setting()
		await upload(deps, s, ['dl'])
		const check = await checkVendorSubmission(deps, s.recruiter, s.applicationId)
		expect(check.required).toEqual(['dl', 'visa', 'i94', 'workAuth'])
		expect(check.onFile).toEqual(['dl'])
		expect(check.missing).toEqual(['visa', 'i94', 'workAuth'])
		expect(check.ready).toBe(false)
		expect(check.problems[0]).toContain('visa (Visa), i94 (I-94 record), workAuth (Work authorization)')
		const refused = submitToVendor(deps, s.recruiter, { applicationId: s.applicationId, documents: ['dl'] })
		await expect(refused).rejects.toMatchObject({ code: 'CONFLICT', fields: [{ field: 'documents', message: 'missing: visa, i94, workAuth' }] })

		// A green-card holder needs only the vendor's "always" kinds.
		const gc = await setting({ workAuthorization: 'GC' })
		await upload(deps, gc, ['dl', 'workAuth'])
		const ok = await checkVendorSubmission(deps, gc.recruiter, gc.applicationId)
		expect(ok).toMatchObject({ required: ['dl', 'workAuth'], missing: [], ready: true, problems: [], resumeOnFile: true, alreadySubmitted: null })
	})

	test('an application that came with its own résumé (the candidate was on file with another) sends that one to the vendor', async () => {
		const deps = await testDeps({ SMTP_URL: smtp.url })
		const s = await setting()
		await upload(deps, s, ['dl', 'visa', 'i94', 'workAuth'])
		const key = `resumes/${s.ws.id}/${unique('own')}.pdf`
		await fileStore(deps.config).put(key, samplePdf('The resume sent with this application'), 'application/pdf')
		await deps.database.rows(
			sql`update applications set resume_path = ${key}, resume_file_name = 'own.pdf', resume_mime = 'application/pdf', resume_text = 'The resume sent with this application' where id = ${s.applicationId}`,
		)
		const result = await submitToVendor(deps, s.recruiter, { applicationId: s.applicationId, documents: ['dl', 'visa', 'i94', 'workAuth'] })
		await deliverDue(deps, { workspaceId: s.ws.id })
		const [mail] = smtp.to(result.to.text)
		expect(Buffer.from(mail!.parsed.attachments[0]!.content as unknown as ArrayBuffer).toString('latin1')).toContain('The resume sent with this application')
	})

	test('a submission mails the vendor the résumé, the chosen documents and the note, is recorded and logged, and cannot be made twice', async () => {
		const deps = await testDeps({ SMTP_URL: smtp.url })
		const s = await setting()
		await upload(deps, s, ['dl', 'visa', 'i94', 'workAuth'])
		// Choosing a kind the vendor needs is not optional.
		await expect(submitToVendor(deps, s.recruiter, { applicationId: s.applicationId, documents: ['dl', 'visa', 'i94'] })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'documents', message: expect.stringContaining('workAuth') }],
		})

		const result = await submitToVendor(deps, s.recruiter, {
			applicationId: s.applicationId,
			documents: ['workAuth', 'dl', 'visa', 'i94'],
			note: 'Strong Java profile; available in 2 weeks.',
		})
		expect(result.documents).toEqual(['dl', 'visa', 'i94', 'workAuth'])
		expect(plain(result.attachments)).toEqual([
			'Ravi_Kumar-Resume.pdf',
			'Ravi_Kumar-Drivers_license.pdf',
			'Ravi_Kumar-Visa.pdf',
			'Ravi_Kumar-I-94_record.pdf',
			'Ravi_Kumar-Work_authorization.pdf',
		])

		const smtpDeps = await testDeps({ SMTP_URL: smtp.url })
		await deliverDue(smtpDeps, { workspaceId: s.ws.id })
		const [mail] = smtp.to(result.to.text)
		expect(mail!.parsed.subject).toContain('Candidate submission: Ravi Kumar for Senior Java Developer')
		expect(mail!.parsed.text).toContain('Hello Vera Vendor,')
		expect(mail!.parsed.text).toContain('Strong Java profile; available in 2 weeks.')
		expect(mail!.parsed.text).toContain('Work authorization: H1B')
		expect(mail!.parsed.text).not.toContain(s.email)
		expect(mail!.parsed.attachments.map((a) => a.filename)).toEqual(plain(result.attachments))
		const visa = mail!.parsed.attachments[2]!
		expect(visa.mimeType).toBe('application/pdf')
		expect(Buffer.from(visa.content as unknown as ArrayBuffer).toString('latin1')).toContain('visa of Ravi')
		expect(Buffer.from(mail!.parsed.attachments[0]!.content as unknown as ArrayBuffer).toString('latin1')).toContain('Resume of Ravi Kumar')

		const [row] = await deps.db.select().from(vendorSubmissions).where(eq(vendorSubmissions.applicationId, s.applicationId))
		expect(row).toMatchObject({
			vendorId: s.vendorId,
			jobId: s.jobId,
			candidateId: s.candidateId,
			documents: ['dl', 'visa', 'i94', 'workAuth'],
			note: 'Strong Java profile; available in 2 weeks.',
		})
		const log = await activityFor(deps.db, s.ws.id, 'application', s.applicationId)
		expect(log.map((l) => l.action)).toEqual(['application.submitted_to_vendor'])

		await expect(submitToVendor(deps, s.recruiter, { applicationId: s.applicationId, documents: ['dl', 'visa', 'i94', 'workAuth'] })).rejects.toMatchObject({
			code: 'CONFLICT',
			message: expect.stringContaining('already submitted'),
		})
		const check = await checkVendorSubmission(deps, s.recruiter, s.applicationId)
		expect(check.ready).toBe(false)
		expect(check.alreadySubmitted?.submissionId).toBe(result.id)

		// The status other modules show with the application; documents only for roles that see them.
		const recruiterView = (await submissionDetails(deps, s.recruiter, [s.applicationId, 'app_none'])) as Map<string, any>
		expect(plain(recruiterView.get(s.applicationId).vendorSubmission)).toMatchObject({
			status: 'submitted',
			delivery: 'sent',
			submittedBy: 'recruiter person',
			vendor: { id: s.vendorId, name: 'Acme Staffing' },
			documents: ['dl', 'visa', 'i94', 'workAuth'],
		})
		// Who submitted (the reader's own name here, a colleague's to others) and the vendor's name: labelled.
		expect(recruiterView.get(s.applicationId).vendorSubmission.submittedBy).toMatchObject({ untrusted: true, writtenBy: 'self' })
		expect(recruiterView.get(s.applicationId).vendorSubmission.vendor.name).toMatchObject({ untrusted: true, writtenBy: 'vendor' })
		expect(recruiterView.get('app_none')).toEqual({ vendorSubmission: null })
		const manager = await actorFor(s.ws, 'hiring_manager')
		const managerView = (await submissionDetails(deps, manager, [s.applicationId])) as Map<string, any>
		expect(managerView.get(s.applicationId).vendorSubmission.status).toBe('submitted')
		expect(managerView.get(s.applicationId).vendorSubmission).not.toHaveProperty('documents')
		expect(managerView.get(s.applicationId).vendorSubmission.submittedBy).toMatchObject({ untrusted: true, writtenBy: 'colleague' })

		// A delivery report that says the e-mail did not arrive: "not delivered" wherever the submission shows, never "sent".
		expect(await recordBounce(deps.db, { workspaceId: s.ws.id, ids: [row!.outboxId!], reason: '550 no such user', at: new Date() })).toEqual([row!.outboxId!])
		const bounced = (await submissionDetails(deps, s.recruiter, [s.applicationId])) as Map<string, any>
		expect(bounced.get(s.applicationId).vendorSubmission.delivery).toBe('failed')
		expect((await vendorSubmissionList(deps, s.recruiter, s.vendorId, { limit: 10 })).submissions.map((l) => l.delivery)).toEqual(['failed'])

		const vendor = await getVendor(deps, s.recruiter, s.vendorId)
		expect(vendor).toMatchObject({ submissionCount: 1, openJobCount: 1, jobCount: 1 })
		expect(vendor.lastSubmittedAt).toBe(row!.submittedAt.toISOString())
	})

	test('two submissions of one application at once: one goes through, the other is refused', async () => {
		const deps = await testDeps()
		const s = await setting({ workAuthorization: 'USC' })
		await upload(deps, s, ['dl', 'workAuth'])
		const attempts = await Promise.allSettled(
			[0, 1, 2].map(() => submitToVendor(deps, s.recruiter, { applicationId: s.applicationId, documents: ['dl', 'workAuth'] })),
		)
		expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1)
		for (const a of attempts.filter((x) => x.status === 'rejected')) expect((a as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' })
		const mails = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, s.ws.id), eq(outbox.relatedType, 'application')))
		expect(mails).toHaveLength(1)
	})

	test('refusals: chosen documents not on file, a portal-only vendor, a job without vendor, no résumé, out of reach', async () => {
		const deps = await testDeps()
		const s = await setting({ workAuthorization: 'GC' })
		await upload(deps, s, ['dl', 'workAuth'])
		await expect(submitToVendor(deps, s.recruiter, { applicationId: s.applicationId, documents: ['dl', 'workAuth', 'visa'] })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ message: 'not on file: visa (Visa)' }],
		})

		const portal = await newSubmissionVendor(s.ws, { email: null, portal: 'https://portal.example/submit', name: 'Portal Partners' })
		const portalJob = await newVendorJob(s.ws, { vendorId: portal })
		const portalApp = await newApplication(s.ws, s.candidateId, portalJob)
		// Our words only: the vendor's name and portal address are in the result's fields, labelled.
		const portalCheck = await checkVendorSubmission(deps, s.recruiter, portalApp)
		expect(portalCheck.problems).toEqual(['The vendor takes submissions on its own portal (vendor.portalUrl), not by e-mail.'])
		expect(portalCheck.vendor).toMatchObject({
			name: { untrusted: true, writtenBy: 'vendor', text: 'Portal Partners' },
			portalUrl: { untrusted: true, writtenBy: 'vendor', text: 'https://portal.example/submit' },
		})
		await expect(submitToVendor(deps, s.recruiter, { applicationId: portalApp, documents: ['dl', 'workAuth'] })).rejects.toMatchObject({
			code: 'CONFLICT',
			message: expect.stringContaining('its own portal'),
		})

		const ownJob = await newVendorJob(s.ws, { vendorId: null })
		const ownApp = await newApplication(s.ws, s.candidateId, ownJob)
		await expect(checkVendorSubmission(deps, s.recruiter, ownApp)).rejects.toMatchObject({
			code: 'CONFLICT',
			message: expect.stringContaining('has no vendor'),
		})

		const bare = await newCandidate(s.ws, { resume: false, workAuthorization: 'USC' })
		const bareApp = await newApplication(s.ws, bare, s.jobId)
		await deps.db.insert(candidateDocuments).values([
			{
				id: `doc_${unique()}`,
				workspaceId: s.ws.id,
				candidateId: bare,
				kind: 'dl',
				fileName: 'dl.pdf',
				contentType: 'application/pdf',
				sizeBytes: 1,
				storageKey: 'x/dl.pdf',
			},
			{
				id: `doc_${unique()}`,
				workspaceId: s.ws.id,
				candidateId: bare,
				kind: 'workAuth',
				fileName: 'wa.pdf',
				contentType: 'application/pdf',
				sizeBytes: 1,
				storageKey: 'x/wa.pdf',
			},
		])
		expect((await checkVendorSubmission(deps, s.recruiter, bareApp)).problems).toEqual(['No résumé on file.'])
		await expect(submitToVendor(deps, s.recruiter, { applicationId: bareApp, documents: ['dl', 'workAuth'] })).rejects.toMatchObject({
			code: 'CONFLICT',
			message: expect.stringContaining('no résumé'),
		})

		const stranger = await actorFor(await newWorkspace(), 'owner')
		await expect(checkVendorSubmission(deps, stranger, s.applicationId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		await expect(listCandidateDocuments(deps, stranger, s.candidateId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
	})
})
