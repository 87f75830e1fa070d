/**
 * Sessions people control, in headless Chromium (issue 26): the Security page signs another browser
 * out and marks this one; Sign out everywhere else; an owner signs a member out everywhere from the
 * people page; after Sign out, Back does not show a page with a secret (it was never kept); the
 * reset page offers "also disconnect apps and personal tokens", ticked. Each page is screenshotted
 * at 390 and 1280 px into `.tmp/screenshots/` and checked by axe-core and for overflow.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { axeProblems, closeBrowser, launchBrowser, overflowing, keepScreenshot } from '../browser.ts'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { requestPasswordReset } from '../../modules/auth/password-reset.ts'

setDefaultTimeout(90_000) // a busy 2-core machine runs Chromium, the server and argon2id at once

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
let url: string
beforeAll(async () => {
	;({ url } = await serveApp())
	mkdirSync(SHOTS, { recursive: true })
	await launchBrowser()
}, 60_000)
afterAll(() => closeBrowser())

async function context(): Promise<BrowserContext> {
	const ctx = await (await launchBrowser()).newContext()
	ctx.on('page', (p) => p.on('dialog', (d) => void d.accept()))
	return ctx
}

async function signIn(page: Page, person: { email: string; password: string }) {
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(person.email)
	await page.getByLabel('Password').fill(person.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(`${url}/portal`)
}

async function look(page: Page, name: string): Promise<string[]> {
	const problems: string[] = []
	for (const width of [390, 1280]) {
		await page.setViewportSize({ width, height: 900 })
		await keepScreenshot(page, { path: `${SHOTS}/${name}-${width}.png`, fullPage: true })
		for (const o of await overflowing(page)) problems.push(`${name} at ${width}px: ${o}`)
	}
	for (const a of await axeProblems(page)) problems.push(`${name}: ${a}`)
	return problems
}

describe('sessions in a browser', () => {
	test('Security: another browser is listed and signed out; this one is marked; Sign out everywhere else', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const [mine, laptop, phone] = [await context(), await context(), await context()]
		try {
			const page = await mine.newPage()
			const [elsewhere, third] = [await laptop.newPage(), await phone.newPage()]
			await signIn(elsewhere, person)
			await signIn(third, person)
			await signIn(page, person)
			await page.getByText('Settings', { exact: true }).click()
			await page.getByRole('navigation', { name: 'Settings and administration' }).getByRole('link', { name: 'Security' }).click()
			await page.waitForURL(`${url}/settings/security`)
			// Every session's use is noted off the request's path: wait until all three show it.
			for (let i = 0; i < 100 && (await page.getByText('not yet').count()) > 0; i++) {
				await Bun.sleep(100)
				await page.reload()
			}
			const rows = page.locator('table tbody tr')
			expect(await rows.count()).toBe(3)
			expect(await page.getByText('This browser', { exact: true }).count()).toBe(1)
			expect(await page.locator('tbody').textContent()).toContain('Chrome')
			expect(await look(page, 'security')).toEqual([])

			// Sign out the first other row.
			const other = rows.filter({ hasNot: page.getByText('This browser', { exact: true }) }).first()
			await other.getByRole('button', { name: 'Sign out' }).click()
			await page.waitForURL(`${url}/settings/security?done=signed-out`)
			expect(await rows.count()).toBe(2)
			const signedOut = async (p: Page) => {
				await p.goto(`${url}/portal`)
				return p.url().startsWith(`${url}/sign-in`)
			}
			expect([await signedOut(elsewhere), await signedOut(third)].filter(Boolean)).toHaveLength(1)

			await page.getByRole('button', { name: 'Sign out everywhere else' }).click()
			await page.waitForURL(`${url}/settings/security?done=signed-out-others`)
			expect(await rows.count()).toBe(1)
			expect(await signedOut(elsewhere)).toBe(true)
			expect(await signedOut(third)).toBe(true)
			expect(await signedOut(page)).toBe(false)
		} finally {
			await Promise.all([mine.close(), laptop.close(), phone.close()])
		}
	})

	test('after Sign out, Back does not show the new personal token: the page was never kept', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const ctx = await context()
		try {
			const page = await ctx.newPage()
			await signIn(page, person)
			await page.goto(`${url}/settings/api`)
			await page.getByLabel('Token name').fill('Back button')
			await page.getByRole('button', { name: 'Create token' }).click()
			await page.waitForURL(`${url}/settings/api`)
			const token = await page.locator('#new-token').textContent()
			expect(token).toMatch(/^bl_pat_/)
			await page.getByRole('button', { name: 'Sign out' }).first().click()
			await page.waitForURL(/\/sign-in$/)
			await page.goBack()
			await page.waitForLoadState('load')
			expect(await page.content()).not.toContain(token!)
		} finally {
			await ctx.close()
		}
	})

	test('an owner signs a member out everywhere from the people page; the reset page offers to disconnect apps and tokens, ticked', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const member = await newPerson(ws, 'recruiter')
		const [admin, theirs] = [await context(), await context()]
		try {
			const page = await admin.newPage()
			const memberPage = await theirs.newPage()
			await signIn(memberPage, member)
			await signIn(page, owner)
			await page.goto(`${url}/people`)
			expect(await look(page, 'people-sign-out')).toEqual([])
			await page.getByRole('button', { name: 'Sign out everywhere: recruiter person' }).click()
			await page.waitForURL(`${url}/people?done=signed-out`)
			await memberPage.goto(`${url}/portal`)
			expect(memberPage.url()).toStartWith(`${url}/sign-in`)

			const { deps } = await serveApp()
			await (await requestPasswordReset(deps, { email: member.email, address: '198.51.100.200' })).settled
			const { outbox } = await import('../../modules/outbox/table.ts')
			const { textToSend } = await import('../../modules/outbox/index.ts')
			const { eq } = await import('drizzle-orm')
			const [mail] = await deps.db.select().from(outbox).where(eq(outbox.to, member.email))
			const link = /\/sign-in\/reset-password\/bl_pwr_[0-9A-Za-z]+/.exec(await textToSend(deps.secret, mail!))![0]
			await memberPage.goto(`${url}${link}`)
			const box = memberPage.getByLabel('Also disconnect apps and personal tokens')
			expect(await box.isChecked()).toBe(true)
			expect(await look(memberPage, 'reset-password')).toEqual([])
		} finally {
			await Promise.all([admin.close(), theirs.close()])
		}
	})
})
