/**
 * The analytics and calendar views (MCP Apps) in the test host (see views.test.ts): the numbers
 * and entries of the chosen range, checked against the database, and another range fetched by
 * the view through the host with the same read tool.
 */
import { textOf } from '../../core/untrusted.ts'
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { FrameLocator } from 'playwright-core'
import { rows, type AppsFixture } from './fixture.ts'
import { viewTests } from './view-tests.ts'
import { hostLog, until } from './host.ts'

setDefaultTimeout(180_000)

const views = viewTests()
const { show } = views
let f: AppsFixture
beforeAll(() => {
	f = views.fixture()
})

/** Careers events of the workspace in `[from, to)`, as the database has them. */
async function eventCounts(from: string, to: string) {
	const [r] = await rows<{ views: number; applications: number }>(
		sql`select count(*) filter (where kind = 'view')::int as views, count(*) filter (where kind = 'application')::int as applications from careers_events where workspace_id = ${f.ws.id} and at >= ${from}::timestamptz and at < ${to}::timestamptz`,
	)
	return r!
}

const tileValue = async (view: FrameLocator, name: string) =>
	Number((await view.locator('.tile', { hasText: name }).locator('.value').innerText()).replace(/[^\d.]/g, ''))

describe('careers analytics', () => {
	test('the numbers of the range from the database, drawn as inline SVG bars; the 7-day range through the read tool', async () => {
		const { page, view } = await show('owner', 'get_analytics_summary', {})
		const shown = (await hostLog(page)).result.structuredContent
		const counts = await eventCounts(shown.from, shown.to)
		expect(counts.views).toBeGreaterThan(0)
		expect(await tileValue(view, 'Job page views')).toBe(counts.views)
		expect(await tileValue(view, 'Applications')).toBe(counts.applications)
		// One bar per top job and top source, four for the comparison; each chart has its table.
		expect(await view.locator('svg rect.bar').count()).toBe(shown.topJobs.length + shown.topSources.length + 4)
		expect(await view.locator('details table').count()).toBe(3)
		const jobs = await view.getByRole('region', { name: 'Top jobs by applications' }).innerText()
		for (const job of shown.topJobs) expect(jobs).toContain(textOf(job.title))

		await view.getByRole('button', { name: '7 days' }).click()
		await until('the 7-day numbers', async () => (await view.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')) === 'true')
		const [call] = (await hostLog(page)).viewCalls
		expect([call!.name, call!.arguments]).toEqual(['get_analytics_summary', { range: 7 }])
		const week = call!.result.structuredContent
		const weekCounts = await eventCounts(week.from, week.to)
		expect(await tileValue(view, 'Job page views')).toBe(weekCounts.views)
		expect(await tileValue(view, 'Applications')).toBe(weekCounts.applications)
		expect(await view.locator('.meta', { hasText: 'Last 7 days' }).count()).toBe(1)
		await page.close()
	})
})

describe('calendar', () => {
	test('the entries of the range on their days, as in the database; earlier weeks through the read tool', async () => {
		// Two weeks from the Monday of this week, in UTC (the test host's time zone).
		const today = new Date()
		const monday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - ((today.getUTCDay() + 6) % 7)))
		const from = monday.toISOString()
		const to = new Date(monday.getTime() + 14 * 86_400_000).toISOString()
		// Each entry on the day it starts, or on the first day of the range when it began before it.
		const expected = await rows<{ id: string; start: string }>(sql`
			select id, to_char(greatest(scheduled_at, ${from}::timestamptz) at time zone 'UTC', 'YYYY-MM-DD') as start from interviews where workspace_id = ${f.ws.id} and owner_user_id is not null and scheduled_at < ${to}::timestamptz and scheduled_at + make_interval(mins => duration_minutes) > ${from}::timestamptz
			union all select id, to_char(greatest(due_at, ${from}::timestamptz) at time zone 'UTC', 'YYYY-MM-DD') from todos where workspace_id = ${f.ws.id} and due_at is not null and due_at < ${to}::timestamptz and due_at > ${from}::timestamptz - interval '30 minutes'
			union all select id, to_char(greatest(starts_at, ${from}::timestamptz) at time zone 'UTC', 'YYYY-MM-DD') from calendar_busy where workspace_id = ${f.ws.id} and starts_at < ${to}::timestamptz and ends_at > ${from}::timestamptz`)
		expect(expected.length).toBeGreaterThan(5)

		const { page, view } = await show('owner', 'get_calendar', { from, to, scope: 'workspace', limit: 100 })
		const entries = () => view.locator('.entry[data-id]').evaluateAll((nodes) => [...new Set(nodes.map((n) => n.getAttribute('data-id')))])
		// A busy fortnight has more entries than one page: the rest come from the same read tool.
		const more = view.getByRole('button', { name: 'Show more entries' })
		while (await more.count()) {
			const before = (await entries()).length
			await more.click()
			await until('the next entries', async () => (await entries()).length > before)
		}
		const ids = await entries()
		expect(ids.sort()).toEqual(expected.map((e) => e.id).sort())
		for (const e of expected) expect(await view.locator(`[data-day="${e.start}"] .entry[data-id="${e.id}"]`).count()).toBe(1)
		expect(await view.locator('.day:not(.outside)').count()).toBe(14)

		const pages = (await hostLog(page)).viewCalls
		expect(pages.every((c) => c.name === 'get_calendar' && c.arguments?.from === from && typeof c.arguments?.cursor === 'string')).toBe(true)
		await view.getByRole('button', { name: /Earlier 14 days/ }).click()
		const earlierFrom = new Date(monday.getTime() - 14 * 86_400_000)
		await until('the earlier weeks', async () =>
			(await view.locator('h1').innerText()).includes(earlierFrom.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })),
		)
		const call = (await hostLog(page)).viewCalls.at(-1)
		expect([call!.name, call!.arguments]).toEqual([
			'get_calendar',
			{ from: earlierFrom.toISOString(), to: from, scope: 'workspace', types: ['interview', 'followup', 'external'], limit: 100 },
		])
		const earlier = call!.result.structuredContent.events.map((e: { id: string }) => e.id)
		const drawn = await view.locator('.entry[data-id]').evaluateAll((nodes) => [...new Set(nodes.map((n) => n.getAttribute('data-id')))])
		expect(drawn.sort()).toEqual([...new Set<string>(earlier)].sort())
		await page.close()
	})
})
