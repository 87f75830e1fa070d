/**
 * What every MCP Apps view promises, in the test host: text written by others is shown as text,
 * the view reaches no other origin (its own CSP says so, whatever the host adds), and it fits a
 * phone-width chat as well as a desktop one. Also takes the README's screenshots when asked
 * (MCP_APPS_SCREENSHOTS=docs/mcp-apps).
 */
import { textOf } from '../../core/untrusted.ts'
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { VIEW_CSP } from '../../core/mcp/apps/views.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'
import { rows, type AppsFixture } from './fixture.ts'
import { viewTests } from './view-tests.ts'
import { hostLog, openView, screenshot } from './host.ts'

setDefaultTimeout(180_000)

const views = viewTests()
const { show } = views
let f: AppsFixture
beforeAll(() => {
	f = views.fixture()
})

describe('text written by others', () => {
	test('is shown as text, never as markup, in every view it reaches; and a view sets no link, address or handler attribute', async () => {
		// The server already removes HTML tags it knows from such text; what it leaves (an unknown
		// element name, escaped markup) is exactly what the view would turn into markup if it parsed HTML.
		const candidateId = await newCandidate(f.ws, {
			name: `Eve <custom-tag>Bold</custom-tag> &lt;img src=x onerror="document.title='pwned'"&gt; <img src=x onerror="document.title='pwned'">`,
		})
		// A job of its own, so the other tests' records stay as the demo data made them.
		const jobId = await newVendorJob(f.ws, { title: 'Quality Engineer' })
		await newApplication(f.ws, candidateId, jobId)
		const { page, view } = await show('recruiter', 'get_candidate', { candidateId })
		const name: string = textOf((await hostLog(page)).result.structuredContent.candidate.name)
		expect(name).toContain('<custom-tag>')
		expect(name).toContain('&lt;img')
		expect(await view.locator('h1').innerText()).toBe(name)
		expect(await view.locator('main custom-tag, main img').count()).toBe(0)
		expect(await view.locator('body').evaluate(() => document.title)).toBe('Candidate card')
		const refused = await view.locator('body').evaluate(() => {
			const { el } = (globalThis as any).BenchlineView
			return ['href', 'src', 'srcdoc', 'onclick', 'style'].map((attribute) => {
				try {
					el('a', { [attribute]: 'javascript:document.title="pwned"' })
					return `${attribute}: set`
				} catch (error) {
					return `${attribute}: ${(error as Error).message}`
				}
			})
		})
		expect(refused).toEqual(['href', 'src', 'srcdoc', 'onclick', 'style'].map((a) => `${a}: Views do not set the ${a} attribute`))
		await page.close()

		const pipeline = await show('recruiter', 'list_applications', { jobId, limit: 100 })
		const card = pipeline.view.locator('[data-application]', { hasText: 'custom-tag' })
		expect(await card.locator('.name').innerText()).toBe(name)
		expect(await pipeline.view.locator('main custom-tag, main img').count()).toBe(0)
		await pipeline.page.close()
	})
})

describe('no other origin', () => {
	test('the view cannot reach the network: its own CSP holds where the host adds none, as does the host’s CSP built from _meta.ui.csp', async () => {
		const [app] = await rows<{ id: string }>(sql`select id from applications where job_id = ${f.jobId} order by id limit 1`)
		const probe = (_: Element, url: string) =>
			fetch(url, { mode: 'no-cors' }).then(
				() => 'reached',
				() => 'blocked',
			)
		for (const sandbox of ['none', undefined]) {
			const { page, view } = await show('recruiter', 'get_application', { applicationId: app!.id }, { sandbox })
			expect(await view.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(VIEW_CSP)
			expect(await view.locator('body').evaluate(probe, `${f.url}/health`)).toBe('blocked')
			// The same request from the host's own proxy page (no CSP of the view) goes through:
			// what blocks the view is its policy, not the machine.
			if (sandbox === 'none') expect(await page.frameLocator('#app').locator('body').evaluate(probe, `${f.url}/health`)).toBe('reached')
			await page.close()
		}
	})
})

describe('the app’s look', () => {
	test('a view takes the app’s theme and colours from the host context', async () => {
		const page = await views.newPage()
		const view = await openView(page, f.host, {
			as: 'owner',
			tool: 'get_analytics_summary',
			args: {},
			theme: 'dark',
			variables: { '--color-background-primary': 'rgb(12, 34, 56)' },
		})
		await view.locator('h1').waitFor()
		expect(await view.locator('html').getAttribute('data-theme')).toBe('dark')
		expect(await view.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor)).toBe('rgb(12, 34, 56)')
		// Without the app's colours, the view's own dark palette.
		expect(await view.locator('body').evaluate((body) => getComputedStyle(body).color)).toBe('rgb(232, 235, 242)')
		await page.close()
	})
})

describe('sizes', () => {
	const cases = (): [string, string, Record<string, unknown>][] => [
		['job-pipeline', 'get_job', { jobId: f.jobId }],
		['candidate-card', 'get_application', { applicationId: '' }],
		['vendor-submission-check', 'check_vendor_submission', { applicationId: f.vendorCase.applicationId }],
		['careers-analytics', 'get_analytics_summary', {}],
		['calendar', 'get_calendar', {}],
	]

	test('every view fits a phone-width chat (390 px) and a desktop one without scrolling sideways', async () => {
		for (const [name, tool, args] of cases()) {
			// An application on a vendor's job with every part of the card (see fixture.ts).
			const filled = tool === 'get_application' ? { applicationId: f.cardApplicationId } : args
			for (const width of [390, 1000]) {
				const { page, view } = await show('owner', tool, filled, { width })
				const overflow = await view.locator('body').evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
				expect({ name, width, overflow }).toEqual({ name, width, overflow: 0 })
				if (width === 1000) await screenshot(page, name)
				await page.close()
			}
		}
	})
})
