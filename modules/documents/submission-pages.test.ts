/**
 * Check vendor submission and Submit to vendor on the application page, in-process through the
 * real sign-in form: refused with the tool's missing list before the documents are on file
 * (uploaded through the candidate's real upload link), accepted after.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { AppError } from '../../core/errors.ts'
import { escapeHtml } from '../../core/html.ts'
import { personActor } from '../auth/index.ts'
import { jobTeam } from '../jobs/table.ts'
import { textToSend } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import { newPerson, newWorkspace, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob, samplePng } from '../../tests/staffing-fixtures.ts'
import { requestCandidateDocuments } from './requests.ts'
import { samplePdf } from './seed.ts'
import { checkVendorSubmission, submitToVendor } from './submissions.ts'
import { vendorSubmissions } from './table.ts'
import { storeUpload } from './uploads.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
let recruiter: PortalClient
let recruiterActor: Actor

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	const person = await newPerson(ws, 'recruiter', {}, deps)
	recruiterActor = await personActor(deps, ws.slug, person.email)
	recruiter = await signedIn(person)
}, 60_000)

/** A vendor needing dl and workAuth always, visa and i94 for H1B; an H1B candidate with a résumé; their application. */
async function setting(o: { portal?: string } = {}) {
	const vendorId = await newSubmissionVendor(ws, { name: `Acme ${unique('v')}`, ...(o.portal ? { email: null, portal: o.portal } : {}) }, deps)
	const email = `${unique('ravi')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Ravi Kumar', email, workAuthorization: 'H1B' }, deps)
	const jobId = await newVendorJob(ws, { vendorId, title: 'Senior Java Developer' }, deps)
	const applicationId = await newApplication(ws, candidateId, jobId, {}, deps)
	return { vendorId, candidateId, jobId, applicationId, email }
}

/** The candidate uploads the documents through the link e-mailed to them (as the upload page does). */
async function uploadThroughLink(s: Awaited<ReturnType<typeof setting>>, kinds: DocumentKind[]) {
	await requestCandidateDocuments(deps, recruiterActor, { candidateId: s.candidateId, applicationId: s.applicationId, items: kinds, includeJobLink: false })
	const mails = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, s.email), eq(outbox.channel, 'email')))
	const newest = mails.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!
	const token = (await textToSend(deps.secret, newest)).match(/\/upload\/(bl_ul_[0-9A-Za-z]+)/)![1]!
	for (const kind of kinds)
		await storeUpload(deps, token, kind, kind === 'dl' ? { name: 'licence.png', bytes: samplePng() } : { name: `${kind}.pdf`, bytes: samplePdf(kind) })
}

const ALL: DocumentKind[] = ['dl', 'workAuth', 'visa', 'i94']
const submitForm = (documents: string[], note: string) => new URLSearchParams([...documents.map((d) => ['documents', d]), ['note', note]])
const submissionsOf = (applicationId: string) => deps.db.select().from(vendorSubmissions).where(eq(vendorSubmissions.applicationId, applicationId))

/** A form post with repeated fields (checkboxes), cookies and all, as a browser sends it. */
async function rawPost(client: PortalClient, path: string, form: URLSearchParams) {
	const { app } = await portalApp()
	const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
	const res = await app.handle(
		new Request(`http://localhost${path}`, {
			method: 'POST',
			headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.9.9.9' },
			body: form.toString(),
		}),
	)
	return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

describe('Check vendor submission', () => {
	test('shows what the vendor needs for this candidate, each on file or missing, as check_vendor_submission does', async () => {
		const s = await setting()
		const plain = (await recruiter.get(`/applications/${s.applicationId}`)).text
		expect(plain).toContain('>Check vendor submission</button>')
		expect(plain).not.toContain('id="vendor-check"')
		const page = (await recruiter.get(`/applications/${s.applicationId}?check=vendor`)).text
		const check = await checkVendorSubmission(deps, recruiterActor, s.applicationId)
		expect([...check.missing].sort()).toEqual([...ALL].sort())
		const list = page.slice(page.indexOf('id="vendor-check"'))
		for (const k of check.required) expect(list).toContain(`<li>${escapeHtml(DOCUMENT_LABELS[k])} <strong class="tag tag-bad">missing</strong></li>`)
		expect(list).toContain('<li>Résumé <strong class="tag tag-good">on file</strong></li>')
		expect(list).toContain(`<strong>Missing:</strong> ${escapeHtml(check.missing.map((k) => DOCUMENT_LABELS[k]).join(', '))}`)
	})
})

describe('Submit to vendor', () => {
	test('a vendor that takes submissions on its own portal gets no form, the page says where; a post is refused (422) and sends nothing', async () => {
		const s = await setting({ portal: 'https://portal.acme.example/submit' })
		await uploadThroughLink(s, ALL)
		const page = await recruiter.get(`/applications/${s.applicationId}`)
		expect(page.text).toContain('takes submissions on its own portal: <span class="break">https:/<wbr>/<wbr>portal.<wbr>acme.<wbr>example/<wbr>submit</span>')
		expect(page.text).not.toContain('>Submit to vendor</button>')
		const refused = await rawPost(recruiter, `/applications/${s.applicationId}/submit-to-vendor`, withCsrf(submitForm(ALL, 'via portal?'), recruiter.csrf))
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('href="#vendor-check"')
		expect(refused.text).toContain('The vendor takes submissions on its own portal')
		expect(await submissionsOf(s.applicationId)).toEqual([])
	})

	test('refused with the tool’s missing list (422, values kept) before the documents are on file; accepted once they arrive (303, notice, activity)', async () => {
		const s = await setting()
		const path = `/applications/${s.applicationId}/submit-to-vendor`
		await recruiter.get(`/applications/${s.applicationId}`)
		const note = 'Ravi is available from Monday; rate 85/hr C2C.\nReferences on request.'

		// What the tool says, for the comparison.
		const toolError = await submitToVendor(deps, recruiterActor, { applicationId: s.applicationId, documents: ALL, note }).then(
			() => null,
			(e: AppError) => e,
		)
		expect(toolError).toMatchObject({ code: 'CONFLICT' })
		const toolMissing = toolError!.fields![0]!.message.replace(/^missing: /, '').split(', ') as DocumentKind[]

		const refused = await rawPost(recruiter, path, withCsrf(submitForm(['dl', 'visa'], note), recruiter.csrf))
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('<title>Error: ')
		const summary = refused.text.slice(
			refused.text.indexOf('class="error-summary"'),
			refused.text.indexOf('</div>', refused.text.indexOf('class="error-summary"')),
		)
		expect(summary).toContain('href="#submit-documents"')
		expect(summary).toContain(`needs documents that are not on file: ${escapeHtml(toolMissing.map((k) => DOCUMENT_LABELS[k]).join(', '))}.`)
		// Everything entered is kept: the boxes ticked, the note as typed; the check is shown.
		expect(refused.text).toMatch(/value="dl" checked>/)
		expect(refused.text).toMatch(/value="visa" checked>/)
		expect(refused.text).not.toMatch(/value="i94" checked>/)
		expect(refused.text).toContain(`>${escapeHtml(note)}</textarea>`)
		expect(refused.text).toContain('id="vendor-check"')
		expect(await submissionsOf(s.applicationId)).toEqual([])

		await uploadThroughLink(s, ALL)
		await recruiter.get(`/applications/${s.applicationId}`)
		const accepted = await rawPost(recruiter, path, withCsrf(submitForm(ALL, note), recruiter.csrf))
		expect(accepted.status).toBe(303)
		expect(accepted.location).toBe(`/applications/${s.applicationId}?done=submitted#done`)
		const [row] = await submissionsOf(s.applicationId)
		expect(row).toMatchObject({ vendorId: s.vendorId, note, submittedByUserId: recruiterActor.userId })
		expect([...row!.documents].sort()).toEqual([...ALL].sort())
		const shown = (await recruiter.get(accepted.location!)).text
		expect(shown).toContain('Submitted to the vendor')
		expect(shown).toContain('>Submitted</strong>')
		expect(shown).not.toContain('>Submit to vendor</button>')
		const [logged] = await deps.database.rows<{ credentialKind: string; actorUserId: string }>(
			sql`select credential_kind as "credentialKind", actor_user_id as "actorUserId" from activity where target_id = ${s.applicationId} and action = 'application.submitted_to_vendor'`,
		)
		expect(logged).toEqual({ credentialKind: 'session', actorUserId: recruiterActor.userId! })

		// A second submission is refused on the page too, and sends nothing.
		const twice = await rawPost(recruiter, path, withCsrf(submitForm(ALL, ''), recruiter.csrf))
		expect(twice.status).toBe(422)
		expect(twice.text).toContain('already submitted')
		expect(await submissionsOf(s.applicationId)).toHaveLength(1)
	})

	test('bad input: a note over 1,000 characters, an unknown kind, a needed kind left out — 422 with the values kept; no CSRF token — 403', async () => {
		const s = await setting()
		await uploadThroughLink(s, ALL)
		const path = `/applications/${s.applicationId}/submit-to-vendor`
		await recruiter.get(`/applications/${s.applicationId}`)
		const long = 'é'.repeat(1001)
		const tooLong = await rawPost(recruiter, path, withCsrf(submitForm(ALL, long), recruiter.csrf))
		expect(tooLong.status).toBe(422)
		expect(tooLong.text).toContain('href="#submit-note"')
		expect(tooLong.text).toContain('The note must be at most 1,000 characters')
		expect(tooLong.text).toContain(`>${long}</textarea>`)
		const unknown = await rawPost(recruiter, path, withCsrf(submitForm(['dl', 'passport'], 'x'), recruiter.csrf))
		expect(unknown.status).toBe(422)
		expect(unknown.text).toContain('Choose the documents from the list')
		const leftOut = await rawPost(recruiter, path, withCsrf(submitForm(['dl', 'workAuth'], 'two only'), recruiter.csrf))
		expect(leftOut.status).toBe(422)
		expect(leftOut.text).toContain('needs these too: visa (Visa), i94 (I-94 record)')
		expect(leftOut.text).toContain('>two only</textarea>')
		const noToken = await rawPost(recruiter, path, submitForm(ALL, 'no token'))
		expect(noToken.status).toBe(403)
		expect(await submissionsOf(s.applicationId)).toEqual([])
	})

	test('hiring managers and viewers cannot submit (403); another workspace’s application is absent (404)', async () => {
		const s = await setting()
		await uploadThroughLink(s, ALL)
		const path = `/applications/${s.applicationId}/submit-to-vendor`
		const hmPerson = await newPerson(ws, 'hiring_manager', {}, deps)
		await deps.db.insert(jobTeam).values({ jobId: s.jobId, userId: hmPerson.userId })
		for (const person of [hmPerson, await newPerson(ws, 'viewer', {}, deps)]) {
			const client = await signedIn(person)
			expect((await rawPost(client, path, withCsrf(submitForm(ALL, ''), client.csrf))).status).toBe(403)
		}
		const stranger = await signedIn(await newPerson(await newWorkspace(deps), 'owner', {}, deps))
		expect((await rawPost(stranger, path, withCsrf(submitForm(ALL, ''), stranger.csrf))).status).toBe(404)
		expect(await submissionsOf(s.applicationId)).toEqual([])
	})
})

function withCsrf(form: URLSearchParams, csrf: string) {
	form.set('csrf', csrf)
	return form
}
