/**
 * The candidate's upload page in headless Chromium, on a phone-sized screen: the link arrives by
 * real e-mail (an SMTP server started by the test), real PDF, JPEG and PNG files are uploaded (the
 * JPEG is made by Chromium's own encoder), a renamed non-image and an 11 MB file are refused with a
 * clear message, and an expired link and a forged one each get a clear page.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { fileStore } from '../../core/files.ts'
import { personActor } from '../../modules/auth/index.ts'
import { listCandidateDocuments, requestCandidateDocuments } from '../../modules/documents/index.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { candidateDocuments } from '../../modules/documents/table.ts'
import { deliverDue } from '../../modules/outbox/index.ts'
import { axeProblems, browserMailTests, launchBrowser, overflowing, keepScreenshot } from '../browser.ts'
import { clock, newPerson, newWorkspace, serveApp, testDeps, unique } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob, samplePng } from '../staffing-fixtures.ts'

setDefaultTimeout(30_000)

const files = browserMailTests('bl-upload-')
afterEach(() => clock.reset())

/** A recruiter asks a candidate for documents; the e-mail goes out over SMTP; returns the link in it. */
async function requestByEmail(items: ('dl' | 'visa' | 'i94' | 'workAuth')[]) {
	const { deps } = await serveApp()
	const ws = await newWorkspace(deps)
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
	const vendorId = await newSubmissionVendor(ws, {}, deps)
	const email = `${unique('cand')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Ana Souza', email }, deps)
	await newApplication(ws, candidateId, await newVendorJob(ws, { vendorId }, deps), {}, deps)
	// Requested and delivered by a server with SMTP_URL.
	const mailer = await testDeps({ SMTP_URL: files.smtp.url, BASE_URL: files.url })
	await requestCandidateDocuments(mailer, recruiter, { candidateId, items, message: 'Hi Ana,\nthe client needs these by Friday.' })
	await deliverDue(mailer, { workspaceId: ws.id })
	const [mail] = files.smtp.to(email)
	const link = mail!.parsed.text!.match(/http:\/\/127\.0\.0\.1:\d+\/upload\/bl_ul_[0-9A-Za-z]+/)![0]
	return { deps, ws, recruiter, candidateId, link }
}

async function phone() {
	const ctx = await (await launchBrowser()).newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
	return { ctx, page: await ctx.newPage() }
}

/** A real JPEG, from Chromium's own encoder (a canvas drawn and exported). */
async function realJpeg(page: Page): Promise<Uint8Array> {
	const dataUrl = await page.evaluate(() => {
		const canvas = document.createElement('canvas')
		canvas.width = 64
		canvas.height = 40
		const g = canvas.getContext('2d')!
		g.fillStyle = '#1f5fd6'
		g.fillRect(0, 0, 64, 40)
		g.fillStyle = '#fff'
		g.fillText('VISA', 8, 24)
		return canvas.toDataURL('image/jpeg', 0.9)
	})
	return Uint8Array.from(atob(dataUrl.split(',')[1]!), (c) => c.charCodeAt(0))
}

const file = (name: string, bytes: Uint8Array) => {
	const path = join(files.dir, name)
	writeFileSync(path, bytes)
	return path
}

async function uploadIn(page: Page, section: string, path: string, button: RegExp) {
	const region = page.getByRole('region', { name: section })
	await region.getByLabel(/Choose a file|Send another file/).setInputFiles(path)
	await region.getByRole('button', { name: button }).click()
	await page.waitForLoadState('load')
}

describe('the upload page in a browser', () => {
	test('a candidate on a phone uploads a PDF, a JPEG and a PNG; a renamed file and a big one are refused clearly', async () => {
		const { deps, recruiter, candidateId, link } = await requestByEmail(['dl', 'visa', 'i94', 'workAuth'])
		const { ctx, page } = await phone()
		try {
			const jpeg = await realJpeg(page)
			expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
			const response = await page.goto(link)
			expect(response!.status()).toBe(200)
			await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Upload your documents')
			expect(await page.getByText('the client needs these by Friday.').isVisible()).toBe(true)
			for (const section of ['Driver’s license', 'Visa', 'I-94 record', 'Work authorization'])
				expect(await page.getByRole('region', { name: section }).isVisible()).toBe(true)
			// Phone-friendly and accessible: nothing wider than the screen, nothing axe finds.
			expect(await overflowing(page)).toEqual([])
			expect(await axeProblems(page)).toEqual([])

			const pdf = samplePdf('Driver license of Ana Souza')
			await uploadIn(page, 'Driver’s license', file('license.pdf', pdf), /Upload driver’s license/)
			expect(page.url()).toBe(`${link}?received=dl`)
			expect(await page.getByRole('status').textContent()).toContain('your driver’s license was received')
			await uploadIn(page, 'Visa', file('visa-photo.jpg', jpeg), /Upload visa/)
			await uploadIn(page, 'I-94 record', file('i94.png', samplePng(32, 20)), /Upload I-94 record/)
			expect(await page.getByRole('region', { name: 'I-94 record' }).textContent()).toContain('Received: i94.png')
			// The same link works again: a second driver's license file.
			await uploadIn(page, 'Driver’s license', file('license-back.pdf', samplePdf('back')), /Upload driver’s license/)

			await uploadIn(page, 'Work authorization', file('ead.pdf', new TextEncoder().encode('this is not really a PDF')), /Upload work authorization/)
			expect(await page.getByRole('alert').textContent()).toContain('Must be a PDF, JPEG or PNG file')
			const big = new Uint8Array(11 * 1024 * 1024)
			big.set(pdf)
			await uploadIn(page, 'Work authorization', file('huge.pdf', big), /Upload work authorization/)
			expect(await page.getByRole('alert').textContent()).toContain('larger than 10 MB')
			// The page with a refusal on it, on a phone and on a desktop.
			expect(await axeProblems(page)).toEqual([])
			await keepScreenshot(page, { path: '.tmp/screenshots/upload-refused-390.png', fullPage: true })
			await page.setViewportSize({ width: 1280, height: 900 })
			expect({ axe: await axeProblems(page), overflow: await overflowing(page) }).toEqual({ axe: [], overflow: [] })
			await keepScreenshot(page, { path: '.tmp/screenshots/upload-refused-1280.png', fullPage: true })
			await page.setViewportSize({ width: 390, height: 844 })
			expect(
				await page
					.getByRole('region', { name: 'Work authorization' })
					.getByLabel(/Choose a file/)
					.getAttribute('aria-invalid'),
			).toBe('true')

			const docs = await listCandidateDocuments(deps, recruiter, candidateId)
			expect(docs.onFile).toEqual(['dl', 'visa', 'i94'])
			expect(docs.documents.map((d) => [d.kind, d.fileName.text, d.contentType])).toEqual([
				['dl', 'license-back.pdf', 'application/pdf'],
				['i94', 'i94.png', 'image/png'],
				['visa', 'visa-photo.jpg', 'image/jpeg'],
				['dl', 'license.pdf', 'application/pdf'],
			])
			const visa = (await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.candidateId, candidateId))).find((d) => d.kind === 'visa')!
			expect(await fileStore(deps.config).get(visa.storageKey)).toEqual(jpeg)
		} finally {
			await ctx.close()
		}
	})

	test('an expired link and a forged one each get a clear page', async () => {
		const { link } = await requestByEmail(['dl'])
		const { ctx, page } = await phone()
		try {
			const forged = link.slice(0, -3) + (link.endsWith('AAA') ? 'BBB' : 'AAA')
			const bad = await page.goto(forged)
			expect(bad!.status()).toBe(404)
			expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This upload link is not valid')
			expect(await page.getByText('ask your recruiter to send you a new link').isVisible()).toBe(true)

			expect((await page.goto(link))!.status()).toBe(200)
			clock.advance(7 * 86_400_000 + 60_000)
			const expired = await page.goto(link)
			expect(expired!.status()).toBe(410)
			expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This upload link has expired')
			expect(await page.getByText('ask your recruiter to send you a new link').isVisible()).toBe(true)
			expect(await page.locator('input[type=file]').count()).toBe(0)
		} finally {
			await ctx.close()
		}
	})
})
