/**
 * New message: from a template with merge fields filled in for the record (the job of the chosen
 * application), refused and named when a field has no value or is unknown (nothing sent, nothing
 * typed lost), by text message when the phone allows (recorded as not sent without a provider), to a
 * vendor, found by name from the inbox; threaded at once; only for people who read the inbox.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { newPerson, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import type { Actor } from '../../core/actor.ts'
import { personActor } from '../auth/index.ts'
import { outbox } from '../outbox/table.ts'
import { AppError } from '../../core/errors.ts'
import { composeMessage, recipientOf, startFromTemplate } from './compose.ts'
import { getTemplate, setSignature } from '../templates/index.ts'
import { messageTemplates } from '../templates/table.ts'
import { inboxMessages, inboxThreads } from './table.ts'

setDefaultTimeout(30_000)

let w: {
	ws: TestWorkspace
	owner: Actor
	recruiter: { email: string; password: string; userId: string }
	candidate: string
	email: string
	app: string
	template: string
	alert: string
	vendor: string
}

beforeAll(async () => {
	await testApp()
	const deps = await testDeps()
	const { ws, owner } = await workspaceWithOwner(deps)
	const recruiter = await newPerson(ws, 'recruiter', {}, deps)
	const email = `ava.${ws.slug}@example.test`
	const candidate = await newCandidate(ws, { name: 'Ava Jackson', email, phone: '512 555 0142' }, deps)
	await newApplication(ws, candidate, await newVendorJob(ws, { title: 'QA Lead' }, deps), {}, deps)
	const app = await newApplication(ws, candidate, await newVendorJob(ws, { title: 'Senior Java Developer' }, deps), {}, deps)
	const [template, alert] = ['tpl_compose_first', 'tpl_compose_alert'].map((id) => `${id}_${ws.slug}`)
	await deps.db.insert(messageTemplates).values([
		{
			id: template!,
			workspaceId: ws.id,
			name: 'First contact',
			channel: 'email',
			kind: 'transactional',
			subject: '{{job.title}} role',
			body: 'Hi {{candidate.firstName}}, about {{job.title}}.\n\n{{recruiter.signature}}',
		},
		{ id: alert!, workspaceId: ws.id, name: 'Alert', channel: 'email', kind: 'marketing', subject: 'New: {{job.title}}', body: 'See {{job.url}}' },
	])
	const vendor = await newSubmissionVendor(ws, { name: 'Apex Partners' }, deps)
	w = { ws, owner, recruiter, candidate, email, app, template: template!, alert: alert!, vendor }
}, 180_000)

describe('New message', () => {
	test('from a template on an application: filled in for that job, sent through the outbox with the footer, in the conversation at once', async () => {
		const deps = await testDeps()
		await setSignature(deps, await personActor(deps, w.ws.slug, w.recruiter.email), 'Rita, Test Staffing')
		const portal = await signedIn(w.recruiter)
		const started = await portal.get(`/inbox/new?application=${w.app}&template=${w.template}`)
		expect(started.status).toBe(200)
		expect(started.text).toContain('value="Senior Java Developer role"')
		expect(started.text).toContain('Hi Ava, about Senior Java Developer.\n\nRita, Test Staffing</textarea>')
		const sent = await portal.submit('/inbox/new', {
			application: w.app,
			template: w.template,
			channel: 'email',
			subject: 'Senior Java Developer role',
			body: 'Hi Ava, about {{job.title}}.',
		})
		expect(sent.redirectedTo).toMatch(/^\/inbox\/thr_[a-z2-7]+\?done=sent$/)
		expect(sent.text).toContain('Your message is on its way.')
		expect(sent.text).toContain('Hi Ava, about Senior Java Developer.')
		const [row] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, w.ws.id), eq(outbox.to, w.email)))
		expect(row).toMatchObject({
			subject: 'Senior Java Developer role',
			recipientType: 'candidate',
			recipientId: w.candidate,
			relatedType: 'application',
			relatedId: w.app,
			marketing: false,
		})
		expect(row!.text).toBe(
			`Hi Ava, about Senior Java Developer.\n\n-- \nTest Staffing\nhttp://localhost:3000/careers/${w.ws.slug}\nYour data: ask for a copy or its erasure at http://localhost:3000/careers/${w.ws.slug}/privacy`,
		)
		const [thread] = await deps.db.select().from(inboxThreads).where(eq(inboxThreads.candidateId, w.candidate))
		const messages = await deps.db.select().from(inboxMessages).where(eq(inboxMessages.threadId, thread!.id))
		expect(messages.map((m) => [m.outboxId, m.text])).toEqual([[row!.id, 'Hi Ava, about Senior Java Developer.']])
	})

	test('braces in a record’s own text are filled in once: what the form shows is what is sent, and it can be sent as shown', async () => {
		const deps = await testDeps()
		const candidate = await newCandidate(w.ws, { name: 'Eve {{recruiter.email}}', email: `eve.${w.ws.slug}@example.test` }, deps)
		const job = await newVendorJob(w.ws, { title: 'QA {{ Lead' }, deps)
		const app = await newApplication(w.ws, candidate, job, {}, deps)
		await setSignature(deps, w.owner, 'Olga, Test Staffing')
		const template = await getTemplate(deps, w.owner, w.template)
		const recipient = await recipientOf(deps, w.owner, { applicationId: app })
		const started = await startFromTemplate(deps, w.owner, recipient, template)
		expect(started.subject).toBe('QA { { Lead role')
		const sent = await composeMessage(deps, w.owner, {
			applicationId: app,
			channel: 'email',
			subject: started.subject,
			body: started.body,
			templateId: w.template,
		})
		const [row] = await deps.db.select().from(outbox).where(eq(outbox.id, sent.outboxId))
		expect(row!.subject).toBe('QA { { Lead role')
		expect(row!.text).not.toContain(w.recruiter.email)
		expect(row!.text).not.toContain('owner')
	})

	test('a value’s braces never make a field with the template’s: a candidate named {recruiter.email} in {{{candidate.name}}} is sent as written, and one named {x} can be sent', async () => {
		const deps = await testDeps()
		const id = `tpl_compose_braces_${w.ws.slug}`
		await deps.db.insert(messageTemplates).values({
			id,
			workspaceId: w.ws.id,
			name: 'Braces',
			channel: 'email',
			kind: 'transactional',
			subject: '{{{candidate.name}}}',
			body: 'Dear {{{candidate.name}}}',
		})
		const template = await getTemplate(deps, w.owner, id)
		for (const name of ['{recruiter.email}', '{x}']) {
			const candidate = await newCandidate(w.ws, { name, email: `braces.${name.length}.${w.ws.slug}@example.test` }, deps)
			const started = await startFromTemplate(deps, w.owner, await recipientOf(deps, w.owner, { candidateId: candidate }), template)
			expect(started.body).toBe(`Dear { ${name} }`)
			const sent = await composeMessage(deps, w.owner, {
				candidateId: candidate,
				channel: 'email',
				subject: started.subject,
				body: started.body,
				templateId: id,
			})
			const [row] = await deps.db.select().from(outbox).where(eq(outbox.id, sent.outboxId))
			expect([row!.subject, row!.text.split('\n')[0]]).toEqual([`{ ${name} }`, `Dear { ${name} }`])
		}
	})

	test('a merge field without a value, or an unknown one, refuses the message on its field; what was typed stays; nothing is queued', async () => {
		const deps = await testDeps()
		const login = await newPerson(w.ws, 'recruiter', {}, deps)
		const portal = await signedIn(login)
		const started = await portal.get(`/inbox/new?candidate=${w.candidate}&template=${w.template}`)
		expect(started.text).toContain('No value for <code>{{job.<wbr>title}}</code>, <code>{{recruiter.<wbr>signature}}</code> here')
		const refused = await portal.post('/inbox/new', {
			candidate: w.candidate,
			template: w.template,
			channel: 'email',
			subject: '{{job.title}} role',
			body: 'Hi {{candidate.firstName}}, {{recruiter.signature}} {{candidate.nick}}',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Subject has merge fields without a value for this candidate: {{job.title}} (choose the application the message is about).')
		expect(refused.text).toContain('Message {{candidate.nick}} is not a merge field.')
		expect(refused.text).toContain('Hi {{candidate.firstName}}, {{recruiter.signature}} {{candidate.nick}}</textarea>')
		const queued = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, w.ws.id), eq(outbox.subject, '{{job.title}} role')))
		expect(queued).toEqual([])
	})

	test('by text message when the phone allows: recorded as not sent without a provider, with the text footer; a job alert never goes to a vendor', async () => {
		const deps = await testDeps()
		const portal = await signedIn(w.recruiter)
		const sent = await portal.submit('/inbox/new', { candidate: w.candidate, channel: 'text', body: 'Free for a call, {{candidate.firstName}}?' })
		expect(sent.redirectedTo).toContain('?done=not-sent')
		const [row] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, w.ws.id), eq(outbox.to, '+15125550142')))
		expect(row).toMatchObject({
			channel: 'message',
			status: 'not_sent',
			text: `Free for a call, Ava?\n– Test Staffing\nYour data: http://localhost:3000/careers/${w.ws.slug}/privacy`,
		})
		const vendorPage = await portal.get(`/inbox/new?vendor=${w.vendor}`)
		expect(vendorPage.text).toContain('New message to Apex Partners')
		expect(vendorPage.text).not.toContain('Alert (E-mail, job alert)')
		const alert = await portal.post('/inbox/new', { vendor: w.vendor, template: w.alert, channel: 'email', subject: 'New', body: 'Hello' })
		expect(alert.status).toBe(422)
		expect(alert.text).toContain('job alerts go to candidates only')
		const toVendor = await portal.submit('/inbox/new', {
			vendor: w.vendor,
			channel: 'email',
			subject: 'Candidates for you',
			body: 'Hello {{vendor.contactName}}',
		})
		expect(toVendor.text).toContain('Hello Vera Vendor')
	})

	test('from the inbox: find the person by name; people who do not read the inbox cannot write', async () => {
		const portal = await signedIn(w.recruiter)
		const found = await portal.get('/inbox/new?q=Ava')
		expect(found.text).toContain(`href="/inbox/new?candidate=${w.candidate}"`)
		const vendors = await portal.get('/inbox/new?q=apex')
		expect(vendors.text).toContain(`href="/inbox/new?vendor=${w.vendor}"`)
		const manager = await signedIn(await newPerson(w.ws, 'hiring_manager'))
		expect((await manager.get(`/inbox/new?candidate=${w.candidate}`)).status).toBe(403)
		expect((await manager.post('/inbox/new', { candidate: w.candidate, channel: 'email', subject: 'x', body: 'y' })).status).toBe(403)
		// Another workspace's candidate is not found.
		const other = await newCandidate((await workspaceWithOwner(await testDeps())).ws)
		expect((await portal.get(`/inbox/new?candidate=${other}`)).status).toBe(404)
	})

	test('a subject is filled on one line: a two-line signature or a job title with a line break adds no header; too long once filled is refused on its field', async () => {
		const deps = await testDeps()
		const actor = await personActor(deps, w.ws.slug, w.recruiter.email)
		await setSignature(deps, actor, 'Dana Lee\nSenior Recruiter')
		try {
			// A title stored with a line break (the Job Publish API refuses one now; older rows may have it).
			const job = await newVendorJob(w.ws, { title: 'Placeholder' }, deps)
			await deps.db.execute(sql`update jobs set title = ${'Java Developer\r\nBcc: x@evil.example'} where id = ${job}`)
			const app = await newApplication(w.ws, w.candidate, job, {}, deps)
			const sent = await composeMessage(deps, actor, {
				applicationId: app,
				channel: 'email',
				subject: '{{job.title}}, from {{recruiter.signature}}',
				body: 'Hi\n\n{{recruiter.signature}}',
			})
			const [row] = await deps.db.select().from(outbox).where(eq(outbox.id, sent.outboxId))
			expect(row!.subject).toBe('Java Developer Bcc: x@evil.example, from Dana Lee Senior Recruiter')
			// The body keeps its lines.
			expect(row!.text).toStartWith('Hi\n\nDana Lee\nSenior Recruiter')
			// Within 200 as typed, over it once filled: refused on the subject, nothing sent, never a 500.
			await setSignature(deps, actor, `Dana Lee\n${'Senior Recruiter '.repeat(10)}`)
			const long = `${'x'.repeat(100)} {{recruiter.signature}}`
			const refused = await composeMessage(deps, actor, { candidateId: w.candidate, channel: 'email', subject: long, body: 'Hi' }).catch((e) => e)
			expect(refused).toBeInstanceOf(AppError)
			expect((refused as AppError).fields).toEqual([
				{ field: 'subject', message: expect.stringContaining('1 to 200 characters on one line once its merge fields are filled in') },
			])
			const portal = await signedIn(w.recruiter)
			await portal.get(`/inbox/new?candidate=${w.candidate}`)
			const page = await portal.post('/inbox/new', { candidate: w.candidate, channel: 'email', subject: long, body: 'Hi' })
			expect(page.status).toBe(422)
			expect(page.text).toContain('once its merge fields are filled in')
		} finally {
			await setSignature(deps, actor, '')
		}
	})
})
