/**
 * The inbox: the two tools through the official MCP client for every role (paging, filters,
 * per-person unread and starred), mail and messages the portal sends landing in their thread,
 * the signed inbound webhook (bad signatures, replays, duplicates, malformed messages, threading by
 * In-Reply-To and References), the search provider, get_application's messages, the review
 * queue's "reply waiting" entries and the pages.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { callOn, newPersonWithToken, testApp, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { allPages, closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { applyToJob } from '../candidates/index.ts'
import { submitToVendor } from '../documents/index.ts'
import { samplePdf } from '../documents/seed.ts'
import { inviteToInterview } from '../interviews/index.ts'
import { enqueueMail, enqueueMessage } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { candidateMessages } from './candidate-section.ts'
import { receiveInbound } from './inbound.ts'
import { getThread, listThreads, replyToThread, setStarred } from './service.ts'
import { syncOutbox } from './sync.ts'
import { threadFor } from './threads.ts'
import { inboxMessages, inboxThreads } from './table.ts'

setDefaultTimeout(30_000)
const SECRET = 'inbound-mail-provider-secret-4567'

interface World {
	ws: TestWorkspace
	people: Record<TestRole, McpPerson>
	job: string
	candidates: { id: string; email: string; name: string; applicationId: string }[]
}

async function send(ws: TestWorkspace, to: string, subject: string, text: string, related?: { type: string; id: string }) {
	const deps = await testDeps()
	return deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: ws.id, to, subject, text, related }, deps))
}

let w: World
beforeAll(async () => {
	await testApp()
	const { ws, people } = await everyRole()
	const job = await newVendorJob(ws, { title: 'Salesforce Developer' })
	await onTeam(job, people.hiring_manager.userId)
	const candidates = []
	for (const name of ['Nora Quinn', 'Omar Reyes', 'Pia Stone']) {
		const email = `${name.toLowerCase().replace(' ', '.')}.${ws.slug}@example.test`
		const id = await newCandidate(ws, { name, email, phone: `+1 512 555 01${candidates.length}${candidates.length}` })
		candidates.push({ id, email, name, applicationId: await newApplication(ws, id, job) })
	}
	w = { ws, people, job, candidates }
}, 120_000)
afterAll(closeClients)

/** Posts a raw message to the inbound webhook of an app that knows the secret. */
async function inbound(raw: string, o: { secret?: string; timestamp?: number; signature?: string | null; app?: 'configured' | 'default' } = {}) {
	const timestamp = o.timestamp ?? Math.floor(Date.now() / 1000)
	const headers: Record<string, string> = { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp) }
	if (o.signature !== null) headers['x-inbound-signature'] = o.signature ?? signWebhook(o.secret ?? SECRET, timestamp, raw)
	const app = o.app === 'default' ? (await testApp()).app : (await portalApp({ INBOUND_MAIL_SECRET: SECRET })).app
	return callOn(app, 'POST', '/api/inbox/inbound', { raw, headers })
}

const rfc822 = (h: Record<string, string>, body: string) =>
	`${Object.entries(h)
		.map(([k, v]) => `${k}: ${v}`)
		.join('\r\n')}\r\n\r\n${body}`

describe('what the portal sends lands in its thread', () => {
	test('mail and messages to a candidate make one conversation with them; mail to a vendor another', async () => {
		const [nora] = w.candidates
		await send(w.ws, nora!.email, 'Your application for Salesforce Developer', 'Hi Nora, thanks for applying.', {
			type: 'application',
			id: nora!.applicationId,
		})
		const deps = await testDeps()
		await deps.db.transaction((tx) =>
			enqueueMessage(
				tx,
				{
					workspaceId: w.ws.id,
					to: '+15125550100',
					text: 'Please upload your documents: https://example.test/u/abc',
					related: { type: 'document_request', id: 'dr_1' },
				},
				deps,
			),
		)
		const vendor = await newSubmissionVendor(w.ws, { email: `subs.${w.ws.slug}@acme.example`, name: 'Acme Staffing' })
		await send(w.ws, `subs.${w.ws.slug}@acme.example`, 'Candidate submission: Nora Quinn', 'Please find Nora attached.', {
			type: 'application',
			id: nora!.applicationId,
		})

		const list = await w.people.recruiter.tool('list_inbox_threads', {})
		expect(list.isError).toBe(false)
		const withNora = list.words.threads.filter((t: any) => t.counterpart.id === nora!.id)
		expect(withNora).toHaveLength(1)
		expect(withNora[0]).toMatchObject({
			counterpart: { type: 'candidate', name: 'Nora Quinn', address: nora!.email },
			messageCount: 2,
			unread: false,
			starred: false,
		})
		const withVendor = list.words.threads.find((t: any) => t.counterpart.type === 'vendor')
		// Names and addresses are the counterpart's words: labelled as theirs. The subject is the first
		// message's: ours here (the portal wrote to her first), so not labelled as hers.
		const labelled = list.data.threads.find((t: any) => t.counterpart.id === nora!.id)
		for (const field of [labelled.counterpart.name, labelled.counterpart.address]) expect(field).toMatchObject({ untrusted: true, writtenBy: 'candidate' })
		expect(labelled.subject).toMatchObject({ untrusted: true, writtenBy: 'colleague', text: 'Your application for Salesforce Developer' })
		expect(list.data.threads.find((t: any) => t.counterpart.type === 'vendor').counterpart.name).toMatchObject({
			untrusted: true,
			writtenBy: 'vendor',
			text: 'Acme Staffing',
		})
		expect(withVendor).toMatchObject({ counterpart: { id: vendor, name: 'Acme Staffing' }, messageCount: 1 })

		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: withNora[0].id })).data.thread
		// Both went out within a millisecond or two: their order is the order of their timestamps, whichever that is.
		expect(thread.messages.map((m: any) => `${m.direction} ${m.channel}`).sort()).toEqual(['out email', 'out message'])
		expect(thread.messages.find((m: any) => m.channel === 'email')).toMatchObject({
			subject: { untrusted: true, writtenBy: 'colleague', text: 'Your application for Salesforce Developer' },
			delivery: 'pending',
			related: { type: 'application', id: nora!.applicationId },
			text: { untrusted: true, writtenBy: 'colleague' },
		})
		// Copying is idempotent: reading again adds nothing.
		expect((await w.people.recruiter.tool('get_inbox_thread', { threadId: withNora[0].id })).data.thread.messages).toHaveLength(2)
	})
})

describe('a conversation that began with a text message', () => {
	test('gets the person’s e-mail address once mail goes to them, so it can be answered by e-mail', async () => {
		// Candidate 2's phone is +1 512 555 0122 (see the fixture): the text message starts her conversation.
		const ana = w.candidates[2]!
		const deps = await testDeps()
		await deps.db.transaction((tx) =>
			enqueueMessage(
				tx,
				{
					workspaceId: w.ws.id,
					to: '+15125550122',
					text: 'Hi, a quick question about your availability',
					related: { type: 'application', id: ana.applicationId },
				},
				deps,
			),
		)
		const before = (await w.people.recruiter.tool('list_inbox_threads', {})).words.threads.filter((t: any) => t.counterpart.id === ana.id)
		expect(before.map((t: any) => t.counterpart.address)).toEqual(['+15125550122'])
		await send(w.ws, ana.email, 'Your availability', 'Following up by e-mail.', { type: 'application', id: ana.applicationId })
		const after = (await w.people.recruiter.tool('list_inbox_threads', {})).words.threads.filter((t: any) => t.counterpart.id === ana.id)
		expect(after.map((t: any) => [t.id, t.counterpart.address, t.messageCount])).toEqual([[before[0].id, ana.email, 2]])
	})
})

describe('a shared phone number or address never merges two people’s conversations', () => {
	const SHARED_PHONE = '+1 737 555 0199'

	test('a document request to a candidate whose phone another candidate also has is filed under her, mail and text; her reply follows it', async () => {
		const grace = await newCandidate(w.ws, { name: 'Grace Hall', phone: SHARED_PHONE })
		const jane = await newCandidate(w.ws, { name: 'Jane Doe', phone: '(737) 555-0199' })
		await newApplication(w.ws, jane, w.job)
		const asked = await w.people.recruiter.tool('request_candidate_documents', { candidateId: jane, items: ['dl'] })
		expect(asked.isError).toBe(false)

		const threads = await allPages(w.people.recruiter, 'list_inbox_threads', { limit: 100 }, 'threads')
		expect(threads.rows.filter((t: any) => t.counterpart.id === grace)).toEqual([])
		const withJane = threads.rows.filter((t: any) => t.counterpart.id === jane)
		expect(withJane.map((t: any) => [t.counterpart.type, t.counterpart.name, t.messageCount])).toEqual([['candidate', 'Jane Doe', 2]])
		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: withJane[0].id })).data.thread
		expect(thread.messages.map((m: any) => m.channel).sort()).toEqual(['email', 'message'])
		expect(thread.messages.find((m: any) => m.channel === 'message').text.text).toStartWith('Hi Jane,')

		// Her reply to the request's e-mail joins her conversation (In-Reply-To), not Grace's.
		const deps = await testDeps()
		const [mail] = await deps.db
			.select({ messageId: outbox.messageId })
			.from(outbox)
			.where(and(eq(outbox.relatedId, asked.data.request.id), eq(outbox.channel, 'email')))
		const reply = await inbound(
			rfc822(
				{
					From: 'Jane Doe <jane.doe@mail.example>',
					To: 'no-reply@localhost',
					Subject: 'Re: Documents needed',
					'Message-ID': `<jane1.${w.ws.slug}@mail.example>`,
					'In-Reply-To': mail!.messageId!,
				},
				'Uploaded, thanks.',
			),
		)
		expect(reply.json).toMatchObject({ status: 'accepted', threadId: withJane[0].id })
	})

	test('a candidate who applied with a vendor’s mailbox: her confirmation and interview invitation stay with her, the submission with the vendor', async () => {
		const deps = await testDeps()
		const mailbox = `jobs.${w.ws.slug}@bright.example`
		const vendor = await newSubmissionVendor(w.ws, { email: mailbox, name: 'Bright Staffing', rules: { always: [], byWorkAuthorization: {} } })
		const job = await newVendorJob(w.ws, { vendorId: vendor, title: 'QA Engineer' })
		await applyToJob(deps, {
			workspace: w.ws,
			job: { id: job, title: 'QA Engineer', status: 'Open', mustHave: null },
			name: 'Lena Park',
			email: mailbox,
			phone: '+1 737 555 0142',
			resume: { bytes: samplePdf('Lena Park, QA engineer: Selenium, Cypress'), fileName: 'lena.pdf' },
			answers: {},
		})
		const [app] = await deps.database.rows<{ id: string; candidateId: string }>(
			sql`select id, candidate_id as "candidateId" from applications where job_id = ${job}`,
		)
		const recruiter = await personActor(deps, w.ws.slug, w.people.recruiter.email)
		await inviteToInterview(deps, recruiter, {
			applicationId: app!.id,
			scheduledAt: new Date(Date.now() + 86_400_000),
			deadlineAt: new Date(Date.now() + 3 * 86_400_000),
		})
		await submitToVendor(deps, recruiter, { applicationId: app!.id, documents: [] })

		const threads = (await allPages(w.people.recruiter, 'list_inbox_threads', { limit: 100 }, 'threads')).rows.filter(
			(t: any) => t.counterpart.address === mailbox,
		)
		const subjects = async (t: any) =>
			(await w.people.recruiter.tool('get_inbox_thread', { threadId: t.id })).data.thread.messages.map(
				(m: any) => (typeof m.subject === 'string' ? m.subject : m.subject.text).split(':')[0],
			)
		expect(threads.map((t: any) => [t.counterpart.type, t.counterpart.id]).sort()).toEqual([
			['candidate', app!.candidateId],
			['vendor', vendor],
		])
		expect(await subjects(threads.find((t: any) => t.counterpart.type === 'candidate'))).toEqual([
			'We received your application',
			'Your video interview for QA Engineer',
		])
		expect(await subjects(threads.find((t: any) => t.counterpart.type === 'vendor'))).toEqual(['Candidate submission'])
	})

	test('what an address alone cannot place stays unassigned, labelled with who shares it: never one of them at random', async () => {
		const deps = await testDeps()
		const ivy = await newCandidate(w.ws, { name: 'Ivy Chen', phone: '+1 737 555 0177' })
		const ian = await newCandidate(w.ws, { name: 'Ian Chen', phone: '+17375550177' })
		// A text to the shared number that names nobody (an older outbox row, a module that did not say).
		await deps.db.transaction((tx) => enqueueMessage(tx, { workspaceId: w.ws.id, to: '+17375550177', text: 'Hi, are you free for a call?' }, deps))
		// A new mail (answering nothing we sent) from an address that is both a candidate's and a vendor's.
		const kaiEmail = `kai.lund.${w.ws.slug}@example.test`
		const kai = await newCandidate(w.ws, { name: 'Kai Lund', email: kaiEmail })
		const vendor = await newSubmissionVendor(w.ws, { email: kaiEmail, name: 'Lund Consulting' })
		const mail = await inbound(
			rfc822(
				{ From: `Kai <${kaiEmail}>`, To: `reply+${w.ws.slug}@localhost`, Subject: 'About the role', 'Message-ID': `<kai1.${w.ws.slug}@x>` },
				'Is it still open?',
			),
		)
		expect(mail.json.status).toBe('accepted')

		const threads = (await allPages(w.people.owner, 'list_inbox_threads', { limit: 100 }, 'threads')).rows
		for (const id of [ivy, ian, kai, vendor]) expect(threads.filter((t: any) => t.counterpart.id === id)).toEqual([])
		const phone = threads.find((t: any) => t.counterpart.address === '+17375550177')
		expect(phone.counterpart).toMatchObject({ type: 'other', id: null })
		expect(phone.counterpart.name).toBe('Unassigned: +17375550177 is shared by Ian Chen, Ivy Chen')
		const shared = threads.find((t: any) => t.id === mail.json.threadId)
		expect(shared.counterpart).toEqual({
			type: 'other',
			id: null,
			name: `Kai (unassigned: ${kaiEmail} is shared by Kai Lund, Lund Consulting)`,
			address: kaiEmail,
		})
	})
})

describe('the inbound webhook', () => {
	async function sentTo(index: number, subject: string) {
		const c = w.candidates[index]!
		const { messageId } = await send(w.ws, c.email, subject, `Hello ${c.name}`)
		return { c, messageId }
	}

	test('refused without its secret (503), without or with a bad signature (401), with a stale or future timestamp (401)', async () => {
		const { c, messageId } = await sentTo(1, 'Rate question')
		const raw = rfc822(
			{
				From: `${c.name} <${c.email}>`,
				To: 'no-reply@localhost',
				Subject: 'Re: Rate question',
				'Message-ID': `<r1.${w.ws.slug}@mail.example>`,
				'In-Reply-To': messageId,
			},
			'My rate is 70/hr.',
		)
		expect((await inbound(raw, { app: 'default' })).status).toBe(503)
		expect((await inbound(raw, { signature: null })).status).toBe(401)
		expect((await inbound(raw, { secret: 'not-the-shared-secret-000' })).json.error).toContain('does not match')
		expect((await inbound(raw, { timestamp: Math.floor(Date.now() / 1000) - 600 })).json.error).toContain('seconds old')
		expect((await inbound(raw, { timestamp: Math.floor(Date.now() / 1000) + 600 })).json.error).toContain('in the future')
		const deps = await testDeps()
		expect(
			await deps.db
				.select()
				.from(inboxMessages)
				.where(eq(inboxMessages.messageId, `<r1.${w.ws.slug}@mail.example>`)),
		).toHaveLength(0)
	})

	test('malformed bodies get a clear 400', async () => {
		expect((await inbound('')).json.error).toContain('empty')
		const notMail = await inbound('hello, this is not a message')
		expect(notMail.status).toBe(400)
		expect(notMail.json.error).toContain('RFC 822')
		const noFrom = await inbound(rfc822({ To: 'x@localhost', Subject: 'hi' }, 'body'))
		expect(noFrom.status).toBe(400)
		expect(noFrom.json.error).toContain('From')
	})

	test('a reply joins the thread of the message it answers (In-Reply-To), once; unread for everyone until each reads it', async () => {
		const { c, messageId } = await sentTo(1, 'Availability')
		const reply = rfc822(
			{
				From: `${c.name} <${c.email.toUpperCase()}>`,
				To: 'no-reply@localhost',
				Subject: 'Re: Availability',
				'Message-ID': `<r2.${w.ws.slug}@mail.example>`,
				'In-Reply-To': messageId,
				Date: new Date().toUTCString(),
			},
			'I can start on the 1st.\r\n\r\nOn Mon, 3 Nov 2026 at 10:00, Benchline <no-reply@localhost> wrote:\r\n> Hello Omar\r\n> Are you available?',
		)
		const first = await inbound(reply)
		expect(first.status).toBe(200)
		expect(first.json.status).toBe('accepted')
		const again = await inbound(reply)
		expect(again.json).toEqual({ ...first.json, status: 'duplicate', copies: [{ threadId: first.json.threadId, status: 'duplicate' }] })

		const owner = await w.people.owner.tool('list_inbox_threads', { filter: 'unread' })
		const thread = owner.data.threads.find((t: any) => t.id === first.json.threadId)
		expect(thread).toMatchObject({
			counterpart: { id: c.id, type: 'candidate' },
			unread: true,
			snippet: { text: 'I can start on the 1st.', writtenBy: 'candidate' },
		})
		const got = (await w.people.recruiter.tool('get_inbox_thread', { threadId: thread.id })).data.thread
		const last = got.messages[got.messages.length - 1]
		// Both addresses of a received message are labelled: its To header is the sender's text too.
		expect(last).toMatchObject({
			direction: 'in',
			from: { untrusted: true, writtenBy: 'candidate', text: c.email },
			to: { untrusted: true, writtenBy: 'candidate', text: expect.any(String) },
			text: { text: 'I can start on the 1st.', writtenBy: 'candidate', untrusted: true },
			delivery: null,
		})
		expect(got.messages.filter((m: any) => m.direction === 'in')).toHaveLength(1)
		// Read by the recruiter, still unread for the owner and the admin.
		expect((await w.people.recruiter.tool('list_inbox_threads', { filter: 'unread' })).data.threads.map((t: any) => t.id)).not.toContain(thread.id)
		expect((await w.people.owner.tool('list_inbox_threads', { filter: 'unread' })).data.threads.map((t: any) => t.id)).toContain(thread.id)
		expect((await w.people.admin.tool('list_inbox_threads', {})).data.threads.find((t: any) => t.id === thread.id).unread).toBe(true)

		// The reply waits in the review queue of those who have not read it.
		const queue = await w.people.owner.tool('get_review_queue', {})
		expect(queue.words.items.find((i: any) => i.recordId === thread.id)).toMatchObject({ type: 'reply_waiting', candidate: { id: c.id, name: c.name } })
		expect((await w.people.recruiter.tool('get_review_queue', {})).data.items.map((i: any) => i.recordId)).not.toContain(thread.id)
	})

	test('threading by References; a message without Message-ID is recognised by its bytes; unknown replies are refused', async () => {
		const { c, messageId } = await sentTo(2, 'Offer details')
		const viaReferences = rfc822(
			{
				From: c.email,
				To: 'no-reply@localhost',
				Subject: 'Re: Offer details',
				References: `<unknown@elsewhere> ${messageId}`,
				'In-Reply-To': '<also-unknown@elsewhere>',
			},
			'Thanks, looks good.',
		)
		const a = await inbound(viaReferences)
		expect(a.json.status).toBe('accepted')
		expect((await inbound(viaReferences)).json.status).toBe('duplicate')
		const deps = await testDeps()
		const [msg] = await deps.db.select({ threadId: inboxMessages.threadId }).from(inboxMessages).where(eq(inboxMessages.messageId, messageId))
		expect(a.json.threadId).toBe(msg!.threadId)

		const stray = await inbound(
			rfc822({ From: 'someone@nowhere.example', To: 'no-reply@localhost', Subject: 'Hello', 'Message-ID': `<stray.${w.ws.slug}@x>` }, 'Who is this?'),
		)
		expect(stray.status).toBe(422)
		expect(stray.json.error).toContain('cannot be placed')
	})

	test('a new message to reply+<workspace>@ starts a conversation: with the candidate when we know the sender', async () => {
		const c = w.candidates[0]!
		const known = await inbound(
			rfc822(
				{ From: c.email, To: `reply+${w.ws.slug}@localhost`, Subject: 'Question about the role', 'Message-ID': `<new1.${w.ws.slug}@x>` },
				'Is the role remote?',
			),
		)
		expect(known.json.status).toBe('accepted')
		const threads = (await w.people.owner.tool('list_inbox_threads', {})).data.threads
		expect(threads.find((t: any) => t.id === known.json.threadId).counterpart).toMatchObject({ type: 'candidate', id: c.id })
		const stranger = await inbound(
			rfc822(
				{ From: 'Sam Stranger <sam@stranger.example>', To: `reply+${w.ws.slug}@localhost`, Subject: 'Open roles?', 'Message-ID': `<new2.${w.ws.slug}@x>` },
				'Do you have QA roles?',
			),
		)
		const other = (await w.people.owner.tool('list_inbox_threads', {})).data.threads.find((t: any) => t.id === stranger.json.threadId)
		// Someone we know nothing about: their words are labelled as from outside.
		const outside = (text: string) => ({ untrusted: true, writtenBy: 'outside', text, truncated: false })
		expect(other.counterpart).toEqual({ type: 'other', id: null, name: outside('Sam Stranger'), address: outside('sam@stranger.example') })
	})
})

describe('the snippet says who wrote the latest message', () => {
	test('ours is labelled as ours (colleague), the counterpart’s as theirs: in the tools, in search and on the page', async () => {
		const name = 'Rosa Tran'
		const email = `rosa.tran.${w.ws.slug}@example.test`
		const c = await newCandidate(w.ws, { name, email })
		await newApplication(w.ws, c, w.job)
		const owner = await signedIn(w.people.owner)
		/** The snippet as each output shows it: list_inbox_threads, get_inbox_thread, search, the inbox page. */
		async function shown() {
			const listed = (await w.people.recruiter.tool('list_inbox_threads', {})).data.threads.find((t: any) => t.counterpart.id === c)
			const got = (await w.people.recruiter.tool('get_inbox_thread', { threadId: listed.id })).data.thread
			const hit = (await w.people.recruiter.tool('search', { q: name })).data.results.find((r: any) => r.type === 'inbox_thread' && r.id === listed.id)
			const page = (await owner.get('/inbox')).text
			return { threadId: listed.id, listed: listed.snippet, got: got.snippet, hit: hit.snippet, page }
		}

		const { messageId } = await send(w.ws, email, 'Thursday call', 'Are you free on Thursday for a call with the client?')
		const ours = await shown()
		for (const snippet of [ours.listed, ours.got])
			expect(snippet).toEqual({ untrusted: true, writtenBy: 'colleague', text: 'Are you free on Thursday for a call with the client?', truncated: false })
		expect(ours.hit).toEqual({
			untrusted: true,
			writtenBy: 'colleague',
			text: 'We wrote: Are you free on Thursday for a call with the client?',
			truncated: false,
		})
		expect(ours.page).toContain('We wrote: Are you free on Thursday for a call with the client?')
		expect(ours.page).not.toContain(`${name} wrote: Are you free`)

		const reply = rfc822(
			{
				From: `${name} <${email}>`,
				To: 'no-reply@localhost',
				Subject: 'Re: Thursday call',
				'Message-ID': `<rosa1.${w.ws.slug}@mail.example>`,
				'In-Reply-To': messageId,
			},
			'Thursday at 11 works for me.',
		)
		expect((await inbound(reply)).json.status).toBe('accepted')
		const theirs = await shown()
		for (const snippet of [theirs.listed, theirs.got])
			expect(snippet).toEqual({ untrusted: true, writtenBy: 'candidate', text: 'Thursday at 11 works for me.', truncated: false })
		expect(theirs.hit).toEqual({ untrusted: true, writtenBy: 'candidate', text: `${name} wrote: Thursday at 11 works for me.`, truncated: false })
		expect(theirs.page).toContain(`${name} wrote: Thursday at 11 works for me.`)

		// Answered from the page: ours again.
		expect((await owner.post(`/inbox/${theirs.threadId}/reply`, { text: 'Booked, see you then.' })).status).toBe(303)
		const again = await shown()
		expect(again.listed).toMatchObject({ writtenBy: 'colleague', text: expect.stringContaining('Booked, see you then.') })
		expect(again.hit).toMatchObject({ writtenBy: 'colleague', text: expect.stringMatching(/^We wrote: Booked, see you then\./) })
	})
})

describe('the tools, for every role', () => {
	test('hiring managers and viewers have no inbox', async () => {
		for (const role of ['hiring_manager', 'viewer'] as const) {
			const names = await w.people[role].toolNames()
			expect(names).not.toContain('list_inbox_threads')
			expect(names).not.toContain('get_inbox_thread')
		}
		for (const role of ['owner', 'admin', 'recruiter'] as const)
			expect(await w.people[role].toolNames()).toEqual(expect.arrayContaining(['list_inbox_threads', 'get_inbox_thread']))
	})

	test('newest first, paged; stars are per person; a borrowed or altered cursor is refused', async () => {
		const deps = await testDeps()
		const { rows: all } = await allPages(w.people.admin, 'list_inbox_threads', {}, 'threads')
		expect(all.length).toBeGreaterThanOrEqual(5)
		for (let i = 1; i < all.length; i++) expect(all[i - 1].lastMessageAt >= all[i].lastMessageAt).toBe(true)
		const paged = await allPages(w.people.admin, 'list_inbox_threads', { limit: 2 }, 'threads')
		expect(paged.pages).toBe(Math.ceil(all.length / 2))
		expect(paged.rows.map((t) => t.id)).toEqual(all.map((t) => t.id))

		const admin = await personActor(deps, w.ws.slug, w.people.admin.email)
		await setStarred(deps, admin, all[1].id, true)
		expect((await w.people.admin.tool('list_inbox_threads', { filter: 'starred' })).data.threads.map((t: any) => t.id)).toEqual([all[1].id])
		expect((await w.people.owner.tool('list_inbox_threads', { filter: 'starred' })).data.threads).toEqual([])

		const first = await w.people.admin.tool('list_inbox_threads', { limit: 1 })
		expect((await w.people.owner.tool('list_inbox_threads', { limit: 1, cursor: first.data.nextCursor })).isError).toBe(true)
		expect((await w.people.admin.tool('list_inbox_threads', { limit: 1, filter: 'unread', cursor: first.data.nextCursor })).isError).toBe(true)
		expect((await w.people.admin.tool('list_inbox_threads', { limit: 1, cursor: `${first.data.nextCursor}x` })).isError).toBe(true)
		expect((await w.people.admin.tool('list_inbox_threads', { filter: 'archived' })).isError).toBe(true)
		const absent = await w.people.admin.tool('get_inbox_thread', { threadId: 'thr_nope' })
		expect(absent.isError).toBe(true)
		expect(absent.text).toContain('No conversation')
	})

	test('another workspace’s conversation is answered like an absent one', async () => {
		const { people } = await everyRole()
		const mine = (await w.people.owner.tool('list_inbox_threads', { limit: 1 })).data.threads[0]
		const foreign = await people.owner.tool('get_inbox_thread', { threadId: mine.id })
		expect(foreign.isError).toBe(true)
		expect(foreign.text).toBe((await people.owner.tool('get_inbox_thread', { threadId: 'thr_nope' })).text)
	})

	test('search finds conversations by person, subject and what was written — only for people with an inbox', async () => {
		const byName = await w.people.recruiter.tool('search', { q: 'Omar Reyes' })
		expect(byName.data.results.some((r: any) => r.type === 'inbox_thread')).toBe(true)
		const byText = await w.people.recruiter.tool('search', { q: 'start on the 1st' })
		expect(byText.words.results.filter((r: any) => r.type === 'inbox_thread').map((r: any) => r.title)).toEqual([expect.stringContaining('Omar Reyes')])
		expect((await w.people.hiring_manager.tool('search', { q: 'Omar Reyes' })).data.results.filter((r: any) => r.type === 'inbox_thread')).toEqual([])
	})

	test('get_application shows the messages with the candidate, not to hiring managers', async () => {
		const nora = w.candidates[0]!
		const got = await w.people.recruiter.tool('get_application', { applicationId: nora.applicationId })
		const app = got.data.application ?? got.data
		expect(app.messages.length).toBeGreaterThanOrEqual(2)
		expect(app.messages.filter((m: any) => m.aboutThisApplication).map((m: any) => m.direction)).toContain('out')
		const hm = await w.people.hiring_manager.tool('get_application', { applicationId: nora.applicationId })
		expect((hm.data.application ?? hm.data).messages).toEqual([])
	})
})

describe('a credential in what a conversation keeps cut short (issue 16, item 8)', () => {
	/** Every run of 8 characters of the token's random part found in `text`. */
	const partsOf = (token: string, text: string) => {
		const body = token.slice(token.lastIndexOf('_') + 1)
		return Array.from({ length: body.length - 7 }, (_, i) => body.slice(i, i + 8)).filter((piece) => text.includes(piece))
	}

	test('a message, subject and sender name ending with a personal token: no part of it in list_inbox_threads, get_inbox_thread or search, wherever the cut falls', async () => {
		const { token } = await newPersonWithToken(w.ws, 'viewer')
		const threads: string[] = []
		const leads = [118, 125, 133, 140, 150, 156, 159, 166]
		// The snippet keeps 160 characters, the subject 200, a stranger's name 120: the token starts just before, at and after each cut.
		for (const [i, lead] of leads.entries()) {
			const text = `${'Please call me back about the role. '.repeat(6).slice(0, lead)} ${token}`
			const subject = `${'Documents for the Harborview client '.repeat(7).slice(0, lead + 40)} ${token}`
			const name = `${'Sam Stranger '.repeat(10).slice(0, lead - 40)} ${token}`
			const res = await inbound(
				rfc822(
					{
						From: `"${name}" <leak${i}.${w.ws.slug}@stranger.example>`,
						To: `reply+${w.ws.slug}@localhost`,
						Subject: subject,
						'Message-ID': `<leak${i}.${w.ws.slug}@x>`,
					},
					text,
				),
			)
			expect(res.json?.status, res.text).toBe('accepted')
			threads.push(res.json.threadId)
		}
		const answers = [await w.people.owner.tool('list_inbox_threads', { limit: 100 }), await w.people.owner.tool('search', { q: 'Harborview client' })]
		for (const threadId of threads) answers.push(await w.people.owner.tool('get_inbox_thread', { threadId }))
		for (const answer of answers) {
			expect(answer.isError, answer.text).toBe(false)
			expect(partsOf(token, `${answer.text}\n${JSON.stringify(answer.data)}`)).toEqual([])
		}
		const snippets = threads.map((id) => (answers[0]!.words.threads as any[]).find((t) => t.id === id).snippet)
		// Where the cut left room for it, the snippet says what was there.
		expect(snippets.map((snippet, i) => snippet.endsWith(' [credential removed]') === leads[i]! + 21 <= 160)).toEqual(leads.map(() => true))
		for (const answer of answers.slice(2)) expect(answer.words.thread.messages.at(-1).text).toEndWith('[credential removed]')
	})

	test('the migration blanks what older cuts kept of a credential in snippets, subjects and names, and leaves other text alone', async () => {
		const deps = await testDeps()
		const migration = await Bun.file(new URL('../../db/legacy-migrations/0018_inbox_texts_without_credentials.sql', import.meta.url)).text()
		const { token } = await newPersonWithToken(w.ws, 'viewer')
		// As the old code stored them: cut first (keeping 23 of the token's 30 random characters), then left as they were.
		const cutThrough = (lead: string, keep: number) => `${lead} ${token}`.slice(0, keep) + '…'
		const old = {
			id: `thr_old_${w.ws.slug}`,
			snippet: cutThrough('x'.repeat(120), 159),
			subject: cutThrough('y'.repeat(160), 199),
			counterpartName: cutThrough('Sam', 119),
		}
		const clean = { id: `thr_clean_${w.ws.slug}`, snippet: 'No credential: bl_pat in words, https://x.example/bl', subject: 'Hello', counterpartName: 'Pat' }
		for (const [n, row] of [old, clean].entries())
			await deps.db.insert(inboxThreads).values({
				...row,
				workspaceId: w.ws.id,
				counterpartKey: `address:old${n}.${w.ws.slug}@x.example`,
				counterpartType: 'other',
				counterpartAddress: `old${n}.${w.ws.slug}@x.example`,
				lastMessageAt: new Date(),
			})
		expect(partsOf(token, JSON.stringify(old)).length).toBeGreaterThan(10)
		const rollback = new Error('rolled back')
		let after: (typeof inboxThreads.$inferSelect)[] = []
		// Run as the migration runs, then undo: the shared test database keeps its rows as they were.
		await deps.db
			.transaction(async (tx) => {
				await deps.database.rows(sql.raw(migration), tx)
				after = await tx
					.select()
					.from(inboxThreads)
					.where(inArray(inboxThreads.id, [old.id, clean.id]))
				throw rollback
			})
			.catch((e) => {
				if (e !== rollback) throw e
			})
		const byId = new Map(after.map((r) => [r.id, r]))
		const fixed = byId.get(old.id)!
		expect(partsOf(token, JSON.stringify(fixed))).toEqual([])
		expect([fixed.snippet, fixed.subject, fixed.counterpartName]).toEqual([
			`${'x'.repeat(120)} [credential removed]…`,
			`${'y'.repeat(160)} [credential removed]…`,
			'Sam [credential removed]…',
		])
		expect(byId.get(clean.id)).toMatchObject(clean)
		await deps.db.delete(inboxThreads).where(inArray(inboxThreads.id, [old.id, clean.id]))
	})
})

describe('the inbox pages', () => {
	test('list, read, star and reply; hiring managers are refused', async () => {
		const owner = await signedIn(w.people.owner)
		const list = await owner.get('/inbox')
		expect(list.status).toBe(200)
		expect(list.text).toContain('Nora Quinn')
		const threadId = list.text.match(/href="\/inbox\/(thr_[a-z0-9]+)"/)![1]!
		const page = await owner.get(`/inbox/${threadId}`)
		expect(page.status).toBe(200)
		const starred = await owner.submit(`/inbox/${threadId}/star`)
		expect(starred.redirectedTo).toBe(`/inbox/${threadId}?done=starred`)
		expect(starred.text).toContain('Unstar')
		const before = (await (await testDeps()).db.select().from(outbox).where(eq(outbox.workspaceId, w.ws.id))).length
		const replied = await owner.submit(`/inbox/${threadId}/reply`, { text: 'Thanks, talk soon.' })
		expect(replied.redirectedTo).toBe(`/inbox/${threadId}?done=replied`)
		expect(replied.text).toContain('Thanks, talk soon.')
		expect(replied.text).toContain('Your reply is on its way.')
		expect((await (await testDeps()).db.select().from(outbox).where(eq(outbox.workspaceId, w.ws.id))).length).toBe(before + 1)
		const empty = await owner.post(`/inbox/${threadId}/reply`, { text: '   ' })
		expect(empty.status).toBe(422)
		// Reloading the conversation after the reply sends nothing again.
		await owner.get(replied.redirectedTo!)
		expect((await (await testDeps()).db.select().from(outbox).where(eq(outbox.workspaceId, w.ws.id))).length).toBe(before + 1)
		const hm = await signedIn(w.people.hiring_manager)
		expect((await hm.get('/inbox')).status).toBe(403)
	})
})

describe('messages in the order they were written, whatever their times say', () => {
	/** A candidate of the workspace with an application, and a conversation with them (none of the tests above sees it). */
	async function newConversation(name: string) {
		const deps = await testDeps()
		const email = `${name.toLowerCase().replace(' ', '.')}.${unique('o')}@example.test`
		const id = await newCandidate(w.ws, { name, email, phone: null })
		const applicationId = await newApplication(w.ws, id, w.job)
		const counterpart = { key: `candidate:${id}`, type: 'candidate' as const, candidateId: id, vendorId: null, name, address: email }
		const threadId = await threadFor(deps.db, w.ws.id, counterpart, 'Start date', new Date())
		return { id, email, applicationId, threadId }
	}
	const texts = (messages: { text: { text: string } | string }[]) => messages.map((m) => (typeof m.text === 'string' ? m.text : m.text.text))

	test('a reply loses direction controls and invisible characters: the copy in the thread is what is sent; nothing visible is refused', async () => {
		const deps = await testDeps()
		const { threadId } = await newConversation('Rita Reply')
		const actor = await personActor(deps, w.ws.slug, w.people.owner.email)
		await expect(replyToThread(deps, actor, threadId, '\u200b\u202e\u2066')).rejects.toMatchObject({ code: 'VALIDATION' })
		const { id } = await replyToThread(deps, actor, threadId, 'Rate \u202e0051\u202c USD/h\u200b ok\r\nThanks')
		const [copy] = await deps.db.select().from(inboxMessages).where(eq(inboxMessages.id, id))
		const [sent] = await deps.db.select().from(outbox).where(eq(outbox.id, copy!.outboxId!))
		expect(copy!.text).toStartWith('Rate 0051 USD/h ok\nThanks\n\n')
		expect(sent!.text).toStartWith(copy!.text)
		expect(sent!.text).not.toMatch(/[\u200b\u202a-\u202e\u2066-\u2069\r]/)
	})

	test('messages of the same millisecond: in the order they were written, the first with the later id (thread, candidate page, get_application’s latest 20)', async () => {
		const deps = await testDeps()
		const c = await newConversation('Quinn Ordered')
		const at = new Date()
		const suffix = unique('')
		// 21 messages, ids in the reverse of the order of writing (z, y, … f): an order by id would reverse
		// them, and get_application, which keeps the latest 20, would drop the last one written.
		const written = Array.from({ length: 21 }, (_, i) => ({ id: `msg_${String.fromCharCode(122 - i)}${suffix}`, text: `Written ${i + 1}` }))
		for (const m of written)
			await deps.db.insert(inboxMessages).values({
				id: m.id,
				workspaceId: w.ws.id,
				threadId: c.threadId,
				direction: 'out',
				channel: 'email',
				fromAddress: deps.config.mailFrom,
				toAddress: c.email,
				subject: 'Start date',
				text: m.text,
				at,
			})
		const inOrder = written.map((m) => m.text)
		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: c.threadId })).data.thread
		expect(texts(thread.messages)).toEqual(inOrder)
		const recruiter = await personActor(deps, w.ws.slug, w.people.recruiter.email)
		// Newest first on the candidate's page.
		expect((await candidateMessages(deps, recruiter, c.id, 3)).map((m) => m.preview.text)).toEqual(['Written 21', 'Written 20', 'Written 19'])
		const got = await w.people.recruiter.tool('get_application', { applicationId: c.applicationId })
		expect(texts((got.data.application ?? got.data).messages)).toEqual(inOrder.slice(1))
	})

	/** Sends a message to the conversation and copies it into the thread (the database stamps it). */
	async function sentTo(c: { email: string; threadId: string }, text: string) {
		const deps = await testDeps()
		const { id: outboxId, messageId } = await send(w.ws, c.email, 'Start date', text)
		await syncOutbox(deps, w.ws.id)
		const [sent] = await deps.db.select().from(inboxMessages).where(eq(inboxMessages.outboxId, outboxId))
		expect(sent!.threadId).toBe(c.threadId)
		return { ...sent!, messageId }
	}
	/** Their reply, received by an app whose clock reads `appNow`. */
	async function replyFrom(c: { email: string }, answers: string, text: string, appNow: Date) {
		const deps = { ...(await testDeps({ INBOUND_MAIL_SECRET: SECRET })), now: () => appNow }
		const raw = rfc822(
			{ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Start date', 'Message-ID': `<${unique('r')}@mail.example>`, 'In-Reply-To': answers },
			text,
		)
		const timestamp = Math.floor(appNow.getTime() / 1000)
		const request = new Request('http://localhost:3000/api/inbox/inbound', {
			method: 'POST',
			headers: { 'content-type': 'message/rfc822', 'x-inbound-timestamp': String(timestamp), 'x-inbound-signature': signWebhook(SECRET, timestamp, raw) },
			body: raw,
		})
		const received = await receiveInbound(deps, request)
		expect(received).toMatchObject({ status: 'accepted' })
		const [reply] = await deps.db.select().from(inboxMessages).where(eq(inboxMessages.messageId, received.messageId))
		return reply!
	}
	const databaseNow = async () => {
		const [row] = await (await testDeps()).database.rows<{ at: Date | string }>(sql`select clock_timestamp() as at`)
		return new Date(row!.at).getTime()
	}
	const threadOf = async (id: string) => (await (await testDeps()).db.select().from(inboxThreads).where(eq(inboxThreads.id, id)))[0]!

	test('a reply is stamped with the database’s clock, as what we send is: with the app’s clock an hour ahead, our next message still comes after it', async () => {
		const c = await newConversation('Rhea Clockwise')
		const sent = await sentTo(c, 'Can you start on Monday?')
		const before = await databaseNow()
		const reply = await replyFrom(c, sent.messageId, 'Monday works.', new Date(Date.now() + 3_600_000))
		// Rounded to the millisecond by the column, so at most 1 ms either side of the database's time.
		expect(reply.at.getTime()).toBeGreaterThanOrEqual(Math.max(before - 1, sent.at.getTime()))
		expect(reply.at.getTime()).toBeLessThanOrEqual((await databaseNow()) + 1)
		expect(await threadOf(c.threadId)).toMatchObject({
			lastMessageDirection: 'in',
			snippet: 'Monday works.',
			messageCount: 2,
			lastInboundAt: reply.at,
			lastMessageAt: reply.at,
		})
		await sentTo(c, 'Great, see you then.')
		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: c.threadId })).data.thread
		expect(thread.messages.map((m: any) => `${m.direction} ${m.text.text}`)).toEqual([
			'out Can you start on Monday?',
			'in Monday works.',
			'out Great, see you then.',
		])
	})

	test('a reply is never placed before what its thread holds, even stamped earlier (a clock stepped back, a rounded millisecond); the thread’s times agree', async () => {
		const c = await newConversation('Ezra Stepback')
		const sent = await sentTo(c, 'Is Tuesday better?')
		// What we sent carries a time the database's clock has not reached yet.
		const ahead = new Date((await databaseNow()) + 60_000)
		await (await testDeps()).db.update(inboxMessages).set({ at: ahead }).where(eq(inboxMessages.id, sent.id))
		await (await testDeps()).db.update(inboxThreads).set({ lastMessageAt: ahead }).where(eq(inboxThreads.id, c.threadId))
		const reply = await replyFrom(c, sent.messageId, 'Tuesday is better.', new Date())
		expect(reply.at.getTime()).toBe(ahead.getTime())
		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: c.threadId })).data.thread
		expect(thread.messages.map((m: any) => `${m.direction} ${m.text.text}`)).toEqual(['out Is Tuesday better?', 'in Tuesday is better.'])
		expect(await threadOf(c.threadId)).toMatchObject({ lastMessageDirection: 'in', snippet: 'Tuesday is better.', lastInboundAt: ahead, lastMessageAt: ahead })
	})

	test('reading a thread marks it read up to the messages shown, not up to the app’s clock: a reply that comes after is unread, even with that clock an hour ahead', async () => {
		const c = await newConversation('Lena Later')
		const sent = await sentTo(c, 'Could you send your references?')
		await replyFrom(c, sent.messageId, 'Sending them tonight.', new Date())
		const hourAhead = { ...(await testDeps()), now: () => new Date(Date.now() + 3_600_000) }
		const recruiter = await personActor(hourAhead, w.ws.slug, w.people.recruiter.email)
		const unread = async () => (await listThreads(hourAhead, recruiter, { filter: 'unread', limit: 100 })).threads.some((t) => t.id === c.threadId)
		expect(await unread()).toBe(true)
		await getThread(hourAhead, recruiter, c.threadId)
		expect(await unread()).toBe(false)
		await replyFrom(c, sent.messageId, 'Here they are.', new Date())
		expect(await unread()).toBe(true)
	})

	test('two outbox rows of the same millisecond are copied into the thread in the order they were queued', async () => {
		const deps = await testDeps()
		const c = await newConversation('Sol Queued')
		const createdAt = new Date()
		const suffix = unique('')
		for (const [id, text] of [
			[`out_z${suffix}`, 'Queued first'],
			[`out_a${suffix}`, 'Queued second'],
		] as const)
			await deps.db.insert(outbox).values({
				id,
				workspaceId: w.ws.id,
				channel: 'email',
				to: c.email,
				subject: 'Start date',
				text,
				recipientType: 'candidate',
				recipientId: c.id,
				messageId: `<${id}@localhost>`,
				held: true,
				createdAt,
			})
		await syncOutbox(deps, w.ws.id)
		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: c.threadId })).data.thread
		expect(texts(thread.messages)).toEqual(['Queued first', 'Queued second'])
	})
})

describe('what comes in is bounded, and labelled by its own sender', () => {
	/** A new candidate with a mail from us they can answer. */
	async function mailedCandidate(name: string) {
		const email = `${name.toLowerCase().replace(' ', '.')}.${w.ws.slug}@example.test`
		const id = await newCandidate(w.ws, { name, email })
		await newApplication(w.ws, id, w.job)
		const { messageId } = await send(w.ws, email, 'Offer', `Hi ${name}, here is the offer.`)
		return { id, email, name, messageId }
	}

	test('a reply with 70,000 References (and a 2,000-character id) is filed by its newest ids: one lookup of at most 50, no 500 for the provider to retry', async () => {
		const c = await mailedCandidate('Vera Manyrefs')
		const references = [...Array.from({ length: 70_000 }, (_, i) => `<r${i}@x.example>`), `<${'a'.repeat(2000)}@x.example>`, c.messageId].join(' ')
		const raw = rfc822(
			{ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer', 'Message-ID': `<refs.${w.ws.slug}@x>`, References: references },
			'Accepted.',
		)
		const res = await inbound(raw)
		expect(res.status).toBe(200)
		expect(res.json.status).toBe('accepted')
		const got = (await w.people.recruiter.tool('get_inbox_thread', { threadId: res.json.threadId })).data.thread
		expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
		expect(got.messages.at(-1)).toMatchObject({ direction: 'in', text: { text: 'Accepted.', writtenBy: 'candidate' } })
	})

	test('an ambiguous sender is refused (400, not retried): two From fields, a From with two mailboxes, or text after the address', async () => {
		const [nora] = w.candidates
		const to = `reply+${w.ws.slug}@localhost`
		const forms = [
			`From: x@attacker.example\r\nFrom: ${nora!.email}\r\nTo: ${to}\r\nSubject: a\r\nMessage-ID: <amb1.${w.ws.slug}@x>\r\n\r\na`,
			rfc822({ From: `${nora!.email}, x@attacker.example`, To: to, Subject: 'b', 'Message-ID': `<amb2.${w.ws.slug}@x>` }, 'b'),
			rfc822({ From: `<${nora!.email}>@attacker.example`, To: to, Subject: 'c', 'Message-ID': `<amb3.${w.ws.slug}@x>` }, 'c'),
		]
		for (const raw of forms) {
			const res = await inbound(raw)
			expect(res.status).toBe(400)
			expect(res.json.error).toContain('From')
		}
		const deps = await testDeps()
		const ids = ['amb1', 'amb2', 'amb3'].map((id) => `<${id}.${w.ws.slug}@x>`)
		expect(await deps.db.select().from(inboxMessages).where(inArray(inboxMessages.messageId, ids))).toHaveLength(0)
		// One mailbox, with a display name, a quoted name or a comment, is taken.
		const fine = await inbound(rfc822({ From: `"Quinn, Nora" (home) <${nora!.email}>`, To: to, Subject: 'd', 'Message-ID': `<amb4.${w.ws.slug}@x>` }, 'd'))
		expect(fine.json.status).toBe('accepted')
	})

	test('a stranger answering our mail to a candidate: in her conversation, labelled as from outside, and no reply of hers waiting', async () => {
		const c = await mailedCandidate('Tess Forwarded')
		const res = await inbound(
			rfc822(
				{
					From: 'Sam Stranger <sam@stranger.example>',
					To: 'no-reply@localhost',
					Subject: 'Re: Offer',
					'Message-ID': `<sam.${w.ws.slug}@x>`,
					'In-Reply-To': c.messageId,
				},
				'Tess withdraws; send the offer to me instead.',
			),
		)
		expect(res.json.status).toBe('accepted')
		const threadId = res.json.threadId
		const outside = (text: string) => ({ untrusted: true, writtenBy: 'outside', text, truncated: false })
		const got = (await w.people.recruiter.tool('get_inbox_thread', { threadId })).data.thread
		// Still the conversation with her (it answered our mail), but the words are the stranger's.
		expect(got.counterpart).toMatchObject({ type: 'candidate', id: c.id })
		expect(got.messages.at(-1)).toMatchObject({
			direction: 'in',
			from: outside('sam@stranger.example'),
			subject: outside('Re: Offer'),
			text: outside('Tess withdraws; send the offer to me instead.'),
		})
		expect(got.snippet.writtenBy).toBe('outside')
		const listed = (await w.people.owner.tool('list_inbox_threads', { filter: 'unread' })).data.threads.find((t: any) => t.id === threadId)
		expect(listed).toMatchObject({ unread: true, snippet: { writtenBy: 'outside' } })
		const deps = await testDeps()
		const owner = await personActor(deps, w.ws.slug, w.people.owner.email)
		expect((await candidateMessages(deps, owner, c.id))[0]!.preview).toMatchObject({ writtenBy: 'outside' })
		const waiting = async () => (await w.people.owner.tool('get_review_queue', {})).data.items.filter((i: any) => i.recordId === threadId)
		expect(await waiting()).toEqual([])

		// She answers herself: hers, and waiting.
		await inbound(
			rfc822(
				{
					From: `${c.name} <${c.email.toUpperCase()}>`,
					To: 'no-reply@localhost',
					Subject: 'Re: Offer',
					'Message-ID': `<tess.${w.ws.slug}@x>`,
					'In-Reply-To': c.messageId,
				},
				'I have not withdrawn.',
			),
		)
		const again = (await w.people.owner.tool('get_inbox_thread', { threadId })).data.thread
		expect(again.messages.at(-1)).toMatchObject({ from: { writtenBy: 'candidate' }, text: { text: 'I have not withdrawn.', writtenBy: 'candidate' } })
		expect(again.messages.at(-2).text.writtenBy).toBe('outside')
		expect(await waiting()).toHaveLength(0) // read just now by the owner
		expect((await w.people.admin.tool('get_review_queue', {})).data.items.filter((i: any) => i.recordId === threadId)).toHaveLength(1)
	})
})
