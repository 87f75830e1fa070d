/**
 * Privacy requests (issue 30, candidate requests), through the real pages and the outbox: a person
 * asks on the workspace's public page (the same answer whether or not the address is known), the
 * sealed single-use link confirms it, owners see it at /privacy-requests with its 45-day deadline
 * and answer it (Send data, Erase, Decline), and the person is e-mailed the answer. Who may see and
 * answer; the links under every message to a candidate and on the apply form.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import type { AppDeps } from '../../core/deps.ts'
import { activity } from '../../modules/activity/table.ts'
import { personActor } from '../../modules/auth/index.ts'
import { candidateSubject } from '../../modules/candidates/index.ts'
import { createJob, setJobStatus } from '../../modules/jobs/service.ts'
import { enqueueMail, enqueueMessage, PRIVATE_MARKER, textToSend } from '../../modules/outbox/index.ts'
import { outbox } from '../../modules/outbox/table.ts'
import { confirmAlert, PUBLISH_SETTLE_MS, requestAlert, sendDigests } from '../../modules/careers/alerts.ts'
import { NO_CRITERIA } from '../../modules/careers/search.ts'
import { jobAlerts } from '../../modules/careers/table.ts'
import { forgetOldRequests } from '../../modules/privacy/requests.ts'
import { privacyRequests } from '../../modules/privacy/table.ts'
import { awayFromMinuteEdge, careersPagePath, clock, newPerson, newWorkspace, type TestWorkspace, unique } from '../helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../portal.ts'
import { newApplication, newCandidate, newPublicJob, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
beforeAll(async () => {
	;({ deps } = await portalApp())
}, 60_000)
afterEach(() => clock.reset())

const DAY = 86_400_000
const email = () => `${unique('req')}@example.test`

async function visitor(address = uniqueAddress()) {
	const { app } = await portalApp()
	return new PortalClient(app, { address })
}

/** Asks on the public page as a visitor (followed like a browser). */
async function ask(ws: TestWorkspace, address: string, kind: 'access' | 'erasure', note = '', client?: PortalClient) {
	client ??= await visitor()
	await client.get(`/careers/${ws.slug}/privacy`)
	return client.submit(`/careers/${ws.slug}/privacy`, { email: address, kind, note })
}

/** The confirmation mails queued to an address, and the link in the last one as its recipient gets it. */
async function confirmation(ws: TestWorkspace, to: string) {
	const rows = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, to), eq(outbox.workspaceId, ws.id)))
		.orderBy(outbox.seq)
	const last = rows.at(-1)!
	const sent = await textToSend(deps.secret, last)
	const token = new RegExp(`/careers/${ws.slug}/privacy/confirm/(bl_prq_[0-9A-Za-z]{36})`).exec(sent)![1]!
	return { rows, row: last, sent, token, path: `/careers/${ws.slug}/privacy/confirm/${token}` }
}

/** Asks and confirms; returns the request's id. */
async function confirmed(ws: TestWorkspace, address: string, kind: 'access' | 'erasure') {
	await ask(ws, address, kind)
	const { path } = await confirmation(ws, address)
	const client = await visitor()
	await client.get(path)
	const res = await client.submit(path)
	expect(res.redirectedTo).toBe(`/careers/${ws.slug}/privacy?done=confirmed`)
	const [row] = await deps.db
		.select()
		.from(privacyRequests)
		.where(and(eq(privacyRequests.email, address), eq(privacyRequests.kind, kind)))
	return row!
}

async function ownerOf(ws: TestWorkspace) {
	return signedIn(await newPerson(ws, 'owner', {}, deps))
}

/** The last mail to an address about its request, as the person gets it. */
async function answerTo(to: string) {
	const [row] = await deps.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(sql`${outbox.seq} desc`).limit(1)
	return { row: row!, text: await textToSend(deps.secret, row!) }
}

describe('asking', () => {
	test('known and unknown addresses get the same answer and the same mail; the link is sealed, stored hashed and works once', async () => {
		const ws = await newWorkspace(deps)
		const known = email()
		await newCandidate(ws, { email: known }, deps)
		const unknown = email()
		const a = await ask(ws, known.toUpperCase(), 'access')
		const b = await ask(ws, unknown, 'access')
		expect([a.status, b.status]).toEqual([200, 200])
		expect(a.redirectedTo).toBe(`/careers/${ws.slug}/privacy?done=sent`)
		expect(b.redirectedTo).toBe(a.redirectedTo)
		const body = (t: string) => t.replace(/name="csrf" value="[^"]*"/, '')
		expect(body(a.text)).toBe(body(b.text))
		expect(a.text).toContain('an e-mail is on its way')
		const [ka, kb] = [await confirmation(ws, known), await confirmation(ws, unknown)]
		expect(ka.rows.length).toBe(1)
		expect(kb.rows.length).toBe(1)
		expect(ka.row.subject).toBe(kb.row.subject)
		// Sealed: the outbox shows a marker; the token is stored only as its hash.
		expect(ka.row.text).toContain(PRIVATE_MARKER)
		expect(ka.row.text).not.toContain(ka.token)
		expect(ka.row.privateRevealable).toBe(false)
		const stored = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from privacy_requests where token_hash = ${ka.token}`)
		expect(stored[0]!.n).toBe(0)
		// Opening the link only asks; the post confirms; a second post is refused.
		const client = await visitor()
		const page = await client.get(ka.path)
		expect(page.status).toBe(200)
		expect(page.text).toContain('Confirm request')
		expect((await deps.db.select().from(privacyRequests).where(eq(privacyRequests.email, known)))[0]!.status).toBe('unconfirmed')
		expect((await client.submit(ka.path)).redirectedTo).toBe(`/careers/${ws.slug}/privacy?done=confirmed`)
		expect((await client.post(ka.path)).status).toBe(404)
		expect((await client.get(ka.path)).status).toBe(404)
		// Another workspace's page does not take this workspace's link.
		const other = await newWorkspace(deps)
		expect((await client.get(`/careers/${other.slug}/privacy/confirm/${kb.token}`)).status).toBe(404)
	})

	test('an expired link is refused and the sweep forgets the unconfirmed request; bad input keeps what was typed', async () => {
		const ws = await newWorkspace(deps)
		const address = email()
		await ask(ws, address, 'erasure', 'I applied in 2024')
		const { path } = await confirmation(ws, address)
		clock.advance(25 * 3_600_000)
		const client = await visitor()
		expect((await client.get(path)).status).toBe(404)
		await client.get(`/careers/${ws.slug}/privacy`)
		expect((await client.post(path)).status).toBe(404)
		expect(await forgetOldRequests(deps)).toBeGreaterThanOrEqual(1)
		expect(await deps.db.select().from(privacyRequests).where(eq(privacyRequests.email, address))).toEqual([])
		const refused = await ask(ws, 'not-an-address', 'erasure', 'my note')
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Enter your e-mail address')
		expect(refused.text).toContain('my note')
		expect((await ask(ws, email(), 'nothing' as never)).status).toBe(422)
	})

	test('five requests a minute from one client address, three for one e-mail address', async () => {
		const ws = await newWorkspace(deps)
		const client = await visitor()
		await awayFromMinuteEdge()
		for (let i = 0; i < 5; i++) expect((await ask(ws, email(), 'access', '', client)).status).toBe(200)
		const sixth = await ask(ws, email(), 'access', '', client)
		expect(sixth.status).toBe(429)
		expect(sixth.headers.get('retry-after')).toBeTruthy()
		const same = email()
		for (let i = 0; i < 3; i++) expect((await ask(ws, same, 'access')).status).toBe(200)
		expect((await ask(ws, same, 'access')).status).toBe(429)
	})
})

describe('answering', () => {
	test('a confirmed request is listed with its 45-day deadline; Send data e-mails a download link to the export', async () => {
		const ws = await newWorkspace(deps)
		const address = email()
		const candidateId = await newCandidate(ws, { email: address, name: 'Pat Requester' }, deps)
		const request = await confirmed(ws, address, 'access')
		expect(request.dueAt!.getTime() - request.confirmedAt!.getTime()).toBe(45 * DAY)
		const owner = await ownerOf(ws)
		const list = await owner.get('/privacy-requests')
		expect(list.status).toBe(200)
		expect(list.text.replaceAll('<wbr>', '')).toContain(address)
		expect(list.text).toContain('Pat Requester')
		expect(list.text).toContain('45 days left')
		expect(list.text).toContain('Send data')
		// A day later than due (the session would not last 46 days on the clock: the deadline moves instead).
		await deps.db
			.update(privacyRequests)
			.set({ dueAt: new Date(Date.now() - DAY - 60_000) })
			.where(eq(privacyRequests.id, request.id))
		expect((await owner.get('/privacy-requests')).text).toContain('<strong class="tag tag-bad">Overdue by 2 days</strong>')
		await deps.db.update(privacyRequests).set({ dueAt: request.dueAt }).where(eq(privacyRequests.id, request.id))
		const sent = await owner.submit(`/privacy-requests/${request.id}/send`)
		expect(sent.redirectedTo).toBe('/privacy-requests?done=sent')
		expect(sent.text).toContain('The data was sent.')
		const mail = await answerTo(address)
		expect(mail.row.subject).toBe('Your data')
		expect(mail.row.text).toContain(PRIVATE_MARKER)
		const link = new RegExp(`http://localhost:3000(/careers/${ws.slug}/privacy/download/bl_prq_[0-9A-Za-z]{36})`).exec(mail.text)![1]!
		const download = await (await visitor()).app.handle(new Request(`http://localhost${link}`))
		expect(download.status).toBe(200)
		expect(download.headers.get('content-type')).toBe('application/zip')
		const zip = unzipSync(new Uint8Array(await download.arrayBuffer()))
		expect(JSON.parse(strFromU8(zip['candidate.json']!)).candidateId).toBe(candidateId)
		const [line] = await deps.db
			.select()
			.from(activity)
			.where(and(eq(activity.targetType, 'privacy_request'), eq(activity.targetId, request.id)))
		expect(line!.action).toBe('privacy_request.data_sent')
		// Answered once; the link stops after 7 days.
		expect((await owner.post(`/privacy-requests/${request.id}/send`)).status).toBe(409)
		clock.advance(8 * DAY)
		expect((await (await visitor()).app.handle(new Request(`http://localhost${link}`))).status).toBe(404)
	})

	test('Erase erases the candidate with the address and tells the person; Decline needs a reason and sends it', async () => {
		const ws = await newWorkspace(deps)
		const address = email()
		const candidateId = await newCandidate(ws, { email: address }, deps)
		const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, {}, deps), {}, deps)
		const request = await confirmed(ws, address, 'erasure')
		const owner = await ownerOf(ws)
		// A federal contractor: the erasure keeps its anonymous applicant-flow record, and the person is told.
		await owner.get('/settings/privacy')
		expect((await owner.submit('/settings/privacy', { federalContractor: 'on', holdYears: '2', inactiveMonths: '' })).status).toBe(200)
		const erased = await owner.submit(`/privacy-requests/${request.id}/erase`)
		expect(erased.redirectedTo).toBe('/privacy-requests?done=erased')
		expect(await candidateSubject(deps, deps.db, ws.id, candidateId)).toBeNull()
		const told = await answerTo(address)
		expect(told.row.subject).toBe('Your data was erased')
		const [held] = await deps.database.rows<{ keepUntil: Date }>(sql`select keep_until as "keepUntil" from applicant_flow where id = ${applicationId}`)
		expect(told.text).toContain(
			`an anonymous record of your applications (the job, dates and outcome; no name or contact) until ${new Date(held!.keepUntil).toISOString().slice(0, 10)}`,
		)
		const actions = (await deps.db.select().from(activity).where(eq(activity.workspaceId, ws.id))).map((a) => a.action)
		expect(actions).toContain('candidate.erased')
		expect(actions).toContain('privacy_request.erased')

		// Nobody has this address: Send data is refused, Decline without a reason too, with one it is sent.
		const nobody = email()
		const none = await confirmed(ws, nobody, 'access')
		const page = await owner.get('/privacy-requests')
		expect(page.text).toContain('None in this workspace')
		const refused = await owner.post(`/privacy-requests/${none.id}/send`)
		expect(refused.status).toBe(409)
		expect(refused.text).toContain('Decline the request with the reason')
		for (const reason of [' ', '\u200b\u202e']) expect((await owner.post(`/privacy-requests/${none.id}/decline`, { reason })).status).toBe(422)
		// The reason is sent as typed, without direction controls or invisible characters (what the page shows is what goes).
		const declined = await owner.submit(`/privacy-requests/${none.id}/decline`, { reason: 'We hold no \u202edrocer\u202c with this e-mail address.\u200b' })
		expect(declined.redirectedTo).toBe('/privacy-requests?done=declined')
		expect(declined.text).toContain('We hold no drocer with this e-mail address.')
		const mail = await answerTo(nobody)
		expect(mail.text).toContain('We hold no drocer with this e-mail address.')
		expect(mail.text).not.toMatch(/[\u200b\u202a-\u202e]/)
		const [line] = await deps.db.select().from(activity).where(eq(activity.targetId, none.id))
		expect(line!.action).toBe('privacy_request.declined')
		// The activity log says it without the address (admins read the log, not the requests).
		const log = (await owner.get('/activity')).text
		expect(log).toContain('declined the privacy request')
		expect(log).toContain('for a copy of data of')
		expect(log).not.toContain(nobody)
		// Answered requests are kept 24 months, then the sweep deletes them.
		clock.advance(23 * 30 * DAY)
		await forgetOldRequests(deps)
		expect((await deps.db.select().from(privacyRequests).where(eq(privacyRequests.id, none.id))).length).toBe(1)
		clock.advance(2 * 30 * DAY)
		await forgetOldRequests(deps)
		expect((await deps.db.select().from(privacyRequests).where(eq(privacyRequests.id, none.id))).length).toBe(0)
	})

	test('someone with job alerts only (no candidate): Send data sends them, Erase deletes them and their mail, no digest follows', async () => {
		const ws = await newWorkspace(deps)
		const address = email()
		await newPublicJob(ws, { title: 'Java Developer', publishedAt: new Date(Date.now() - 3_600_000) }, deps)
		// Two alerts: one confirmed, one still pending; both hold the address.
		await requestAlert(deps, ws, address, { ...NO_CRITERIA, q: 'java' })
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, ws.id), eq(outbox.to, address)))
		const alertToken = /\/alerts\/confirm\/([a-z2-7]+)/i.exec(await textToSend(deps.secret, mail!))![1]!
		expect(await confirmAlert(deps, ws.id, alertToken)).not.toBeNull()
		await requestAlert(deps, ws, address, { ...NO_CRITERIA, q: 'kotlin' })
		const owner = await ownerOf(ws)

		const access = await confirmed(ws, address, 'access')
		const list = await owner.get('/privacy-requests')
		expect(list.text).toContain('2 job alerts')
		expect(list.text).not.toContain('Nothing is kept under this address')
		expect((await owner.submit(`/privacy-requests/${access.id}/send`)).redirectedTo).toBe('/privacy-requests?done=sent')
		const sent = await answerTo(address)
		expect(sent.text).toContain('one ZIP file with 2 job alerts')
		const link = new RegExp(`http://localhost:3000(/careers/${ws.slug}/privacy/download/bl_prq_[0-9A-Za-z]{36})`).exec(sent.text)![1]!
		const download = await (await visitor()).app.handle(new Request(`http://localhost${link}`))
		expect(download.status).toBe(200)
		const zip = unzipSync(new Uint8Array(await download.arrayBuffer()))
		const kept = JSON.parse(strFromU8(zip['email-address.json']!))
		expect(kept.email).toBe(address)
		expect(kept.jobAlerts.map((a: { search: { q: string }; status: string }) => [a.search.q, a.status]).sort()).toEqual([
			['java', 'active'],
			['kotlin', 'pending'],
		])

		// A digest waits in the outbox when the erasure comes: it is not sent, and no later one is.
		await newPublicJob(ws, { title: 'Java Engineer' }, deps)
		clock.advance(PUBLISH_SETTLE_MS) // a digest holds jobs published until a minute before it
		expect((await sendDigests(deps, { workspaceId: ws.id })).sent).toBe(1)
		const erasure = await confirmed(ws, address, 'erasure')
		expect((await owner.submit(`/privacy-requests/${erasure.id}/erase`)).redirectedTo).toBe('/privacy-requests?done=erased')
		expect(await deps.db.select().from(jobAlerts).where(eq(jobAlerts.workspaceId, ws.id))).toEqual([])
		const told = await answerTo(address)
		expect(told.row.subject).toBe('Your data was erased')
		expect(told.text).toContain('was erased: 2 job alerts.')
		const left = await deps.db.select().from(outbox).where(eq(outbox.workspaceId, ws.id))
		expect(left.filter((m) => m.to === address).map((m) => m.id)).toEqual([told.row.id])
		expect(left.filter((m) => m.status === 'pending' && m.id !== told.row.id)).toEqual([])
		clock.advance(2 * DAY)
		await newPublicJob(ws, { title: 'Java Lead' }, deps)
		expect((await sendDigests(deps, { workspaceId: ws.id })).sent).toBe(0)
		const [line] = await deps.db.select().from(activity).where(eq(activity.targetId, erasure.id))
		expect(line!.detail).toMatchObject({ kind: 'erasure', candidates: 0, jobAlerts: 2 })
	})

	test('only owners see and answer requests, and only their own workspace’s', async () => {
		const ws = await newWorkspace(deps)
		const address = email()
		await newCandidate(ws, { email: address }, deps)
		const request = await confirmed(ws, address, 'erasure')
		for (const role of ['admin', 'recruiter', 'hiring_manager', 'viewer']) {
			const client = await signedIn(await newPerson(ws, role, {}, deps))
			expect((await client.get('/privacy-requests')).status).toBe(403)
			expect((await client.post(`/privacy-requests/${request.id}/decline`, { reason: 'no' })).status).toBe(403)
			expect((await client.post(`/privacy-requests/${request.id}/erase`)).status).toBe(403)
		}
		const other = await newWorkspace(deps)
		const stranger = await ownerOf(other)
		const theirs = await stranger.get('/privacy-requests')
		expect(theirs.status).toBe(200)
		expect(theirs.text.replaceAll('<wbr>', '')).not.toContain(address)
		expect((await stranger.post(`/privacy-requests/${request.id}/decline`, { reason: 'no' })).status).toBe(404)
		expect((await stranger.post(`/privacy-requests/${request.id}/erase`)).status).toBe(404)
		const [row] = await deps.db.select().from(privacyRequests).where(eq(privacyRequests.id, request.id))
		expect(row!.status).toBe('open')
		// The owner's navigation links the page with its open count.
		expect((await (await ownerOf(ws)).get('/portal')).text).toMatch(/href="\/privacy-requests"[^>]*>Privacy requests <span class="count">1/)
	})
})

describe('links to the page', () => {
	test('every e-mail and message to a candidate links the privacy page; other mail does not', async () => {
		const ws = await newWorkspace(deps)
		const candidateId = await newCandidate(ws, {}, deps)
		const url = `http://localhost:3000/careers/${ws.slug}/privacy`
		const ids = await deps.db.transaction(async (tx) => [
			(
				await enqueueMail(
					tx,
					{ workspaceId: ws.id, to: 'c@example.test', subject: 'Hi', text: 'Hello', recipient: { type: 'candidate', id: candidateId } },
					deps,
				)
			).id,
			(await enqueueMessage(tx, { workspaceId: ws.id, to: '+15125550100', text: 'Hello', recipient: { type: 'candidate', id: candidateId } }, deps)).id,
			(await enqueueMail(tx, { workspaceId: ws.id, to: 'team@example.test', subject: 'Hi', text: 'Hello' }, deps)).id,
		])
		const rows = new Map((await deps.db.select().from(outbox).where(eq(outbox.workspaceId, ws.id))).map((r) => [r.id, r.text]))
		expect(rows.get(ids[0]!)).toContain(`Your data: ask for a copy or its erasure at ${url}`)
		expect(rows.get(ids[1]!)).toContain(`Your data: ${url}`)
		expect(rows.get(ids[2]!)).not.toContain(url)
	})

	test('the apply form links the privacy page, which opens', async () => {
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const job = await setJobStatus(deps, actor, (await createJob(deps, actor, { title: 'Data Engineer', requirements: ['SQL'] })).id, 'Open')
		const client = await visitor()
		const page = await client.get(await careersPagePath(job.url!, deps))
		expect(page.text).toContain(`<a href="/careers/${ws.slug}/privacy">its privacy page</a>`)
		const privacy = await client.get(`/careers/${ws.slug}/privacy`)
		expect(privacy.status).toBe(200)
		expect(privacy.text).toContain('Send me my data')
		expect(privacy.text).toContain('Erase my data')
	})
})
