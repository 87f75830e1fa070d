/**
 * Issue 32's interview flows in Chromium, on a phone (390 px) and a desktop (1280 px): Add
 * scorecard from the application page, then Schedule interview, Reschedule and Cancel interview;
 * each page axe-clean and nothing wider than the screen. Every step is checked against the
 * database, not the pages' own code.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { users } from '../../modules/auth/table.ts'
import { jobs } from '../../modules/jobs/table.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing } from '../browser.ts'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(180_000)

let url: string
beforeAll(async () => {
	;({ url } = await serveApp())
	await launchBrowser()
}, 120_000)
afterAll(closeBrowser)

async function checked(page: Page, what: string) {
	expect({ what, axe: await axeProblems(page), wide: await overflowing(page) }).toEqual({ what, axe: [], wide: [] })
}

/** A day a week from now: `YYYY-MM-DD`. */
const nextWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)

describe('scorecards and scheduling in the browser', () => {
	for (const width of [390, 1280])
		test(`at ${width} px`, async () => {
			const { deps } = await serveApp()
			const ws = await newWorkspace(deps)
			const recruiter = await newPerson(ws, 'recruiter', {}, deps)
			await deps.db.update(users).set({ timeZone: 'America/New_York' }).where(eq(users.id, recruiter.userId))
			const jobId = await newVendorJob(ws, { title: 'Data Engineer' }, deps)
			await deps.db
				.update(jobs)
				.set({ mustHave: ['Spark', 'SQL'] })
				.where(eq(jobs.id, jobId))
			const applicationId = await newApplication(ws, await newCandidate(ws, { name: 'Lin Park' }, deps), jobId, {}, deps)
			const rows = (q: ReturnType<typeof sql>) => deps.database.rows<Record<string, unknown>>(q)

			const context = await (await launchBrowser()).newContext({ viewport: { width, height: 900 } })
			context.on('page', (p) => p.on('dialog', (d) => void d.accept()))
			const page = await context.newPage()
			await page.goto(`${url}/sign-in`)
			await page.getByLabel('Email').fill(recruiter.email)
			await page.getByLabel('Password').fill(recruiter.password)
			await page.getByRole('button', { name: 'Sign in' }).click()
			await page.waitForURL(`${url}/portal`)

			// Add scorecard.
			await page.goto(`${url}/applications/${applicationId}`)
			await page.getByRole('link', { name: 'Add scorecard' }).click()
			await page.waitForURL(`${url}/applications/${applicationId}/scorecard`)
			await checked(page, 'scorecard form')
			await page.getByLabel('Spark').selectOption('4')
			await page.getByLabel('SQL').selectOption('5')
			await page.getByLabel('Overall recommendation').selectOption('strong_yes')
			await page.getByLabel('Notes').fill('Built a lakehouse from scratch.')
			await page.getByRole('button', { name: 'Save scorecard' }).click()
			await page.waitForURL(/done=scorecard/)
			expect(await page.locator('.notice').first().innerText()).toContain('Your scorecard was saved.')
			await checked(page, 'application with a scorecard')
			const [card] = await rows(sql`select recommendation, ratings from scorecards where application_id = ${applicationId}`)
			expect(card).toMatchObject({
				recommendation: 'strong_yes',
				ratings: [
					{ attribute: 'Spark', rating: 4 },
					{ attribute: 'SQL', rating: 5 },
				],
			})

			// Schedule interview at 10:00 New York time.
			const day = nextWeek()
			await page.getByRole('link', { name: 'Schedule interview' }).click()
			await page.waitForURL(`${url}/applications/${applicationId}/schedule`)
			await checked(page, 'schedule form')
			await page.getByLabel('Date', { exact: true }).fill(day)
			await page.getByLabel('Time').fill('10:00')
			await page.getByLabel('Length').selectOption('45')
			await page.getByLabel('Video link (optional)').fill('https://meet.example.test/lin')
			await page.getByRole('button', { name: 'Schedule and send invitations' }).click()
			await page.waitForURL(/done=scheduled/)
			const [scheduled] = await rows(
				sql`select id, starts_at as start, duration_minutes as minutes, sequence from scheduled_interviews where application_id = ${applicationId}`,
			)
			expect(scheduled).toMatchObject({ minutes: 45, sequence: 0 })
			expect(new Date(scheduled!.start as string).toISOString()).toBe(
				new Date(new Date(`${day}T10:00:00Z`).getTime() + -offsetNewYork(day) * 60_000).toISOString(),
			)
			await checked(page, 'application with an interview')

			// Reschedule to 11:30, then cancel.
			await page.getByRole('link', { name: 'Reschedule' }).click()
			await page.getByLabel('Time').fill('11:30')
			await page.getByRole('button', { name: 'Send the new time' }).click()
			await page.waitForURL(/done=rescheduled/)
			const [moved] = await rows(sql`select sequence from scheduled_interviews where id = ${scheduled!.id}`)
			expect(moved!.sequence).toBe(1)
			await page.getByRole('button', { name: 'Cancel interview' }).click()
			await page.waitForURL(/done=cancelled/)
			const [cancelled] = await rows(sql`select status, sequence from scheduled_interviews where id = ${scheduled!.id}`)
			expect(cancelled).toMatchObject({ status: 'cancelled', sequence: 2 })
			const methods = await rows(sql`select calendar->>'method' as method from outbox where related_id = ${scheduled!.id as string} order by created_at, seq`)
			expect(methods.map((m) => m.method)).toEqual(['REQUEST', 'REQUEST', 'REQUEST', 'REQUEST', 'CANCEL', 'CANCEL'])
			await context.close()
		})
})

/** New York's offset from UTC in minutes on that day at 10:00 (-300 in winter, -240 in summer). */
function offsetNewYork(day: string): number {
	const at = new Date(`${day}T15:00:00Z`)
	const local = new Date(at.toLocaleString('en-US', { timeZone: 'America/New_York' }))
	const utc = new Date(at.toLocaleString('en-US', { timeZone: 'UTC' }))
	return Math.round((local.getTime() - utc.getTime()) / 60_000)
}
