/**
 * Job alerts of the careers site, checked on what a real SMTP server receives: double opt-in (no
 * digest before the link is confirmed, the token stored only hashed), a digest of only the new open
 * matching jobs since the last one, at most one a day, `alerts send [--workspace S]`, the one-click
 * unsubscribe (RFC 8058 POST, and the link in the text) with `List-Unsubscribe` headers, a
 * candidate's alerts in their data export and gone with their erasure, and one alert per address
 * in either spelling (core/email.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { hashSecret } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { normalDomain } from '../../core/email.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { runCommand } from '../../core/commands.ts'
import { awayFromMinuteEdge, clock, newWorkspace, testApp, testDeps, type TestWorkspace, unique } from '../../tests/helpers.ts'
import { PortalClient, portalApp } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { newCandidate, newPublicJob as addJob } from '../../tests/staffing-fixtures.ts'
import { operatorActor } from '../auth/index.ts'
import { deliverDue, outboxSince, PRIVATE_MARKER, textToSend, UNSUBSCRIBED, unsubscribeUrl } from '../outbox/index.ts'
import { outbox, outboxUnsubscribes } from '../outbox/table.ts'
import { eraseCandidate, exportCandidate } from '../privacy/index.ts'
import { ALERTS_PER_MINUTE } from './alert-routes.ts'
import { ALERT_CONFIRM_HOURS, alertAddresses, confirmAlert, DAY_MS, forgetUnconfirmedAlerts, PUBLISH_SETTLE_MS, requestAlert } from './alerts.ts'
import { NO_CRITERIA } from './search.ts'
import { jobAlerts } from './table.ts'

setDefaultTimeout(60_000)

let smtp: TestSmtp
beforeAll(async () => {
	await testApp()
	smtp = await startSmtp()
}, 180_000)
afterAll(() => smtp.stop())
afterEach(() => clock.reset())

const mailer = () => portalApp({ SMTP_URL: smtp.url, BASE_URL: 'http://localhost:3000' })
const deliver = async (ws: TestWorkspace) => deliverDue((await mailer()).deps, { workspaceId: ws.id })
const header = (mail: { parsed: { headers: { key: string; value: unknown }[] } }, key: string) =>
	mail.parsed.headers.find((h) => h.key === key)?.value as string | undefined
const alertsOf = async (ws: TestWorkspace) => (await testDeps()).db.select().from(jobAlerts).where(eq(jobAlerts.workspaceId, ws.id))

describe('job alerts from a search', () => {
	test('double opt-in, a digest of only new open matching jobs, at most daily, alerts send --workspace, one-click unsubscribe', async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const other = await newWorkspace()
		const email = `${unique('seeker')}@example.test`
		const before = await addJob(ws, { title: 'Java Developer', publishedAt: new Date(Date.now() - 60 * 60_000) })

		// Asked for from the search's form: pending, and a confirmation e-mail whose link is sealed in the outbox.
		const browser = new PortalClient(app)
		const search = await browser.get(`/careers/${ws.slug}?q=java&type=Contract`)
		expect(search.text).toContain('Get new jobs like this by e-mail')
		const asked = await browser.post(`/careers/${ws.slug}/alerts`, { q: 'java', type: 'Contract', email: `  ${email.toUpperCase()} ` })
		expect(asked.status).toBe(200)
		expect(asked.text).toContain(`we sent a link to ${email} to confirm the alert`)
		const [pending] = await alertsOf(ws)
		expect(pending).toMatchObject({ email, q: 'java', type: 'Contract', location: '', remote: false, status: 'pending' })
		const [queued] = await deps.db.select().from(outbox).where(eq(outbox.to, email))
		expect(queued!.text).toContain(PRIVATE_MARKER)
		expect(queued!.text).not.toContain('/alerts/confirm/')

		// Nothing but the confirmation before confirming, even with a new matching job.
		await addJob(ws, { title: 'Java Engineer', contractType: 'C2C' })
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 0, jobs: 0 })
		await deliver(ws)
		const [confirmation] = smtp.to(email)
		expect(smtp.to(email)).toHaveLength(1)
		expect(confirmation!.parsed.subject).toBe('Confirm your job alert from Test Staffing')
		expect(header(confirmation!, 'list-unsubscribe')).toBeUndefined()
		const link = /http:\/\/localhost:3000(\/careers\/[^/]+\/alerts\/confirm\/([A-Za-z0-9]+))/.exec(confirmation!.parsed.text ?? '')
		expect(link).not.toBeNull()
		const [path, token] = [link![1]!, link![2]!]
		expect(pending!.confirmHash).toBe(hashSecret(token))

		// Opening the link only asks; Confirm starts the alert; the link works once.
		const opened = await browser.get(path)
		expect(opened.text).toContain('<button type="submit">Confirm</button>')
		expect((await alertsOf(ws))[0]!.status).toBe('pending')
		expect((await browser.get(`${path.slice(0, -3)}aaa`)).status).toBe(404)
		const confirmed = await browser.post(path)
		expect(confirmed.status).toBe(200)
		expect(confirmed.text).toContain('Job alert confirmed')
		expect((await browser.post(path)).status).toBe(404)
		expect((await alertsOf(ws))[0]).toMatchObject({ status: 'active', confirmHash: null })

		// New since confirming: a matching contract job; not a full-time one, a Python one, a closed one, or one before.
		const fresh = await addJob(ws, { title: 'Senior Java Developer', contractType: 'W2' })
		await addJob(ws, { title: 'Java Lead', contractType: 'Fulltime' })
		await addJob(ws, { title: 'Python Developer', contractType: 'C2C' })
		await addJob(ws, { title: 'Java Architect', contractType: 'C2C', status: 'Closed', closedAt: new Date() })
		await addJob(other, { title: 'Java Developer', contractType: 'C2C' })
		clock.advance(PUBLISH_SETTLE_MS) // a digest holds jobs published until a minute before it
		expect((await runCommand(deps, 'alerts send', { workspace: other.slug, json: true })).json).toEqual({ digests: 0, jobs: 0 })
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 1, jobs: 1 })
		await deliver(ws)
		const digest = smtp.to(email)[1]!
		expect(digest.parsed.subject).toBe('1 new job at Test Staffing')
		const text = digest.parsed.text ?? ''
		expect(text).toContain(`http://localhost:3000/careers/${ws.slug}/jobs/${fresh.slug}`)
		expect(text).not.toContain(before.slug)
		expect(text.match(/\/jobs\//g)).toHaveLength(1)
		const unsubscribe = /^<(http:\/\/localhost:3000\/unsubscribe\/[^>]+)>$/.exec(header(digest, 'list-unsubscribe') ?? '')?.[1]
		expect(unsubscribe).toBeDefined()
		expect(header(digest, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
		expect(text).toContain(`Unsubscribe from job alerts: ${unsubscribe}`)
		expect(text).toContain(`\n-- \nTest Staffing\nhttp://localhost:3000/careers/${ws.slug}`)

		// At most one a day: a new job waits for the next day, and then comes alone.
		const later = await addJob(ws, { title: 'Java Developer II', contractType: 'C2C' })
		expect((await runCommand(deps, 'alerts send', { json: true })).json).toMatchObject({ digests: 0 })
		clock.advance(DAY_MS - 60_000)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 0, jobs: 0 })
		clock.advance(2 * 60_000)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 1, jobs: 1 })
		await deliver(ws)
		const second = smtp.to(email)[2]!.parsed.text ?? ''
		expect(second).toContain(later.slug)
		expect(second).not.toContain(fresh.slug)

		// One click (a mail app's POST, no cookies): the alert is gone, and nothing more is sent.
		const oneClick = await new PortalClient(app).request('POST', new URL(unsubscribe!).pathname, {
			body: 'List-Unsubscribe=One-Click',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect(oneClick.status).toBe(200)
		expect(oneClick.text).toContain('You are unsubscribed')
		expect(await alertsOf(ws)).toEqual([])
		await addJob(ws, { title: 'Java Developer III', contractType: 'C2C' })
		clock.advance(2 * DAY_MS)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 0, jobs: 0 })
		await expect(runCommand(deps, 'alerts send', { workspace: 'no-such-workspace' })).rejects.toThrow('No workspace with the slug "no-such-workspace"')
		// Alert mail is no conversation: the inbox (which reads outboxSince) copies none of it.
		expect(await deps.db.select().from(outbox).where(eq(outbox.to, email))).toHaveLength(3)
		expect((await outboxSince(deps.db, { workspaceId: ws.id, limit: 100 })).filter((r) => r.to === email)).toEqual([])
	})

	test('the unsubscribe link in the text asks first, then unsubscribes; an alert with no new jobs sends nothing', async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const email = `${unique('seeker')}@example.test`
		await requestAlert(deps, ws, email, NO_CRITERIA)
		await deliver(ws)
		const token = /\/alerts\/confirm\/([A-Za-z0-9]+)/.exec(smtp.to(email)[0]!.parsed.text ?? '')![1]!
		const alert = await confirmAlert(deps, ws.id, token)
		expect(alert).not.toBeNull()
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 0, jobs: 0 })
		await addJob(ws, { title: 'Anything at all' })
		clock.advance(PUBLISH_SETTLE_MS)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 1, jobs: 1 })
		await deliver(ws)
		const digest = smtp.to(email)[1]!
		const path = new URL(/Unsubscribe from job alerts: (\S+)/.exec(digest.parsed.text ?? '')![1]!).pathname
		const browser = new PortalClient(app)
		expect((await browser.get(path)).text).toContain('<button type="submit">Unsubscribe</button>')
		expect(await alertsOf(ws)).toHaveLength(1)
		expect((await browser.post(path)).text).toContain('You are unsubscribed')
		expect(await alertsOf(ws)).toEqual([])
		// The alert is gone, and the record of its unsubscribe with it (nothing is kept under an id that no longer exists).
		expect(await deps.db.select().from(outboxUnsubscribes).where(eq(outboxUnsubscribes.recipientId, alert!.id))).toEqual([])
	})

	test('asking again sends a new link (the old one stops working); a confirmed alert is not asked again; a bad address is refused', async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const email = `${unique('seeker')}@example.test`
		// Delivered one at a time: the worker may send a batch in any order.
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, remote: true })
		await deliver(ws)
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, remote: true })
		await deliver(ws)
		const tokens = smtp.to(email).map((m) => /\/alerts\/confirm\/([A-Za-z0-9]+)/.exec(m.parsed.text ?? '')![1]!)
		expect(tokens).toHaveLength(2)
		expect(await confirmAlert(deps, ws.id, tokens[0]!)).toBeNull()
		expect(await confirmAlert(deps, ws.id, tokens[1]!)).not.toBeNull()
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, remote: true })
		await deliver(ws)
		expect(smtp.to(email)).toHaveLength(2)
		expect(await alertsOf(ws)).toHaveLength(1)

		const browser = new PortalClient(app)
		await browser.get(`/careers/${ws.slug}`)
		const refused = await browser.post(`/careers/${ws.slug}/alerts`, { email: 'not an address' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Enter an e-mail address like name@example.com')
		expect(refused.text).toContain('href="#alert-email"')
		const badSearch = await browser.post(`/careers/${ws.slug}/alerts`, { email, type: 'Freelance' })
		expect(badSearch.status).toBe(400)
		expect(await alertsOf(ws)).toHaveLength(1)

		// One address may ask for ALERTS_PER_MINUTE a minute; then it is told to wait.
		await awayFromMinuteEdge()
		const office = new PortalClient(app, { address: `203.0.113.${Math.floor(Math.random() * 250) + 1}` })
		await office.get(`/careers/${ws.slug}`)
		for (let i = 0; i < ALERTS_PER_MINUTE; i++) expect((await office.post(`/careers/${ws.slug}/alerts`, { email: `n${i}-${email}` })).status).toBe(200)
		const limited = await office.post(`/careers/${ws.slug}/alerts`, { email: `late-${email}` })
		expect(limited.status).toBe(429)
		expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(limited.text).toContain('Too many alerts were asked for from your network')
		expect(await alertsOf(ws)).toHaveLength(1 + ALERTS_PER_MINUTE)
	})
})

describe('a job published while a digest is made', () => {
	test('comes in the next digest: a publish that commits after the digest read the jobs is not skipped', async () => {
		const { deps } = await mailer()
		const ws = await newWorkspace()
		const email = `${unique('seeker')}@example.test`
		await requestAlert(deps, ws, email, NO_CRITERIA)
		await deliver(ws)
		await confirmAlert(deps, ws.id, /\/alerts\/confirm\/([A-Za-z0-9]+)/.exec(smtp.to(email)[0]!.parsed.text ?? '')![1]!)
		// Published after the confirmation, never in its millisecond: a digest holds jobs published after it.
		await addJob(ws, { title: 'Published before the digest', publishedAt: new Date(deps.now().getTime() + 1) })
		clock.advance(PUBLISH_SETTLE_MS + 1_000)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 1, jobs: 1 })
		// Sent before the next is queued: two digests delivered in one round reach the SMTP server in either order.
		await deliver(ws)
		// A publish whose transaction began 20 seconds before the digest and committed after it: its
		// publication time is before the digest, yet the digest could not see it.
		const late = await addJob(ws, { title: 'Committed after the digest', publishedAt: new Date(deps.now().getTime() - 20_000) })
		clock.advance(DAY_MS + PUBLISH_SETTLE_MS)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 1, jobs: 1 })
		await deliver(ws)
		const texts = smtp.to(email).map((m) => m.parsed.text ?? '')
		expect(texts[2]).toContain(late.slug)
		expect(texts.filter((t) => t.includes('/jobs/'))).toHaveLength(2)
	})
})

describe('unsubscribing', () => {
	/** An alert asked for and confirmed through the link its confirmation mail holds. */
	async function confirmedAlert(deps: AppDeps, ws: TestWorkspace, email: string, q: string) {
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, q })
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, ws.id), eq(outbox.to, email)))
			.orderBy(sql`${outbox.seq} desc`)
			.limit(1)
		const token = /\/alerts\/confirm\/([A-Za-z0-9]+)/.exec(await textToSend(deps.secret, mail!))![1]!
		return (await confirmAlert(deps, ws.id, token))!
	}

	test(`a confirmation link works for ${ALERT_CONFIRM_HOURS} hours; then it says so, and the sweep deletes the pending alert (a typed address is not kept)`, async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const email = `${unique('late')}@example.test`
		await requestAlert(deps, ws, email, NO_CRITERIA)
		await deliver(ws)
		const token = /\/alerts\/confirm\/([A-Za-z0-9]+)/.exec(smtp.to(email)[0]!.parsed.text ?? '')![1]!
		const browser = new PortalClient(app)
		clock.advance(ALERT_CONFIRM_HOURS * 3_600_000 - 60_000)
		expect(await forgetUnconfirmedAlerts(deps, { workspaceId: ws.id })).toBe(0)
		expect((await browser.get(`/careers/${ws.slug}/alerts/confirm/${token}`)).status).toBe(200)
		clock.advance(2 * 60_000)
		const late = await browser.get(`/careers/${ws.slug}/alerts/confirm/${token}`)
		expect(late.status).toBe(404)
		expect(late.text).toContain(`more than ${ALERT_CONFIRM_HOURS} hours old`)
		expect(await confirmAlert(deps, ws.id, token)).toBeNull()
		expect(await forgetUnconfirmedAlerts(deps, { workspaceId: ws.id })).toBe(1)
		expect(await alertsOf(ws)).toHaveLength(0)
	})

	test('one alert’s one-click unsubscribe stops every alert of that address in the workspace, as the page says; others stay', async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const other = await newWorkspace()
		const email = `${unique('two')}@example.test`
		const java = await confirmedAlert(deps, ws, email, 'java')
		await confirmedAlert(deps, ws, email, 'kotlin')
		await confirmedAlert(deps, ws, `else-${email}`, 'java')
		await confirmedAlert(deps, other, email, 'java')
		const oneClick = await new PortalClient(app).request('POST', new URL(unsubscribeUrl(deps, ws.id, { type: 'job_alert', id: java.id })).pathname, {
			body: 'List-Unsubscribe=One-Click',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect(oneClick.text).toContain('You will no longer receive job alerts from this firm.')
		expect((await alertsOf(ws)).map((a) => a.email)).toEqual([`else-${email}`])
		expect((await alertsOf(other)).map((a) => a.email)).toEqual([email])
	})

	test('an alert deleted takes its outbox traces: digests still queued for the address are not sent, and no unsubscribe stays keyed by a deleted alert', async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const email = `${unique('gone')}@example.test`
		const java = await confirmedAlert(deps, ws, email, 'java')
		const kotlin = await confirmedAlert(deps, ws, email, 'kotlin')
		const ids = [java.id, kotlin.id]
		await addJob(ws, { title: 'Java and Kotlin Developer', publishedAt: new Date(deps.now().getTime() + 1) })
		clock.advance(PUBLISH_SETTLE_MS + 1_000)
		expect((await runCommand(deps, 'alerts send', { workspace: ws.slug, json: true })).json).toEqual({ digests: 2, jobs: 2 })
		const digests = () =>
			deps.db
				.select()
				.from(outbox)
				.where(and(eq(outbox.workspaceId, ws.id), eq(outbox.recipientType, 'job_alert')))
		expect((await digests()).map((m) => m.status)).toEqual(['pending', 'pending'])
		const unsubscribes = () => deps.database.rows(sql`select * from outbox_unsubscribes where recipient_id = any(${sql.param(ids)}::text[])`)

		// One click on the java digest's link, before either digest went out.
		const path = new URL(unsubscribeUrl(deps, ws.id, { type: 'job_alert', id: java.id })).pathname
		expect((await new PortalClient(app).post(path)).text).toContain('You are unsubscribed')
		expect(await alertsOf(ws)).toEqual([])
		expect(await unsubscribes()).toEqual([])
		expect((await digests()).map((m) => [m.status, m.lastError])).toEqual([
			['not_sent', UNSUBSCRIBED],
			['not_sent', UNSUBSCRIBED],
		])
		await deliver(ws)
		expect(smtp.to(email).filter((m) => m.parsed.subject?.includes('new job'))).toEqual([])
		// The link again (a mail app's one-click POST may repeat): the alert is long gone, and nothing is recorded under its id.
		const again = await new PortalClient(app).request('POST', path, {
			body: 'List-Unsubscribe=One-Click',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect(again.status).toBe(200)
		expect(await unsubscribes()).toEqual([])
	})

	test('a candidate who unsubscribes from the firm’s marketing mail gets no job alert either', async () => {
		const { app, deps } = await mailer()
		const ws = await newWorkspace()
		const email = `${unique('cand')}@example.test`
		const candidateId = await newCandidate(ws, { email })
		await confirmedAlert(deps, ws, email, 'java')
		const browser = new PortalClient(app)
		expect((await browser.post(new URL(unsubscribeUrl(deps, ws.id, { type: 'candidate', id: candidateId })).pathname)).status).toBe(200)
		expect(await alertsOf(ws)).toEqual([])
	})
})

describe('asked at the same moment', () => {
	test('eight requests at once for one address and search make one alert (on PostgreSQL each has its own connection)', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const email = `${unique('burst')}@example.test`
		await Promise.all(Array.from({ length: 8 }, () => requestAlert(deps, ws, email, { ...NO_CRITERIA, q: 'java' })))
		expect(await alertsOf(ws)).toHaveLength(1)
	})
})

describe('a candidate’s data', () => {
	test('their alerts (by e-mail address) are in their export and deleted by their erasure; others stay', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const email = `${unique('cand')}@example.test`
		const candidateId = await newCandidate(ws, { email })
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, q: 'java' })
		await requestAlert(deps, ws, `other-${email}`, NO_CRITERIA)
		const actor = operatorActor(ws)
		const exported = await exportCandidate(deps, actor, candidateId, 'test')
		const json = JSON.parse(strFromU8(unzipSync(exported.bytes)['candidate.json']!))
		expect(json.jobAlerts).toEqual([expect.objectContaining({ email, search: { q: 'java', location: '', remote: false, type: '' }, status: 'pending' })])
		await eraseCandidate(deps, actor, candidateId, 'test')
		expect((await alertsOf(ws)).map((a) => a.email)).toEqual([`other-${email}`])
		const [left] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from job_alerts where email = ${email}`)
		expect(Number(left!.n)).toBe(0)
	})
})

describe('one alert per address, in either spelling', () => {
	const newUnicodeDomain = () => {
		const unicode = `bücher-${unique('d')}.example`
		return { unicode, ascii: normalDomain(unicode)! }
	}

	test('asked in the Unicode spelling, then in ASCII with a trailing dot: one alert, kept and mailed in ASCII', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		expect(await requestAlert(deps, ws, `Ann@${domain.unicode.toUpperCase()}`, { ...NO_CRITERIA, q: 'java' })).toBe(`ann@${domain.ascii}`)
		expect(await requestAlert(deps, ws, `ann@${domain.ascii}.`, { ...NO_CRITERIA, q: 'java' })).toBe(`ann@${domain.ascii}`)
		expect((await alertsOf(ws)).map((a) => a.email)).toEqual([`ann@${domain.ascii}`])
		const mailed = await deps.db.select({ to: outbox.to }).from(outbox).where(eq(outbox.workspaceId, ws.id))
		expect(mailed.map((m) => m.to)).toEqual([`ann@${domain.ascii}`, `ann@${domain.ascii}`])
		// The notice repeats the address as its owner reads it, not its ASCII form.
		const browser = new PortalClient((await mailer()).app)
		await browser.get(`/careers/${ws.slug}?q=java`)
		const asked = await browser.post(`/careers/${ws.slug}/alerts`, { q: 'java', email: `ann@${domain.ascii}` })
		expect(asked.text).toContain(`we sent a link to ann@${domain.unicode} to confirm the alert`)
	})

	test('an alert stored before in the Unicode spelling is rewritten in ASCII at start: asking again in ASCII finds it', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		await requestAlert(deps, ws, `ann@${domain.ascii}`, NO_CRITERIA)
		const [old] = await alertsOf(ws)
		await deps.db
			.update(jobAlerts)
			.set({ email: `ann@${domain.unicode}.` })
			.where(eq(jobAlerts.id, old!.id))
		expect(await rewriteStoredAddresses(deps, alertAddresses)).toBeGreaterThanOrEqual(1)
		await requestAlert(deps, ws, `ann@${domain.ascii}`, NO_CRITERIA)
		expect((await alertsOf(ws)).map((a) => [a.id, a.email])).toEqual([[old!.id, `ann@${domain.ascii}`]])
	})

	test('a domain with no ASCII form is refused on the e-mail field, saying so', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		await expect(requestAlert(deps, ws, 'ann@exa mple.com', NO_CRITERIA)).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'email', message: '“exa mple.com” is not a domain name: it has no ASCII (IDNA) form' }],
		})
		expect(await alertsOf(ws)).toEqual([])
	})
})

describe('a search that cannot be one', () => {
	test('keywords of one character are refused on the q field, and no alert is kept (it could never send a job)', async () => {
		const ws = await newWorkspace()
		const browser = new PortalClient((await mailer()).app)
		await browser.get(`/careers/${ws.slug}`)
		const asked = await browser.post(`/careers/${ws.slug}/alerts`, { q: 'a', email: `${unique('seeker')}@example.test` })
		expect(asked.status).toBe(400)
		expect(asked.text).toContain('Keywords must have at least 2 characters')
		expect(asked.text).not.toContain('we sent a link')
		expect(await alertsOf(ws)).toEqual([])
	})
})
