/**
 * The candidate page in headless Chromium. Its files, served with `Content-Security-Policy: sandbox`:
 * the PDF résumé opens in the browser's PDF viewer framed on the page (open beside the profile on a
 * desktop, behind "Show the PDF on this page" on a phone) and in its own tab (the sandbox does not
 * stop the viewer); a document image and a file holding HTML are downloaded, never rendered. Its
 * layout: on a desktop the résumé sits beside the profile, stages and actions; no word is broken in
 * its middle at either width. Its actions: after Add note or Add to-do the page comes back at the
 * form, with the confirmation next to the button and the focus on it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Frame, Page } from 'playwright-core'
import { brokenWords, closeBrowser, launchBrowser } from '../browser.ts'
import { newDocument } from '../candidate-pages.ts'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob, samplePng } from '../staffing-fixtures.ts'

setDefaultTimeout(60_000)

/** Chromium's PDF viewer (a built-in extension) is in the page's frames once it shows a PDF. */
const PDF_VIEWER = /^chrome-extension:\/\/[a-z]+\/index\.html/
const showsPdfViewer = (frames: Frame[]) => frames.some((f) => PDF_VIEWER.test(f.url()))

let url: string
let page: Page
let candidateId: string

beforeAll(async () => {
	const served = await serveApp()
	url = served.url
	const ws = await newWorkspace(served.deps)
	candidateId = await newCandidate(ws, { name: 'Pia Frame', email: 'pia.frame.of.the.integration.practice@subsidiary.example-staffing.test' }, served.deps)
	// A long title squeezes the applications table's other columns: none may break its words ("Applie d").
	const jobId = await newVendorJob(
		ws,
		{ title: 'Principal Salesforce Commerce Cloud Integration Architect for the Northeastern Region (Contract to Hire)' },
		served.deps,
	)
	await newApplication(ws, candidateId, jobId, {}, served.deps)
	await newDocument(served.deps, ws, candidateId, { kind: 'dl', fileName: 'licence.png', contentType: 'image/png', bytes: samplePng() })
	await newDocument(served.deps, ws, candidateId, {
		kind: 'visa',
		fileName: 'visa.html',
		contentType: 'text/html',
		bytes: new TextEncoder().encode('<!doctype html><title>x</title><h1 id="pwned">rendered</h1>'),
	})
	const owner = await newPerson(ws, 'owner', {}, served.deps)
	const context = await (await launchBrowser()).newContext({ acceptDownloads: true })
	page = await context.newPage()
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(owner.email)
	await page.getByLabel('Password').fill(owner.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(/\/portal/)
}, 60_000)

afterAll(async () => {
	await closeBrowser()
})

describe('files on the candidate page, in Chromium', () => {
	test('the PDF résumé shows in the browser’s viewer framed on the page and in its own tab, despite CSP sandbox', async () => {
		const violations: string[] = []
		page.on('console', (m) => m.type() === 'error' && violations.push(m.text()))
		// A phone: the PDF waits behind its summary.
		await page.setViewportSize({ width: 390, height: 844 })
		await page.goto(`${url}/candidates/${candidateId}`)
		expect(showsPdfViewer(page.frames())).toBe(false)
		await page.getByText('Show the PDF on this page').click()
		for (let i = 0; i < 50 && !showsPdfViewer(page.frames()); i++) await page.waitForTimeout(200)
		expect(showsPdfViewer(page.frames())).toBe(true)
		// A desktop: the PDF is open on the page without asking.
		await page.setViewportSize({ width: 1280, height: 900 })
		await page.goto(`${url}/candidates/${candidateId}`)
		expect(await page.getByText('Show the PDF on this page').isVisible()).toBe(false)
		for (let i = 0; i < 50 && !showsPdfViewer(page.frames()); i++) await page.waitForTimeout(200)
		expect(showsPdfViewer(page.frames())).toBe(true)
		expect(violations.filter((v) => /frame-ancestors|Refused to display|blocked/i.test(v))).toEqual([])

		const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Open the résumé' }).click()])
		await tab.waitForLoadState()
		for (let i = 0; i < 50 && !showsPdfViewer(tab.frames()); i++) await tab.waitForTimeout(200)
		expect(showsPdfViewer(tab.frames())).toBe(true)
		await tab.close()
	})

	test('an image document and a file holding HTML are downloaded, never shown as a page', async () => {
		for (const name of ['licence.png', 'visa.html']) {
			await page.goto(`${url}/candidates/${candidateId}`)
			const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()])
			expect(download.suggestedFilename()).toBe(name === 'visa.html' ? 'visa.html.bin' : name)
			expect(await page.locator('#pwned').count()).toBe(0)
		}
	})

	test('on a desktop the résumé sits beside the profile, stages and actions; on a phone below the applications; no word broken', async () => {
		const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!
		await page.setViewportSize({ width: 1280, height: 900 })
		await page.goto(`${url}/candidates/${candidateId}`)
		const [profile, applications, resume, notes] = await Promise.all(['section[aria-labelledby="profile-h"]', '#applications-h', '#resume', '#notes'].map(box))
		// Its own column, to the right, starting level with the profile (not folded below it).
		expect(resume.x).toBeGreaterThan(profile.x + profile.width)
		expect(resume.y).toBeLessThan(applications.y)
		expect(Math.abs(notes.x - profile.x)).toBeLessThan(2)
		expect(await brokenWords(page)).toEqual([])
		// A smaller desktop squeezes the applications table: its words wrap whole ("Northeastern", not "Northeaster n").
		await page.setViewportSize({ width: 1024, height: 900 })
		expect(await brokenWords(page)).toEqual([])
		await page.setViewportSize({ width: 390, height: 844 })
		await page.goto(`${url}/candidates/${candidateId}`)
		const [phoneApplications, phoneResume, phoneNotes] = await Promise.all(['#applications-h', '#resume', '#notes'].map(box))
		expect(phoneResume.y).toBeGreaterThan(phoneApplications.y)
		expect(phoneNotes.y).toBeGreaterThan(phoneResume.y)
		expect(await brokenWords(page)).toEqual([])
	})

	test('after Add note and Add to-do the page comes back at the form, the confirmation beside the button, focused', async () => {
		await page.setViewportSize({ width: 1280, height: 900 })
		for (const [form, field, text, button, said] of [
			['#add-note', 'Note', 'Called: available from March.', 'Add note', 'The note was added.'],
			['#add-todo', 'What to do', 'Send the contract draft', 'Add to-do', 'The to-do was added to your to-dos.'],
		] as const) {
			await page.goto(`${url}/candidates/${candidateId}`)
			const action = page.locator(form)
			await action.getByLabel(field, { exact: true }).fill(text)
			await action.getByRole('button', { name: button }).click()
			// The address's anchor is the confirmation, inside the form: the browser brings it into view and focuses it.
			await page.waitForURL(/\?done=[a-z-]+#done$/)
			await page.waitForFunction(() => document.activeElement?.id === 'done')
			const focused = await page.evaluate(() => {
				const el = document.activeElement!
				const r = el.getBoundingClientRect()
				const prev = el.previousElementSibling
				return {
					text: el.textContent,
					role: el.getAttribute('role'),
					form: el.closest('form')?.id,
					after: prev?.tagName === 'BUTTON' ? prev.textContent : null,
					inView: r.top >= -1 && r.bottom <= window.innerHeight + 1,
				}
			})
			expect(focused).toEqual({ text: said, role: 'status', form: form.slice(1), after: button, inView: true })
			// The one confirmation on the page: none at its top.
			expect(await page.locator('main [role="status"]').count()).toBe(1)
		}
	})
})
