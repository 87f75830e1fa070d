/**
 * The candidate page's files in headless Chromium, served with `Content-Security-Policy: sandbox`:
 * the PDF résumé opens in the browser's PDF viewer framed on the page and in its own tab (the
 * sandbox does not stop the viewer); a document image and a file holding HTML are downloaded,
 * never rendered.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Frame, Page } from 'playwright-core'
import { closeBrowser, launchBrowser } from '../browser.ts'
import { newDocument } from '../candidate-pages.ts'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { newCandidate, samplePng } from '../staffing-fixtures.ts'

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
	candidateId = await newCandidate(ws, { name: 'Pia Frame' }, served.deps)
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
		await page.goto(`${url}/candidates/${candidateId}`)
		const violations: string[] = []
		page.on('console', (m) => m.type() === 'error' && violations.push(m.text()))
		await page.getByText('Show the PDF on this page').click()
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
})
