/**
 * The labels a conversation shows for mail that is not what it claims (sender not verified, an
 * automatic reply, a delivery report, a message that did not arrive), and the candidate page's
 * messages, in headless Chromium at a phone's and a desktop's width: readable, nothing cut off,
 * no serious axe-core finding. Screenshots go to .tmp/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing, signedInPage } from '../../tests/browser.ts'
import { newPerson, newWorkspace, serveAppWith } from '../../tests/helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { deliverDue, enqueueMail } from '../outbox/index.ts'
import { syncOutbox } from './sync.ts'

setDefaultTimeout(60_000)
const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
const SECRET = 'inbound-mail-provider-secret-labels-01'
const OURS = 'mx.benchline.test'

let url: string
let person: { email: string; password: string }
let threadId: string
let candidateId: string
let smtp: TestSmtp

async function post(raw: string) {
	const timestamp = Math.floor(Date.now() / 1000)
	const res = await fetch(`${url}/api/inbox/inbound`, {
		method: 'POST',
		body: raw,
		headers: { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp), 'x-inbound-signature': signWebhook(SECRET, timestamp, raw) },
	})
	expect(res.status).toBe(200)
	return (await res.json()) as { threadId: string }
}

beforeAll(async () => {
	mkdirSync(SHOTS, { recursive: true })
	// Our mail goes out through a real SMTP server: only mail that went out can be reported as not delivered.
	smtp = await startSmtp()
	const served = await serveAppWith({ INBOUND_MAIL_SECRET: SECRET, INBOUND_MAIL_AUTHSERV_ID: OURS, SMTP_URL: smtp.url })
	url = served.url
	const deps = served.deps
	const ws = await newWorkspace(deps)
	person = await newPerson(ws, 'recruiter', {}, deps)
	const email = `lena.${ws.slug}@example.org`
	candidateId = await newCandidate(ws, { name: 'Lena Okafor', email }, deps)
	await newApplication(ws, candidateId, await newVendorJob(ws, { title: 'Cloud Engineer' }, deps), {}, deps)
	const sent = await deps.db.transaction((tx) =>
		enqueueMail(
			tx,
			{ workspaceId: ws.id, to: email, subject: 'Your interview', text: 'Could you do Tuesday?', recipient: { type: 'candidate', id: candidateId } },
			deps,
		),
	)
	expect(await deliverDue(deps, { workspaceId: ws.id })).toMatchObject({ sent: 1 })
	await syncOutbox(deps, ws.id)
	const head = (extra: string[]) =>
		[...extra, `From: Lena Okafor <${email}>`, 'To: no-reply@localhost', 'Subject: Re: Your interview', `In-Reply-To: ${sent.messageId}`].join('\r\n')
	const forged = await post(`${head([`Message-ID: <forged.${ws.slug}@x>`])}\r\n\r\nPlease send the offer to lena.new@elsewhere.example instead.`)
	await post(
		`${head([`Authentication-Results: ${OURS}; dmarc=pass header.from=example.org`, `Message-ID: <ooo.${ws.slug}@x>`, 'Auto-Submitted: auto-replied'])}\r\n\r\nI am out of the office until Monday.`,
	)
	await post(
		[
			// Signed by its provider (DKIM): a verified sender, so it marks what it reports on.
			`Authentication-Results: ${OURS}; dkim=pass header.d=mx.example.org`,
			'From: MAILER-DAEMON@mx.example.org',
			'To: no-reply@localhost',
			'Subject: Undelivered Mail Returned to Sender',
			`Message-ID: <dsn.${ws.slug}@x>`,
			'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
			'',
			'--B',
			'Content-Type: text/plain',
			'',
			'The mailbox is full.',
			'--B',
			'Content-Type: message/delivery-status',
			'',
			'Final-Recipient: rfc822; lena@example.org',
			'Action: failed',
			'Status: 5.2.2',
			'--B',
			'Content-Type: text/rfc822-headers',
			'',
			`Message-ID: ${sent.messageId}`,
			'--B--',
			'',
		].join('\r\n'),
	)
	threadId = forged.threadId
	await launchBrowser()
}, 120_000)
afterAll(async () => {
	await closeBrowser()
	await smtp.stop()
})

for (const width of [390, 1280] as const)
	describe(`at ${width} px`, () => {
		test('the conversation labels each message for what it is', async () => {
			const { context, page } = await signedInPage(url, person, width)
			try {
				await page.goto(`${url}/inbox/${threadId}`)
				const main = page.locator('main')
				for (const label of ['Sender not verified', 'Automatic reply', 'Delivery report', 'Not delivered: a delivery report came back'])
					expect(await main.getByText(label, { exact: true }).count()).toBeGreaterThan(0)
				await page.screenshot({ path: `${SHOTS}/inbox-thread-labels-${width}.png`, fullPage: true })
				expect(await overflowing(page)).toEqual([])
				expect(await axeProblems(page)).toEqual([])
			} finally {
				await context.close()
			}
		})

		test('the candidate page’s messages say which are no reply of hers', async () => {
			const { context, page } = await signedInPage(url, person, width)
			try {
				await page.goto(`${url}/candidates/${candidateId}`)
				const section = page.locator('#messages')
				for (const label of ['Sender not verified', 'Automatic reply', 'Delivery report', 'Not delivered'])
					expect(await section.getByText(label, { exact: true }).count()).toBeGreaterThan(0)
				await section.screenshot({ path: `${SHOTS}/candidate-messages-labels-${width}.png` })
				// Nothing wider than the screen: the preview of what we sent ends with a long careers address,
				// which once widened the phone's card table past the screen (it now wraps at its / and .).
				// Each label fits on a line.
				expect(await overflowing(page)).toEqual([])
				for (const box of await section.locator('.tag').evaluateAll((tags) => tags.map((t) => t.getBoundingClientRect().width)))
					expect(box).toBeLessThan(width / 2)
				expect(await axeProblems(page)).toEqual([])
			} finally {
				await context.close()
			}
		})
	})
