/**
 * Headless Chromium (Debian's `chromium` package) driven by playwright-core. Browser downloads are
 * not possible here, so the system binary is used; tests that need it fail with a clear message
 * when it is missing (`.ci/run` installs it).
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

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
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
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
