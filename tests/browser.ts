/**
 * Headless Chromium (Debian's `chromium` package) driven by playwright-core. Browser downloads are
 * not possible here, so the system binary is used; tests that need it fail with a clear message
 * when it is missing (`.ci/run` installs it).
 */
import { afterAll, beforeAll } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
	chromium,
	type Browser,
	type BrowserContext,
	type BrowserContextOptions,
	type Frame,
	type Locator,
	type Page,
	type Request as PageRequest,
	type Response as PageResponse,
} from 'playwright-core'
import { type PipeWatch, watchPipe } from './browser-pipe.ts'
import { serveApp } from './helpers.ts'
import { startSmtp, type TestSmtp } from './smtp.ts'

export const CHROMIUM_PATH = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))

/** The browser the test files share (one at a time): launched by the first file that asks. */
let browser: Promise<Browser> | undefined

/** Browsers launched and not yet gone (closed, crashed or failed to start). */
const open = new Set<Promise<Browser>>()

/**
 * Bun 1.4.5 can leave Chromium's messages on Playwright's pipe unread until something else wakes
 * its event loop. Measured with nothing else scheduled (embedded database, no probe timer): an OAuth
 * flow took 25 s instead of 7, each click or fill waiting seconds with the CPU idle, and now and
 * then a step waited for Playwright's own 30 s timeout (the flaky browser failures in CI). A short
 * timer while a browser is open keeps the loop turning.
 *
 * The timer runs while a launched browser is open (until it is closed, crashes or fails to start).
 *
 * bun runs a worker's test files in one process, one after another, and a hook that times out is not
 * stopped: it goes on running while the next files run. So `closeBrowser` forgets the shared browser
 * before it waits for it to close: a file that asks for a browser meanwhile gets a new one (it used to
 * get the one being closed). A browser that crashed is not handed out again either. Still true: an
 * `afterAll` that timed out before it called `closeBrowser` closes, when it gets there, the browser
 * the file running then uses (that file fails with "closed", it does not hang). Checked by
 * tests/browser/lifecycle.test.ts.
 */
let keepAwake: ReturnType<typeof setInterval> | undefined

/** The pipes of the open browsers (tests/browser-pipe.ts), for failure messages. */
const pipes = new Map<Promise<Browser>, PipeWatch>()

/**
 * The keep-awake timer's tick doubles as a watchdog: it measures how long bun's event loop went
 * without turning (a 10 ms timer that fires seconds late), and when the newest command to Chromium
 * without an answer has waited 15 s (everything sent since was answered, or nothing was sent) it
 * writes the pipe's state to stderr once. A test that then times out in bun (which
 * prints nothing but "timed out") has that line just above its failure in the log, where .ci/run
 * picks it up. Some commands wait on purpose (waitForFunction polls inside the page): the line says
 * what was waiting, and is only read when a test failed.
 */
let waitedTooLong = 15_000
/** For tests: how long a command may wait before the watchdog writes the pipe's state (15 s). */
export function reportWaitsOver(ms: number) {
	waitedTooLong = ms
}
let lastTick = 0
let longestPause = { ms: 0, at: 0 }
const reported = new Set<string>()

function tick() {
	const now = Date.now()
	if (lastTick && now - lastTick > longestPause.ms) longestPause = { ms: now - lastTick, at: now }
	lastTick = now
	for (const pipe of pipes.values()) {
		const newest = pipe.newest()
		if (!newest || newest.waited < waitedTooLong) continue
		const key = `${newest.id} ${newest.method}`
		if (reported.has(key)) continue
		reported.add(key)
		console.error(`[browser] a command to Chromium has waited ${newest.waited} ms: ${pipe.report()}; ${loopReport()}`)
	}
}

function loopReport(): string {
	return longestPause.at
		? `bun's event loop: longest pause ${longestPause.ms} ms, ${Date.now() - longestPause.at} ms ago (a 10 ms timer's gap)`
		: "bun's event loop: not measured"
}

/** The state of each open browser's pipe and of bun's event loop, for a failure message. */
export function pipeReport(): string {
	const lines = [...pipes.values()].map((pipe) => pipe.report())
	return `${lines.join('; ') || 'no browser pipe watched'}; ${loopReport()}`
}

function gone(launched: Promise<Browser>) {
	open.delete(launched)
	pipes.delete(launched)
	if (browser === launched) browser = undefined
	if (open.size === 0 && keepAwake) {
		clearInterval(keepAwake)
		keepAwake = undefined
		lastTick = 0
		longestPause = { ms: 0, at: 0 }
	}
}

export function launchBrowser(): Promise<Browser> {
	if (!CHROMIUM_PATH) throw new Error('Chromium is not installed: run `apt-get install -y chromium` (the browser tests need Debian’s chromium package)')
	if (browser) return browser
	keepAwake ??= setInterval(tick, 10)
	keepAwake.unref?.()
	const launched = chromium.launch({
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
	browser = launched
	open.add(launched)
	// A browser that crashed or never started is not handed out again; the next file launches anew.
	launched.then(
		(b) => {
			const pipe = watchPipe(b)
			if (pipe && open.has(launched)) pipes.set(launched, pipe)
			b.on('disconnected', () => gone(launched))
		},
		() => gone(launched),
	)
	return launched
}

/** A fresh browser context (own cookies), closed by the caller. */
export async function newContext() {
	return (await launchBrowser()).newContext()
}

/** A browser context `width` px wide (own cookies) with a page signed in to the portal at `url` as `person`; the caller closes the context. */
export async function signedInPage(
	url: string,
	person: { email: string; password: string },
	width: number,
	options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
	const context = await (await launchBrowser()).newContext({ viewport: { width, height: 900 }, ...options })
	const page = await context.newPage()
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(person.email)
	await page.getByLabel('Password').fill(person.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(/\/portal/)
	return { context, page }
}

/** Closes the shared browser; a launch asked for from now on (another file) gets a new one. */
export async function closeBrowser() {
	const closing = browser
	browser = undefined
	if (!closing) return
	try {
		await (await closing).close()
	} finally {
		gone(closing)
	}
}

/** For tests and failure messages: how many browsers are open and whether the loop is kept awake. */
export function browserState(): { open: number; keepAwake: boolean } {
	return { open: open.size, keepAwake: keepAwake !== undefined }
}

/** The listeners `watch` put on a page, for `unwatch`. */
const watching = new WeakMap<Page, () => void>()

/** What the page does from now on (navigations, responses, finished and failed requests, a crash), with times in ms. */
export function watch(page: Page): string[] {
	const start = Date.now()
	const seen: string[] = []
	const note = (what: string) => seen.push(`${Date.now() - start}ms ${what}`)
	const listeners = {
		framenavigated: (f: Frame) => f === page.mainFrame() && note(`navigated ${f.url()}`),
		response: (r: PageResponse) => note(`response ${r.status()} ${r.request().method()} ${r.url()}`),
		requestfinished: (r: PageRequest) => note(`finished ${r.method()} ${r.url()}`),
		requestfailed: (r: PageRequest) => note(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`),
		domcontentloaded: () => note('domcontentloaded'),
		load: () => note('load'),
		crash: () => note('renderer crashed'),
	}
	for (const [event, listener] of Object.entries(listeners)) page.on(event as never, listener as never)
	watching.set(page, () => {
		for (const [event, listener] of Object.entries(listeners)) page.off(event as never, listener as never)
	})
	return seen
}

/**
 * Stops `watch`ing the page once the step it explains is over. While a page has listeners for its
 * requests, Playwright sends an event for every request of every later navigation; once, on a loaded
 * CI machine, one of them named a request Playwright's client no longer held ("Object with guid
 * request@… was not bound in the connection") and failed a test whose watched step had long passed.
 */
export function unwatch(page: Page): void {
	watching.get(page)?.()
	watching.delete(page)
}

/** The promise's value, or `fallback` when it has not settled within `ms` (it may never settle). */
async function within<T>(ms: number, promise: Promise<T>, fallback: string): Promise<T | string> {
	let timer: ReturnType<typeof setTimeout> | undefined
	const late = new Promise<string>((resolve) => {
		timer = setTimeout(() => resolve(fallback), ms)
	})
	try {
		return await Promise.race([promise.catch((e: unknown) => `failed (${String(e).split('\n')[0]})`), late])
	} finally {
		clearTimeout(timer)
	}
}

/**
 * The inner text of `locator`, waiting up to `timeout`; when it does not show, an error that says
 * where things stand: the page's address and text, whether the renderer answers (the document's
 * state), whether the browser process answers over Playwright's pipe (the context's cookies), the
 * keep-awake timer, the pipe itself (`pipeReport`: whether bun or Chromium holds what is missing) and
 * what the browser did since `watch` began.
 *
 * Every probe is bounded. The first version waited up to 30 s for the page's text and without limit
 * for the document's state: when the page or the pipe is what stalled, those probes stall too, bun's
 * own test timeout ends the test first and says only "timed out", and nothing of this is seen
 * (tests/browser/lifecycle.test.ts checks the bound with a renderer that never answers).
 */
export async function textOrExplain(page: Page, locator: Locator, what: string, seen: string[] = [], timeout = 20_000): Promise<string> {
	const started = Date.now()
	try {
		return await locator.innerText({ timeout })
	} catch (error) {
		const probe = 3_000
		const [text, state, cookies] = await Promise.all([
			within(probe, page.textContent('body', { timeout: probe }), 'no answer'),
			within(
				probe,
				page.evaluate(() => document.readyState),
				'no answer',
			),
			within(probe, page.context().cookies(), 'no answer'),
		])
		const shown = (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 300)
		const browserAnswers = Array.isArray(cookies) ? 'answers' : cookies
		const { open, keepAwake } = browserState()
		throw new Error(
			`no ${what} on ${page.url()} after ${Date.now() - started} ms (page says "${shown}"; renderer: ${['loading', 'interactive', 'complete'].includes(String(state)) ? `document ${state}` : state}; browser process: ${browserAnswers}; ` +
				`${open} browser(s) open, keep-awake timer ${keepAwake ? 'on' : 'OFF'}; ${pipeReport()}; the browser saw: ${seen.join(' | ') || 'nothing'}): ${String(error).split('\n').slice(0, 12).join('\n')}`,
		)
	}
}

const AXE = readFileSync(resolve(import.meta.dir, '../node_modules/axe-core/axe.min.js'), 'utf8')

interface AxeResult {
	violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
}

/** Serious and critical axe violations on the page, as readable lines. */
export async function axeProblems(page: Page): Promise<string[]> {
	// Evaluated through the DevTools protocol: the page's CSP (no inline script) stays in force.
	await page.evaluate(AXE)
	// Only violations are read: axe still runs every rule and lists every violating node, but builds
	// no selector for each node that passed (half of a run's time on a portal page).
	const result = (await page.evaluate(() =>
		(globalThis as unknown as { axe: { run(options: object): Promise<unknown> } }).axe.run({ resultTypes: ['violations'] }),
	)) as AxeResult
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

/**
 * Words the browser broke in the middle ("Applie d", "salesforc e", "api/mc p"): a run of letters or
 * digits whose rendered boxes sit on more than one line. A break at a sensible point (after `/`,
 * `.`, `@`, `-`, a space) is outside every run, so it is never reported. Text that is not drawn
 * (hidden, screen-reader only, form controls) is skipped.
 */
export async function brokenWords(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const out: string[] = []
		const walker = document.createTreeWalker(document.querySelector('main') ?? document.body, NodeFilter.SHOW_TEXT)
		const range = document.createRange()
		for (let node = walker.nextNode(); node && out.length < 5; node = walker.nextNode()) {
			const parent = node.parentElement
			if (!parent || parent.closest('.visually-hidden, script, style, textarea, option, svg, [hidden]')) continue
			const text = node.textContent ?? ''
			for (const m of text.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
				range.setStart(node, m.index)
				range.setEnd(node, m.index + m[0].length)
				const tops = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => r.top)
				if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 2) {
					out.push(`"${m[0]}" is broken across lines in <${parent.tagName.toLowerCase()}${parent.className ? ` class="${parent.className}"` : ''}>`)
					if (out.length >= 5) break
				}
			}
		}
		return out
	})
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
		// A table that must be scrolled sideways to reach its buttons is as bad on a phone: portal
		// lists are card tables (dataTable) there.
		for (const wrap of document.querySelectorAll('main .table-wrap'))
			if (wrap.scrollWidth > wrap.clientWidth + 1) out.push(`a table scrolls sideways: ${wrap.scrollWidth}px in a ${wrap.clientWidth}px box`)
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

/**
 * A screenshot kept for people to look at (CI keeps `.tmp/screenshots/`), never part of a test's
 * verdict: Chromium's capture fails now and then on a loaded machine ("Unable to capture
 * screenshot": no frame in time), which says nothing about the page. The checks that follow it do.
 */
export async function keepScreenshot(target: Page | Locator, options: Parameters<Page['screenshot']>[0] & { path: string }): Promise<void> {
	try {
		await target.screenshot(options)
	} catch (error) {
		console.warn(`screenshot ${options.path} not taken: ${(error as Error).message.split('\n')[0]}`)
	}
}
