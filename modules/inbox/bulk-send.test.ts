/**
 * Send message from a template to several people at once (issues 31 and 32): from the candidates
 * list and from a job's stage list. Each record gets its own message with the merge fields filled
 * for it (an application's job fills the job's), in its conversation, one activity line each; a
 * record the template cannot be filled for, or whose contact details do not allow its channel, is
 * refused with the reason while the others are sent; one message per person; the report is shown
 * once. Through the route, and the one-per-person rule through its service (`bulkSendMessage`).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Actor } from '../../core/actor.ts'
import { newPerson, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'
import { personActor } from '../auth/index.ts'
import { createTemplate } from '../templates/service.ts'
import { bulkSendMessage } from './bulk-send-service.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
let recruiter: Awaited<ReturnType<typeof newPerson>>
const mailTo = (address: string) =>
	deps.database.rows<{ subject: string; text: string }>(
		sql`select subject, text from outbox where workspace_id = ${ws.id} and "to" = ${address} order by created_at`,
	)

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	recruiter = await newPerson(ws, 'recruiter', {}, deps)
})

/** A template of the person's own, for e-mail. */
const emailTemplate = (actor: Actor, name: string, subject: string, body: string) =>
	createTemplate(deps, actor, { name, channel: 'email', kind: 'transactional', subject, body, shared: false })

describe('bulk Send message from a template', () => {
	test('from /candidates: each gets the template filled for them; a field without a value is refused naming it', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const hello = await emailTemplate(actor, 'Hello', 'Hello {{candidate.firstName}}', 'Hi {{candidate.firstName}}, {{recruiter.name}} here.')
		const withJob = await emailTemplate(actor, 'About the job', 'Your application', 'About {{job.title}}.')
		const ids = [
			await newCandidate(ws, { name: 'Ada Bulkwell', email: 'ada.bulk@mail.example' }, deps),
			await newCandidate(ws, { name: 'Ben Bulkwell', email: 'ben.bulk@mail.example' }, deps),
		]
		const c = await signedIn(recruiter)
		const list = await c.get('/candidates')
		expect(list.text).toContain('formaction="/inbox/bulk-send">Send message</button>')
		expect(list.text).toContain(`<option value="${hello.id}">Hello (E-mail)</option>`)
		const res = await c.submit('/inbox/bulk-send', { candidate: ids, templateId: hello.id, back: '/candidates' })
		expect(res.redirectedTo).toBe('/inbox/bulk-send')
		expect(res.text).toContain('2 records done.')
		expect((await mailTo('ada.bulk@mail.example'))[0]).toMatchObject({ subject: 'Hello Ada' })
		expect((await mailTo('ada.bulk@mail.example'))[0]!.text).toStartWith('Hi Ada, recruiter person here.')
		expect((await mailTo('ben.bulk@mail.example'))[0]!.subject).toBe('Hello Ben')
		// Each is in the person's conversation, one activity line each.
		expect(await deps.database.rows(sql`select id from inbox_threads where candidate_id in (${ids[0]}, ${ids[1]})`)).toHaveLength(2)
		expect(
			(
				await deps.db
					.select()
					.from(activity)
					.where(and(eq(activity.workspaceId, ws.id), inArray(activity.targetId, ids)))
			).length,
		).toBeGreaterThanOrEqual(2)
		// The report is shown once.
		expect((await c.get('/inbox/bulk-send')).text).not.toContain('2 records done.')
		// {{job.title}} has no value for a candidate without an application: refused, nothing sent.
		await c.get('/candidates')
		const refused = await c.submit('/inbox/bulk-send', { candidate: [ids[0]!], templateId: withJob.id })
		expect(refused.text).toContain('1 refused')
		expect(refused.text).toContain('{{job.title}}')
		expect(await mailTo('ada.bulk@mail.example')).toHaveLength(1)
	})

	test('from a job’s stage list: the application’s job fills the job fields; no e-mail address is refused; a hiring manager gets no Send message', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const template = await emailTemplate(
			actor,
			'Screening invite',
			'Screening for {{job.title}}',
			'Hi {{candidate.firstName}}, let us talk about {{job.title}}.',
		)
		const jobId = await newVendorJob(ws, { title: 'Kotlin Engineer' }, deps)
		const reachable = await newCandidate(ws, { name: 'Cleo Stagewise', email: 'cleo.stage@mail.example' }, deps)
		const noEmail = await newCandidate(ws, { name: 'Dev Nomail', email: '' }, deps)
		const apps = [await newApplication(ws, reachable, jobId, {}, deps), await newApplication(ws, noEmail, jobId, {}, deps)]
		const c = await signedIn(recruiter)
		const stage = await c.get(`/jobs/${jobId}?stage=applied`)
		expect(stage.text).toContain('formaction="/inbox/bulk-send">Send message</button>')
		const res = await c.submit('/inbox/bulk-send', { application: apps, templateId: template.id, back: `/jobs/${jobId}` })
		expect(res.text).toContain('1 record done, 1 refused.')
		expect((await mailTo('cleo.stage@mail.example'))[0]).toMatchObject({ subject: 'Screening for Kotlin Engineer' })
		const manager = await signedIn(await newPerson(ws, 'hiring_manager', {}, deps))
		expect((await manager.post('/inbox/bulk-send', { application: apps, templateId: template.id })).status).toBe(403)
	})

	test('a candidate ticked with one of their applications gets one message, not two', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const template = await emailTemplate(actor, 'Once only', 'Hello {{candidate.firstName}}', 'Hi {{candidate.firstName}}.')
		const jobId = await newVendorJob(ws, { title: 'Rust Engineer' }, deps)
		const candidate = await newCandidate(ws, { name: 'Ivy Oncemore', email: 'ivy.once@mail.example' }, deps)
		const application = await newApplication(ws, candidate, jobId, {}, deps)
		const c = await signedIn(recruiter)
		await c.get('/candidates')
		const res = await c.submit('/inbox/bulk-send', { candidate: [candidate], application: [application], templateId: template.id, back: '/candidates' })
		expect(res.text).toContain('Already sent this message: one message per person.')
		expect(await mailTo('ivy.once@mail.example')).toEqual([expect.objectContaining({ subject: 'Hello Ivy' })])
	})

	test('two applications of one person, and the person ticked too, are one message: the first application’s', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const template = await emailTemplate(actor, 'Which job', 'About {{job.title}}', 'Hi {{candidate.firstName}}.')
		const candidate = await newCandidate(ws, { name: 'Jo Twiceover', email: 'jo.twice@mail.example' }, deps)
		const applications = [
			await newApplication(ws, candidate, await newVendorJob(ws, { title: 'Go Engineer' }, deps), {}, deps),
			await newApplication(ws, candidate, await newVendorJob(ws, { title: 'Zig Engineer' }, deps), {}, deps),
		]
		// Applications come first whatever the order ticked, and the same id twice counts once.
		const sent = await bulkSendMessage(deps, actor, { templateId: template.id, candidateIds: [candidate, candidate], applicationIds: applications })
		expect(sent.action).toBe('Send “Which job”')
		expect(sent.lines.map((l) => [l.name, l.result])).toEqual([
			['Jo Twiceover', 'done'],
			['Jo Twiceover', 'unchanged'],
			['Jo Twiceover', 'unchanged'],
		])
		expect(await mailTo('jo.twice@mail.example')).toEqual([expect.objectContaining({ subject: 'About Go Engineer' })])
	})

	test('a record refused sends nothing: the same person’s next record is still tried, and sent or refused for its own reason', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const template = await emailTemplate(actor, 'With the link', 'About {{job.title}}', 'See {{job.url}}')
		const candidate = await newCandidate(ws, { name: 'Kit Retryable', email: 'kit.retry@mail.example' }, deps)
		// A closed job has no {{job.url}}: its application is refused, the open one's is sent.
		const closed = await newApplication(ws, candidate, await newVendorJob(ws, { title: 'Closed Role', status: 'Closed' }, deps), {}, deps)
		const open = await newApplication(ws, candidate, await newVendorJob(ws, { title: 'Open Role' }, deps), {}, deps)
		const sent = await bulkSendMessage(deps, actor, { templateId: template.id, candidateIds: [candidate], applicationIds: [closed, open] })
		expect(sent.lines.map((l) => [l.result, l.note?.includes('{{job.url}}') ?? false])).toEqual([
			['refused', true],
			['done', false],
			['unchanged', false],
		])
		expect(await mailTo('kit.retry@mail.example')).toEqual([expect.objectContaining({ subject: 'About Open Role' })])
		// Refused for every record: each says why, none says it was sent.
		const refused = await bulkSendMessage(deps, actor, { templateId: template.id, candidateIds: [candidate], applicationIds: [closed] })
		expect(refused.lines.map((l) => l.result)).toEqual(['refused', 'refused'])
		expect(await mailTo('kit.retry@mail.example')).toHaveLength(1)
	})

	test('more than 50 records sends nothing and says so: never cut short', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const t = await emailTemplate(actor, 'Many', 'Hello', 'Hi')
		const real = await newCandidate(ws, { name: 'Eve Toomany', email: 'eve.toomany@mail.example' }, deps)
		const ticked = [real, ...Array.from({ length: 50 }, (_, i) => `cand_toomany${String(i).padStart(12, '0')}`)]
		const c = await signedIn(recruiter)
		await c.get('/candidates')
		const res = await c.submit('/inbox/bulk-send', { candidate: ticked, templateId: t.id, back: '/candidates' })
		expect(res.redirectedTo).toBe('/inbox/bulk-send')
		expect(res.text).toContain('Nothing sent: choose at most 50 records at once (51 were ticked)')
		expect(await mailTo('eve.toomany@mail.example')).toHaveLength(0)
	})

	test('one record failing unexpectedly is reported refused (logged, no details) and the others are sent', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const t = await emailTemplate(actor, 'Half', 'Hello', 'Hi')
		const ids = [
			await newCandidate(ws, { name: 'Fay Halfway', email: 'fay.half@mail.example' }, deps),
			await newCandidate(ws, { name: 'Gus Halfway', email: 'gus.half@mail.example' }, deps),
			await newCandidate(ws, { name: 'Hal Halfway', email: 'hal.half@mail.example' }, deps),
		]
		// The database refuses the second one's mail: a failure no service words as a refusal.
		await deps.db.execute(
			sql.raw(
				`create or replace function bulk_send_test_fail() returns trigger language plpgsql as $$ begin if new."to" = 'gus.half@mail.example' then raise exception 'boom: internal detail'; end if; return new; end $$`,
			),
		)
		await deps.db.execute(sql.raw('create trigger bulk_send_test_fail before insert on outbox for each row execute function bulk_send_test_fail()'))
		try {
			const c = await signedIn(recruiter)
			await c.get('/candidates')
			const res = await c.submit('/inbox/bulk-send', { candidate: ids, templateId: t.id, back: '/candidates' })
			expect(res.redirectedTo).toBe('/inbox/bulk-send')
			expect(res.text).toContain('2 records done, 1 refused.')
			expect(res.text).toContain('<td>Gus Halfway</td>')
			expect(res.text).toContain('Could not be done: something went wrong on our side')
			expect(res.text).not.toContain('boom')
			expect(await mailTo('fay.half@mail.example')).toHaveLength(1)
			expect(await mailTo('hal.half@mail.example')).toHaveLength(1)
			// Its own transaction: nothing of it was kept (no conversation).
			expect(await deps.database.rows(sql`select id from inbox_threads where candidate_id = ${ids[1]!}`)).toHaveLength(0)
		} finally {
			await deps.db.execute(sql.raw('drop trigger if exists bulk_send_test_fail on outbox'))
			await deps.db.execute(sql.raw('drop function if exists bulk_send_test_fail()'))
		}
	})
})
