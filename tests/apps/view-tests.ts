/**
 * The set-up every MCP Apps view test file shares: the fixture (made once per process), one
 * browser context for the file, and `show`, which opens a tool's result in the test host and
 * waits for the view's heading. Call `viewTests()` at the top of a test file: it registers the
 * file's hooks.
 */
import { afterAll, beforeAll } from 'bun:test'
import type { BrowserContext, FrameLocator, Page } from 'playwright-core'
import { closeBrowser, launchBrowser } from '../browser.ts'
import { type AppsFixture, appsFixture } from './fixture.ts'
import { openView } from './host.ts'

export interface ViewTests {
	/** The fixture, once the file's hooks have run. */
	fixture(): AppsFixture
	/** A new page in the file's browser context. */
	newPage(): Promise<Page>
	/** Opens `tool(args)` as a person of role `as` in the host, in a sandbox and at a width when given. */
	show(as: string, tool: string, args: Record<string, unknown>, options?: { sandbox?: string; width?: number }): Promise<{ page: Page; view: FrameLocator }>
}

export function viewTests(): ViewTests {
	let f: AppsFixture | undefined
	let context: BrowserContext | undefined
	beforeAll(async () => {
		f = await appsFixture()
		context = await (await launchBrowser()).newContext({ viewport: { width: 1000, height: 2200 } })
	}, 180_000)
	afterAll(async () => {
		await context?.close()
		await closeBrowser()
	})
	const ready = () => {
		if (!f || !context) throw new Error('viewTests(): the file’s beforeAll has not run yet')
		return { f, context }
	}
	return {
		fixture: () => ready().f,
		newPage: () => ready().context.newPage(),
		async show(as, tool, args, { sandbox, width } = {}) {
			const { f, context } = ready()
			const page = await context.newPage()
			if (width) await page.setViewportSize({ width, height: 2200 })
			const view = await openView(page, f.host, { as, tool, args, sandbox })
			await view.locator('h1').waitFor()
			return { page, view }
		},
	}
}
