/**
 * Delivery reports on the outbox page: a sent e-mail that a delivery report said did not arrive is
 * "Not delivered" there, with the report's reason (text from outside, escaped), under its own
 * filter and count. The real path: mail sent to a real SMTP server, the report posted to the signed
 * inbound webhook, the real pages. And the rules of `recordBounce` itself.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { callOn, newPerson, newWorkspace, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { deliverDue, enqueueMail, enqueueMessage, forgetRecipient, recordBounce } from './index.ts'
import { outbox } from './table.ts'

setDefaultTimeout(30_000)
const SECRET = 'inbound-mail-provider-secret-bounces-01'
const OURS = 'mx.benchline.test'

let smtp: TestSmtp
let env: Record<string, string>
beforeAll(async () => {
	await testDeps()
	smtp = await startSmtp({ refuse: (a) => a.startsWith('refused') })
	env = { SMTP_URL: smtp.url, INBOUND_MAIL_SECRET: SECRET, INBOUND_MAIL_AUTHSERV_ID: OURS }
})
afterAll(async () => {
	await smtp.stop()
})

const rowOf = async (id: string) => (await (await testDeps()).db.select().from(outbox).where(eq(outbox.id, id)))[0]!

/** E-mails queued with SMTP_URL set and handed to the SMTP server (a `refused…` address fails for good). */
async function sent(ws: TestWorkspace, subjects: string[], prefix = 'to') {
	const deps = await testDeps({ SMTP_URL: smtp.url })
	const out: { id: string; messageId: string; to: string }[] = []
	for (const subject of subjects) {
		const to = `${unique(prefix)}@example.test`
		out.push({ ...(await enqueueMail(deps.db, { workspaceId: ws.id, to, subject, text: `About ${subject}` }, deps)), to })
	}
	await deliverDue(deps, { workspaceId: ws.id })
	return out
}

/** A delivery report from a provider that signs its reports (DKIM), quoting the original's headers. */
const report = (original: string, diagnostic: string) =>
	[
		`Authentication-Results: ${OURS}; dkim=pass header.d=mx.example.org`,
		'From: Mail Delivery System <MAILER-DAEMON@mx.example.org>',
		'To: no-reply@localhost',
		'Subject: Undelivered Mail Returned to Sender',
		`Message-ID: <${unique('dsn')}@mx.example.org>`,
		'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
		'',
		'--B',
		'Content-Type: text/plain',
		'',
		'Your message could not be delivered.',
		'--B',
		'Content-Type: message/delivery-status',
		'',
		'Final-Recipient: rfc822; someone@example.test',
		'Action: failed',
		'Status: 5.1.1',
		`Diagnostic-Code: smtp; ${diagnostic}`,
		'--B',
		'Content-Type: text/rfc822-headers',
		'',
		`Message-ID: ${original}`,
		'--B--',
		'',
	].join('\r\n')

async function inbound(raw: string) {
	const timestamp = Math.floor(Date.now() / 1000)
	const headers = { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp), 'x-inbound-signature': signWebhook(SECRET, timestamp, raw) }
	const res = await callOn((await portalApp(env)).app, 'POST', '/api/inbox/inbound', { raw, headers })
	expect(res.status).toBe(200)
}

describe('the outbox page', () => {
	test('a sent e-mail a delivery report says did not arrive is "Not delivered", with the report’s reason escaped, under its own filter and count', async () => {
		const ws = await newWorkspace()
		const [bounced, delivered] = await sent(ws, ['Offer for the data role', 'Welcome aboard'])
		await inbound(report(bounced!.messageId, `550 5.1.1 <${bounced!.to}>: <b>user unknown</b>`))
		expect(await rowOf(bounced!.id)).toMatchObject({ status: 'sent', bounceReason: `550 5.1.1 <${bounced!.to}>: <b>user unknown</b>` })
		expect((await rowOf(delivered!.id)).bouncedAt).toBeNull()

		const page = await signedIn(await newPerson(ws, 'admin'), { overrides: env })
		// Long tokens get break points (<wbr>) on the page; the words are what is checked here.
		const all = (await page.get('/outbox')).text.replaceAll('<wbr>', '')
		expect(all).toContain('Sent (1)')
		expect(all).toContain('<a href="/outbox?status=bounced">Not delivered (1)</a>')
		const row = all.slice(all.indexOf('Offer for the data role'), all.indexOf('</tr>', all.indexOf('Offer for the data role')))
		expect(row).toContain('Not delivered')
		// The remote server's words, escaped and quoted as the report's.
		expect(row).toContain(`The delivery report says: <q>550 5.1.1 &lt;${bounced!.to}&gt;: &lt;b&gt;user unknown&lt;/b&gt;</q>`)
		expect(all).not.toContain('<b>user unknown</b>')

		const onlyBounced = (await page.get('/outbox?status=bounced')).text
		expect(onlyBounced).toContain('Offer for the data role')
		expect(onlyBounced).not.toContain('Welcome aboard')
		const onlySent = (await page.get('/outbox?status=sent')).text
		expect(onlySent).toContain('Welcome aboard')
		expect(onlySent).not.toContain('Offer for the data role')

		const entry = (await page.get(`/outbox/${bounced!.id}`)).text.replaceAll('<wbr>', '')
		expect(entry).toContain('<dd>Not delivered</dd>')
		expect(entry).toContain('Not delivered: a delivery report came back')
		expect(entry).toContain('&lt;b&gt;user unknown&lt;/b&gt;')
		expect(entry).not.toContain('Try again')
		expect((await page.get(`/outbox/${delivered!.id}`)).text).toContain('<dd>Sent</dd>')
	})
})

describe('recordBounce', () => {
	test('only a sent e-mail bounces, and once: held, waiting and failed mail and text messages are left alone; a later report keeps the first reason', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const [ok] = await sent(ws, ['Sent one'])
		const [refused] = await sent(ws, ['Refused one'], 'refused')
		expect((await rowOf(refused!.id)).status).toBe('failed')
		const held = await enqueueMail(deps.db, { workspaceId: ws.id, to: 'held@example.test', subject: 'Held', text: 'x' }, deps)
		const smtpDeps = await testDeps({ SMTP_URL: smtp.url })
		const waiting = await enqueueMail(smtpDeps.db, { workspaceId: ws.id, to: 'waiting@example.test', subject: 'Waiting', text: 'x' }, smtpDeps)
		const text = await enqueueMessage(deps.db, { workspaceId: ws.id, to: '+15550100', text: 'x', notSent: 'no provider' }, deps)
		const at = new Date()
		const ids = [ok!.id, refused!.id, held.id, waiting.id, text.id]
		// Another workspace's report names nothing of this one.
		expect(await recordBounce(deps.db, { workspaceId: (await newWorkspace()).id, ids, reason: 'elsewhere', at })).toEqual([])
		expect(await recordBounce(deps.db, { workspaceId: ws.id, ids, reason: 'first', at })).toEqual([ok!.id])
		expect(await recordBounce(deps.db, { workspaceId: ws.id, ids, reason: 'second', at: new Date(at.getTime() + 60_000) })).toEqual([])
		expect(await rowOf(ok!.id)).toMatchObject({ bounceReason: 'first', bouncedAt: at })
		for (const id of ids.slice(1)) expect(await rowOf(id)).toMatchObject({ bouncedAt: null, bounceReason: null })
	})

	test('the reason on mail to an erased person loses their address, as the rest of the row does', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const [mail] = await sent(ws, ['To be erased'])
		await recordBounce(deps.db, { workspaceId: ws.id, ids: [mail!.id], reason: `550 5.1.1 <${mail!.to.toUpperCase()}>: no such user`, at: new Date() })
		await deps.db.transaction((tx) =>
			forgetRecipient(tx, {
				workspaceId: ws.id,
				recipientType: 'candidate',
				recipientId: 'cand_gone',
				relatedIds: [],
				needles: [mail!.to],
				ownNeedles: [mail!.to],
			}),
		)
		expect(await rowOf(mail!.id)).toMatchObject({ to: 'Erased candidate', bounceReason: '550 5.1.1 <Erased candidate>: no such user' })
	})
})
