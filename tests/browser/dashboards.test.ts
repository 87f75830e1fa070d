/**
 * The dashboards in headless Chromium, on the demo firm: what each chart draws (the bars' and
 * columns' data and their rendered sizes) and its table hold the numbers counted from the database
 * in this test, at phone and desktop widths; and a vendor's API key made, copied and revoked the
 * way an owner does it, with the REST API answering accordingly.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { analyticsCounts, SOURCE_LABELS } from '../analytics-counts.ts'
import { closeBrowser, launchBrowser, signedInPage } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, type TestWorkspace } from '../helpers.ts'

setDefaultTimeout(90_000)

let url: string
let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	;({ url, deps } = await serveApp())
	ws = await newWorkspace(deps)
	await runCommand(deps, 'seed', { workspace: ws.slug })
	await launchBrowser()
}, 120_000)
afterAll(async () => {
	await closeBrowser()
})

/** A new person of `role`, signed in at `width`; every confirmation dialog is accepted. */
async function signedInAs(role: string, width: number): Promise<Page> {
	const { context, page } = await signedInPage(url, await newPerson(ws, role, {}, deps), width)
	const accept = (p: Page) => p.on('dialog', (d) => void d.accept())
	accept(page)
	context.on('page', accept)
	return page
}

interface Drawn {
	bars: { label: string; value: number; series: string | null; broken: boolean; width: number; height: number }[]
	svgWidth: number
	rows: string[][]
	/** The first link of each table row. */
	rowLinks: (string | null)[]
}

/** What the charts in the part labelled by `headingId` draw, as Chromium lays them out, and their tables' cells. */
function drawn(page: Page, headingId: string): Promise<Drawn> {
	return page.evaluate((id) => {
		const box = document.querySelector(`[aria-labelledby="${id}"]`)
		if (!box) throw new Error(`nothing labelled by #${id}`)
		const bars = [...box.querySelectorAll('rect[data-value]')].map((r) => {
			const b = r.getBoundingClientRect()
			return {
				label: r.getAttribute('data-label')!,
				value: Number(r.getAttribute('data-value')),
				series: r.getAttribute('data-series'),
				broken: r.getAttribute('data-broken') === 'true',
				width: b.width,
				height: b.height,
			}
		})
		const rows = [...box.querySelectorAll('tbody tr')].map((tr) =>
			[...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim()),
		)
		const rowLinks = [...box.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('a')?.getAttribute('href') ?? null)
		return { bars, svgWidth: box.querySelector('svg')?.getBoundingClientRect().width ?? 0, rows, rowLinks }
	}, headingId)
}

const n = (cell: string) => Number(cell.replace(/,/g, ''))

/** Each bar is drawn as long as its value against the longest one drawn to scale (a pixel's slack). */
function expectProportional(bars: Drawn['bars'], size: 'width' | 'height') {
	const scaled = bars.filter((b) => !b.broken)
	const top = scaled.reduce((best, b) => (b.value > best.value ? b : best), scaled[0]!)
	for (const b of scaled) {
		const expected = top.value ? (b.value / top.value) * top[size] : 0
		expect({ label: b.label, value: b.value, size: Math.abs(b[size] - expected) <= Math.max(1.5, b.value ? 0.006 * top[size] : 0) }).toEqual({
			label: b.label,
			value: b.value,
			size: true,
		})
	}
}

describe('what the analytics charts draw, in Chromium', () => {
	for (const width of [390, 1280]) {
		test(`the owner's /analytics at ${width} px: every chart against the database`, async () => {
			const page = await signedInAs('owner', width)
			await page.goto(`${url}/analytics`)
			const [from, to] = await page.$$eval('.page-header time', (times) => times.map((t) => t.getAttribute('datetime')!))
			const db = await analyticsCounts(deps, ws.id, { from: new Date(from!), to: new Date(to!) })

			// The per-day chart counts whole UTC days: its first day from midnight, though the period starts later in it.
			const wholeDays = await analyticsCounts(deps, ws.id, {
				from: new Date(Math.floor(new Date(from!).getTime() / 86_400_000) * 86_400_000),
				to: new Date(to!),
			})
			const perDay = await drawn(page, 'per-day')
			for (const [series, kind] of [
				['Job page views', 'view'],
				['Applications', 'application'],
			] as const) {
				const columns = perDay.bars.filter((b) => b.series === series)
				const expected = Object.fromEntries(
					wholeDays.perDay
						.filter((d) => d.kind === kind)
						.map((d) => [new Date(`${d.day}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' }), d.n]),
				)
				expect(Object.fromEntries(columns.filter((c) => c.value).map((c) => [c.label, c.value]))).toEqual(expected)
				expectProportional(columns, 'height')
			}
			expect(perDay.rows.reduce((s, r) => s + n(r[1]!), 0)).toBe(wholeDays.views)
			expect(perDay.rows.reduce((s, r) => s + n(r[2]!), 0)).toBe(wholeDays.applications)

			const funnel = await drawn(page, 'funnel')
			expect(funnel.bars.map((b) => b.value)).toEqual([db.views, db.received, ...db.reached.slice(1)])
			expect(funnel.rows.map((r) => n(r[1]!))).toEqual([db.views, db.received, ...db.reached.slice(1)])
			expectProportional(funnel.bars, 'width')

			const top10 = <T extends { n: number }>(rows: T[]) => [...rows].sort((a, b) => b.n - a.n).slice(0, 10)
			const sources = await drawn(page, 'by-source')
			const expectedSources = top10(db.bySource)
			expect(sources.bars.map((b) => b.value)).toEqual(expectedSources.map((s) => s.n))
			expect(new Set(sources.bars.filter((b) => b.value > expectedSources.at(-1)!.n).map((b) => b.label))).toEqual(
				new Set(expectedSources.filter((s) => s.n > expectedSources.at(-1)!.n).map((s) => SOURCE_LABELS[s.source] ?? s.source)),
			)
			expect(sources.rows.map((r) => n(r[1]!))).toEqual(expectedSources.map((s) => s.n))
			expectProportional(sources.bars, 'width')

			const jobs = await drawn(page, 'by-job')
			const expectedJobs = top10(db.byJob)
			expect(jobs.bars.map((b) => b.value)).toEqual(expectedJobs.map((j) => j.n))
			// Jobs by id (several demo jobs share a title): each row's link and count are the job's.
			for (const [i, href] of jobs.rowLinks.entries())
				expect([href, n(jobs.rows[i]![1]!)]).toEqual([href, db.byJob.find((j) => `/jobs/${j.jobId}` === href)?.n ?? -1])
			expectProportional(jobs.bars, 'width')

			// The demo firm has more than twenty applicants on some days: the page measures twenty a day
			// and says so; the bands then hold a share of the database's counts, never more.
			const response = await drawn(page, 'response')
			const shown = response.bars.map((b) => b.value)
			if (db.busiestDay <= 20) expect(shown).toEqual(db.bands)
			else {
				expect(await page.textContent('[aria-labelledby="response"]')).toContain('the first 20 of each day')
				for (const [i, v] of shown.entries()) expect(v).toBeLessThanOrEqual(db.bands[i]!)
			}
			expectProportional(response.bars, 'width')
			// The charts fit the screen: nothing drawn past the chart's box.
			for (const part of [perDay, funnel, sources, jobs, response]) for (const b of part.bars) expect(b.width).toBeLessThanOrEqual(part.svgWidth + 0.5)
			await page.context().close()
		})
	}

	test('the home page’s small charts: applications per day and the listed jobs’ pipeline', async () => {
		const page = await signedInAs('recruiter', 390)
		const perDay = await drawn(page, 'applications-per-day')
		const today = Math.floor(Date.now() / 86_400_000) * 86_400_000
		const days = await deps.database.rows<{ day: string; n: number }>(
			sql`select to_char(at at time zone 'UTC', 'Mon FMDD') as day, count(*)::int as n from careers_events where workspace_id = ${ws.id} and kind = 'application' and at >= ${new Date(today - 13 * 86_400_000).toISOString()}::timestamptz and at <= now() group by 1`,
		)
		expect(perDay.bars.length).toBe(14)
		expect(Object.fromEntries(perDay.bars.filter((b) => b.value).map((b) => [b.label, b.value]))).toEqual(Object.fromEntries(days.map((d) => [d.day, d.n])))
		expectProportional(perDay.bars, 'height')
		const jobIds = await page.$$eval('[aria-labelledby="open-jobs"] tbody a[href^="/jobs/"]', (as) => as.map((a) => a.getAttribute('href')!.slice(6)))
		const stages = await deps.database.rows<{ label: string; n: number }>(
			sql`select s.label, count(a.id)::int as n from pipeline_stages s left join applications a on a.workspace_id = s.workspace_id and a.stage_key = s.key and a.archived = false and (a.outcome is null or a.outcome = 'hired') and a.job_id in (${sql.join(
				jobIds.map((j) => sql`${j}`),
				sql`, `,
			)})
			where s.workspace_id = ${ws.id} group by s.label, s.position order by s.position`,
		)
		const pipeline = await drawn(page, 'open-jobs')
		expect(pipeline.bars.map((b) => [b.label, b.value])).toEqual(stages.map((s) => [s.label, s.n]))
		expectProportional(pipeline.bars, 'width')
		await page.context().close()
	})
})

test('an owner creates a vendor key, copies it once, and revokes it: the REST API follows', async () => {
	const [vendor] = await deps.database.rows<{ id: string }>(sql`select id from vendors where workspace_id = ${ws.id} and api_access order by id limit 1`)
	const page = await signedInAs('owner', 1280)
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url })
	await page.goto(`${url}/vendors/${vendor!.id}`)
	await page.getByRole('button', { name: 'Create key' }).click()
	await page.waitForURL(`${url}/vendors/${vendor!.id}#api`)
	const key = (await page.locator('#new-key').textContent())!
	expect(key).toMatch(/^bl_vk_/)
	await page.locator('[data-copy="new-key"]').click()
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
	const rest = async () => (await fetch(`${url}/api/v1/jobs`, { headers: { authorization: `Bearer ${key}` } })).status
	expect(await rest()).toBe(200)
	await page.reload()
	expect(await page.locator('#new-key').count()).toBe(0)
	const row = page.locator('tr', { hasText: `ends in …${key.slice(-4)}` })
	await row.getByRole('button', { name: 'Revoke key' }).click()
	await page.waitForURL(/done=key-revoked/)
	expect(await page.getByRole('status').textContent()).toContain('The key was revoked')
	expect(await rest()).toBe(401)
	await page.context().close()
})
