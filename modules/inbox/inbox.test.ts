/**
 * The inbox: the two tools through the official MCP client for every role (paging, filters,
 * per-person unread and starred), mail and messages the portal sends landing in their thread,
 * the signed inbound webhook (bad signatures, replays, duplicates, malformed messages, threading by
 * In-Reply-To and References), the search provider, get_application's messages, the review
 * queue's "reply waiting" entries and the pages.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { callOn, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { allPages, closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { enqueueMail, enqueueMessage } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { setStarred } from './service.ts'
import { inboxMessages } from './table.ts'

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

const rfc822 = (h: Record<string, string>, body: string) => `${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`

describe('what the portal sends lands in its thread', () => {
	test('mail and messages to a candidate make one conversation with them; mail to a vendor another', async () => {
		const [nora] = w.candidates
		await send(w.ws, nora!.email, 'Your application for Salesforce Developer', 'Hi Nora, thanks for applying.', { type: 'application', id: nora!.applicationId })
		const deps = await testDeps()
		await deps.db.transaction((tx) => enqueueMessage(tx, { workspaceId: w.ws.id, to: '+15125550100', text: 'Please upload your documents: https://example.test/u/abc', related: { type: 'document_request', id: 'dr_1' } }))
		const vendor = await newSubmissionVendor(w.ws, { email: `subs.${w.ws.slug}@acme.example`, name: 'Acme Staffing' })
		await send(w.ws, `subs.${w.ws.slug}@acme.example`, 'Candidate submission: Nora Quinn', 'Please find Nora attached.', { type: 'application', id: nora!.applicationId })

		const list = await w.people.recruiter.tool('list_inbox_threads', {})
		expect(list.isError).toBe(false)
		const withNora = list.data.threads.filter((t: any) => t.counterpart.id === nora!.id)
		expect(withNora).toHaveLength(1)
		expect(withNora[0]).toMatchObject({ counterpart: { type: 'candidate', name: 'Nora Quinn', address: nora!.email }, messageCount: 2, unread: false, starred: false })
		const withVendor = list.data.threads.find((t: any) => t.counterpart.type === 'vendor')
		expect(withVendor).toMatchObject({ counterpart: { id: vendor, name: 'Acme Staffing' }, messageCount: 1 })

		const thread = (await w.people.recruiter.tool('get_inbox_thread', { threadId: withNora[0].id })).data.thread
		// Both went out within a millisecond or two: their order is the order of their timestamps, whichever that is.
		expect(thread.messages.map((m: any) => `${m.direction} ${m.channel}`).sort()).toEqual(['out email', 'out message'])
		expect(thread.messages.find((m: any) => m.channel === 'email')).toMatchObject({ subject: 'Your application for Salesforce Developer', delivery: 'pending', related: { type: 'application', id: nora!.applicationId }, text: { untrusted: true, writtenBy: 'colleague' } })
		// Copying is idempotent: reading again adds nothing.
		expect((await w.people.recruiter.tool('get_inbox_thread', { threadId: withNora[0].id })).data.thread.messages).toHaveLength(2)
	})
})

describe('a conversation that began with a text message', () => {
	test('gets the person’s e-mail address once mail goes to them, so it can be answered by e-mail', async () => {
		// Candidate 2's phone is +1 512 555 0122 (see the fixture): the text message starts her conversation.
		const ana = w.candidates[2]!
		const deps = await testDeps()
		await deps.db.transaction((tx) => enqueueMessage(tx, { workspaceId: w.ws.id, to: '+15125550122', text: 'Hi, a quick question about your availability', related: { type: 'application', id: ana.applicationId } }))
		const before = (await w.people.recruiter.tool('list_inbox_threads', {})).data.threads.filter((t: any) => t.counterpart.id === ana.id)
		expect(before.map((t: any) => t.counterpart.address)).toEqual(['+15125550122'])
		await send(w.ws, ana.email, 'Your availability', 'Following up by e-mail.', { type: 'application', id: ana.applicationId })
		const after = (await w.people.recruiter.tool('list_inbox_threads', {})).data.threads.filter((t: any) => t.counterpart.id === ana.id)
		expect(after.map((t: any) => [t.id, t.counterpart.address, t.messageCount])).toEqual([[before[0].id, ana.email, 2]])
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
		const raw = rfc822({ From: `${c.name} <${c.email}>`, To: 'no-reply@localhost', Subject: 'Re: Rate question', 'Message-ID': `<r1.${w.ws.slug}@mail.example>`, 'In-Reply-To': messageId }, 'My rate is 70/hr.')
		expect((await inbound(raw, { app: 'default' })).status).toBe(503)
		expect((await inbound(raw, { signature: null })).status).toBe(401)
		expect((await inbound(raw, { secret: 'not-the-shared-secret-000' })).json.error).toContain('does not match')
		expect((await inbound(raw, { timestamp: Math.floor(Date.now() / 1000) - 600 })).json.error).toContain('seconds old')
		expect((await inbound(raw, { timestamp: Math.floor(Date.now() / 1000) + 600 })).json.error).toContain('in the future')
		const deps = await testDeps()
		expect(await deps.db.select().from(inboxMessages).where(eq(inboxMessages.messageId, `<r1.${w.ws.slug}@mail.example>`))).toHaveLength(0)
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
			{ From: `${c.name} <${c.email.toUpperCase()}>`, To: 'no-reply@localhost', Subject: 'Re: Availability', 'Message-ID': `<r2.${w.ws.slug}@mail.example>`, 'In-Reply-To': messageId, Date: new Date().toUTCString() },
			'I can start on the 1st.\r\n\r\nOn Mon, 3 Nov 2026 at 10:00, Benchline <no-reply@localhost> wrote:\r\n> Hello Omar\r\n> Are you available?',
		)
		const first = await inbound(reply)
		expect(first.status).toBe(200)
		expect(first.json.status).toBe('accepted')
		const again = await inbound(reply)
		expect(again.json).toEqual({ ...first.json, status: 'duplicate' })

		const owner = await w.people.owner.tool('list_inbox_threads', { filter: 'unread' })
		const thread = owner.data.threads.find((t: any) => t.id === first.json.threadId)
		expect(thread).toMatchObject({ counterpart: { id: c.id, type: 'candidate' }, unread: true, snippet: { text: 'I can start on the 1st.', writtenBy: 'candidate' } })
		const got = (await w.people.recruiter.tool('get_inbox_thread', { threadId: thread.id })).data.thread
		const last = got.messages[got.messages.length - 1]
		expect(last).toMatchObject({ direction: 'in', from: c.email, text: { text: 'I can start on the 1st.', writtenBy: 'candidate', untrusted: true }, delivery: null })
		expect(got.messages.filter((m: any) => m.direction === 'in')).toHaveLength(1)
		// Read by the recruiter, still unread for the owner and the admin.
		expect((await w.people.recruiter.tool('list_inbox_threads', { filter: 'unread' })).data.threads.map((t: any) => t.id)).not.toContain(thread.id)
		expect((await w.people.owner.tool('list_inbox_threads', { filter: 'unread' })).data.threads.map((t: any) => t.id)).toContain(thread.id)
		expect((await w.people.admin.tool('list_inbox_threads', {})).data.threads.find((t: any) => t.id === thread.id).unread).toBe(true)

		// The reply waits in the review queue of those who have not read it.
		const queue = await w.people.owner.tool('get_review_queue', {})
		expect(queue.data.items.find((i: any) => i.recordId === thread.id)).toMatchObject({ type: 'reply_waiting', candidate: { id: c.id, name: c.name } })
		expect((await w.people.recruiter.tool('get_review_queue', {})).data.items.map((i: any) => i.recordId)).not.toContain(thread.id)
	})

	test('threading by References; a message without Message-ID is recognised by its bytes; unknown replies are refused', async () => {
		const { c, messageId } = await sentTo(2, 'Offer details')
		const viaReferences = rfc822({ From: c.email, To: 'no-reply@localhost', Subject: 'Re: Offer details', References: `<unknown@elsewhere> ${messageId}`, 'In-Reply-To': '<also-unknown@elsewhere>' }, 'Thanks, looks good.')
		const a = await inbound(viaReferences)
		expect(a.json.status).toBe('accepted')
		expect((await inbound(viaReferences)).json.status).toBe('duplicate')
		const deps = await testDeps()
		const [msg] = await deps.db.select({ threadId: inboxMessages.threadId }).from(inboxMessages).where(eq(inboxMessages.messageId, messageId))
		expect(a.json.threadId).toBe(msg!.threadId)

		const stray = await inbound(rfc822({ From: 'someone@nowhere.example', To: 'no-reply@localhost', Subject: 'Hello', 'Message-ID': `<stray.${w.ws.slug}@x>` }, 'Who is this?'))
		expect(stray.status).toBe(422)
		expect(stray.json.error).toContain('cannot be placed')
	})

	test('a new message to reply+<workspace>@ starts a conversation: with the candidate when we know the sender', async () => {
		const c = w.candidates[0]!
		const known = await inbound(rfc822({ From: c.email, To: `reply+${w.ws.slug}@localhost`, Subject: 'Question about the role', 'Message-ID': `<new1.${w.ws.slug}@x>` }, 'Is the role remote?'))
		expect(known.json.status).toBe('accepted')
		const threads = (await w.people.owner.tool('list_inbox_threads', {})).data.threads
		expect(threads.find((t: any) => t.id === known.json.threadId).counterpart).toMatchObject({ type: 'candidate', id: c.id })
		const stranger = await inbound(rfc822({ From: 'Sam Stranger <sam@stranger.example>', To: `reply+${w.ws.slug}@localhost`, Subject: 'Open roles?', 'Message-ID': `<new2.${w.ws.slug}@x>` }, 'Do you have QA roles?'))
		const other = (await w.people.owner.tool('list_inbox_threads', {})).data.threads.find((t: any) => t.id === stranger.json.threadId)
		expect(other.counterpart).toEqual({ type: 'other', id: null, name: 'Sam Stranger', address: 'sam@stranger.example' })
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
		for (const snippet of [ours.listed, ours.got]) expect(snippet).toEqual({ untrusted: true, writtenBy: 'colleague', text: 'Are you free on Thursday for a call with the client?', truncated: false })
		expect(ours.hit).toBe('We wrote: Are you free on Thursday for a call with the client?')
		expect(ours.page).toContain('We wrote: Are you free on Thursday for a call with the client?')
		expect(ours.page).not.toContain(`${name} wrote: Are you free`)

		const reply = rfc822({ From: `${name} <${email}>`, To: 'no-reply@localhost', Subject: 'Re: Thursday call', 'Message-ID': `<rosa1.${w.ws.slug}@mail.example>`, 'In-Reply-To': messageId }, 'Thursday at 11 works for me.')
		expect((await inbound(reply)).json.status).toBe('accepted')
		const theirs = await shown()
		for (const snippet of [theirs.listed, theirs.got]) expect(snippet).toEqual({ untrusted: true, writtenBy: 'candidate', text: 'Thursday at 11 works for me.', truncated: false })
		expect(theirs.hit).toBe(`${name} wrote: Thursday at 11 works for me.`)
		expect(theirs.page).toContain(`${name} wrote: Thursday at 11 works for me.`)

		// Answered from the page: ours again.
		expect((await owner.post(`/inbox/${theirs.threadId}/reply`, { text: 'Booked, see you then.' })).status).toBe(200)
		const again = await shown()
		expect(again.listed).toMatchObject({ writtenBy: 'colleague', text: expect.stringContaining('Booked, see you then.') })
		expect(again.hit).toStartWith('We wrote: Booked, see you then.')
	})
})

describe('the tools, for every role', () => {
	test('hiring managers and viewers have no inbox', async () => {
		for (const role of ['hiring_manager', 'viewer'] as const) {
			const names = await w.people[role].toolNames()
			expect(names).not.toContain('list_inbox_threads')
			expect(names).not.toContain('get_inbox_thread')
		}
		for (const role of ['owner', 'admin', 'recruiter'] as const) expect(await w.people[role].toolNames()).toEqual(expect.arrayContaining(['list_inbox_threads', 'get_inbox_thread']))
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
		expect(byText.data.results.filter((r: any) => r.type === 'inbox_thread').map((r: any) => r.title)).toEqual([expect.stringContaining('Omar Reyes')])
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

describe('the inbox pages', () => {
	test('list, read, star and reply; hiring managers are refused', async () => {
		const owner = await signedIn(w.people.owner)
		const list = await owner.get('/inbox')
		expect(list.status).toBe(200)
		expect(list.text).toContain('Nora Quinn')
		const threadId = list.text.match(/href="\/inbox\/(thr_[a-z0-9]+)"/)![1]!
		const page = await owner.get(`/inbox/${threadId}`)
		expect(page.status).toBe(200)
		const starred = await owner.post(`/inbox/${threadId}/star`)
		expect(starred.text).toContain('Unstar')
		const before = (await (await testDeps()).db.select().from(outbox).where(eq(outbox.workspaceId, w.ws.id))).length
		const replied = await owner.post(`/inbox/${threadId}/reply`, { text: 'Thanks, talk soon.' })
		expect(replied.status).toBe(200)
		expect(replied.text).toContain('Thanks, talk soon.')
		expect((await (await testDeps()).db.select().from(outbox).where(eq(outbox.workspaceId, w.ws.id))).length).toBe(before + 1)
		const empty = await owner.post(`/inbox/${threadId}/reply`, { text: '   ' })
		expect(empty.status).toBe(422)
		const hm = await signedIn(w.people.hiring_manager)
		expect((await hm.get('/inbox')).status).toBe(403)
	})
})
