/**
 * The dev mailbox (issue 15): e-mail queued while SMTP_URL is unset is held and never sent later by
 * surprise, only when an operator releases it, and the outbox page says so; an owner or admin can
 * reveal a candidate's upload link held there (logged), while the seal holds for everyone else.
 * A real SMTP server, the real pages and the real upload page.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'
import { personActor } from '../auth/index.ts'
import { requestCandidateDocuments } from '../documents/requests.ts'
import { syncOutbox } from '../inbox/index.ts'
import { inboxMessages } from '../inbox/table.ts'
import { deliverDue, enqueueMail, PRIVATE_MARKER, releaseHeld } from './index.ts'
import { outbox } from './table.ts'

setDefaultTimeout(30_000)

let smtp: TestSmtp
beforeAll(async () => {
	await testDeps()
	smtp = await startSmtp()
})
afterAll(async () => {
	await smtp.stop()
})

const smtpDeps = () => testDeps({ SMTP_URL: smtp.url })
const rowOf = async (id: string) => (await (await testDeps()).db.select().from(outbox).where(eq(outbox.id, id)))[0]!
const LINK = /http:\/\/localhost:3000\/upload\/bl_ul_[0-9A-Za-z]{36}/

describe('mail queued without SMTP_URL', () => {
	test('is held: a worker with SMTP_URL does not send it; the outbox page says so and what to do, with and without SMTP_URL; released, it goes out once', async () => {
		const ws = await newWorkspace()
		const to = `${unique('held')}@example.test`
		const { id, held } = await enqueueMail(
			(await testDeps()).db,
			{ workspaceId: ws.id, to, subject: 'Written while trying things out', text: 'x' },
			await testDeps(),
		)
		expect(held).toBe(true)
		// The server restarted with SMTP_URL: still not sent.
		expect(await deliverDue(await smtpDeps(), { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 0 })
		expect(smtp.to(to)).toEqual([])

		const owner = await newPerson(ws, 'owner')
		const devMailbox = await signedIn(owner)
		const list = await devMailbox.get('/outbox')
		expect(list.text).toContain(
			'SMTP_URL is not set, so e-mail is kept here and not sent. One e-mail is held here now. Setting SMTP_URL later does not send it either',
		)
		expect(list.text).toContain('<code>npm run cli -- outbox release --all</code>')
		expect(list.text).toContain('Held (dev mailbox) (1)')
		const entry = await devMailbox.get(`/outbox/${id}`)
		expect(entry.text).toContain('<dd>Held (dev mailbox)</dd>')
		expect(entry.text).toContain(`<code>npm run cli -- outbox release --id ${id}</code>`)
		const withSmtp = await signedIn(owner, { overrides: { SMTP_URL: smtp.url } })
		const after = await withSmtp.get('/outbox?status=held')
		expect(after.text).toContain('one e-mail was queued while SMTP_URL was not set. It is not sent now that SMTP_URL is set, unless an operator releases it')
		expect(after.text).toContain('Written while trying things out')
		expect((await withSmtp.get('/outbox?status=pending')).text).not.toContain('Written while trying things out')

		expect(await releaseHeld(await testDeps(), { id })).toEqual([{ id, workspaceId: ws.id }])
		expect(await deliverDue(await smtpDeps(), { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
		expect(smtp.to(to)).toHaveLength(1)
		expect((await rowOf(id)).status).toBe('sent')
		const [line] = await (await testDeps()).db
			.select({ credential: activity.credentialName })
			.from(activity)
			.where(and(eq(activity.targetId, id), eq(activity.action, 'outbox.released')))
		expect(line).toEqual({ credential: 'operator CLI' })
	})

	test('mail queued with SMTP_URL is not held, and goes out without anyone releasing it', async () => {
		const ws = await newWorkspace()
		const to = `${unique('sent')}@example.test`
		const { held } = await enqueueMail((await testDeps()).db, { workspaceId: ws.id, to, subject: 'Normal mail', text: 'x' }, await smtpDeps())
		expect(held).toBe(false)
		expect(await deliverDue(await smtpDeps(), { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
	})
})

describe('Reveal link', () => {
	/** A recruiter asks a candidate for documents on a server without SMTP_URL: the mail is held, the link sealed. */
	async function heldRequest() {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const recruiter = await newPerson(ws, 'recruiter')
		const candidateId = await newCandidate(ws, { email: `${unique('cand')}@example.test`, resume: false })
		const request = await requestCandidateDocuments(deps, await personActor(deps, ws.slug, recruiter.email), { candidateId, items: ['dl'] })
		const rows = await deps.db.select().from(outbox).where(eq(outbox.relatedId, request.id))
		return { ws, recruiter, mail: rows.find((r) => r.channel === 'email')!, message: rows.find((r) => r.channel === 'message')! }
	}

	test('an owner or admin sees a held upload link once, on purpose and logged; it opens the upload page; the seal holds for everyone else', async () => {
		const { ws, mail } = await heldRequest()
		expect(mail.held).toBe(true)
		const owner = await signedIn(await newPerson(ws, 'owner'))
		const entry = await owner.get(`/outbox/${mail.id}`)
		expect(entry.text).toContain('Reveal link')
		expect(entry.text).not.toContain('bl_ul_')
		// Without the form's token nothing is revealed.
		expect((await owner.request('POST', `/outbox/${mail.id}/reveal`, { form: {} })).status).toBe(403)

		const revealed = await owner.post(`/outbox/${mail.id}/reveal`)
		expect(revealed.status).toBe(303)
		expect(revealed.headers.get('location')).toBe(`/outbox/${mail.id}`)
		expect(revealed.text).not.toContain('bl_ul_')
		const shown = await owner.get(`/outbox/${mail.id}`)
		const link = LINK.exec(shown.text)![0]
		expect(shown.text).toContain('shown to you once; the reveal is in the activity log')
		// Once: reloading the page shows the marker again.
		expect((await owner.get(`/outbox/${mail.id}`)).text).not.toContain('bl_ul_')
		const { app } = await import('../../tests/helpers.ts').then((h) => h.testApp())
		const upload = await app.handle(new Request(link.replace('http://localhost:3000', 'http://localhost')))
		expect(upload.status).toBe(200)
		expect(await upload.text()).toContain('Upload')

		const admin = await signedIn(await newPerson(ws, 'admin'))
		await admin.get(`/outbox/${mail.id}`)
		expect((await admin.post(`/outbox/${mail.id}/reveal`)).status).toBe(303)
		const lines = await (await testDeps()).db
			.select({ who: activity.actorName, action: activity.action })
			.from(activity)
			.where(and(eq(activity.targetId, mail.id), eq(activity.action, 'outbox.link_revealed')))
		expect(lines.map((l) => l.who).sort()).toEqual(['admin person', 'owner person'])

		// Still sealed in the row, the outbox text and the inbox copy.
		const row = await rowOf(mail.id)
		expect(JSON.stringify({ ...row, privateSealed: null })).not.toContain('bl_ul_')
		expect(row.text).toContain(PRIVATE_MARKER)
		await syncOutbox(await testDeps(), ws.id)
		const [copy] = await (await testDeps()).db.select({ text: inboxMessages.text }).from(inboxMessages).where(eq(inboxMessages.outboxId, mail.id))
		expect(copy!.text).not.toContain('bl_ul_')
	})

	test('nobody else: not a recruiter (403), not another workspace’s owner (404); not the text message (nothing kept), not once the mail is released or was queued with SMTP_URL', async () => {
		const { ws, recruiter, mail, message } = await heldRequest()
		const asRecruiter = await signedIn(recruiter)
		await asRecruiter.get('/portal')
		expect((await asRecruiter.post(`/outbox/${mail.id}/reveal`)).status).toBe(403)
		const stranger = await signedIn(await newPerson(await newWorkspace(), 'owner'))
		await stranger.get('/portal')
		expect((await stranger.post(`/outbox/${mail.id}/reveal`)).status).toBe(404)

		const owner = await signedIn(await newPerson(ws, 'owner'))
		await owner.get('/portal')
		expect((await owner.post(`/outbox/${message.id}/reveal`)).status).toBe(409)
		await releaseHeld(await testDeps(), { id: mail.id })
		const released = await owner.get(`/outbox/${mail.id}`)
		expect(released.text).not.toContain('Reveal link')
		const refused = await owner.post(`/outbox/${mail.id}/reveal`)
		expect(refused.status).toBe(409)
		expect(refused.text).toContain('Only a link held in the dev mailbox can be revealed')
		expect(refused.text).not.toContain('bl_ul_')

		// Requested on a server with SMTP_URL: on its way to the candidate, never revealable.
		const deps = await smtpDeps()
		const candidateId = await newCandidate(ws, { email: `${unique('cand')}@example.test`, resume: false })
		const sent = await requestCandidateDocuments(deps, await personActor(deps, ws.slug, recruiter.email), { candidateId, items: ['visa'] })
		const [onItsWay] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, sent.id), eq(outbox.channel, 'email')))
		expect(onItsWay!.held).toBe(false)
		expect((await owner.post(`/outbox/${onItsWay!.id}/reveal`)).status).toBe(409)
		expect(
			await (await testDeps()).db
				.select()
				.from(activity)
				.where(and(eq(activity.workspaceId, ws.id), eq(activity.action, 'outbox.link_revealed'))),
		).toEqual([])
	})
})
