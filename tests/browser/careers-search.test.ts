/**
 * The careers site in headless Chromium, as a candidate uses it: search with keywords, a location and
 * an employment type, remove one filter, clear them all (desktop); then on a phone ask for job
 * alerts, confirm by the link that arrives by real e-mail (an SMTP server started by the test), get
 * a digest and unsubscribe from its link. A job's own page (pay, employment type, posted date, the
 * apply form) is checked by axe and for anything cut off or broken, on a phone and on a desktop, its
 * summary's line breaks shown (in the portal too); so is a long search's filter chip.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { runCommand } from '../../core/commands.ts'
import { deliverDue } from '../../modules/outbox/index.ts'
import { axeProblems, brokenWords, browserMailTests, launchBrowser, overflowing, keepScreenshot, signedInPage } from '../browser.ts'
import { clock, newPerson, newWorkspace, serveApp, testDeps, unique } from '../helpers.ts'
import { PUBLISH_SETTLE_MS } from '../../modules/careers/alerts.ts'
import { newPublicJob } from '../staffing-fixtures.ts'

setDefaultTimeout(60_000)

const mail = browserMailTests('bl-careers-')
afterEach(() => clock.reset())

describe('the careers search and job alerts in Chromium', () => {
	test('searches, removes a filter, clears; subscribes, confirms, gets a digest, unsubscribes', async () => {
		const { deps } = await serveApp()
		const ws = await newWorkspace(deps)
		await newPublicJob(ws, { title: 'Senior Java Developer', location: 'Austin, TX', contractType: 'C2C' }, deps)
		await newPublicJob(ws, { title: 'Java Platform Engineer', location: 'Remote - US', schedule: 'Remote', contractType: 'W2' }, deps)
		await newPublicJob(ws, { title: 'Python Developer', location: 'Austin, TX', employment: 'Full-time' }, deps)
		// The app the browser uses holds mail (no SMTP_URL); this one releases and sends it over SMTP.
		const mailer = await testDeps({ SMTP_URL: mail.smtp.url, BASE_URL: mail.url })
		const send = async () => {
			await runCommand(mailer, 'outbox release', { all: true, workspace: ws.slug })
			await deliverDue(mailer, { workspaceId: ws.id })
		}

		const context = await (await launchBrowser()).newContext({ viewport: { width: 1280, height: 900 } })
		const page = await context.newPage()
		const titles = () => page.locator('ul.jobs li strong').allInnerTexts()
		await page.goto(`${mail.url}/careers/${ws.slug}`)
		expect((await titles()).sort()).toEqual(['Java Platform Engineer', 'Python Developer', 'Senior Java Developer'])
		await page.getByLabel('Keywords').fill('java')
		await page.getByLabel('Location').fill('Austin')
		await page.getByLabel('Employment type').selectOption('Contract')
		await page.getByRole('button', { name: 'Search' }).click()
		await page.waitForURL(/\?q=java&location=Austin&type=Contract/)
		expect(await titles()).toEqual(['Senior Java Developer'])
		expect(await page.locator('.applied').innerText()).toContain('1 job matches')

		await page.getByRole('link', { name: 'Remove filter Location: Austin' }).click()
		await page.waitForURL((u) => !u.search.includes('location'))
		expect((await titles()).sort()).toEqual(['Java Platform Engineer', 'Senior Java Developer'])
		await page.getByLabel('Remote only').check()
		await page.getByRole('button', { name: 'Search' }).click()
		expect(await titles()).toEqual(['Java Platform Engineer'])
		await page.getByRole('link', { name: 'Clear all filters' }).click()
		await page.waitForURL(`${mail.url}/careers/${ws.slug}`)
		expect(await titles()).toHaveLength(3)
		expect(await page.getByLabel('Keywords').inputValue()).toBe('')
		expect(await page.getByLabel('Remote only').isChecked()).toBe(false)

		// On a phone: a search, then "Get new jobs like this by e-mail".
		await page.setViewportSize({ width: 390, height: 844 })
		await page.getByLabel('Keywords').fill('java')
		await page.getByRole('button', { name: 'Search' }).click()
		await page.waitForURL(/\?q=java&location=&type=$/)
		const email = `${unique('seeker')}@example.test`
		await page.getByLabel('Your e-mail address').fill(email)
		await page.getByRole('button', { name: 'Get job alerts' }).click()
		expect(await page.locator('.alerts [role="status"]').innerText()).toContain(`we sent a link to ${email} to confirm the alert`)
		await send()
		const link = /http:\/\/\S+\/alerts\/confirm\/\S+/.exec(mail.smtp.to(email)[0]!.parsed.text ?? '')![0]
		await page.goto(link)
		await page.getByRole('button', { name: 'Confirm' }).click()
		await page.getByRole('heading', { name: 'Job alert confirmed' }).waitFor()

		await newPublicJob(ws, { title: 'Java Tech Lead', location: 'Dallas, TX' }, deps)
		clock.advance(PUBLISH_SETTLE_MS) // a digest holds jobs published until a minute before it
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 1, jobs: 1 })
		await send()
		const digest = mail.smtp.to(email)[1]!.parsed.text ?? ''
		expect(digest).toContain('Java Tech Lead')
		await page.goto(/Unsubscribe from job alerts: (\S+)/.exec(digest)![1]!.replace('http://localhost:3000', mail.url))
		await page.getByRole('button', { name: 'Unsubscribe' }).click()
		await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor()
		await context.close()
	})

	test('a long search is a one-line chip within the screen, Remove in view, its whole text kept (read out, and in its title)', async () => {
		const { deps } = await serveApp()
		const ws = await newWorkspace(deps)
		await newPublicJob(ws, { title: 'Senior Java Developer', location: 'Austin, TX' }, deps)
		// Many words wrapped inside the pill (a stretched oval); one long word ran off a phone's screen.
		const searches = [
			'senior java spring boot microservices kafka kubernetes aws developer with payments experience in banking and fintech around Austin Texas',
			'superlongkeywordwithoutanyspaces'.repeat(6),
		]
		const context = await (await launchBrowser()).newContext({ viewport: { width: 1280, height: 900 } })
		try {
			const page = await context.newPage()
			for (const [i, q] of searches.entries())
				for (const width of [390, 1280]) {
					await page.setViewportSize({ width, height: 900 })
					await page.goto(`${mail.url}/careers/${ws.slug}?q=${encodeURIComponent(q)}`)
					const chip = page.locator('ul.applied-filters li').first()
					const [box, remove] = [(await chip.boundingBox())!, (await chip.getByRole('link', { name: `Remove filter Keywords: ${q}` }).boundingBox())!]
					await keepScreenshot(page, { path: `.tmp/screenshots/careers-long-search-${i}-${width}.png` })
					expect({
						width,
						inScreen: box.x + box.width <= width && remove.x + remove.width <= box.x + box.width,
						// One line of text: a second would make the chip twice the link's height.
						oneLine: box.height < 2 * remove.height,
						// The chip's text and its title (evaluateAll: a chip without them is reported, not waited for).
						label: await chip.locator('span').evaluateAll((spans) => spans.map((s) => [s.textContent, s.getAttribute('title')])),
						overflow: await overflowing(page),
						axe: await axeProblems(page),
					}).toEqual({ width, inScreen: true, oneLine: true, label: [[`Keywords: ${q}`, `Keywords: ${q}`]], overflow: [], axe: [] })
				}
		} finally {
			await context.close()
		}
	})

	test("a job's page reads on a phone and on a desktop: axe finds nothing, nothing is cut off or broken mid-word, the summary keeps its lines (the portal's job page too)", async () => {
		const { deps } = await serveApp()
		const ws = await newWorkspace(deps)
		// A vendor's plain text: its line break is shown, not collapsed into a space.
		const summary = 'Build and run B2C storefronts for a retail client.\nOn call one week in six.'
		const job = await newPublicJob(
			ws,
			{
				title: 'Senior Salesforce Commerce Cloud Developer',
				location: 'Remote - US',
				schedule: 'Remote',
				employment: 'Full-time',
				salaryMin: 145000,
				salaryMax: 185000,
				summary,
				description: '<p>You will own checkout and catalog integrations.</p><ul><li>SFCC B2C</li><li>Node.js</li></ul>',
				mustHave: ['SFCC B2C Commerce', 'JavaScript'],
			},
			deps,
		)
		const context = await (await launchBrowser()).newContext({ viewport: { width: 1280, height: 900 } })
		try {
			const page = await context.newPage()
			for (const width of [390, 1280]) {
				await page.setViewportSize({ width, height: 900 })
				const response = await page.goto(`${mail.url}/careers/${ws.slug}/jobs/${job.slug}`)
				expect(response!.status()).toBe(200)
				expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Senior Salesforce Commerce Cloud Developer')
				expect(await page.locator('main').innerText()).toContain('185,000')
				await keepScreenshot(page, { path: `.tmp/screenshots/careers-job-${width}.png`, fullPage: true })
				expect({
					width,
					summary: await page.locator('p.summary').innerText(),
					axe: await axeProblems(page),
					overflow: await overflowing(page),
					broken: await brokenWords(page),
				}).toEqual({ width, summary, axe: [], overflow: [], broken: [] })
			}
		} finally {
			await context.close()
		}
		const portal = await signedInPage(mail.url, await newPerson(ws, 'owner', {}, deps), 390)
		try {
			await portal.page.goto(`${mail.url}/jobs/${job.id}`)
			expect(await portal.page.locator('p.summary').innerText()).toBe(summary)
		} finally {
			await portal.context.close()
		}
	})
})
