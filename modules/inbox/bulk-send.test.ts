/**
 * Send message from a template to several people at once (issues 31 and 32): from the candidates
 * list and from a job's stage list. Each record gets its own message with the merge fields filled
 * for it (an application's job fills the job's), in its conversation, one activity line each; a
 * record the template cannot be filled for, or whose contact details do not allow its channel, is
 * refused with the reason while the others are sent; the report is shown once.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'
import { personActor } from '../auth/index.ts'
import { createTemplate } from '../templates/service.ts'

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

describe('bulk Send message from a template', () => {
	test('from /candidates: each gets the template filled for them; a field without a value is refused naming it', async () => {
		const actor = await personActor(deps, ws.slug, recruiter.email)
		const hello = await createTemplate(deps, actor, {
			name: 'Hello',
			channel: 'email',
			kind: 'transactional',
			subject: 'Hello {{candidate.firstName}}',
			body: 'Hi {{candidate.firstName}}, {{recruiter.name}} here.',
			shared: false,
		})
		const withJob = await createTemplate(deps, actor, {
			name: 'About the job',
			channel: 'email',
			kind: 'transactional',
			subject: 'Your application',
			body: 'About {{job.title}}.',
			shared: false,
		})
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
		const template = await createTemplate(deps, actor, {
			name: 'Screening invite',
			channel: 'email',
			kind: 'transactional',
			subject: 'Screening for {{job.title}}',
			body: 'Hi {{candidate.firstName}}, let us talk about {{job.title}}.',
			shared: false,
		})
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
})
