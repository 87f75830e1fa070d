/**
 * What a received message's content may be, through the real signed webhook: a large or hostile
 * HTML body is read as text without holding the server.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { callOn, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp } from '../../tests/portal.ts'
import { closeClients } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { enqueueMail } from '../outbox/index.ts'
import { cutHtml, roughText } from './html-text.ts'
import { syncOutbox } from './sync.ts'
import { inboxMessages } from './table.ts'

setDefaultTimeout(60_000)
const SECRET = 'inbound-mail-provider-secret-content-01'

let ws: TestWorkspace
let job: string
let n = 0

beforeAll(async () => {
	ws = await newWorkspace()
	job = await newVendorJob(ws, { title: 'Data Engineer' })
}, 180_000)
afterAll(closeClients)

/** Posts a raw message through the signed webhook. (How long the event loop waits meanwhile is a benchmark's question, not a test's.) */
async function inbound(raw: string) {
	const timestamp = Math.floor(Date.now() / 1000)
	const headers = { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp), 'x-inbound-signature': signWebhook(SECRET, timestamp, raw) }
	const { app } = await portalApp({ INBOUND_MAIL_SECRET: SECRET })
	return callOn(app, 'POST', '/api/inbox/inbound', { raw, headers })
}

/** A candidate with a mail from us they can answer, copied into the inbox. */
async function mailed() {
	const email = `c${++n}.${ws.slug}@example.org`
	const id = await newCandidate(ws, { name: `Casey ${n}`, email })
	await newApplication(ws, id, job)
	const deps = await testDeps()
	const sent = await deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: ws.id, to: email, subject: 'Offer', text: 'The offer.' }, deps))
	await syncOutbox(deps, ws.id)
	return { email, messageId: sent.messageId }
}

const rfc822 = (h: Record<string, string>, body: string) =>
	`${Object.entries(h)
		.map(([k, v]) => `${k}: ${v}`)
		.join('\r\n')}\r\n\r\n${body}`

async function stored(messageId: string) {
	const deps = await testDeps()
	const [row] = await deps.db
		.select()
		.from(inboxMessages)
		.where(and(eq(inboxMessages.workspaceId, ws.id), eq(inboxMessages.messageId, messageId)))
	return row
}

describe('HTML bodies', () => {
	test('an 8.8 MB HTML reply is filed, its words kept', async () => {
		const them = await mailed()
		const html = `<html><body><p>Yes, Thursday &amp; Friday work for me.</p>${'<p>Lorem ipsum dolor sit amet, <b>consectetur</b> adipiscing elit.</p>\n'.repeat(130_000)}</body></html>`
		expect(html.length).toBeGreaterThan(8_500_000)
		const answer = await inbound(
			rfc822(
				{
					From: them.email,
					To: 'jobs@example.test',
					Subject: 'Re: Offer',
					'Message-ID': `<html-9mb-${n}@example.org>`,
					'In-Reply-To': them.messageId,
					'Content-Type': 'text/html',
				},
				html,
			),
		)
		expect(answer.status).toBe(200)
		const row = await stored(`<html-9mb-${n}@example.org>`)
		expect(row!.text).toStartWith('Yes, Thursday & Friday work for me.')
		expect(row!.text.length).toBeLessThanOrEqual(100_000)
	})

	test('1 MB of unclosed tags is filed too, its words kept', async () => {
		const them = await mailed()
		const answer = await inbound(
			rfc822(
				{
					From: them.email,
					To: 'jobs@example.test',
					Subject: 'Re: Offer',
					'Message-ID': `<divs-${n}@example.org>`,
					'In-Reply-To': them.messageId,
					'Content-Type': 'text/html',
				},
				`Call me at noon.${'<div>'.repeat(200_000)}`,
			),
		)
		expect(answer.status).toBe(200)
		expect((await stored(`<divs-${n}@example.org>`))!.text).toBe('Call me at noon.')
	})

	test('the cut is made before a tag, and the markup taken out in one pass when the reader cannot', () => {
		expect(cutHtml('<p>abc</p><p>def</p>', 13)).toBe('<p>abc</p>')
		expect(roughText('<style>p{color:red}</style><p>Hi &amp; hello&nbsp;there</p><!-- no --><script>x()</script>Line<br>Two &#65;&#x42;')).toBe(
			'Hi & hello there\nLine\nTwo AB',
		)
		for (const hostile of ['<div>'.repeat(200_000), '<style>'.repeat(150_000), '<!--'.repeat(250_000), `${' '.repeat(1_000_000)}x`]) roughText(hostile)
	})
})

describe('control characters', () => {
	test('a NUL in the body (raw, base64, quoted-printable), the subject (an encoded word) or the ids is taken out, and the mail filed', async () => {
		const them = await mailed()
		const head = (id: string, extra: Record<string, string> = {}) => ({
			From: them.email,
			To: 'jobs@example.test',
			Subject: 'Re: Offer',
			'Message-ID': `<${id}-${n}@example.org>`,
			'In-Reply-To': them.messageId,
			...extra,
		})
		const cases: [string, string, string][] = [
			['raw', rfc822(head('raw'), 'Thurs\u0000day works.'), 'Thursday works.'],
			['base64', rfc822(head('b64', { 'Content-Transfer-Encoding': 'base64' }), Buffer.from('Thurs\u0000day works.').toString('base64')), 'Thursday works.'],
			['qp', rfc822(head('qp', { 'Content-Transfer-Encoding': 'quoted-printable' }), 'Thurs=00day works.'), 'Thursday works.'],
			['subject', rfc822(head('subj', { Subject: `=?UTF-8?B?${Buffer.from('Re: Of\u0000fer').toString('base64')}?=` }), 'Fine.'), 'Fine.'],
		]
		const threads = new Set<string>()
		for (const [name, raw, text] of cases) {
			const answer = await inbound(raw)
			expect({ name, status: answer.status }).toEqual({ name, status: 200 })
			const row = await stored(answer.json.messageId)
			expect({ name, text: row!.text, subject: row!.subject }).toEqual({ name, text, subject: 'Re: Offer' })
			threads.add(row!.threadId)
		}
		// An id with a NUL in it is no id: the message gets one of its own, and still answers the mail it names next.
		const answer = await inbound(
			rfc822(head('x', { 'Message-ID': '<a\u0000b@example.org>', 'In-Reply-To': '<a\u0000b@example.org>', References: them.messageId }), 'Yes.'),
		)
		expect(answer.status).toBe(200)
		expect(answer.json.messageId).toEndWith('@inbound.benchline>')
		expect((await stored(answer.json.messageId))!.inReplyTo).toBeNull()
		threads.add(answer.json.threadId)
		// All in the conversation of the mail they answer.
		expect(threads.size).toBe(1)
	})
})

describe('our own Message-IDs', () => {
	test('a received message giving itself the id of mail we sent does not take its place: ours is copied, and the genuine reply finds it', async () => {
		const email = `c${++n}.${ws.slug}@example.org`
		await newApplication(ws, await newCandidate(ws, { name: `Casey ${n}`, email }), job)
		const deps = await testDeps()
		const ours = await deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: ws.id, to: email, subject: 'Invitation', text: 'Please come.' }, deps))
		// Before the inbox copies ours, someone who received it posts a message under its id, to this workspace.
		const taken = await inbound(
			rfc822({ From: 'mallory@example.net', To: `reply+${ws.slug}@example.test`, Subject: 'Hi', 'Message-ID': ours.messageId! }, 'Mine now.'),
		)
		expect(taken.status).toBe(200)
		expect(taken.json.messageId).not.toBe(ours.messageId)
		await syncOutbox(deps, ws.id)
		expect((await stored(ours.messageId!))?.direction).toBe('out')
		const reply = await inbound(
			rfc822(
				{ From: email, To: 'jobs@example.test', Subject: 'Re: Invitation', 'Message-ID': `<reply-${n}@example.org>`, 'In-Reply-To': ours.messageId! },
				'I will come.',
			),
		)
		expect(reply.status).toBe(200)
		expect(reply.json.threadId).toBe((await stored(ours.messageId!))!.threadId)
		// The same message again is the same message: stored once.
		expect(
			(await inbound(rfc822({ From: 'mallory@example.net', To: `reply+${ws.slug}@example.test`, Subject: 'Hi', 'Message-ID': ours.messageId! }, 'Mine now.')))
				.json,
		).toMatchObject({
			status: 'duplicate',
			messageId: taken.json.messageId,
		})
	})
})

describe('header fields', () => {
	test('a space before a field’s colon (RFC 5322’s obsolete syntax, which readers must accept) is read: `from : …` is the From', async () => {
		const them = await mailed()
		const raw = `from : Casey <${them.email}>\r\nTo : jobs@example.test\r\nSubject\t: Re: Offer\r\nMessage-ID : <spaced-${n}@example.org>\r\nIn-Reply-To : ${them.messageId}\r\n\r\nSee you then.`
		const answer = await inbound(raw)
		expect(answer.status).toBe(200)
		const row = await stored(`<spaced-${n}@example.org>`)
		expect([row!.fromAddress, row!.subject, row!.text, row!.inReplyTo]).toEqual([them.email, 'Re: Offer', 'See you then.', them.messageId])
	})
})
