/**
 * What people see, on every portal page (`page-list.ts`), for each role that opens it, on a phone
 * (390 px) and a desktop (1280 px) in headless Chromium: axe-core finds no serious or critical
 * violation, nothing is wider than the screen (wide tables become cards or scroll inside their
 * box), table cells keep their content in one piece (cards on a phone), no word is broken in its
 * middle (only at spaces, `/`, `.`, `@`, `-`), the page answers 200.
 * Screenshots land in `.tmp/screenshots/` (kept by CI as artefacts).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import type { Role } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { axeProblems, brokenWords, closeBrowser, launchBrowser, overflowing, keepScreenshot } from '../browser.ts'
import { personActor } from '../../modules/auth/index.ts'
import { moveToStage } from '../../modules/candidates/index.ts'
import { newPerson, newWorkspace, serveApp, type TestWorkspace } from '../helpers.ts'
import { PORTAL_PAGES, sampleIds, type SampleIds } from './page-list.ts'

setDefaultTimeout(120_000)

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
const WIDTHS = [390, 1280] as const

let url: string
let deps: AppDeps
let ws: TestWorkspace
let ids: SampleIds
const ROLES: readonly Role[] = ['owner', 'recruiter', 'hiring_manager', 'viewer']
/** `PAGE_TOUR_ONLY=templates,template npx bun test tests/browser/portal-pages.test.ts`: only those pages (while working on them). */
const ONLY = process.env.PAGE_TOUR_ONLY?.split(',').map((s) => s.trim())
const people = new Map<Role, Awaited<ReturnType<typeof newPerson>>>()

beforeAll(async () => {
	;({ url, deps } = await serveApp())
	ws = await newWorkspace(deps)
	// Each role's person joins before the seed, so their own lists (saved searches, to-dos, calendar)
	// are full, as a real person's are, not empty.
	for (const role of ROLES) people.set(role, await newPerson(ws, role, {}, deps))
	await runCommand(deps, 'seed', { workspace: ws.slug })
	ids = await sampleIds(deps, ws)
	// The seed writes no activity: a stage change done in the portal gives /activity a line naming both stages.
	const owner = await personActor(deps, ws.slug, people.get('owner')!.email)
	for (const stageKey of ['screening', 'submitted']) await moveToStage(deps, owner, { applicationId: ids.applicationId, stageKey })
	mkdirSync(SHOTS, { recursive: true })
	await launchBrowser()
}, 120_000)

afterAll(async () => {
	await closeBrowser()
})

async function signIn(page: Page, person: { email: string; password: string }) {
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(person.email)
	await page.getByLabel('Password').fill(person.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(/\/portal/)
}

/**
 * Table cells whose content is in more than one piece: on a phone a cell is a grid of its label and
 * its content, so a second piece (a link, then a line of text) would land in the label's column.
 */
async function splitCells(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		[...document.querySelectorAll('main table.stack td')]
			.filter((td) => [...td.childNodes].filter((n) => n.nodeType === 1 || (n.nodeType === 3 && n.textContent!.trim() !== '')).length > 1)
			.map((td) => `a "${td.getAttribute('data-label')}" cell holds ${td.childNodes.length} pieces`)
			.slice(0, 3),
	)
}

/** The header's tallest allowed height: one line (the search box, a button) with its padding. */
const ONE_LINE = 72

/**
 * The header on one line at 1280 px (brand, search, links and account side by side: it wrapped on
 * eleven pages before issue 31), and compact on a phone (brand, search and Menu; the links behind Menu).
 */
async function headerProblems(page: Page, width: number): Promise<string[]> {
	const shape = await page.evaluate(() => {
		const header = document.querySelector('header.top')!
		// What is shown (a closed menu's links are laid out but not shown: checkVisibility leaves them out).
		const tops = [...header.querySelectorAll('.brand, .site-search, .main-nav > *, .account > *, .menu-button')]
			.filter((e) => e.checkVisibility())
			.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))
		// Middles more than 12 px apart are on different rows.
		const sorted = tops.sort((a, b) => a - b)
		const rows = sorted.filter((t, i) => i === 0 || t - sorted[i - 1]! > 12).length
		return { height: header.getBoundingClientRect().height, rows }
	})
	const problems: string[] = []
	if (shape.height > ONE_LINE) problems.push(`the header is ${Math.round(shape.height)} px tall at ${width} px (more than one line)`)
	if (width >= 1280 && shape.rows > 1) problems.push(`the header's parts sit on ${shape.rows} rows at ${width} px`)
	return problems
}

describe('every portal page, as each role sees it, on a phone and a desktop', () => {
	for (const role of ROLES) {
		const pages = PORTAL_PAGES.filter((p) => (p.roles ?? ['owner', 'recruiter']).includes(role) && (!ONLY || ONLY.includes(p.name)))
		if (!pages.length) continue
		test(
			`${role}: ${pages.map((p) => p.name).join(', ')}`,
			async () => {
				const person = people.get(role)!
				const context = await (await launchBrowser()).newContext()
				const problems: string[] = []
				try {
					const page = await context.newPage()
					await signIn(page, person)
					for (const p of pages) {
						for (const width of WIDTHS) {
							await page.setViewportSize({ width, height: 900 })
							const res = await page.goto(`${url}${p.path(ids)}`)
							if (res?.status() !== 200) {
								problems.push(`${p.name}: answered ${res?.status()}`)
								continue
							}
							if (p.open) {
								const control = page.locator(p.open).first()
								if (!(await control.count())) problems.push(`${p.name}: nothing matches ${p.open}`)
								else await control.evaluate((d) => d.setAttribute('open', ''))
							}
							if (p.press) {
								const button = page.locator(p.press).first()
								if (await button.isVisible()) await button.click()
							}
							if (p.key) await page.keyboard.press(p.key)
							// JPEG: a full-page PNG took as long to encode as the checks below (a third of the file's time).
							await keepScreenshot(page, { path: `${SHOTS}/${p.name}-${role}-${width}.jpg`, type: 'jpeg', quality: 80, fullPage: true })
							for (const o of await overflowing(page)) problems.push(`${p.name} at ${width}px: ${o}`)
							if (!p.press) for (const h of await headerProblems(page, width)) problems.push(`${p.name}: ${h}`)
							for (const w of await brokenWords(page)) problems.push(`${p.name} at ${width}px: ${w}`)
							if (width === WIDTHS[0]) for (const a of await axeProblems(page)) problems.push(`${p.name}: ${a}`)
							if (width === WIDTHS[0]) for (const c of await splitCells(page)) problems.push(`${p.name} at ${width}px: ${c}`)
						}
					}
				} finally {
					await context.close()
				}
				expect(problems).toEqual([])
				// Each page is drawn twice, screenshotted and checked by axe: about 2 s alone, 6 s on a loaded machine.
				// A fixed bound failed the owner's tour (56 pages) once the pages grew past it.
			},
			Math.max(120_000, pages.length * 6_000),
		)
	}
})
