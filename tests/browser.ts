/**
 * Headless Chromium (Debian's `chromium` package) driven by playwright-core. Browser downloads are
 * not possible here, so the system binary is used; tests that need it fail with a clear message
 * when it is missing (`.ci/run` installs it).
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))

let browser: Promise<Browser> | undefined

export function launchBrowser(): Promise<Browser> {
	if (!CHROMIUM_PATH) throw new Error('Chromium is not installed: run `apt-get install -y chromium` (the browser tests need Debian’s chromium package)')
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
}
