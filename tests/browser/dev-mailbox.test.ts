/**
 * Trying the candidate's upload page without a mail catcher, in Chromium: a recruiter's document
 * request waits in the dev mailbox (no SMTP_URL); the owner opens it, presses Reveal link, sees the
 * link once and follows it to the upload page. Screenshots of the entry before and after.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { personActor } from '../../modules/auth/index.ts'
import { requestCandidateDocuments } from '../../modules/documents/index.ts'
import { outbox } from '../../modules/outbox/table.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing, keepScreenshot } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, unique } from '../helpers.ts'
import { newCandidate } from '../staffing-fixtures.ts'

setDefaultTimeout(60_000)

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
let url: string
beforeAll(async () => {
	;({ url } = await serveApp())
	mkdirSync(SHOTS, { recursive: true })
	await launchBrowser()
}, 30_000)
afterAll(async () => {
	await closeBrowser()
})

describe('the dev mailbox in a browser', () => {
	test('the owner reveals a held upload link and opens the upload page with it', async () => {
		const { deps } = await serveApp()
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		const candidateId = await newCandidate(ws, { name: 'Ana Souza', email: `${unique('ana')}@example.test`, resume: false }, deps)
		const request = await requestCandidateDocuments(deps, recruiter, { candidateId, items: ['dl'] })
		const [mail] = await deps.db
			.select({ id: outbox.id })
			.from(outbox)
			.where(and(eq(outbox.relatedId, request.id), eq(outbox.channel, 'email')))

		const ctx = await (await launchBrowser()).newContext()
		ctx.on('page', (p) => p.on('dialog', (d) => void d.accept()))
		const problems: string[] = []
		try {
			const page = await ctx.newPage()
			await page.goto(`${url}/sign-in`)
			await page.getByLabel('Email').fill(owner.email)
			await page.getByLabel('Password').fill(owner.password)
			await page.getByRole('button', { name: 'Sign in' }).click()
			await page.waitForURL(`${url}/portal`)
			await page.goto(`${url}/outbox`)
			await page.getByRole('link', { name: /Documents needed/ }).click()
			await page.waitForURL(`${url}/outbox/${mail!.id}`)
			for (const width of [390, 1280]) {
				await page.setViewportSize({ width, height: 900 })
				await keepScreenshot(page, { path: `${SHOTS}/outbox-held-entry-${width}.png`, fullPage: true })
				problems.push(...(await overflowing(page)))
			}
			problems.push(...(await axeProblems(page)))
			await page.getByRole('button', { name: 'Reveal link' }).click()
			const link = page.locator('#revealed-link')
			await link.waitFor()
			expect(await link.innerText()).toMatch(/\/upload\/bl_ul_[0-9A-Za-z]{36}$/)
			for (const width of [390, 1280]) {
				await page.setViewportSize({ width, height: 900 })
				await keepScreenshot(page, { path: `${SHOTS}/outbox-revealed-link-${width}.png`, fullPage: true })
				problems.push(...(await overflowing(page)))
			}
			problems.push(...(await axeProblems(page)))
			await link.click()
			await page.waitForURL(/\/upload\/bl_ul_/)
			await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Upload your documents')
			expect(problems).toEqual([])
		} finally {
			await ctx.close()
		}
	})
})
