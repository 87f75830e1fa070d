/**
 * A recruiter's working day in the browser, with no assistant app (issue 19): sign in → Jobs → a
 * job → its pipeline → the application → Move to stage → Submit to vendor, refused with the missing
 * documents → the candidate → Add note → Request documents → the candidate uploads through the
 * link in the real e-mail (on a phone) → Submit to vendor again, accepted. Every step is checked
 * against the database, not against the pages' own code.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { samplePdf } from '../../modules/documents/seed.ts'
import { deliverDue, releaseHeld } from '../../modules/outbox/index.ts'
import { browserMailTests, launchBrowser } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, testDeps, unique } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

const files = browserMailTests('bl-day-')

const notice = (page: Page) => page.locator('.notice').first().innerText()

describe('a recruiter’s day in the portal', () => {
	test('from the job’s pipeline to a vendor submission, refused before the documents arrive and accepted after', async () => {
		const { deps } = await serveApp()
		const ws = await newWorkspace(deps)
		const recruiter = await newPerson(ws, 'recruiter', {}, deps)
		const vendorId = await newSubmissionVendor(ws, { name: 'Northwind Consulting', rules: { always: ['dl', 'workAuth'], byWorkAuthorization: {} } }, deps)
		const jobId = await newVendorJob(ws, { vendorId, title: 'Senior Java Developer' }, deps)
		const email = `${unique('grace')}@example.test`
		const candidateId = await newCandidate(ws, { name: 'Grace Hopper', email, resume: true }, deps)
		const applicationId = await newApplication(ws, candidateId, jobId, {}, deps)
		const stageOf = async () =>
			(await deps.database.rows<{ stage: string }>(sql`select stage_key as stage from applications where id = ${applicationId}`))[0]!.stage

		const desk = await (await launchBrowser()).newContext({ viewport: { width: 1280, height: 900 } })
		desk.on('page', (p) => p.on('dialog', (d) => void d.accept()))
		const page = await desk.newPage()
		// Sign in, then Jobs in the navigation, then the job.
		await page.goto(`${files.url}/sign-in`)
		await page.getByLabel('Email').fill(recruiter.email)
		await page.getByLabel('Password').fill(recruiter.password)
		await page.getByRole('button', { name: 'Sign in' }).click()
		await page.waitForURL(`${files.url}/portal`)
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click()
		await page.getByRole('link', { name: 'Senior Java Developer' }).first().click()
		await page.waitForURL(`${files.url}/jobs/${jobId}`)

		// The pipeline: Grace is in the first stage; her card opens the application.
		const applied = page.locator('.stage', { hasText: 'Applied' }).first()
		await applied.getByRole('link', { name: 'Grace Hopper' }).click()
		await page.waitForURL(`${files.url}/applications/${applicationId}`)

		// Move to stage: Screening.
		await page.getByLabel('Stage').selectOption('screening')
		await page.getByRole('button', { name: 'Move to stage' }).click()
		await page.waitForURL(/done=/)
		expect(await stageOf()).toBe('screening')

		// Submit to vendor before any document is on file: refused, naming what is missing.
		await page.getByRole('button', { name: 'Submit to vendor' }).click()
		await page.locator('.error-summary').waitFor()
		const refusal = await page.locator('.error-summary').innerText()
		expect(refusal).toContain('Driver')
		expect(refusal).toContain('Work authorization')
		expect(
			(await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from vendor_submissions where application_id = ${applicationId}`))[0]!.n,
		).toBe(0)

		// The candidate: Add note, then Request documents.
		await page.goto(`${files.url}/candidates/${candidateId}`)
		await page.getByLabel('Note', { exact: true }).fill('Strong Java; wants hybrid in Austin.')
		await page.getByRole('button', { name: 'Add note' }).click()
		await page.waitForURL(/done=/)
		expect((await deps.database.rows<{ text: string }>(sql`select body as text from notes where candidate_id = ${candidateId}`)).map((n) => n.text)).toEqual([
			'Strong Java; wants hybrid in Austin.',
		])
		const request = page.locator('#request-documents')
		await request.getByLabel(/Driver/).check()
		await request.getByLabel(/Work authorization/).check()
		await request.getByLabel('Message to the candidate (optional)').fill('Hi Grace, the client needs these to submit you.')
		await request.getByRole('button', { name: 'Request documents' }).click()
		await page.waitForURL(/done=/)
		expect(await notice(page)).not.toBe('')

		// Without SMTP_URL the mail is held in the dev mailbox; the operator releases it (`outbox release`),
		// then it goes out; the candidate opens the link on a phone and uploads both documents.
		await releaseHeld(deps, { all: true, workspaceId: ws.id })
		await deliverDue(await testDeps({ SMTP_URL: files.smtp.url, BASE_URL: files.url }), { workspaceId: ws.id })
		const link = files.smtp
			.to(email)
			.at(-1)!
			.parsed.text!.match(/http:\/\/127\.0\.0\.1:\d+\/upload\/bl_ul_[0-9A-Za-z]+/)![0]
		const phone = await (await launchBrowser()).newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
		const mobile = await phone.newPage()
		await mobile.goto(link)
		for (const [section, name, button] of [
			['Driver’s license', 'license.pdf', /Upload driver’s license/],
			['Work authorization', 'ead.pdf', /Upload work authorization/],
		] as const) {
			const path = join(files.dir, name)
			writeFileSync(path, samplePdf(`${section} of Grace Hopper`))
			const region = mobile.getByRole('region', { name: section })
			await region.getByLabel(/Choose a file|Send another file/).setInputFiles(path)
			await region.getByRole('button', { name: button }).click()
			await mobile.waitForURL(/received=/)
		}
		await phone.close()

		// Back on the application: Submit to vendor, accepted.
		await page.goto(`${files.url}/applications/${applicationId}`)
		const form = page.locator('form[action$="/submit-to-vendor"]')
		await form.getByLabel(/Driver/).check()
		await form.getByLabel(/Work authorization/).check()
		await form.getByLabel('Note for the vendor (optional)').fill('Available in two weeks.')
		await form.getByRole('button', { name: 'Submit to vendor' }).click()
		await page.waitForURL(/done=/)
		const [submission] = await deps.database.rows<{ documents: string[]; note: string | null }>(
			sql`select documents, note from vendor_submissions where application_id = ${applicationId}`,
		)
		expect([...submission!.documents].sort()).toEqual(['dl', 'workAuth'])
		expect(submission!.note).toBe('Available in two weeks.')
		// Everything the recruiter did is in the activity log, as the portal session.
		const actions = (
			await deps.database.rows<{ action: string; kind: string }>(
				sql`select action, credential_kind as kind from activity where workspace_id = ${ws.id} and actor_name = 'recruiter person' order by at, seq`,
			)
		).map((a) => `${a.action}:${a.kind}`)
		for (const a of ['application.stage_changed', 'note.added', 'documents.requested', 'application.submitted_to_vendor'])
			expect(actions).toContain(`${a}:session`)
		await desk.close()
	})
})
