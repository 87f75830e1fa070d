/**
 * Headless Chromium (Debian's `chromium` package) driven by playwright-core. Browser downloads are
 * not possible here, so the system binary is used; tests that need it fail with a clear message
 * when it is missing (`.ci/run` installs it).
 */
import { afterAll, beforeAll } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { serveApp } from './helpers.ts'
import { startSmtp, type TestSmtp } from './smtp.ts'

export const CHROMIUM_PATH = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))

let browser: Promise<Browser> | undefined

/**
 * Bun 1.4.5 can leave Chromium's messages on Playwright's pipe unread until something else wakes
 * its event loop. Measured with nothing else scheduled (embedded database, no probe timer): an OAuth
 * flow took 25 s instead of 7, each click or fill waiting seconds with the CPU idle, and now and
 * then a step waited for Playwright's own 30 s timeout (the flaky browser failures in CI). A short
 * timer while a browser is open keeps the loop turning.
 */
let keepAwake: ReturnType<typeof setInterval> | undefined

export function launchBrowser(): Promise<Browser> {
	if (!CHROMIUM_PATH) throw new Error('Chromium is not installed: run `apt-get install -y chromium` (the browser tests need Debian’s chromium package)')
	keepAwake ??= setInterval(() => {}, 10)
	keepAwake.unref?.()
	browser ??= chromium.launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	})
	return browser
}

/** A fresh browser context (own cookies), closed by the caller. */
export async function newContext() {
	return (await launchBrowser()).newContext()
}

export async function closeBrowser() {
	if (browser) await (await browser).close()
	browser = undefined
	clearInterval(keepAwake)
	keepAwake = undefined
}

const AXE = readFileSync(resolve(import.meta.dir, '../node_modules/axe-core/axe.min.js'), 'utf8')

interface AxeResult {
	violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
}

/** Serious and critical axe violations on the page, as readable lines. */
export async function axeProblems(page: Page): Promise<string[]> {
	// Evaluated through the DevTools protocol: the page's CSP (no inline script) stays in force.
	await page.evaluate(AXE)
	const result = (await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as AxeResult
	return result.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map(
			(v) =>
				`${v.impact} ${v.id}: ${v.help} at ${v.nodes
					.map((n) => n.target.join(' '))
					.slice(0, 3)
					.join(', ')}`,
		)
}

/** Elements sticking out past the right edge of the screen (what a phone would cut off). */
export async function overflowing(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const width = document.documentElement.clientWidth
		const out: string[] = []
		if (document.documentElement.scrollWidth > width + 1) out.push(`page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`)
		for (const el of document.querySelectorAll('main *')) {
			// Inside a box that scrolls sideways on purpose (a table-wrap), sticking out is fine; so is
			// what is only there for screen readers (a card table's header row on a phone).
			if (el.closest('.table-wrap, pre, .visually-hidden, table.stack thead')) continue
			const r = el.getBoundingClientRect()
			if (r.width > 0 && r.right > width + 1)
				out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} ends at ${Math.round(r.right)}px`)
		}
		return out.slice(0, 5)
	})
}

/** What a browser test file that reads real e-mail stands on (see `browserMailTests`). */
export interface BrowserMailTests {
	/** The served app's address. */
	readonly url: string
	/** The SMTP server the app's mail goes to. */
	readonly smtp: TestSmtp
	/** A temporary folder for files to upload, removed after the file's tests. */
	readonly dir: string
}

/**
 * The hooks of a browser test file whose people follow links sent by e-mail: the app served, a
 * real SMTP server, a temporary folder and the browser. Call it at the top of the file; the
 * returned object is filled before the first test runs.
 */
export function browserMailTests(folderPrefix: string): BrowserMailTests {
	const state = {} as { url: string; smtp: TestSmtp; dir: string }
	beforeAll(async () => {
		;({ url: state.url } = await serveApp())
		state.smtp = await startSmtp()
		state.dir = mkdtempSync(join(tmpdir(), folderPrefix))
		await launchBrowser()
		// The first app of a test process migrates a new database: on a loaded 2-core machine that alone can take half a minute.
	}, 90_000)
	afterAll(async () => {
		await closeBrowser()
		await state.smtp?.stop()
		if (state.dir) rmSync(state.dir, { recursive: true, force: true })
	})
	return state
}
