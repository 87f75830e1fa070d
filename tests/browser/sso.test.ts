/**
 * Single sign-on and SCIM tokens in headless Chromium (issue 26), against a real OpenID Connect
 * provider (oidc-provider, tests/sso/provider.ts) on its own loopback port: an owner saves the
 * provider at /settings/sso and verifies the domain (the TXT record the page shows, published on a
 * real DNS server, tests/sso/dns.ts, then **Verify domain**); a person chooses **Sign in with SSO**, types their work e-mail, signs in
 * on the provider's own login page and lands in the portal, created with the configured role; with
 * **Require single sign-on** a member's password is refused and an owner's still opens the portal.
 * A SCIM token is shown once: Copy, then a reload does not show it again. Each page is screenshotted
 * at 390 and 1280 px into `.tmp/screenshots/` and checked by axe-core and for overflow.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import type { AppDeps } from '../../core/deps.ts'
import { memberships, users } from '../../modules/auth/table.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing, keepScreenshot } from '../browser.ts'
import { newPerson, newWorkspace, serveAppWith, type TestWorkspace, unique } from '../helpers.ts'
import { startDns, type TestDns } from '../sso/dns.ts'
import { startProvider, type TestProvider } from '../sso/provider.ts'

setDefaultTimeout(120_000) // a busy 2-core machine runs Chromium, the server, the provider and argon2id at once

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
let url: string
let deps: AppDeps
let provider: TestProvider
let dns: TestDns
beforeAll(async () => {
	dns = await startDns()
	// The provider is on http://, so this app allows it (SSO_ALLOW_HTTP, development and tests only).
	;({ url, deps } = await serveAppWith({ SSO_ALLOW_HTTP: 'on', DNS_SERVERS: dns.server }))
	provider = await startProvider(`${url}/sign-in/sso/callback`)
	mkdirSync(SHOTS, { recursive: true })
	await launchBrowser()
}, 60_000)
afterAll(async () => {
	await closeBrowser()
	await provider?.stop()
	await dns?.stop()
})

async function context(): Promise<BrowserContext> {
	const ctx = await (await launchBrowser()).newContext()
	ctx.on('page', (p) => p.on('dialog', (d) => void d.accept()))
	return ctx
}

async function passwordSignIn(page: Page, person: { email: string; password: string }) {
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(person.email)
	await page.getByLabel('Password').fill(person.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
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

/** The owner's browser, on /settings/sso: saves the test provider for `domain`. */
async function saveSso(page: Page, o: { domain: string; role: string; requireSso?: boolean; firstTime?: boolean }) {
	await page.goto(`${url}/settings/sso`)
	await page.getByLabel('Issuer URL').fill(provider.issuer)
	await page.getByLabel('Client ID').fill(provider.clientId)
	// Saved once, the secret is kept when the field is left blank.
	if (o.firstTime) await page.getByLabel('Client secret').fill(provider.clientSecret)
	await page.getByLabel('E-mail domains').fill(o.domain)
	await page.getByLabel('Role for new people').selectOption({ label: o.role })
	await page.getByLabel('Require single sign-on').setChecked(Boolean(o.requireSso))
	await page.getByRole('button', { name: 'Save and check' }).click()
	await page.waitForURL(`${url}/settings/sso?done=saved`)
}

/** A person's own browser: Sign in with SSO from the sign-in page, through the provider's login page, back in the portal. */
async function ssoSignIn(page: Page, email: string) {
	await page.goto(`${url}/sign-in`)
	await page.getByRole('link', { name: 'Sign in with SSO' }).click()
	await page.waitForURL(/\/sign-in\/sso/)
	await page.getByLabel('Work e-mail').fill(email)
	await page.getByRole('button', { name: 'Continue' }).click()
	// The provider's own (development) login page: the login typed is the account and its e-mail.
	await page.waitForURL((u) => u.origin === provider.issuer)
	await page.locator('input[name="login"]').fill(email)
	await page.locator('input[name="password"]').fill('any password')
	await page.getByRole('button', { name: 'Sign-in' }).click()
	await page.waitForURL(`${url}/portal`)
}

async function roleOf(ws: TestWorkspace, email: string): Promise<string | undefined> {
	const [row] = await deps.db
		.select({ role: memberships.role })
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(and(eq(memberships.workspaceId, ws.id), eq(users.email, email)))
	return row?.role
}

describe('single sign-on in a browser', () => {
	test('an owner saves the provider; a person signs in with SSO at the provider and lands in the portal, created as a hiring manager; Require single sign-on leaves a password to owners', async () => {
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const member = await newPerson(ws, 'recruiter', {}, deps)
		const domain = `${unique('firm')}.example`
		const email = `dana.${unique('p')}@${domain}`
		const [ownerCtx, personCtx, memberCtx] = [await context(), await context(), await context()]
		try {
			const page = await ownerCtx.newPage()
			await passwordSignIn(page, owner)
			await page.waitForURL(`${url}/portal`)
			await saveSso(page, { domain, role: 'Hiring manager', firstTime: true })
			expect(await page.getByRole('status').first().innerText()).toBeTruthy()
			expect(await page.content()).not.toContain(provider.clientSecret)
			// Not verified yet: the page says so, and shows the TXT record to add.
			expect(await page.locator('#oidc').innerText()).toContain('covers no one until one of its domains is verified')
			expect(await page.locator('.notice-warn').innerText()).toContain(`Not verified: ${domain}`)
			expect(await look(page, 'sso-settings-unverified')).toEqual([])
			const name = (await page.locator('#txt-name-0').textContent())!
			const value = (await page.locator('#txt-value-0').textContent())!
			expect(name).toBe(`_benchline-challenge.${domain}`)
			await dns.setTxt(name, value)
			await page.getByRole('button', { name: 'Verify domain' }).click()
			await page.waitForURL(`${url}/settings/sso?done=domain-verified#domain-verification`)
			expect(await page.locator('#oidc').innerText()).toContain(`Single sign-on is on for ${domain}`)
			expect(await page.getByRole('row').filter({ hasText: domain }).innerText()).toContain('Verified')
			expect(await look(page, 'sso-settings-saved')).toEqual([])

			const person = await personCtx.newPage()
			await person.goto(`${url}/sign-in/sso`)
			expect(await look(person, 'sign-in-sso')).toEqual([])
			await ssoSignIn(person, email)
			expect(await roleOf(ws, email)).toBe('hiring_manager')
			expect(await person.content()).toContain(`Person ${email.split('@')[0]}`)

			// Require single sign-on: the member's password opens nothing, the owner's still does.
			await saveSso(page, { domain, role: 'Hiring manager', requireSso: true })
			expect(await page.getByLabel('Require single sign-on').isChecked()).toBe(true)
			const memberPage = await memberCtx.newPage()
			await passwordSignIn(memberPage, member)
			await memberPage.getByRole('alert').waitFor()
			expect(await memberPage.getByRole('alert').innerText()).toContain('not right')
			expect(new URL(memberPage.url()).pathname).toBe('/sign-in')
			await memberPage.goto(`${url}/portal`)
			expect(memberPage.url()).toStartWith(`${url}/sign-in`)

			const again = await (await context()).newPage()
			try {
				await passwordSignIn(again, owner)
				await again.waitForURL(`${url}/portal`)
			} finally {
				await again.context().close()
			}
			// The SSO person signs in again with SSO (the same person, no second one).
			await person.context().clearCookies()
			await ssoSignIn(person, email)
			expect(await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))).toHaveLength(1)
		} finally {
			await Promise.all([ownerCtx.close(), personCtx.close(), memberCtx.close()])
		}
	})

	test('a SCIM token is shown once at /settings/sso: Copy, then a reload does not show it again', async () => {
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const ctx = await context()
		await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url })
		try {
			const page = await ctx.newPage()
			await passwordSignIn(page, owner)
			await page.waitForURL(`${url}/portal`)
			await page.goto(`${url}/settings/sso`)
			await page.getByLabel('Token name').fill('Okta')
			await page.getByRole('button', { name: 'Create SCIM token' }).click()
			await page.waitForURL(/\/settings\/sso/)
			const token = (await page.locator('#new-scim-token').textContent())!.trim()
			expect(token).toMatch(/^bl_scim_/)
			expect(await page.getByRole('status').filter({ hasText: 'created' }).innerText()).toContain('shown only once')
			expect(await look(page, 'sso-scim-token')).toEqual([])
			await page.getByRole('button', { name: 'Copy the SCIM token' }).click()
			await page.waitForFunction(() => document.querySelector('[data-copy="new-scim-token"]')?.textContent !== 'Copy')
			// With clipboard access the token is copied; without it, it is selected for Ctrl+C.
			if ((await page.locator('[data-copy="new-scim-token"]').innerText()) === 'Copied')
				expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)
			else expect(await page.evaluate(() => String(window.getSelection()).trim())).toBe(token)
			// The SCIM door takes it.
			const scim = await fetch(`${url}/scim/v2/ServiceProviderConfig`, { headers: { authorization: `Bearer ${token}` } })
			expect(scim.status).toBe(200)

			await page.reload()
			expect(await page.locator('#new-scim-token').count()).toBe(0)
			expect(await page.content()).not.toContain(token)
			const row = page.getByRole('row').filter({ hasText: 'Okta' })
			expect(await row.innerText()).toContain(`…${token.slice(-4)}`)
		} finally {
			await ctx.close()
		}
	})
})
