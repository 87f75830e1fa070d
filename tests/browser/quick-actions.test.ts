/**
 * A recruiter's speed in Chromium (issue 31): a reply in a conversation is sent once however often
 * the page is reloaded (Post/Redirect/Get); a pipeline card moves to another stage from its Move
 * menu by keyboard alone, without the page reloading, and the board says what happened.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { axeProblems, closeBrowser, launchBrowser, overflowing } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, type TestWorkspace } from '../helpers.ts'

setDefaultTimeout(120_000)

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
mkdirSync(SHOTS, { recursive: true })

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

async function signIn(page: Page, role: string) {
	const person = await newPerson(ws, role, {}, deps)
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(person.email)
	await page.getByLabel('Password').fill(person.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(`${url}/portal`)
}

describe('Post/Redirect/Get in a browser', () => {
	test('replying in a conversation and reloading twice queues one message', async () => {
		const [thread] = await deps.database.rows<{ id: string }>(
			sql`select id from inbox_threads where workspace_id = ${ws.id} and counterpart_address like '%@%' order by id limit 1`,
		)
		const queued = async () =>
			(
				await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from outbox where workspace_id = ${ws.id} and text like ${'%Reload me once%'}`)
			)[0]!.n
		const ctx = await (await launchBrowser()).newContext()
		try {
			const page = await ctx.newPage()
			await signIn(page, 'recruiter')
			await page.goto(`${url}/inbox/${thread!.id}`)
			await page.getByLabel('Message').fill('Reload me once, please.')
			await page.getByRole('button', { name: 'Send' }).click()
			await page.waitForURL(`${url}/inbox/${thread!.id}?done=replied`)
			await page.getByText('Your reply is on its way.').waitFor()
			for (let i = 0; i < 2; i++) {
				// A reload after a redirect is a GET: Chromium asks nothing and posts nothing.
				await page.reload()
				await page.getByText('Your reply is on its way.').waitFor()
			}
			expect(await queued()).toBe(1)
		} finally {
			await ctx.close()
		}
	})
})

describe('quick stage moves on the pipeline board', () => {
	test('by keyboard: open Move, choose Screening, press Move; the card changes column, the counts follow, the live region says it', async () => {
		const [row] = await deps.database.rows<{ job: string; app: string; name: string }>(
			sql`select a.job_id as job, a.id as app, c.name from applications a join candidates c on c.id = a.candidate_id
			where a.workspace_id = ${ws.id} and a.stage_key = 'applied' and a.outcome is null and not a.archived and a.kind = 'applicant' order by a.created_at desc, a.id desc limit 1`,
		)
		const ctx = await (await launchBrowser()).newContext()
		try {
			const page = await ctx.newPage()
			await signIn(page, 'recruiter')
			await page.goto(`${url}/jobs/${row!.job}`)
			await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
			const count = (stage: string) => page.locator(`section[data-stage="${stage}"] [data-count]`).textContent()
			const [appliedBefore, screeningBefore] = [Number(await count('applied')), Number(await count('screening'))]
			const card = page.locator(`li[data-application="${row!.app}"]`)
			await card.locator('summary').focus()
			await page.keyboard.press('Enter')
			await page.keyboard.press('Tab')
			await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('SELECT')
			await card.locator('select').selectOption('screening')
			await page.keyboard.press('Tab')
			await page.keyboard.press('Enter')
			await page.locator('[data-pipeline-status]').getByText(`moved from Applied to Screening`).waitFor()
			expect(await page.locator('[data-pipeline-status]').textContent()).toBe(`${row!.name} moved from Applied to Screening.`)
			expect(await page.locator(`section[data-stage="screening"] li[data-application="${row!.app}"]`).count()).toBe(1)
			expect([Number(await count('applied')), Number(await count('screening'))]).toEqual([appliedBefore - 1, screeningBefore + 1])
			// No reload: the page's own state is still there.
			expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
			const [after] = await deps.database.rows<{ stage: string }>(sql`select stage_key as stage from applications where id = ${row!.app}`)
			expect(after!.stage).toBe('screening')
		} finally {
			await ctx.close()
		}
	})
})

describe('bulk actions on a job’s stage list', () => {
	test('Select all on this page, Move to stage: one POST, the report per record, screenshots at both widths, axe clean', async () => {
		const [row] = await deps.database.rows<{ job: string; n: number }>(
			sql`select a.job_id as job, count(*)::int as n from applications a where a.workspace_id = ${ws.id} and a.stage_key = 'applied' and a.outcome is null and not a.archived
			group by a.job_id order by count(*) desc, a.job_id limit 1`,
		)
		const ctx = await (await launchBrowser()).newContext()
		try {
			const page = await ctx.newPage()
			await signIn(page, 'recruiter')
			const posts: string[] = []
			page.on('request', (r) => {
				if (r.method() === 'POST') posts.push(r.url())
			})
			await page.goto(`${url}/jobs/${row!.job}?stage=applied`)
			await page.getByLabel('Select all on this page').check()
			const ticked = await page.locator('input[name="application"]:checked').count()
			expect(ticked).toBe(Math.min(row!.n, 25))
			await page.getByLabel('Stage', { exact: true }).selectOption('screening')
			await page.getByRole('button', { name: 'Move to stage' }).click()
			await page.waitForURL(`${url}/applications/bulk`)
			await page
				.getByText(`Move to Screening: ${ticked} ${ticked === 1 ? 'record' : 'records'} done.`)
				.first()
				.waitFor()
			expect(posts).toEqual([`${url}/applications/bulk`])
			const problems: string[] = []
			for (const width of [390, 1280]) {
				await page.setViewportSize({ width, height: 900 })
				await page.screenshot({ path: `${SHOTS}/bulk-report-done-${width}.png`, fullPage: true })
				problems.push(...(await overflowing(page)))
			}
			problems.push(...(await axeProblems(page)))
			expect(problems).toEqual([])
			const [left] = await deps.database.rows<{ n: number }>(
				sql`select count(*)::int as n from applications where job_id = ${row!.job} and stage_key = 'applied' and outcome is null and not archived`,
			)
			expect(left!.n).toBe(row!.n - ticked)
		} finally {
			await ctx.close()
		}
	})
})
