/**
 * The portal's header in Chromium (issue 31) at 390 and 1280 px, by keyboard, mouse and touch:
 * `/` focuses the search box (not while typing in a field), the box lists the best of each type as
 * a combobox the arrow keys move through and Enter opens, `?` opens the shortcut list, and on a
 * phone the Menu button shows and hides the links. Without script, the box sends its form to the
 * results page and the links stay shown. axe-core finds nothing with the list and the dialog open.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import type { AppDeps } from '../../core/deps.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing, signedInPage, keepScreenshot } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, type TestWorkspace } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
mkdirSync(SHOTS, { recursive: true })

let url: string
let deps: AppDeps
let ws: TestWorkspace
let person: { email: string; password: string }
let jobId: string
const word = 'Quorvane'

beforeAll(async () => {
	;({ url, deps } = await serveApp())
	ws = await newWorkspace(deps)
	person = await newPerson(ws, 'recruiter', {}, deps)
	jobId = await newVendorJob(ws, { title: `${word} Platform Engineer` }, deps)
	for (const name of ['Ada', 'Bo', 'Cy']) await newApplication(ws, await newCandidate(ws, { name: `${name} ${word}` }, deps), jobId, {}, deps)
	await launchBrowser()
}, 120_000)
afterAll(async () => {
	await closeBrowser()
})

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '')

for (const width of [390, 1280] as const) {
	describe(`the header at ${width} px`, () => {
		test('/ focuses the search box; typed results are listed by type, the arrow keys choose one and Enter opens it', async () => {
			const { context, page } = await signedInPage(url, person, width)
			try {
				await page.goto(`${url}/jobs`)
				await page.locator('body').click({ position: { x: 5, y: 300 } })
				await page.keyboard.press('/')
				expect(await focusedId(page)).toBe('site-search')
				// In a field, / is a character like any other.
				await page.keyboard.type(`${word}/`)
				expect(await page.locator('#site-search').inputValue()).toBe(`${word}/`)
				await page.keyboard.press('Backspace')
				const box = page.getByRole('combobox', { name: 'Search jobs, candidates and conversations' })
				await page.locator('#site-search-results:not([hidden])').waitFor()
				expect(await box.getAttribute('aria-expanded')).toBe('true')
				const groups = await page.locator('#site-search-results [role="group"]').evaluateAll((gs) => gs.map((g) => g.firstElementChild!.textContent))
				expect(groups).toEqual(['Jobs · 1', 'Candidates · 3'])
				await keepScreenshot(page, { path: `${SHOTS}/header-search-${width}.png` })
				expect(await axeProblems(page)).toEqual([])
				await page.keyboard.press('ArrowDown')
				const first = page.locator('#site-search-results [role="option"]').first()
				expect(await first.getAttribute('aria-selected')).toBe('true')
				expect(await box.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'))
				expect(await focusedId(page)).toBe('site-search')
				await page.keyboard.press('Enter')
				await page.waitForURL(`${url}/jobs/${jobId}`)
			} finally {
				await context.close()
			}
		})

		test('Enter with nothing chosen opens the results page; Escape closes the list', async () => {
			const { context, page } = await signedInPage(url, person, width)
			try {
				await page.keyboard.press('/')
				await page.keyboard.type(word)
				await page.locator('#site-search-results:not([hidden])').waitFor()
				await page.keyboard.press('Escape')
				expect(await page.locator('#site-search-results').isHidden()).toBe(true)
				await page.keyboard.press('Enter')
				await page.waitForURL(`${url}/search?q=${word}`)
				expect(await page.getByRole('heading', { name: 'Candidates 3' }).count()).toBe(1)
			} finally {
				await context.close()
			}
		})

		test('? opens the list of every shortcut (a dialog), Escape closes it; the Settings menu opens it too', async () => {
			const { context, page } = await signedInPage(url, person, width)
			try {
				await page.keyboard.press('?')
				const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
				await dialog.waitFor()
				expect(await dialog.locator('dt').allTextContents()).toEqual(['/ ', '? ', '↓ ↑ ', 'Enter ', 'Esc '])
				await keepScreenshot(page, { path: `${SHOTS}/header-shortcuts-${width}.png` })
				expect(await axeProblems(page)).toEqual([])
				await page.keyboard.press('Escape')
				await dialog.waitFor({ state: 'hidden' })
				if (width === 390) await page.getByRole('button', { name: 'Menu' }).click()
				await page.getByText('Settings', { exact: true }).click()
				await page.getByRole('button', { name: 'Keyboard shortcuts' }).click()
				await dialog.waitFor()
				await dialog.getByRole('button', { name: 'Close' }).click()
				await dialog.waitFor({ state: 'hidden' })
			} finally {
				await context.close()
			}
		})

		test(width === 390 ? 'Menu (a button, by touch and keyboard) shows and hides the links' : 'the links are in the line and Menu is not shown', async () => {
			const { context, page } = await signedInPage(url, person, width, width === 390 ? { hasTouch: true, isMobile: true } : {})
			try {
				const menu = page.getByRole('button', { name: 'Menu' })
				const jobs = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' })
				if (width === 1280) {
					expect(await menu.isVisible()).toBe(false)
					expect(await jobs.isVisible()).toBe(true)
					// Narrower than 1280 px (a tablet) the header may wrap, but nothing is cut off.
					await page.setViewportSize({ width: 800, height: 800 })
					await keepScreenshot(page, { path: `${SHOTS}/header-800.png` })
					expect(await overflowing(page)).toEqual([])
					return
				}
				expect(await menu.getAttribute('aria-controls')).toBe('site-menu')
				expect(await menu.getAttribute('aria-expanded')).toBe('false')
				expect(await jobs.isVisible()).toBe(false)
				await menu.tap()
				expect(await menu.getAttribute('aria-expanded')).toBe('true')
				expect(await jobs.isVisible()).toBe(true)
				await keepScreenshot(page, { path: `${SHOTS}/header-menu-${width}.png` })
				expect(await axeProblems(page)).toEqual([])
				// Escape closes it and gives the focus back to Menu; Enter on Menu opens it again.
				await page.keyboard.press('Escape')
				expect(await menu.getAttribute('aria-expanded')).toBe('false')
				expect(await jobs.isVisible()).toBe(false)
				await page.keyboard.press('Enter')
				expect(await menu.getAttribute('aria-expanded')).toBe('true')
				await jobs.tap()
				await page.waitForURL(`${url}/jobs`)
				// A result by touch.
				await page.locator('#site-search').tap()
				await page.keyboard.type(word)
				await page.locator('#site-search-results [role="option"]').nth(1).tap()
				await page.waitForURL(/\/candidates\/cand_/)
			} finally {
				await context.close()
			}
		})

		test('without script: the links are shown and the search box sends its form to the results page', async () => {
			const { context, page } = await signedInPage(url, person, width, { javaScriptEnabled: false })
			try {
				expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Candidates' }).isVisible()).toBe(true)
				expect(await page.getByRole('button', { name: 'Menu' }).count()).toBe(0)
				await page.locator('#site-search').fill(word)
				await page.locator('#site-search').press('Enter')
				await page.waitForURL(`${url}/search?q=${word}`)
				expect(await page.getByRole('link', { name: `Ada ${word}` }).count()).toBe(1)
			} finally {
				await context.close()
			}
		})
	})
}
