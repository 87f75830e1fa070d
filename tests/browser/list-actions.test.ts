/**
 * In Chromium (issue 31): after Publish on a job's page, Move to stage on an application's page and
 * Save this search on /candidates, the page comes back with the confirmation next to the control that
 * made the change, in view and focused; /candidates sorts by keyboard from its column headers.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { closeBrowser, launchBrowser } from '../browser.ts'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(60_000)

let url: string
let page: Page
let jobId: string
let applicationId: string

beforeAll(async () => {
	const served = await serveApp()
	url = served.url
	const ws = await newWorkspace(served.deps)
	jobId = await newVendorJob(ws, { title: 'Kotlin Developer', status: 'Draft' }, served.deps)
	const zed = await newCandidate(ws, { name: 'Zed Keyboard', workAuthorization: 'USC' }, served.deps)
	await newCandidate(ws, { name: 'Ada Keyboard', workAuthorization: 'GC' }, served.deps)
	applicationId = await newApplication(ws, zed, jobId, {}, served.deps)
	const owner = await newPerson(ws, 'owner', {}, served.deps)
	page = await (await launchBrowser()).newPage()
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(owner.email)
	await page.getByLabel('Password').fill(owner.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(/\/portal/)
}, 60_000)

afterAll(async () => {
	await closeBrowser()
})

/** The focused element after a change: the confirmation, where it sits and whether it is in view. */
const focused = () =>
	page.evaluate(() => {
		const el = document.activeElement!
		const r = el.getBoundingClientRect()
		const prev = el.previousElementSibling
		return {
			id: el.id,
			text: el.textContent,
			form: el.closest('form')?.getAttribute('action') ?? null,
			after: prev?.tagName === 'BUTTON' ? prev.textContent : null,
			inView: r.top >= -1 && r.bottom <= window.innerHeight + 1,
		}
	})

describe('confirmations next to the action, in Chromium', () => {
	for (const width of [390, 1280])
		test(`at ${width} px: Publish, Move to stage, Save this search`, async () => {
			await page.setViewportSize({ width, height: 844 })
			await page.goto(`${url}/jobs/${jobId}`)
			// The first pass (390 px) publishes the Draft, the second moves it back to Draft.
			await page.getByRole('button', { name: width === 390 ? 'Publish' : 'Move to draft' }).click()
			await page.waitForURL(/\?done=(published|drafted)#done$/)
			await page.waitForFunction(() => document.activeElement?.id === 'done')
			expect(await focused()).toMatchObject({ id: 'done', inView: true })
			expect(await page.locator('main .action-notice').count()).toBe(1)

			await page.goto(`${url}/applications/${applicationId}`)
			await page.getByLabel('Stage', { exact: true }).selectOption(width === 390 ? 'screening' : 'offer')
			await page.getByRole('button', { name: 'Move to stage' }).click()
			await page.waitForURL(/\?done=stage#done$/)
			await page.waitForFunction(() => document.activeElement?.id === 'done')
			expect(await focused()).toEqual({
				id: 'done',
				text: width === 390 ? 'Moved to Screening.' : 'Moved to Offer.',
				form: `/applications/${applicationId}/stage`,
				after: 'Move to stage',
				inView: true,
			})

			await page.goto(`${url}/candidates?workAuthorization=USC%2CGC`)
			await page.getByLabel('Name of this search').fill(`Citizens ${width}`)
			await page.getByRole('button', { name: 'Save this search' }).click()
			await page.waitForURL(/done=search-saved#done$/)
			await page.waitForFunction(() => document.activeElement?.id === 'done')
			expect(await focused()).toMatchObject({ id: 'done', form: '/candidates/saved-searches', after: 'Save this search', inView: true })
			await page.getByRole('link', { name: `Citizens ${width}` }).click()
			await page.waitForURL(/\/candidates\?workAuthorization=USC%2CGC$/)
		})

	test('the candidate list sorts by keyboard from its header, which says its order', async () => {
		await page.setViewportSize({ width: 1280, height: 844 })
		await page.goto(`${url}/candidates`)
		const header = page.getByRole('columnheader', { name: /Candidate/ })
		expect(await header.getAttribute('aria-sort')).toBeNull()
		await header.getByRole('link').focus()
		await page.keyboard.press('Enter')
		await page.waitForURL(/sort=name$/)
		expect(await page.getByRole('columnheader', { name: /Candidate/ }).getAttribute('aria-sort')).toBe('ascending')
		const names = await page.locator('tbody a[href^="/candidates/cand_"]').allInnerTexts()
		expect(names).toEqual(['Ada Keyboard', 'Zed Keyboard'])
	})
})
