/**
 * What every message to a candidate carries, checked on what a real SMTP server receives: the firm's
 * footer (e-mail and text) and the link to the workspace's privacy page, and on marketing mail only (a job alert) `List-Unsubscribe` with the
 * one-click POST; the unsubscribe page, and a job alert to someone who unsubscribed recorded as not sent,
 * and never put back in the queue.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { inArray } from 'drizzle-orm'
import { newPerson, newWorkspace, testApp, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { deliverDue, enqueueMail, enqueueMessage, UNSUBSCRIBED } from './index.ts'
import { MARKETING_NOT_SENT, unsubscribe } from './service.ts'
import { outbox } from './table.ts'

setDefaultTimeout(30_000)

let smtp: TestSmtp
let ws: TestWorkspace
beforeAll(async () => {
	await testApp()
	smtp = await startSmtp()
	ws = await newWorkspace()
}, 180_000)
afterAll(async () => {
	await smtp.stop()
})

const smtpDeps = () => testDeps({ SMTP_URL: smtp.url })

async function send(o: { to: string; candidateId?: string; vendor?: boolean; marketing?: boolean; subject?: string }) {
	const deps = await smtpDeps()
	const recipient = o.candidateId ? { type: 'candidate' as const, id: o.candidateId } : undefined
	const queued = await deps.db.transaction((tx) =>
		enqueueMail(tx, { workspaceId: ws.id, to: o.to, subject: o.subject ?? 'Hello', text: 'Body text.', recipient, marketing: o.marketing }, deps),
	)
	await deliverDue(deps, { workspaceId: ws.id })
	return queued
}

describe('the footer and List-Unsubscribe', () => {
	test('a transactional mail to a candidate ends with the firm’s footer and has no List-Unsubscribe; one to anyone else has no footer', async () => {
		const to = `${unique('cand')}@example.test`
		const candidateId = await newCandidate(ws, { email: to })
		await send({ to, candidateId })
		const [mail] = smtp.to(to)
		expect(mail!.parsed.text?.trim()).toBe(
			`Body text.\n\n-- \nTest Staffing\nhttp://localhost:3000/careers/${ws.slug}\nYour data: ask for a copy or its erasure at http://localhost:3000/careers/${ws.slug}/privacy`,
		)
		expect(mail!.parsed.headers.find((h) => h.key === 'list-unsubscribe')).toBeUndefined()
		const other = `${unique('vendor')}@example.test`
		await send({ to: other })
		expect(smtp.to(other)[0]!.parsed.text?.trim()).toBe('Body text.')
	})

	test('a job alert carries List-Unsubscribe (one-click) and the link; after unsubscribing, the next is not sent but transactional mail still is', async () => {
		const to = `${unique('alert')}@example.test`
		const candidateId = await newCandidate(ws, { email: to })
		await send({ to, candidateId, marketing: true, subject: 'New role: QA Lead' })
		const [alert] = smtp.to(to)
		const header = alert!.parsed.headers.find((h) => h.key === 'list-unsubscribe')?.value ?? ''
		const url = /^<(http:\/\/localhost:3000\/unsubscribe\/[^>]+)>$/.exec(header)?.[1]
		expect(url).toBeDefined()
		expect(alert!.parsed.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe('List-Unsubscribe=One-Click')
		expect(alert!.parsed.text).toContain(`Unsubscribe from job alerts: ${url}`)

		// Opening the link only asks; a forged one is a 404; the mail app's one-click POST (no cookies, no CSRF) unsubscribes.
		const { app } = await portalApp()
		const browser = new PortalClient(app)
		const path = new URL(url!).pathname
		expect((await browser.get(path)).text).toContain('<button type="submit">Unsubscribe</button>')
		expect((await browser.get(`${path.slice(0, -2)}xx`)).status).toBe(404)
		expect((await browser.get('/unsubscribe/ws_a~candidate~cand_b.AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
		const oneClick = await browser.request('POST', path, {
			body: 'List-Unsubscribe=One-Click',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect(oneClick.status).toBe(200)
		expect(oneClick.text).toContain('You are unsubscribed')

		const next = await send({ to, candidateId, marketing: true, subject: 'New role: Go Developer' })
		expect(next.status).toBe('not_sent')
		const [row] = await (await testDeps()).db
			.select()
			.from(outbox)
			.where(inArray(outbox.id, [next.id]))
		expect(row).toMatchObject({ status: 'not_sent', lastError: UNSUBSCRIBED })
		// Nobody puts it back: the page offers no Try again, says why, and a forced one is refused.
		const owner = await signedIn(await newPerson(ws, 'owner'))
		const entry = await owner.get(`/outbox/${next.id}`)
		expect(entry.text).toContain(MARKETING_NOT_SENT)
		expect(entry.text).not.toContain(`action="/outbox/${next.id}/retry"`)
		const retried = await owner.post(`/outbox/${next.id}/retry`)
		expect(retried.status).toBe(409)
		expect(retried.text).toContain(MARKETING_NOT_SENT)
		await send({ to, candidateId, subject: 'Your interview' })
		expect(smtp.to(to).map((m) => m.parsed.subject)).toEqual(['New role: QA Lead', 'Your interview'])
	})

	test('checked again at send time: a job alert queued before the unsubscribe, or a failed one put back, is recorded not sent and never reaches them', async () => {
		const deps = await smtpDeps()
		const to = `${unique('raced')}@example.test`
		const candidateId = await newCandidate(ws, { email: to })
		const recipient = { type: 'candidate' as const, id: candidateId }
		const queue = (subject: string) =>
			deps.db.transaction((tx) => enqueueMail(tx, { workspaceId: ws.id, to, subject, text: 'Body text.', recipient, marketing: true }, deps))
		const queued = await queue('New role: queued before')
		// A failed alert an owner may put back in the queue (only a failed marketing row can be retried).
		const failed = await queue('New role: failed before')
		await deps.db
			.update(outbox)
			.set({ status: 'failed', lastError: 'timeout' })
			.where(inArray(outbox.id, [failed.id]))
		await unsubscribe(deps, deps.db, { workspaceId: ws.id, type: 'candidate', id: candidateId })
		await deps.db
			.update(outbox)
			.set({ status: 'pending' })
			.where(inArray(outbox.id, [failed.id]))

		const round = await deliverDue(deps, { workspaceId: ws.id })
		expect(round.sent).toBe(0)
		expect(smtp.to(to)).toEqual([])
		const rows = await deps.db
			.select()
			.from(outbox)
			.where(inArray(outbox.id, [queued.id, failed.id]))
			.orderBy(outbox.subject)
		expect(rows.map((r) => ({ status: r.status, lastError: r.lastError }))).toEqual([
			{ status: 'not_sent', lastError: UNSUBSCRIBED },
			{ status: 'not_sent', lastError: UNSUBSCRIBED },
		])
	})

	test('a marketing mail must name its candidate; a text message to a candidate ends with the text footer', async () => {
		const deps = await testDeps()
		await expect(enqueueMail(deps.db, { workspaceId: ws.id, to: 'x@example.test', subject: 'Alert', text: 'x', marketing: true }, deps)).rejects.toThrow(
			'a marketing message goes to a candidate',
		)
		const candidateId = await newCandidate(ws)
		const { id } = await enqueueMessage(
			deps.db,
			{ workspaceId: ws.id, to: '+15125550100', text: 'Call me?', recipient: { type: 'candidate', id: candidateId } },
			deps,
		)
		const [row] = await deps.db
			.select()
			.from(outbox)
			.where(inArray(outbox.id, [id]))
		expect(row!.text).toBe(`Call me?\n– Test Staffing\nYour data: http://localhost:3000/careers/${ws.slug}/privacy`)
	})
})
