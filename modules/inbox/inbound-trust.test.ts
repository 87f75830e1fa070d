/**
 * What inbound mail may claim (review of inbound mail): the sender is verified by the receiving
 * server's `Authentication-Results` (INBOUND_MAIL_AUTHSERV_ID), mail no person wrote is never a
 * reply, a delivery report marks what did not arrive, a reference we never sent copies nothing,
 * and a message addressed to two workspaces reaches both, each on its own terms. Through the real
 * signed webhook, the MCP tools, the review queue and the pages.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { contributionsTo } from '../../core/registry.ts'
import { callOn, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { closeClients, mcpPerson, type McpPerson } from '../../tests/sdk.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { candidateData } from '../candidates/index.ts'
import { deliverDue, enqueueMail } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { candidateMessages } from './candidate-section.ts'
import { syncOutbox } from './sync.ts'
import { inboxMessages, inboxThreads } from './table.ts'

setDefaultTimeout(30_000)
const SECRET = 'inbound-mail-provider-secret-trust-01'
const OURS = 'mx.benchline.test'
const CHECKED = { INBOUND_MAIL_SECRET: SECRET, INBOUND_MAIL_AUTHSERV_ID: OURS }
const UNCHECKED = { INBOUND_MAIL_SECRET: SECRET }

let ws: TestWorkspace
let owner: McpPerson
let admin: McpPerson
let job: string
let n = 0
let smtp: TestSmtp

beforeAll(async () => {
	smtp = await startSmtp()
	ws = await newWorkspace()
	owner = await mcpPerson(ws, 'owner')
	admin = await mcpPerson(ws, 'admin')
	job = await newVendorJob(ws, { title: 'Data Engineer' })
}, 60_000)
afterAll(async () => {
	await closeClients()
	await smtp.stop()
})

async function inbound(raw: string, env: Record<string, string> = CHECKED) {
	const timestamp = Math.floor(Date.now() / 1000)
	const headers = { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp), 'x-inbound-signature': signWebhook(SECRET, timestamp, raw) }
	return callOn((await portalApp(env)).app, 'POST', '/api/inbox/inbound', { raw, headers })
}

const rfc822 = (h: Record<string, string>, body: string, top: string[] = []) =>
	`${[...top, ...Object.entries(h).map(([k, v]) => `${k}: ${v}`)].join('\r\n')}\r\n\r\n${body}`

/** Our receiving server's results, which it writes at the top of the message. */
const stamped = (results: string) => [`Authentication-Results: ${OURS}; ${results}`]
const dmarcPass = (domain: string) => stamped(`spf=pass smtp.mailfrom=${domain}; dkim=pass header.d=${domain}; dmarc=pass header.from=${domain}`)

/**
 * A candidate of `space` at `email` (a new one by default) with an application, and a mail from us they
 * can answer: held (no SMTP_URL), or with `send` handed to a real SMTP server (only mail that went out can bounce).
 */
async function mailed(space: TestWorkspace, name: string, email = `c${++n}.${space.slug}@example.org`, send = false) {
	const id = await newCandidate(space, { name, email })
	const applicationId = await newApplication(space, id, space === ws ? job : await newVendorJob(space, { title: 'QA Engineer' }))
	const deps = await testDeps(send ? { SMTP_URL: smtp.url } : {})
	const sent = await deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: space.id, to: email, subject: 'Offer', text: 'The offer.' }, deps))
	if (send) expect(await deliverDue(deps, { workspaceId: space.id })).toMatchObject({ sent: 1 })
	await syncOutbox(deps, space.id)
	return { id, email, name, messageId: sent.messageId, outboxId: sent.id, applicationId }
}

/** As `mailed`, the mail handed to a real SMTP server (sent, so a delivery report can say it did not arrive). */
async function mailedAndSent(name: string) {
	const deps = await testDeps({ SMTP_URL: smtp.url })
	const email = `c${++n}.${ws.slug}@example.org`
	const id = await newCandidate(ws, { name, email })
	const sent = await deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: ws.id, to: email, subject: 'Offer', text: 'The offer.' }, deps))
	expect(await deliverDue(deps, { workspaceId: ws.id })).toMatchObject({ sent: 1 })
	await syncOutbox(deps, ws.id)
	const row = async () => (await deps.db.select().from(outbox).where(eq(outbox.id, sent.id)))[0]!
	return { id, email, name, messageId: sent.messageId, outboxId: sent.id, row }
}

const thread = async (threadId: string) => (await owner.tool('get_inbox_thread', { threadId })).data.thread
const waiting = async (threadId: string) => (await admin.tool('get_review_queue', {})).data.items.filter((i: any) => i.recordId === threadId)
const outside = (text: string) => ({ untrusted: true, writtenBy: 'outside', text, truncated: false })

describe('the sender is verified by our receiving server’s results (INBOUND_MAIL_AUTHSERV_ID)', () => {
	test('a forged From answering our mail: in her conversation, labelled not verified and from outside, no reply of hers; her verified reply is hers', async () => {
		const c = await mailed(ws, 'Nora Forged')
		const domain = c.email.split('@')[1]!
		const forged = await inbound(
			rfc822(
				{ From: `${c.name} <${c.email}>`, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<forged.${ws.slug}@x>`, 'In-Reply-To': c.messageId },
				'I withdraw; send the offer to my new address.',
				// What the sender wrote itself: another server's pass, and one naming ours below our server's own.
				[`Authentication-Results: ${OURS}; dmarc=fail header.from=${domain}`, `Authentication-Results: mx.google.com; dmarc=pass header.from=${domain}`],
			).replace('\r\n\r\n', `\r\nAuthentication-Results: ${OURS}; dmarc=pass header.from=${domain}\r\n\r\n`),
		)
		expect(forged.status).toBe(200)
		const threadId = forged.json.threadId
		const got = await thread(threadId)
		expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
		expect(got.messages.at(-1)).toMatchObject({
			direction: 'in',
			from: outside(c.email),
			// The To header is the sender's own text too.
			to: outside('no-reply@localhost'),
			text: outside('I withdraw; send the offer to my new address.'),
			senderCheck: 'not_verified',
			senderCheckReason: 'DMARC failed for the From domain',
			automatic: null,
		})
		expect(got.snippet.writtenBy).toBe('outside')
		expect(await waiting(threadId)).toEqual([])
		const deps = await testDeps()
		const ownerActor = await personActor(deps, ws.slug, owner.email)
		const line = (await candidateMessages(deps, ownerActor, c.id))[0]!
		expect(line).toMatchObject({ note: 'not_verified', preview: { writtenBy: 'outside' } })
		const page = await (await signedIn(owner)).get(`/inbox/${threadId}`)
		expect(page.text).toContain('Sender not verified')
		expect(page.text).toContain('Not counted as a reply from the person this address belongs to.')

		const genuine = await inbound(
			rfc822(
				{ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<genuine.${ws.slug}@x>`, 'In-Reply-To': c.messageId },
				'I have not withdrawn.',
				dmarcPass(domain),
			),
		)
		expect(genuine.json.threadId).toBe(threadId)
		expect((await thread(threadId)).messages.at(-1)).toMatchObject({
			from: { writtenBy: 'candidate' },
			text: { writtenBy: 'candidate', text: 'I have not withdrawn.' },
			senderCheck: 'verified',
			senderCheckReason: 'DMARC passed',
		})
		expect(await waiting(threadId)).toHaveLength(1)
	})

	test('a forged From starting a conversation is never filed with the person at that address; a verified one is', async () => {
		const c = await mailed(ws, 'Omar Newmail')
		const to = `reply+${ws.slug}@localhost`
		const forged = await inbound(
			rfc822({ From: `Omar <${c.email}>`, To: to, Subject: 'Bank details', 'Message-ID': `<fnew.${ws.slug}@x>` }, 'Pay me at this account.'),
		)
		expect(forged.status).toBe(200)
		const other = (await owner.tool('list_inbox_threads', {})).data.threads.find((t: any) => t.id === forged.json.threadId)
		expect(other.counterpart).toEqual({ type: 'other', id: null, name: outside('Omar (sender not verified)'), address: outside(c.email) })
		expect((await thread(forged.json.threadId)).messages[0]).toMatchObject({
			senderCheck: 'not_verified',
			senderCheckReason: 'The receiving server recorded no results for this message',
		})
		const deps = await testDeps()
		const ownerActor = await personActor(deps, ws.slug, owner.email)
		expect((await candidateMessages(deps, ownerActor, c.id)).map((m) => m.preview.text)).not.toContain('Pay me at this account.')

		const verified = await inbound(
			rfc822({ From: c.email, To: to, Subject: 'A question', 'Message-ID': `<vnew.${ws.slug}@x>` }, 'Is it remote?', dmarcPass(c.email.split('@')[1]!)),
		)
		expect((await thread(verified.json.threadId)).counterpart).toMatchObject({ type: 'candidate', id: c.id })
	})

	test('the application page says so too: a forged reply is not "From the candidate", a bounce shows on what we sent', async () => {
		const c = await mailed(ws, 'Lea Application', undefined, true)
		const page = async () => (await (await signedIn(owner)).get(`/applications/${c.applicationId}`)).text
		const entry = (text: string, words: string) => {
			const at = text.indexOf(words)
			expect(at).toBeGreaterThan(0)
			return text.slice(text.lastIndexOf('<li>', at), at)
		}
		const domain = c.email.split('@')[1]!
		const send = (tag: string, text: string, top: string[] = []) =>
			inbound(
				rfc822({ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<${tag}.${ws.slug}@x>`, 'In-Reply-To': c.messageId }, text, top),
			)
		await send('appforged', 'Pay my salary to this new account.')
		await send('appreal', 'Looking forward to it.', dmarcPass(domain))
		await inbound(deliveryReport(c.messageId))
		const text = await page()
		expect(entry(text, 'Pay my salary to this new account.')).not.toContain('From the candidate')
		expect(entry(text, 'Pay my salary to this new account.')).toContain('Sender not verified')
		expect(entry(text, 'Looking forward to it.')).toContain('From the candidate')
		expect(entry(text, 'Your message could not be delivered.')).toContain('Delivery report')
		expect(entry(text, 'The offer.')).toContain('To the candidate')
		expect(entry(text, 'The offer.')).toContain('Not delivered')
		// The assistant reads the same labels on the application's messages (get_application).
		const messages = (await owner.tool('get_application', { applicationId: c.applicationId })).data.application.messages as {
			text: { text: string }
			senderCheck: string | null
			automatic: string | null
			bounced: boolean
		}[]
		const said = (words: string) => messages.find((m) => m.text.text.includes(words))!
		expect(said('Pay my salary to this new account.')).toMatchObject({ senderCheck: 'not_verified', automatic: null, bounced: false })
		expect(said('Looking forward to it.')).toMatchObject({ senderCheck: 'verified', automatic: null })
		expect(said('Your message could not be delivered.')).toMatchObject({ automatic: 'delivery_report' })
		expect(said('The offer.')).toMatchObject({ senderCheck: null, automatic: null, bounced: true })
	})

	test('INBOUND_MAIL_AUTHSERV_ID unset: filed by its From as today, but labelled "not checked" (tools and page)', async () => {
		const c = await mailed(ws, 'Pia Unchecked')
		const res = await inbound(
			rfc822({ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<unchecked.${ws.slug}@x>`, 'In-Reply-To': c.messageId }, 'Yes.'),
			UNCHECKED,
		)
		const last = (await thread(res.json.threadId)).messages.at(-1)
		expect(last).toMatchObject({ from: { writtenBy: 'candidate' }, senderCheck: 'not_checked' })
		expect(last.senderCheckReason).toContain('INBOUND_MAIL_AUTHSERV_ID')
		expect(await waiting(res.json.threadId)).toHaveLength(1)
		expect((await (await signedIn(owner)).get(`/inbox/${res.json.threadId}`)).text).toContain('Sender not checked')
	})
})

/**
 * A delivery report as Postfix writes one, quoting the headers of the message that did not arrive;
 * by default from a provider that signs its reports (DKIM), so our server verifies its sender.
 */
const deliveryReport = (original: string, action = 'failed', results: string[] = stamped('dkim=pass header.d=mx.example.org')) =>
	[
		...results,
		'From: Mail Delivery System <MAILER-DAEMON@mx.example.org>',
		'To: no-reply@localhost',
		'Subject: Undelivered Mail Returned to Sender',
		`Message-ID: <dsn.${original.slice(1, -1).replace('@', '.')}.${action}@mx.example.org>`,
		'Auto-Submitted: auto-replied',
		'MIME-Version: 1.0',
		'Content-Type: multipart/report; report-type=delivery-status; boundary="B1"',
		'',
		'--B1',
		'Content-Type: text/plain',
		'',
		'Your message could not be delivered.',
		'--B1',
		'Content-Type: message/delivery-status',
		'',
		'Reporting-MTA: dns; mx.example.org',
		'',
		'Final-Recipient: rfc822; someone@example.org',
		`Action: ${action}`,
		'Status: 5.1.1',
		'Diagnostic-Code: smtp; 550 5.1.1 user unknown',
		'--B1',
		'Content-Type: text/rfc822-headers',
		'',
		'From: Benchline <no-reply@localhost>',
		`Message-ID: ${original}`,
		'Subject: Offer',
		'--B1--',
		'',
	].join('\r\n')

describe('mail no person wrote is filed, labelled, and never a reply', () => {
	test('an out-of-office answer from her own (verified) address: in her conversation, automatic, no reply of hers waiting', async () => {
		const c = await mailed(ws, 'Rhea Away')
		const headers = { From: c.email, To: 'no-reply@localhost', Subject: 'Out of office', 'In-Reply-To': c.messageId }
		const forms: Record<string, string>[] = [
			{ 'Auto-Submitted': 'auto-replied' },
			{ Precedence: 'bulk' },
			{ 'X-Autoreply': 'yes' },
			{ 'X-Autorespond': 'Away' },
			{ Precedence: 'auto_reply' },
		]
		let threadId = ''
		for (const [i, extra] of forms.entries()) {
			const res = await inbound(
				rfc822({ ...headers, ...extra, 'Message-ID': `<ooo${i}.${ws.slug}@x>` }, 'I am away until Monday.', dmarcPass(c.email.split('@')[1]!)),
			)
			expect(res.json.status).toBe('accepted')
			threadId = res.json.threadId
		}
		const got = await thread(threadId)
		expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
		const received = got.messages.filter((m: any) => m.direction === 'in')
		expect(received).toHaveLength(forms.length)
		for (const m of received) expect(m).toMatchObject({ automatic: 'automatic', senderCheck: 'verified', text: { text: 'I am away until Monday.' } })
		expect(await waiting(threadId)).toEqual([])
		// Still news for whoever has not read it.
		expect((await admin.tool('list_inbox_threads', { filter: 'unread' })).data.threads.map((t: any) => t.id)).toContain(threadId)
		expect((await (await signedIn(owner)).get(`/inbox/${threadId}`)).text).toContain('Automatic reply')
	})

	test('a bounce: filed in the conversation as a delivery report, and the message it quotes shows it did not arrive; one about mail that never went out marks nothing', async () => {
		const held = await mailed(ws, 'Hal Held')
		const heldReport = await inbound(deliveryReport(held.messageId))
		expect(heldReport.json.status).toBe('accepted')
		const heldThread = await thread(heldReport.json.threadId)
		expect(heldThread.messages.at(-1)).toMatchObject({ direction: 'in', automatic: 'delivery_report' })
		expect(heldThread.messages.find((m: any) => m.direction === 'out').delivery).toBe('pending')

		const c = await mailed(ws, 'Sol Bounced', undefined, true)
		const res = await inbound(deliveryReport(c.messageId))
		expect(res.json.status).toBe('accepted')
		const got = await thread(res.json.threadId)
		expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
		const ours = got.messages.find((m: any) => m.direction === 'out')
		expect(ours.delivery).toBe('bounced')
		expect(got.messages.at(-1)).toMatchObject({ direction: 'in', automatic: 'delivery_report', from: { writtenBy: 'outside' } })
		expect(await waiting(res.json.threadId)).toEqual([])
		const page = await (await signedIn(owner)).get(`/inbox/${res.json.threadId}`)
		expect(page.text).toContain('Delivery report')
		expect(page.text).toContain('Not delivered: a delivery report came back')
		const deps = await testDeps()
		const ownerActor = await personActor(deps, ws.slug, owner.email)
		const lines = await candidateMessages(deps, ownerActor, c.id)
		expect(lines.find((m) => m.direction === 'out')).toMatchObject({ bounced: true })
		expect(lines.find((m) => m.direction === 'in')).toMatchObject({ note: 'delivery_report' })
	})

	test('a reply of hers forwarding a bounce (a message/rfc822 part) is still her reply, and marks nothing bounced', async () => {
		const c = await mailed(ws, 'Ines Forwards')
		const bounce = deliveryReport(c.messageId).replace(/^Authentication-Results:[^\r]*\r\n/, '')
		const raw = [
			...dmarcPass(c.email.split('@')[1]!),
			`From: Ines <${c.email}>`,
			'To: no-reply@localhost',
			'Subject: Re: Offer',
			`Message-ID: <fwdbounce.${ws.slug}@x>`,
			`In-Reply-To: ${c.messageId}`,
			'MIME-Version: 1.0',
			'Content-Type: multipart/mixed; boundary="M"',
			'',
			'--M',
			'Content-Type: text/plain',
			'',
			'I accept the offer. Your copy to my old address bounced, here is what came back.',
			'--M',
			'Content-Type: message/rfc822',
			'',
			bounce,
			'--M--',
			'',
		].join('\r\n')
		const res = await inbound(raw)
		const got = await thread(res.json.threadId)
		expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
		expect(got.messages.find((m: any) => m.direction === 'out').delivery).not.toBe('bounced')
		expect(got.messages.at(-1)).toMatchObject({ direction: 'in', automatic: null, senderCheck: 'verified', from: { writtenBy: 'candidate' } })
		expect(await waiting(res.json.threadId)).toHaveLength(1)
	})

	test('a report that delivery is only delayed marks nothing', async () => {
		const c = await mailed(ws, 'Tao Delayed')
		const res = await inbound(deliveryReport(c.messageId, 'delayed'))
		const got = await thread(res.json.threadId)
		expect(got.messages.find((m: any) => m.direction === 'out').delivery).not.toBe('bounced')
		expect(got.messages.at(-1).automatic).toBe('delivery_report')
	})

	test('a report from a sender that is not verified is filed as a delivery report, labelled so, and marks nothing (conversation, outbox); a verified one does', async () => {
		const c = await mailedAndSent('Vic Unverified')
		let threadId = ''
		// Only an SPF pass for another host's name (no DMARC, no DKIM, nothing for the From's domain), then no results at all.
		for (const results of [stamped('spf=pass smtp.helo=relay.elsewhere.example'), []]) {
			const res = await inbound(deliveryReport(c.messageId, 'failed', results).replace('<dsn.', `<dsn${results.length}.`))
			expect(res.json.status).toBe('accepted')
			threadId = res.json.threadId
			const got = await thread(threadId)
			expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
			expect(got.messages.at(-1)).toMatchObject({ direction: 'in', automatic: 'delivery_report', senderCheck: 'not_verified' })
			expect(got.messages.find((m: any) => m.direction === 'out').delivery).toBe('sent')
			expect(await c.row()).toMatchObject({ status: 'sent', bouncedAt: null, bounceReason: null })
		}
		const page = (await (await signedIn(owner)).get(`/inbox/${threadId}`)).text
		expect(page).toContain('Sender not verified')
		expect(page).toContain('Delivery report')
		expect(page).toContain('So it is not believed: no message it reports on is marked as not delivered.')
		expect(page).not.toContain('Not delivered: a delivery report came back')
		expect((await (await signedIn(owner)).get('/outbox?status=bounced')).text).not.toContain(c.email)

		const verified = await inbound(deliveryReport(c.messageId))
		expect((await thread(verified.json.threadId)).messages.find((m: any) => m.direction === 'out').delivery).toBe('bounced')
		expect(await c.row()).toMatchObject({ status: 'sent', bounceReason: '550 5.1.1 user unknown' })
	})

	test('senders not checked (INBOUND_MAIL_AUTHSERV_ID unset): a report marks what it reports on as before, labelled "not checked"', async () => {
		const c = await mailedAndSent('Ugo Unchecked')
		const res = await inbound(deliveryReport(c.messageId, 'failed', []), UNCHECKED)
		const got = await thread(res.json.threadId)
		expect(got.messages.at(-1)).toMatchObject({ direction: 'in', automatic: 'delivery_report', senderCheck: 'not_checked' })
		expect(got.messages.find((m: any) => m.direction === 'out').delivery).toBe('bounced')
		expect((await c.row()).bounceReason).toBe('550 5.1.1 user unknown')
		expect((await (await signedIn(owner)).get(`/inbox/${res.json.threadId}`)).text).toContain('Sender not checked')
	})

	test('an automatic mail answering nothing starts no conversation with the person at its From', async () => {
		const c = await mailed(ws, 'Uma Autosend')
		const res = await inbound(
			rfc822(
				{ From: c.email, To: `reply+${ws.slug}@localhost`, Subject: 'Auto: received', 'Auto-Submitted': 'auto-generated', 'Message-ID': `<auto.${ws.slug}@x>` },
				'We received your mail.',
				dmarcPass(c.email.split('@')[1]!),
			),
		)
		const got = await thread(res.json.threadId)
		expect(got.counterpart).toMatchObject({ type: 'other', id: null, name: outside(`${c.email} (automatic mail)`) })
	})
})

describe('a reference to a message we never sent copies nothing', () => {
	test('junk References and In-Reply-To copy no workspace’s outbox; one of our ids copies only its own workspace’s', async () => {
		const deps = await testDeps()
		const elsewhere = await newWorkspace()
		const unsent = await deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: elsewhere.id, to: 'x@example.org', subject: 'Hi', text: 'Hi' }, deps))
		const copied = async (outboxId: string) => (await deps.db.select().from(inboxMessages).where(eq(inboxMessages.outboxId, outboxId))).length
		const junk = Array.from({ length: 50 }, (_, i) => `<junk${i}.${ws.slug}@stranger.example>`).join(' ')
		const stray = await inbound(
			rfc822(
				{
					From: 'stranger@stranger.example',
					To: `reply+${ws.slug}@localhost`,
					Subject: 'Re: nothing',
					'Message-ID': `<junkrefs.${ws.slug}@x>`,
					'In-Reply-To': '<out_aaaaaaaaaaaaaaaaaaaa@localhost>',
					References: junk,
				},
				'Hello',
			),
		)
		expect(stray.json.status).toBe('accepted')
		expect(await copied(unsent.id)).toBe(0)

		// A reply to a mail of a third workspace that the inbox has not copied yet: that workspace is copied, the other is not.
		const third = await newWorkspace()
		const cid = await newCandidate(third, { name: 'Vic Quick', email: `vic.${third.slug}@example.org` })
		const quick = await deps.db.transaction((tx) =>
			enqueueMail(
				tx,
				{ workspaceId: third.id, to: `vic.${third.slug}@example.org`, subject: 'Quick', text: 'Quick', recipient: { type: 'candidate', id: cid } },
				deps,
			),
		)
		const reply = await inbound(
			rfc822(
				{
					From: `vic.${third.slug}@example.org`,
					To: 'no-reply@localhost',
					Subject: 'Re: Quick',
					'Message-ID': `<quick.${third.slug}@x>`,
					'In-Reply-To': quick.messageId,
				},
				'Got it.',
				dmarcPass('example.org'),
			),
		)
		expect(reply.json.status).toBe('accepted')
		expect(await copied(quick.id)).toBe(1)
		expect(await copied(unsent.id)).toBe(0)
		const [filed] = await deps.db.select().from(inboxThreads).where(eq(inboxThreads.id, reply.json.threadId))
		expect(filed).toMatchObject({ workspaceId: third.id, candidateId: cid })
	})
})

describe('one of our Message-IDs is only ever what we sent', () => {
	test('a message that gave itself the id of our mail (its recipient knows it) draws no answer to our mail into its workspace', async () => {
		const deps = await testDeps()
		const planted = async (messageId: string) => {
			const theirs = await newWorkspace()
			const res = await inbound(
				rfc822(
					{ From: 'spy@stranger.example', To: `reply+${theirs.slug}@localhost`, Subject: 'Notes', 'Message-ID': messageId },
					'Kept here.',
					dmarcPass('stranger.example'),
				),
			)
			expect(res.json.status).toBe('accepted')
			return theirs
		}
		const answer = async (c: { email: string; messageId: string }, tag: string) => {
			const res = await inbound(
				rfc822(
					{ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<${tag}.${ws.slug}@x>`, 'In-Reply-To': c.messageId },
					'My current salary is in the attachment.',
					dmarcPass(c.email.split('@')[1]!),
				),
			)
			expect(res.status).toBe(200)
			const copies = await deps.db
				.select()
				.from(inboxMessages)
				.where(eq(inboxMessages.messageId, `<${tag}.${ws.slug}@x>`))
			return { res, workspaces: copies.map((m) => m.workspaceId) }
		}

		// Planted after our copy is in the inbox: the answer was filed in both.
		const c = await mailed(ws, 'Jae Planted')
		await planted(c.messageId)
		const after = await answer(c, 'ans-after')
		expect(after.workspaces).toEqual([ws.id])
		expect(after.res.json.copies).toHaveLength(1)
		const [filed] = await deps.db.select().from(inboxThreads).where(eq(inboxThreads.id, after.res.json.threadId))
		expect(filed).toMatchObject({ workspaceId: ws.id, candidateId: c.id })

		// Planted before our copy is in the inbox: the answer was filed there (and ours not copied on time).
		const email = `kai.${ws.slug}@example.org`
		const id = await newCandidate(ws, { name: 'Kai Early', email })
		const sent = await deps.db.transaction((tx) =>
			enqueueMail(tx, { workspaceId: ws.id, to: email, subject: 'Offer', text: 'The offer.', recipient: { type: 'candidate', id } }, deps),
		)
		const early = await planted(sent.messageId)
		const before = await answer({ email, messageId: sent.messageId }, 'ans-before')
		expect(before.workspaces).toEqual([ws.id])
		expect(before.workspaces).not.toContain(early.id)
		const [ours] = await deps.db.select().from(inboxThreads).where(eq(inboxThreads.id, before.res.json.threadId))
		expect(ours).toMatchObject({ workspaceId: ws.id, candidateId: id })
	})
})

describe('a message addressed to several workspaces', () => {
	test('each workspace it names gets its own copy, with its own candidate; a repeat is a duplicate in each; a name that is no workspace is ignored', async () => {
		const other = await newWorkspace()
		const email = `shared.${ws.slug}@example.org`
		const here = await newCandidate(ws, { name: 'Wen Both', email })
		const there = await newCandidate(other, { name: 'Wen Both', email })
		const raw = rfc822(
			{
				From: `Wen <${email}>`,
				To: `jobs+${ws.slug}@localhost, jobs+no-such-workspace-zz@localhost`,
				Cc: `jobs+${other.slug}@localhost`,
				Subject: 'Open to new roles',
				'Message-ID': `<both.${ws.slug}@x>`,
			},
			'I am looking for a data role.',
			dmarcPass('example.org'),
		)
		const first = await inbound(raw)
		expect(first.json.status).toBe('accepted')
		expect(first.json.copies).toHaveLength(2)
		expect(first.json.copies.every((c: any) => c.status === 'accepted')).toBe(true)
		expect(first.json.threadId).toBe(first.json.copies[0].threadId)
		const deps = await testDeps()
		const threads = await deps.db
			.select()
			.from(inboxThreads)
			.where(
				inArray(
					inboxThreads.id,
					first.json.copies.map((c: any) => c.threadId),
				),
			)
		expect(threads.map((t) => [t.workspaceId, t.candidateId]).sort()).toEqual(
			[
				[other.id, there],
				[ws.id, here],
			].sort(),
		)
		const again = await inbound(raw)
		expect(again.json).toEqual({ ...first.json, status: 'duplicate', copies: first.json.copies.map((c: any) => ({ ...c, status: 'duplicate' })) })
		const messages = await deps.db
			.select()
			.from(inboxMessages)
			.where(eq(inboxMessages.messageId, `<both.${ws.slug}@x>`))
		expect(messages.map((m) => m.workspaceId).sort()).toEqual([other.id, ws.id].sort())
	})

	test('a reply to one workspace’s mail that copies another: in the conversation it answers, and a new one in the other', async () => {
		const c = await mailed(ws, 'Xia Cc')
		const other = await newWorkspace()
		const res = await inbound(
			rfc822(
				{
					From: c.email,
					To: 'no-reply@localhost',
					Cc: `reply+${other.slug}@localhost, reply+${ws.slug}@localhost`,
					Subject: 'Re: Offer',
					'Message-ID': `<cc.${ws.slug}@x>`,
					'In-Reply-To': c.messageId,
				},
				'Copying my other agency.',
				dmarcPass(c.email.split('@')[1]!),
			),
		)
		expect(res.json.copies).toHaveLength(2)
		const deps = await testDeps()
		const [answered] = await deps.db.select().from(inboxThreads).where(eq(inboxThreads.id, res.json.copies[0].threadId))
		expect(answered).toMatchObject({ workspaceId: ws.id, candidateId: c.id })
		const [copy] = await deps.db.select().from(inboxThreads).where(eq(inboxThreads.id, res.json.copies[1].threadId))
		// The other workspace knows no one at that address: a conversation with the address, nobody else's.
		expect(copy).toMatchObject({ workspaceId: other.id, candidateId: null, counterpartType: 'other' })
		const bounced = await deps.db
			.select()
			.from(inboxMessages)
			.where(and(eq(inboxMessages.workspaceId, other.id), isNotNull(inboxMessages.bouncedAt)))
		expect(bounced).toEqual([])
	})
})

describe('what counts as a candidate’s activity for the retention rule (activeSince)', () => {
	/** The inbox's answer for these candidates since an hour ago, after everything before (our mail included) was made old. */
	async function activeNow(ids: string[]) {
		const deps = await testDeps()
		await deps.db
			.update(inboxMessages)
			.set({ at: new Date(Date.now() - 3 * 365 * 86_400_000) })
			.where(
				inArray(
					inboxMessages.threadId,
					(await deps.db.select({ id: inboxThreads.id }).from(inboxThreads).where(inArray(inboxThreads.candidateId, ids))).map((t) => t.id),
				),
			)
		return async () => {
			const source = contributionsTo(deps.registry, candidateData).find((s) => s.key === 'messages')!
			return [...(await source.activeSince!(deps, ws.id, ids, new Date(Date.now() - 3_600_000)))].sort()
		}
	}

	test('with senders checked: her verified reply counts; her auto-reply, a delivery report and a reply in her name that is not verified do not', async () => {
		const [real, away, bounced, forged] = await Promise.all(['Ada Real', 'Ben Away', 'Cy Bounced', 'Di Forged'].map((name) => mailed(ws, name)))
		const active = await activeNow([real, away, bounced, forged].map((c) => c.id))
		expect(await active()).toEqual([])
		const reply = (c: Awaited<ReturnType<typeof mailed>>, tag: string, extra: Record<string, string>, top: string[]) =>
			inbound(
				rfc822(
					{ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<${tag}.${c.id}@x>`, 'In-Reply-To': c.messageId, ...extra },
					'Hello.',
					top,
				),
			)
		await reply(away, 'away', { 'Auto-Submitted': 'auto-replied' }, dmarcPass(away.email.split('@')[1]!))
		await inbound(deliveryReport(bounced.messageId))
		await reply(forged, 'forged', {}, [])
		expect(await active()).toEqual([])
		await reply(real, 'real', {}, dmarcPass(real.email.split('@')[1]!))
		expect(await active()).toEqual([real.id])
	})

	test('with senders not checked: her reply counts, her auto-reply and a delivery report do not; mail we send her counts as before', async () => {
		const [plain, away, bounced, written] = await Promise.all(['Eve Plain', 'Fox Away', 'Gus Bounced', 'Hal Written'].map((name) => mailed(ws, name)))
		const active = await activeNow([plain, away, bounced, written].map((c) => c.id))
		const reply = (c: Awaited<ReturnType<typeof mailed>>, tag: string, extra: Record<string, string>) =>
			inbound(
				rfc822(
					{ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<${tag}.${c.id}@x>`, 'In-Reply-To': c.messageId, ...extra },
					'Hello.',
				),
				UNCHECKED,
			)
		await reply(away, 'away', { Precedence: 'bulk' })
		await inbound(deliveryReport(bounced.messageId, 'failed', []), UNCHECKED)
		expect(await active()).toEqual([])
		await reply(plain, 'plain', {})
		const deps = await testDeps()
		await deps.db.transaction((tx) =>
			enqueueMail(
				tx,
				{ workspaceId: ws.id, to: written.email, subject: 'Checking in', text: 'Still looking?', recipient: { type: 'candidate', id: written.id } },
				deps,
			),
		)
		await syncOutbox(deps, ws.id)
		expect(await active()).toEqual([plain.id, written.id].sort())
	})
})
