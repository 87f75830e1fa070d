/**
 * The outbox page with a message a delivery report said did not arrive ("Not delivered", the
 * report's reason beside it), in headless Chromium at a phone's and a desktop's width: the label,
 * the filter and the reason readable, nothing cut off, no serious axe-core finding. Screenshots go
 * to .tmp/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing, signedInPage } from '../../tests/browser.ts'
import { newPerson, newWorkspace, serveAppWith } from '../../tests/helpers.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { deliverDue, enqueueMail } from './index.ts'

setDefaultTimeout(60_000)
const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
const SECRET = 'inbound-mail-provider-secret-outbox-01'
const OURS = 'mx.benchline.test'
const REASON = '550 5.1.1 <priya.raman.longaddress@mail.example-staffing-partner.com>: Recipient address rejected: User unknown in virtual mailbox table'

let smtp: TestSmtp
let url: string
let person: { email: string; password: string }
let bouncedId: string

beforeAll(async () => {
	mkdirSync(SHOTS, { recursive: true })
	smtp = await startSmtp({ refuse: (a) => a.startsWith('refused') })
	const served = await serveAppWith({ SMTP_URL: smtp.url, INBOUND_MAIL_SECRET: SECRET, INBOUND_MAIL_AUTHSERV_ID: OURS })
	url = served.url
	const deps = served.deps
	const ws = await newWorkspace(deps)
	person = await newPerson(ws, 'admin', {}, deps)
	const mail = (to: string, subject: string) => deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: ws.id, to, subject, text: 'Hello.' }, deps))
	const bounced = await mail('priya.raman.longaddress@mail.example-staffing-partner.com', 'Your interview on Tuesday')
	await mail('sam@example.test', 'Welcome to the bench')
	await mail('refused@example.test', 'Documents needed')
	await deliverDue(deps, { workspaceId: ws.id })
	bouncedId = bounced.id
	const raw = [
		`Authentication-Results: ${OURS}; dkim=pass header.d=mail.example-staffing-partner.com`,
		'From: Mail Delivery System <MAILER-DAEMON@mail.example-staffing-partner.com>',
		'To: no-reply@localhost',
		'Subject: Undelivered Mail Returned to Sender',
		'Message-ID: <dsn.outbox.browser@mail.example-staffing-partner.com>',
		'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
		'',
		'--B',
		'Content-Type: message/delivery-status',
		'',
		'Final-Recipient: rfc822; priya.raman.longaddress@mail.example-staffing-partner.com',
		'Action: failed',
		'Status: 5.1.1',
		`Diagnostic-Code: smtp; ${REASON}`,
		'--B',
		'Content-Type: text/rfc822-headers',
		'',
		`Message-ID: ${bounced.messageId}`,
		'--B--',
		'',
	].join('\r\n')
	const timestamp = Math.floor(Date.now() / 1000)
	const res = await fetch(`${url}/api/inbox/inbound`, {
		method: 'POST',
		body: raw,
		headers: { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp), 'x-inbound-signature': signWebhook(SECRET, timestamp, raw) },
	})
	expect(res.status).toBe(200)
	await launchBrowser()
}, 120_000)
afterAll(async () => {
	await closeBrowser()
	await smtp.stop()
})

for (const width of [390, 1280] as const)
	describe(`at ${width} px`, () => {
		test('the outbox says which message did not arrive and why, and filters by it', async () => {
			const { context, page } = await signedInPage(url, person, width)
			try {
				await page.goto(`${url}/outbox`)
				const main = page.locator('main')
				expect(await main.getByRole('link', { name: 'Not delivered (1)' }).count()).toBe(1)
				expect(await main.getByRole('link', { name: 'Sent (1)' }).count()).toBe(1)
				const row = main.locator('tr', { hasText: 'Your interview on Tuesday' })
				expect(await row.getByText('Not delivered', { exact: true }).count()).toBe(1)
				expect(await row.locator('q').textContent()).toBe(REASON)
				await page.screenshot({ path: `${SHOTS}/outbox-not-delivered-${width}.png`, fullPage: true })
				expect(await overflowing(page)).toEqual([])
				expect(await axeProblems(page)).toEqual([])

				await main.getByRole('link', { name: 'Not delivered (1)' }).click()
				await page.waitForURL(/status=bounced/)
				expect(await main.locator('tbody tr').count()).toBe(1)
				await main.getByRole('link', { name: 'Your interview on Tuesday' }).click()
				await page.waitForURL(new RegExp(`/outbox/${bouncedId}$`))
				expect(await main.getByText('Not delivered: a delivery report came back', { exact: false }).count()).toBe(1)
				await page.screenshot({ path: `${SHOTS}/outbox-entry-not-delivered-${width}.png`, fullPage: true })
				expect(await overflowing(page)).toEqual([])
				expect(await axeProblems(page)).toEqual([])
			} finally {
				await context.close()
			}
		})
	})
