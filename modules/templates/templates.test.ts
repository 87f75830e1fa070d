/**
 * Message templates: merge fields (unknown refused when saved, missing named), who may make, see and
 * change which templates, the firm's footer, and the pages (new, refused, preview on a real record).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Actor } from '../../core/actor.ts'
import { AppError } from '../../core/errors.ts'
import { newPerson, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { fieldProblems, fieldsIn, fillIn } from './fields.ts'
import { createTemplate, deleteTemplate, footersOf, getTemplate, listTemplates, setFooters, setSignature, updateTemplate } from './service.ts'
import { mergeValues } from './values.ts'

setDefaultTimeout(30_000)

const email = {
	channel: 'email',
	kind: 'transactional',
	subject: 'About {{job.title}}',
	body: 'Hi {{ candidate.firstName }},\n\n{{recruiter.signature}}',
	shared: false,
}
const refusal = async (p: Promise<unknown>) => {
	const error = await p.then(
		() => null,
		(e) => e,
	)
	expect(error).toBeInstanceOf(AppError)
	return error as AppError
}

let w: { ws: TestWorkspace; owner: Actor; recruiter: Actor; other: Actor; recruiterLogin: { email: string; password: string }; app: string; candidate: string }

beforeAll(async () => {
	const deps = await testDeps()
	const { ws, owner } = await workspaceWithOwner(deps)
	const r = await newPerson(ws, 'recruiter', {}, deps)
	const o = await newPerson(ws, 'recruiter', {}, deps)
	const candidate = await newCandidate(ws, { name: 'Ava Marie Jackson' }, deps)
	const job = await newVendorJob(ws, { title: 'Senior Java Developer' }, deps)
	const app = await newApplication(ws, candidate, job, {}, deps)
	w = { ws, owner, recruiter: await personActor(deps, ws.slug, r.email), other: await personActor(deps, ws.slug, o.email), recruiterLogin: r, app, candidate }
}, 180_000)

describe('merge fields', () => {
	test('unknown names and broken braces are problems; known ones with spaces are fine', () => {
		expect(fieldProblems('Hi {{candidate.firstName}} {{ job.title }}')).toEqual([])
		expect(fieldProblems('Hi {{candidate.first_name}} and {{Job.Title}}')).toEqual([
			'{{candidate.first_name}} is not a merge field',
			'{{Job.Title}} is not a merge field',
		])
		expect(fieldProblems('Hi {{candidate.firstName}')).toHaveLength(1)
		expect(fieldProblems('a }} b')).toHaveLength(1)
	})

	test('values are put in; a field without one stays and is named', () => {
		expect(fillIn('Hi {{candidate.firstName}}, {{job.title}} {{job.url}}', { 'candidate.firstName': 'Ava', 'job.title': 'QA', 'job.url': ' ' })).toEqual({
			text: 'Hi Ava, QA {{job.url}}',
			missing: ['job.url'],
		})
	})

	test('inert: what a value brings is never a field when the text is filled in again (its braces meeting the template’s)', () => {
		for (const name of ['{recruiter.email}', '{x}', 'a}', '{{recruiter.email}}']) {
			const once = fillIn('{{{candidate.name}}} {{candidate.name}}{{{candidate.name}}}', { 'candidate.name': name }, { inert: true }).text
			expect({ name, fields: fieldsIn(once), problems: fieldProblems(once) }).toEqual({ name, fields: [], problems: [] })
			expect(fillIn(once, { 'recruiter.email': 'owner@acme.test' }).text).toBe(once)
		}
		expect(fillIn('{{{candidate.name}}}', { 'candidate.name': '{x}' }, { inert: true }).text).toBe('{ {x} }')
		// A field left unfilled stays exactly as written.
		expect(fillIn('{{{job.title}}}', {}, { inert: true })).toEqual({ text: '{{{job.title}}}', missing: ['job.title'] })
	})

	test('values lose direction controls and invisible characters: a name cannot turn the words after it around in what is sent', () => {
		const values = { 'candidate.name': 'Eve \u202eyrrab\u200b', 'recruiter.signature': 'Dana\r\n\u2066Lee\u2069' }
		expect(fillIn('Hi {{candidate.name}}, 1500 USD\n{{recruiter.signature}}', values).text).toBe('Hi Eve yrrab, 1500 USD\nDana\nLee')
	})

	test('values of a real record: the candidate, the application’s job, the sender and their signature', async () => {
		const deps = await testDeps()
		await setSignature(deps, w.recruiter, 'Rita Recruiter\nTest Staffing')
		const values = await mergeValues(deps, w.recruiter, { applicationId: w.app })
		expect(values['candidate.firstName']).toBe('Ava')
		expect(values['candidate.lastName']).toBe('Jackson')
		expect(values['job.title']).toBe('Senior Java Developer')
		expect(values['job.url']).toStartWith(`http://localhost:3000/careers/${w.ws.slug}/jobs/`)
		expect(values['recruiter.signature']).toBe('Rita Recruiter\nTest Staffing')
		expect(values['firm.name']).toBe('Test Staffing')
		// Another candidate's application is not this candidate's.
		const other = await newCandidate(w.ws, { name: 'Bo Lee' }, deps)
		expect((await refusal(mergeValues(deps, w.recruiter, { candidateId: other, applicationId: w.app }))).code).toBe('NOT_FOUND')
	})
})

describe('templates', () => {
	test('a recruiter keeps their own; only owners and admins share; nobody sees another person’s own', async () => {
		const deps = await testDeps()
		const mine = await createTemplate(deps, w.recruiter, { ...email, name: 'My intro' })
		expect(mine).toMatchObject({ shared: false, editable: true, subject: 'About {{job.title}}' })
		expect((await refusal(createTemplate(deps, w.recruiter, { ...email, name: 'Team intro', shared: true }))).code).toBe('FORBIDDEN')
		const team = await createTemplate(deps, w.owner, { ...email, name: 'Team intro', shared: true })
		expect(team.shared).toBe(true)
		expect((await listTemplates(deps, w.recruiter)).map((t) => [t.name, t.editable])).toEqual([
			['Team intro', false],
			['My intro', true],
		])
		expect((await listTemplates(deps, w.other)).map((t) => t.name)).toEqual(['Team intro'])
		expect((await refusal(getTemplate(deps, w.other, mine.id))).code).toBe('NOT_FOUND')
		expect((await refusal(updateTemplate(deps, w.recruiter, team.id, { ...email, name: 'Hijacked' }))).code).toBe('FORBIDDEN')
		expect((await refusal(deleteTemplate(deps, w.other, mine.id))).code).toBe('NOT_FOUND')
		expect((await updateTemplate(deps, w.owner, team.id, { ...email, name: 'Team intro v2' })).name).toBe('Team intro v2')
	})

	test('an unknown merge field, a marketing text and a taken name are refused on their fields; nothing is saved', async () => {
		const deps = await testDeps()
		const bad = await refusal(createTemplate(deps, w.recruiter, { ...email, name: 'Typo', body: 'Hi {{candidate.first_name}}' }))
		expect(bad.fields).toEqual([{ field: 'body', message: '{{candidate.first_name}} is not a merge field' }])
		const text = await refusal(createTemplate(deps, w.recruiter, { ...email, channel: 'text', kind: 'marketing', name: 'SMS alert' }))
		expect(text.fields?.map((f) => f.field)).toEqual(['kind'])
		await createTemplate(deps, w.recruiter, { ...email, name: 'Follow up' })
		expect((await refusal(createTemplate(deps, w.recruiter, { ...email, name: 'FOLLOW UP' }))).fields?.[0]?.field).toBe('name')
		// A name is one line of visible text, as every name people type.
		for (const [name, message] of [
			['Follow\nup', 'must be one line, without control characters'],
			['\u200b\u202e', 'must be 1 to 100 characters'],
		])
			expect((await refusal(createTemplate(deps, w.recruiter, { ...email, name }))).fields).toEqual([{ field: 'name', message }])
		expect((await createTemplate(deps, w.recruiter, { ...email, name: 'Nudge \u202ethree\u200b' })).name).toBe('Nudge three')
		// The same name is fine for someone else, and as a shared template.
		await createTemplate(deps, w.other, { ...email, name: 'Follow up' })
		await createTemplate(deps, w.owner, { ...email, name: 'Follow up', shared: true })
		expect((await listTemplates(deps, w.recruiter)).filter((t) => t.name === 'Typo' || t.name === 'SMS alert')).toEqual([])
	})

	test('the firm’s footer: a default from its name until owners or admins set one', async () => {
		const deps = await testDeps()
		const { ws, owner } = await workspaceWithOwner(deps)
		expect(await footersOf(deps, deps.db, ws.id)).toEqual({
			email: `Test Staffing\nhttp://localhost:3000/careers/${ws.slug}`,
			text: '– Test Staffing',
			set: false,
		})
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		expect((await refusal(setFooters(deps, recruiter, { email: 'x', text: 'y' }))).code).toBe('FORBIDDEN')
		expect((await refusal(setFooters(deps, owner, { email: '', text: 'x'.repeat(161) }))).fields?.map((f) => f.field)).toEqual(['email', 'text'])
		await setFooters(deps, owner, { email: 'Acme Staffing · 1 Main St, Austin TX', text: '– Acme' })
		expect(await footersOf(deps, deps.db, ws.id)).toEqual({ email: 'Acme Staffing · 1 Main St, Austin TX', text: '– Acme', set: true })
	})
})

describe('template pages', () => {
	test('New template: a refused form keeps what was typed and names the field; saved, it previews on a real application', async () => {
		const portal = await signedIn(w.recruiterLogin)
		expect((await portal.get('/settings/templates')).text).toContain('Your templates')
		const refused = await portal.post('/settings/templates', {
			name: 'Welcome',
			channel: 'email',
			kind: 'transactional',
			subject: 'Hello',
			body: 'Hi {{candidate.nickname}}',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Message {{candidate.nickname}} is not a merge field.')
		expect(refused.text).toContain('Hi {{candidate.nickname}}</textarea>')
		const saved = await portal.submit('/settings/templates', {
			name: 'Welcome',
			channel: 'email',
			kind: 'transactional',
			subject: 'Your application for {{job.title}}',
			body: 'Hi {{candidate.firstName}}, thanks. {{recruiter.signature}}',
		})
		expect(saved.redirectedTo).toMatch(/^\/settings\/templates\/tpl_[a-z2-7]+\?done=created$/)
		expect(saved.text).toContain('The template was saved.')
		expect(saved.text).toContain('Your application for Senior Java Developer')
		expect(saved.text).toContain('Hi Ava, thanks. Rita Recruiter')
		// A shared template cannot be made by posting the box a recruiter is not shown.
		const sneaky = await portal.submit('/settings/templates', {
			name: 'Sneaky',
			channel: 'text',
			kind: 'transactional',
			subject: '',
			body: 'Hi',
			shared: 'yes',
		})
		expect(sneaky.status).toBe(403)
	})

	test('the preview names a field the record has no value for', async () => {
		const deps = await testDeps()
		const t = await createTemplate(deps, w.other, { ...email, name: 'Needs a signature' })
		const login = await newPerson(w.ws, 'recruiter', {}, deps)
		const portal = await signedIn(login)
		expect((await portal.get(`/settings/templates/${t.id}`)).status).toBe(404)
		const own = await createTemplate(deps, await personActor(deps, w.ws.slug, login.email), { ...email, name: 'Needs a signature' })
		const page = await portal.get(`/settings/templates/${own.id}?preview=${w.app}`)
		expect(page.text).toContain('No value for <code>{{recruiter.<wbr>signature}}</code>')
	})
})
