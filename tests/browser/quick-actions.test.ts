/**
 * A recruiter's speed in Chromium (issue 31): a reply in a conversation is sent once however often
 * the page is reloaded (Post/Redirect/Get); a pipeline card moves to another stage from its Move
 * menu by keyboard alone, or dragged to another column with the mouse on a desktop, without the
 * page reloading, and the board says what happened (a refused drag puts the card back and says why).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { runCommand } from '../../core/cli.ts'
import { changeRole, operatorActor } from '../../modules/auth/index.ts'
import type { AppDeps } from '../../core/deps.ts'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { axeProblems, closeBrowser, launchBrowser, overflowing, keepScreenshot } from '../browser.ts'
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
	return person
}

/** The newest applicant still at Applied (the first card of a job's Applied column) and its job. */
async function newestApplied() {
	const [row] = await deps.database.rows<{ job: string; app: string; name: string }>(
		sql`select a.job_id as job, a.id as app, c.name from applications a join candidates c on c.id = a.candidate_id
		where a.workspace_id = ${ws.id} and a.stage_key = 'applied' and a.outcome is null and not a.archived and a.kind = 'applicant' order by a.created_at desc, a.id desc limit 1`,
	)
	return row!
}

/** Drags the card (by its text, as a person does) onto the column with real mouse events: press, move in steps, release. */
async function dragCard(page: Page, applicationId: string, stage: string, { shot }: { shot?: string } = {}) {
	// The mouse works in the window: the board's top at the window's top, so the card and the column are both in it.
	await page.locator('#pipeline').evaluate((board) => board.scrollIntoView({ block: 'start' }))
	const from = (await page.locator(`li[data-application="${applicationId}"] [data-in-stage]`).boundingBox())!
	const to = (await page.locator(`section[data-stage="${stage}"]`).boundingBox())!
	await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
	await page.mouse.down()
	await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 3 })
	await page.mouse.move(to.x + to.width / 2, to.y + Math.min(to.height / 2, 60), { steps: 10 })
	// The window as it is mid-drag (a full-page shot would resize it): the column it would land in is outlined.
	if (shot) await keepScreenshot(page, { path: `${SHOTS}/${shot}` })
	await page.mouse.up()
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
		const row = await newestApplied()
		const ctx = await (await launchBrowser()).newContext()
		try {
			const page = await ctx.newPage()
			await signIn(page, 'recruiter')
			await page.goto(`${url}/jobs/${row.job}`)
			await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
			const count = (stage: string) => page.locator(`section[data-stage="${stage}"] [data-count]`).textContent()
			const [appliedBefore, screeningBefore] = [Number(await count('applied')), Number(await count('screening'))]
			const card = page.locator(`li[data-application="${row.app}"]`)
			await card.locator('summary').focus()
			await page.keyboard.press('Enter')
			await page.keyboard.press('Tab')
			await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('SELECT')
			await card.locator('select').selectOption('screening')
			await page.keyboard.press('Tab')
			await page.keyboard.press('Enter')
			await page.locator('[data-pipeline-status]').getByText(`moved from Applied to Screening`).waitFor()
			expect(await page.locator('[data-pipeline-status]').textContent()).toBe(`${row.name} moved from Applied to Screening.`)
			expect(await page.locator(`section[data-stage="screening"] li[data-application="${row.app}"]`).count()).toBe(1)
			expect([Number(await count('applied')), Number(await count('screening'))]).toEqual([appliedBefore - 1, screeningBefore + 1])
			// No reload: the page's own state is still there.
			expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
			const [after] = await deps.database.rows<{ stage: string }>(sql`select stage_key as stage from applications where id = ${row.app}`)
			expect(after!.stage).toBe('screening')
		} finally {
			await ctx.close()
		}
	})
})

describe('dragging a card to another column on a desktop', () => {
	test('a recruiter drags a card from Applied to Screening: it moves without a reload, the stage, activity line and event are written, the board says it', async () => {
		const row = await newestApplied()
		const ctx = await (await launchBrowser()).newContext({ viewport: { width: 1280, height: 900 } })
		try {
			const page = await ctx.newPage()
			await signIn(page, 'recruiter')
			const posts: string[] = []
			page.on('request', (r) => {
				if (r.method() === 'POST') posts.push(r.url())
			})
			await page.goto(`${url}/jobs/${row.job}`)
			await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
			const card = page.locator(`li[data-application="${row.app}"]`)
			expect(await card.getAttribute('draggable')).toBe('true')
			await expect(page.locator('[data-drag-hint]').isVisible()).resolves.toBe(true)
			const count = (stage: string) => page.locator(`section[data-stage="${stage}"] [data-count]`).textContent()
			const [appliedBefore, screeningBefore] = [Number(await count('applied')), Number(await count('screening'))]
			await dragCard(page, row.app, 'screening', { shot: 'job-drag-1280.png' })
			await page.locator('[data-pipeline-status]').getByText('moved from Applied to Screening').waitFor()
			expect(await page.locator('[data-pipeline-status]').textContent()).toBe(`${row.name} moved from Applied to Screening.`)
			expect(await page.locator(`section[data-stage="screening"] li[data-application="${row.app}"]`).count()).toBe(1)
			expect(await card.locator('[data-in-stage]').textContent()).toBe('entered today')
			expect([Number(await count('applied')), Number(await count('screening'))]).toEqual([appliedBefore - 1, screeningBefore + 1])
			expect(await page.locator('section[data-drop-target], li[data-dragging]').count()).toBe(0)
			// One request, to the same Move to stage as the menu's; no reload.
			expect(posts).toEqual([`${url}/applications/${row.app}/stage`])
			expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
			const [after] = await deps.database.rows<{ stage: string }>(sql`select stage_key as stage from applications where id = ${row.app}`)
			expect(after!.stage).toBe('screening')
			const lines = await deps.database.rows<{ from: string; to: string }>(
				sql`select detail->>'from' as "from", detail->>'to' as "to" from activity where target_id = ${row.app} and action = 'application.stage_changed'`,
			)
			expect(lines).toEqual([{ from: 'applied', to: 'screening' }])
			const [events] = await deps.database.rows<{ n: number }>(
				sql`select count(*)::int as n from events where type = 'application.stage_changed' and data->>'applicationId' = ${row.app}`,
			)
			expect(events!.n).toBe(1)
			// The Move menu now offers the stage the card is in.
			expect(await card.locator('select').inputValue()).toBe('screening')
			const problems = await axeProblems(page)
			await keepScreenshot(page, { path: `${SHOTS}/job-dragged-1280.png`, fullPage: true })
			// A phone: nothing to drag (the Move menu is the touch way), no hint; back on a desktop, dragging again.
			// The board hears of a new width from its media query's change event, which the browser fires at its
			// next rendering step, not inside setViewportSize: wait for it rather than read at once.
			await page.setViewportSize({ width: 390, height: 900 })
			await page.waitForFunction(() => document.querySelectorAll('#pipeline li[draggable]').length === 0)
			await expect(page.locator('[data-drag-hint]').isVisible()).resolves.toBe(false)
			await expect(card.locator('summary').isVisible()).resolves.toBe(true)
			await keepScreenshot(page.locator('#pipeline'), { path: `${SHOTS}/job-dragged-390.png` })
			problems.push(...(await overflowing(page)), ...(await axeProblems(page)))
			expect(problems).toEqual([])
			await page.setViewportSize({ width: 1280, height: 900 })
			await page.locator(`li[data-application="${row.app}"][draggable="true"]`).waitFor()
			await expect(page.locator('[data-drag-hint]').isVisible()).resolves.toBe(true)
		} finally {
			await ctx.close()
		}
	})

	test('a refused drag (the person’s role no longer allows moving) puts the card back where it was and says why', async () => {
		const row = await newestApplied()
		const ctx = await (await launchBrowser()).newContext({ viewport: { width: 1280, height: 900 } })
		try {
			const page = await ctx.newPage()
			const person = await signIn(page, 'recruiter')
			await page.goto(`${url}/jobs/${row.job}`)
			const card = page.locator(`li[data-application="${row.app}"]`)
			const place = () => card.evaluate((li) => [li.closest('section')!.getAttribute('data-stage'), [...li.parentElement!.children].indexOf(li)])
			const counts = () => page.locator('section[data-stage] [data-count]').allTextContents()
			const [placeBefore, countsBefore] = [await place(), await counts()]
			// The operator makes them a viewer while the board is open (the role is read on each request).
			await changeRole(deps, operatorActor(ws), ws, { userId: person.userId }, 'viewer')
			await dragCard(page, row.app, 'screening')
			await page.locator('[data-pipeline-status]').getByText('was not moved').waitFor()
			expect(await page.locator('[data-pipeline-status]').textContent()).toBe(
				`${row.name} was not moved: Your role does not allow this action. It is back in Applied.`,
			)
			expect(await place()).toEqual(placeBefore)
			expect(await counts()).toEqual(countsBefore)
			const [after] = await deps.database.rows<{ stage: string }>(sql`select stage_key as stage from applications where id = ${row.app}`)
			expect(after!.stage).toBe('applied')
			const [lines] = await deps.database.rows<{ n: number }>(
				sql`select count(*)::int as n from activity where target_id = ${row.app} and action = 'application.stage_changed'`,
			)
			expect(lines!.n).toBe(0)
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
				await keepScreenshot(page, { path: `${SHOTS}/bulk-report-done-${width}.png`, fullPage: true })
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
