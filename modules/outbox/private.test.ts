/**
 * A value only the recipient may see (a candidate's upload link) in the outbox: kept only sealed
 * with the server secret, shown to staff as a marker, filled in at send time on every attempt, and
 * erased once the row is sent or given up on (checklist H2). Real SMTP server, a provider-shaped
 * HTTP server for messages, the real upload page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, inArray, sql } from 'drizzle-orm'
import { newCredential } from '../../core/credentials.ts'
import { clock, newPerson, newWorkspace, testApp, testDeps, unique } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { requestCandidateDocuments } from '../documents/requests.ts'
import { syncOutbox } from '../inbox/index.ts'
import { inboxMessages } from '../inbox/table.ts'
import { deliverDue, enqueueMail, enqueueMessage, PRIVATE_MARKER, startOutboxWorker, textToSend } from './index.ts'
import { outbox } from './table.ts'

setDefaultTimeout(30_000)

const ACCOUNT = 'AC00000000000000000000000000000042'
const TOKEN = 'provider-secret'
/** Message bodies the provider received, by recipient. */
const bodies = new Map<string, string[]>()
/** Planned answers by recipient: HTTP statuses to give, in order (then 201). */
const plan = new Map<string, number[]>()
let provider: ReturnType<typeof Bun.serve>
let smtp: TestSmtp

beforeAll(async () => {
	await testApp()
	smtp = await startSmtp({ refuse: (a) => a.startsWith('bounce') })
	provider = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const form = Object.fromEntries(new URLSearchParams(await request.text()))
			bodies.set(form.To!, [...(bodies.get(form.To!) ?? []), form.Body!])
			const next = plan.get(form.To!)?.shift()
			if (next === 400) return Response.json({ code: 21211, message: 'not a valid phone number', status: 400 }, { status: 400 })
			if (next) return new Response('upstream trouble', { status: next })
			return Response.json({ sid: `SM${crypto.randomUUID().replace(/-/g, '')}`, status: 'queued' }, { status: 201 })
		},
	})
})
afterAll(async () => {
	provider.stop(true)
	await smtp.stop()
})
afterEach(() => clock.reset())

const withProvider = () =>
	testDeps({ MESSAGING_URL: `http://127.0.0.1:${provider.port}`, MESSAGING_ACCOUNT: ACCOUNT, MESSAGING_TOKEN: TOKEN, MESSAGING_FROM: '+15550001111' })
const rowsOf = async (ids: string[]) => (await testDeps()).db.select().from(outbox).where(inArray(outbox.id, ids))
const rowsFor = async (requestId: string) => {
	const rows = await (await testDeps()).db.select().from(outbox).where(eq(outbox.relatedId, requestId))
	return { mail: rows.find((r) => r.channel === 'email')!, message: rows.find((r) => r.channel === 'message')! }
}
const LINK = /http:\/\/localhost:3000\/upload\/bl_ul_[0-9A-Za-z]{36}/g
const linksIn = (text: string) => text.match(LINK) ?? []
const phone = () => `+1512${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`

/** A recruiter requests documents; by default on a server with SMTP_URL (a server without it holds the mail in the dev mailbox). */
async function requestFor(o: { phone?: string | null; message?: string } = {}, deps?: Awaited<ReturnType<typeof testDeps>>) {
	deps ??= await testDeps({ SMTP_URL: smtp.url })
	const ws = await newWorkspace()
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
	const email = `${unique('cand')}@example.test`
	const candidateId = await newCandidate(ws, { email, phone: o.phone ?? null, resume: false })
	const request = await requestCandidateDocuments(deps, recruiter, { candidateId, items: ['dl', 'visa'], message: o.message })
	return { ws, email, request, ...(await rowsFor(request.id)) }
}

/** Whether the upload page opens for this link (in-process). */
async function linkWorks(link: string) {
	const { app } = await testApp()
	const res = await app.handle(new Request(link.replace('http://localhost:3000', 'http://localhost')))
	await res.text()
	return res.status === 200
}

describe('a link only the recipient may see (checklist H2)', () => {
	test('an upload link is kept only sealed: the outbox rows, the outbox page and the inbox copy show a marker; the e-mail sent after a failed attempt carries the same working link once, and nothing recoverable remains after', async () => {
		const deps = await testDeps()
		// The recruiter's own words may even quote the marker: they are sent as written.
		const { ws, email, mail, message } = await requestFor({ message: `You may see ${PRIVATE_MARKER} in our copy.` })
		const link = linksIn(await textToSend(deps.secret, mail))[0]!
		expect(link).toBeDefined()
		for (const row of [mail, message]) {
			expect(JSON.stringify(row)).not.toContain('bl_ul_')
			expect(row.carriesPrivate).toBe(true)
		}
		expect(mail.text).toContain(`Upload them securely here (PDF, JPEG or PNG, up to 10 MB each):\n${PRIVATE_MARKER}\n`)
		expect(mail.privateSealed).toBeTruthy()
		// The message cannot go (no provider): it keeps nothing to send, not even sealed.
		expect(message.status).toBe('not_sent')
		expect(message.privateSealed).toBeNull()
		expect(message.text).toContain(PRIVATE_MARKER)

		// Staff see the marker: the dev mailbox list and entries, and the inbox copy.
		const owner = await signedIn(await newPerson(ws, 'owner'))
		for (const path of ['/outbox', `/outbox/${mail.id}`, `/outbox/${message.id}`]) {
			const page = await owner.get(path)
			expect(page.status).toBe(200)
			expect(page.text).not.toContain('bl_ul_')
			expect(page.text).not.toContain('/upload/')
		}
		expect((await owner.get(`/outbox/${mail.id}`)).text).toContain(PRIVATE_MARKER)
		await syncOutbox(deps, ws.id)
		const copies = await deps.db
			.select({ text: inboxMessages.text })
			.from(inboxMessages)
			.where(inArray(inboxMessages.outboxId, [mail.id, message.id]))
		expect(copies).toHaveLength(2)
		for (const copy of copies) {
			expect(copy.text).toContain('[private link, sent to the recipient only]')
			expect(copy.text).not.toContain('bl_ul_')
		}

		// The SMTP server is unreachable: the attempt fails and the row keeps its sealed link, unchanged.
		expect(await deliverDue(await testDeps({ SMTP_URL: 'smtp://127.0.0.1:9' }), { workspaceId: ws.id, baseDelayMs: 0 })).toEqual({
			sent: 0,
			retried: 1,
			failed: 0,
		})
		const [waiting] = await rowsOf([mail.id])
		expect(waiting!.status).toBe('pending')
		expect(waiting!.text).toBe(mail.text)
		expect(waiting!.privateSealed).toBe(mail.privateSealed)
		expect(JSON.stringify(waiting)).not.toContain('bl_ul_')

		// Delivered on the next attempt: the same link, once, where the text put it, and it works.
		expect(await deliverDue(await testDeps({ SMTP_URL: smtp.url }), { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
		const received = smtp.to(email)
		expect(received).toHaveLength(1)
		const sentText = received[0]!.parsed.text!
		expect(linksIn(sentText)).toEqual([link])
		expect(sentText).toContain(`Upload them securely here (PDF, JPEG or PNG, up to 10 MB each):\n${link}\n`)
		expect(sentText).toContain(`You may see ${PRIVATE_MARKER} in our copy.`)
		expect(sentText.split(PRIVATE_MARKER)).toHaveLength(2)
		expect(await linkWorks(link)).toBe(true)

		// Sent: the seal is erased; the row, the page and the seal-opening code have no link left.
		const [sent] = await rowsOf([mail.id])
		expect(sent!.status).toBe('sent')
		expect(sent!.attempts).toBe(2)
		expect(sent!.privateSealed).toBeNull()
		expect(JSON.stringify(sent)).not.toContain('bl_ul_')
		expect(linksIn(await textToSend(deps.secret, sent!))).toEqual([])
		expect((await owner.get(`/outbox/${mail.id}`)).text).not.toContain('bl_ul_')
		// Nothing goes twice.
		expect(await deliverDue(await testDeps({ SMTP_URL: smtp.url }), { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 0 })
		expect(smtp.to(email)).toHaveLength(1)
	})

	test('a text message retried after a provider outage carries the same link on each attempt; one refused for good loses its link and cannot be put back in the queue', async () => {
		const deps = await withProvider()
		const flaky = phone()
		plan.set(flaky, [503])
		const { message } = await requestFor({ phone: flaky }, deps)
		expect(message.status).toBe('pending')
		expect(message.privateSealed).toBeTruthy()
		expect(message.text).not.toContain('bl_ul_')
		const link = linksIn(await textToSend(deps.secret, message))[0]!

		const o = { workspaceId: message.workspaceId, baseDelayMs: 0 }
		expect(await deliverDue(deps, o)).toMatchObject({ sent: 0, retried: 1 })
		expect((await rowsOf([message.id]))[0]!.privateSealed).toBe(message.privateSealed)
		expect(await deliverDue(deps, o)).toMatchObject({ sent: 1, retried: 0 })
		// Two attempts, each with the link once; the second was the delivery.
		expect(bodies.get(flaky)!.map(linksIn)).toEqual([[link], [link]])
		expect(await linkWorks(link)).toBe(true)
		const [sent] = await rowsOf([message.id])
		expect(sent!.status).toBe('sent')
		expect(sent!.privateSealed).toBeNull()
		expect(JSON.stringify(sent)).not.toContain('bl_ul_')

		const refused = phone()
		plan.set(refused, [400])
		const bad = await requestFor({ phone: refused }, deps)
		expect(await deliverDue(deps, { workspaceId: bad.message.workspaceId })).toMatchObject({ failed: 1 })
		const [failed] = await rowsOf([bad.message.id])
		expect(failed!.status).toBe('failed')
		expect(failed!.privateSealed).toBeNull()
		expect(JSON.stringify(failed)).not.toContain('bl_ul_')
		// Trying again would send the marker without the link: the page says why and offers no button.
		const admin = await signedIn(await newPerson(bad.ws, 'admin'))
		const entry = await admin.get(`/outbox/${bad.message.id}`)
		expect(entry.text).toContain('cannot be sent again')
		expect(entry.text).not.toContain('Try again')
		expect((await admin.post(`/outbox/${bad.message.id}/retry`)).text).toContain('cannot be sent again')
		expect((await rowsOf([bad.message.id]))[0]!.status).toBe('failed')
		expect(bodies.get(refused)).toHaveLength(1)
	})

	test('a refused e-mail loses its link too; a queued message the worker records as not sent loses it', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const value = `https://x.test/upload/${newCredential('ul')}`
		const recipientOnly = { value, serverSecret: deps.secret }
		const bounced = await enqueueMail(
			deps.db,
			{ workspaceId: ws.id, to: `bounce-${unique()}@example.test`, subject: 'Documents', text: `Here: ${value}`, recipientOnly },
			await testDeps({ SMTP_URL: smtp.url }),
		)
		// Queued while a provider was configured; the worker now runs without one.
		const queued = await enqueueMessage(deps.db, { workspaceId: ws.id, to: phone(), text: `Here: ${value}`, recipientOnly }, deps)
		expect((await rowsOf([bounced.id, queued.id])).map((r) => Boolean(r.privateSealed))).toEqual([true, true])
		expect(await deliverDue(await testDeps({ SMTP_URL: smtp.url }), { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 1 })
		const rows = await rowsOf([bounced.id, queued.id])
		expect(rows.map((r) => [r.status, r.privateSealed, r.text]).sort()).toEqual([
			['failed', null, `Here: ${PRIVATE_MARKER}`],
			['not_sent', null, `Here: ${PRIVATE_MARKER}`],
		])
	})

	test('a seal opens only for its own row and with the server secret; one that does not open sends nothing', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const smtpDeps = await testDeps({ SMTP_URL: smtp.url })
		const link = () => `https://x.test/upload/${newCredential('ul')}`
		const mail = (to: string, value: string, text = `Here: ${value}`, subject = 'Documents') =>
			enqueueMail(deps.db, { workspaceId: ws.id, to, subject, text, recipientOnly: { value, serverSecret: deps.secret } }, smtpDeps)
		// The value must be in the text, and only there.
		await expect(mail('a@example.test', link(), 'No link here')).rejects.toThrow('not in the text')
		const shown = link()
		await expect(mail('a@example.test', shown, `Here: ${shown}`, shown)).rejects.toThrow('only be in the text')

		const [a, b, c] = [`${unique('a')}@example.test`, `${unique('b')}@example.test`, `${unique('c')}@example.test`]
		// A worker holding another server secret cannot open the seal.
		const first = await mail(a, link())
		expect(await deliverDue({ ...smtpDeps, secret: crypto.getRandomValues(new Uint8Array(32)) }, { workspaceId: ws.id })).toEqual({
			sent: 0,
			retried: 0,
			failed: 1,
		})
		// One row's seal copied onto another (same text around it): bound to its row, it does not open there.
		const second = await mail(b, link())
		const third = await mail(c, link())
		const [sealed] = await rowsOf([second.id])
		await deps.db.update(outbox).set({ privateSealed: sealed!.privateSealed }).where(eq(outbox.id, third.id))
		expect(await deliverDue(smtpDeps, { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 1 })
		expect([smtp.to(a).length, smtp.to(b).length, smtp.to(c).length]).toEqual([0, 1, 0])
		const rows = await rowsOf([first.id, third.id])
		expect(rows.map((r) => [r.status, r.privateSealed, r.lastError?.includes('could not be unsealed')])).toEqual([
			['failed', null, true],
			['failed', null, true],
		])
	})
})

/** Turns a request's outbox row back into what was written before links were sealed: the link in plain text. */
async function asWrittenBefore(row: typeof outbox.$inferSelect, status = row.status) {
	const deps = await testDeps()
	const text = await textToSend(deps.secret, row)
	await deps.db.update(outbox).set({ text, carriesPrivate: false, privateSealed: null, status }).where(eq(outbox.id, row.id))
	return text
}

async function until(what: string, check: () => Promise<boolean> | boolean) {
	const deadline = Date.now() + 10_000
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
		await Bun.sleep(20)
	}
}

describe('rows written before links were sealed', () => {
	test('a plain upload link waiting in the outbox is sealed when the worker starts, then delivered once and erased; in the dev mailbox it stays sealed', async () => {
		const deps = await testDeps()
		const { ws, email, mail } = await requestFor()
		const before = await asWrittenBefore(mail)
		const link = linksIn(before)[0]!
		const stop = startOutboxWorker(await testDeps({ SMTP_URL: smtp.url }), { workspaceId: ws.id, pollMs: 20 })
		try {
			await until('the mail', () => smtp.to(email).length === 1)
		} finally {
			await stop()
		}
		expect(linksIn(smtp.to(email)[0]!.parsed.text!)).toEqual([link])
		expect(await linkWorks(link)).toBe(true)
		const [sent] = await rowsOf([mail.id])
		expect([sent!.status, sent!.carriesPrivate, sent!.privateSealed]).toEqual(['sent', true, null])
		expect(JSON.stringify(sent)).not.toContain('bl_ul_')

		// Without SMTP_URL the mail stays waiting: sealed, the marker shown, the link kept for the recipient.
		const kept = await requestFor()
		const plain = await asWrittenBefore(kept.mail)
		const devMailbox = startOutboxWorker(deps, { workspaceId: kept.ws.id, pollMs: 20 })
		try {
			await until('the link to be sealed', async () => (await rowsOf([kept.mail.id]))[0]!.carriesPrivate)
		} finally {
			await devMailbox()
		}
		const [waiting] = await rowsOf([kept.mail.id])
		expect(waiting!.status).toBe('pending')
		expect(JSON.stringify(waiting)).not.toContain('bl_ul_')
		expect(waiting!.text).toContain(PRIVATE_MARKER)
		expect(await textToSend(deps.secret, waiting!)).toBe(plain)
	})

	test('the migration that removes plain links from rows already sent, failed or not sent leaves waiting rows (and other text) alone', async () => {
		const deps = await testDeps()
		const migration = await Bun.file(new URL('../../db/legacy-migrations/0012_outbox_scrub_upload_links.sql', import.meta.url)).text()
		const rows: { id: string; text: string }[] = []
		for (const status of ['sent', 'failed', 'not_sent', 'pending']) {
			const { mail } = await requestFor()
			rows.push({ id: mail.id, text: await asWrittenBefore(mail, status) })
		}
		const [sent, failed, notSent, pending] = rows
		const other = await enqueueMail(
			deps.db,
			{ workspaceId: (await newWorkspace()).id, to: 'x@example.test', subject: 'Hi', text: 'No link: https://x.test/upload/abc and bl_ul_short' },
			deps,
		)
		await deps.db.update(outbox).set({ status: 'sent' }).where(eq(outbox.id, other.id))
		const rollback = new Error('rolled back')
		let after: (typeof outbox.$inferSelect)[] = []
		// Run as the migration runs, then undo: the shared test database keeps its rows as they were.
		await deps.db
			.transaction(async (tx) => {
				await deps.database.rows(sql.raw(migration), tx)
				after = await tx
					.select()
					.from(outbox)
					.where(inArray(outbox.id, [sent!.id, failed!.id, notSent!.id, pending!.id, other.id]))
				throw rollback
			})
			.catch((e) => {
				if (e !== rollback) throw e
			})
		const byId = new Map(after.map((r) => [r.id, r]))
		for (const row of [sent!, failed!, notSent!]) {
			const scrubbed = byId.get(row.id)!
			expect(scrubbed.text).toBe(row.text.replace(LINK, PRIVATE_MARKER))
			expect(scrubbed.text).not.toContain('bl_ul_')
			expect(scrubbed.carriesPrivate).toBe(true)
		}
		expect(byId.get(pending!.id)!.text).toBe(pending!.text)
		expect(byId.get(other.id)!.text).toBe('No link: https://x.test/upload/abc and bl_ul_short')
	})
})
