/**
 * The record views (MCP Apps) in headless Chromium, inside the test host: a real MCP client and
 * the official `AppBridge`, the view in a sandboxed frame behind a proxy on another origin. Each
 * view shows the records of the tool result, checked against the database; more data comes from
 * read tools the view calls through the host; a write reaches the host as a tool call and runs
 * only when the person allows it.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { FrameLocator } from 'playwright-core'
import { requiredDocuments } from '../../modules/vendors/index.ts'
import { rows, type AppsFixture } from './fixture.ts'
import { viewTests } from './view-tests.ts'
import { decide, hostLog, until } from './host.ts'

setDefaultTimeout(180_000)

const views = viewTests()
const { show } = views
let f: AppsFixture
beforeAll(() => {
	f = views.fixture()
})

const count = (view: FrameLocator, selector: string) => view.locator(selector).count()

describe('job pipeline', () => {
	test('get_job: every stage with its applicants and résumé-check scores, as in the database; the applicants come from a read tool called through the host', async () => {
		const apps = await rows<{ id: string; stageKey: string; score: number | null; name: string }>(
			// A rejected or withdrawn one stands in no stage: the view lists it apart, after the stages.
			sql`select a.id, case when a.outcome in ('rejected', 'withdrawn') then 'closed' else a.stage_key end as "stageKey", a.resume_score as score, c.name
			from applications a join candidates c on c.id = a.candidate_id where a.job_id = ${f.jobId} and not a.archived`,
		)
		expect(apps.length).toBeGreaterThan(5)
		const { page, view } = await show('owner', 'get_job', { jobId: f.jobId })
		await until('every application', async () => (await count(view, '[data-application]')) === apps.length)
		for (const a of apps) {
			const card = view.locator(`[data-stage="${a.stageKey}"] [data-application="${a.id}"]`)
			expect(await card.count()).toBe(1)
			const words = await card.innerText()
			expect(words).toContain(a.name)
			expect(words).toContain(a.score === null ? 'Not checked' : `${a.score}/100`)
		}
		for (const stage of new Set(apps.map((a) => a.stageKey)))
			expect(await view.locator(`[data-stage="${stage}"] h2`).innerText()).toContain(String(apps.filter((a) => a.stageKey === stage).length))
		const log = await hostLog(page)
		expect(log.viewCalls.map((c) => [c.name, c.arguments])).toEqual([['list_applications', { jobId: f.jobId, limit: 100 }]])
		// The view reported its height and the host applied it.
		expect(Math.max(...log.heights)).toBeGreaterThan(400)
		await page.close()
	})

	test('get_job for a viewer: the count in each stage, and no call for applicants the role cannot read (the result lists the tools the view may call)', async () => {
		const counts = await rows<{ stageKey: string; n: number }>(
			sql`select stage_key as "stageKey", count(*)::int as n from applications where job_id = ${f.jobId} and not archived and (outcome is null or outcome = 'hired') group by stage_key`,
		)
		const { page, view } = await show('viewer', 'get_job', { jobId: f.jobId })
		await view.locator('[data-stage]').first().waitFor()
		for (const c of counts) {
			const stage = view.locator(`[data-stage="${c.stageKey}"]`)
			expect(await stage.locator('h2').innerText()).toContain(String(c.n))
		}
		expect(await view.locator('main').innerText()).toContain('Your role shows how many applications are in each stage, not who they are.')
		expect(await count(view, '[data-application]')).toBe(0)
		expect(await view.getByRole('alert').count()).toBe(0)
		expect((await hostLog(page)).viewCalls).toEqual([])
		await page.close()
	})

	test('get_job_applicants pages through the read tool; list_applications with a jobId shows the same applicants', async () => {
		const applicants = await rows<{ id: string; stageKey: string }>(
			sql`select id, stage_key as "stageKey" from applications where job_id = ${f.jobId} and not archived and kind = 'applicant'`,
		)
		expect(applicants.length).toBeGreaterThan(4)
		const { page, view } = await show('recruiter', 'get_job_applicants', { jobId: f.jobId, limit: 4 })
		expect(await count(view, '[data-application]')).toBe(4)
		expect(await view.locator('[data-application]').first().innerText()).toMatch(/of \d+ must-haves/)
		while (await view.getByRole('button', { name: 'Show more applicants' }).count()) {
			const shown = await count(view, '[data-application]')
			await view.getByRole('button', { name: 'Show more applicants' }).click()
			await until('the next page', async () => (await count(view, '[data-application]')) > shown)
		}
		expect(await count(view, '[data-application]')).toBe(applicants.length)
		for (const a of applicants) expect(await count(view, `[data-stage="${a.stageKey}"] [data-application="${a.id}"]`)).toBe(1)
		const calls = (await hostLog(page)).viewCalls
		expect(calls.length).toBe(Math.ceil(applicants.length / 4) - 1)
		expect(calls.every((c) => c.name === 'get_job_applicants' && c.arguments?.jobId === f.jobId && typeof c.arguments?.cursor === 'string')).toBe(true)
		await page.close()

		const all = await rows<{ id: string }>(sql`select id from applications where job_id = ${f.jobId} and not archived`)
		const listed = await show('recruiter', 'list_applications', { jobId: f.jobId, limit: 100 })
		expect(await count(listed.view, '[data-application]')).toBe(all.length)
		expect((await listed.view.locator('h1').innerText()).length).toBeGreaterThan(2)
		await listed.page.close()
	})
})

describe('candidate card', () => {
	test('get_candidate: profile, stage, résumé check item by item, interview scores and documents on file, as in the database', async () => {
		const [pick] = await rows<{ candidateId: string }>(sql`select candidate_id as "candidateId" from applications where id = ${f.cardApplicationId}`)
		const [candidate] = await rows<{ name: string; skills: string[] }>(sql`select name, skills from candidates where id = ${pick!.candidateId}`)
		// The card opens the newest application that is not archived.
		const [app] = await rows<{ id: string; stageKey: string; check: { items: { requirement: string; status: string }[] } }>(
			sql`select id, stage_key as "stageKey", resume_check as check from applications where candidate_id = ${pick!.candidateId} order by archived, created_at desc limit 1`,
		)
		expect(app!.id).toBe(f.cardApplicationId)
		const interviews = await rows<{ score: number }>(
			sql`select overall_score as score from interviews where application_id = ${app!.id} and overall_score is not null`,
		)
		expect(interviews.length).toBeGreaterThan(0)
		const documents = await rows<{ kind: string }>(sql`select distinct kind from candidate_documents where candidate_id = ${pick!.candidateId}`)

		const { page, view } = await show('recruiter', 'get_candidate', { candidateId: pick!.candidateId })
		await view.getByRole('region', { name: 'Documents on file' }).waitFor()
		expect(await view.locator('h1').innerText()).toBe(candidate!.name)
		const skills = await view.getByLabel('Skills').innerText()
		for (const skill of candidate!.skills) expect(skills).toContain(skill)
		const stageLabel = (await rows<{ label: string }>(sql`select label from pipeline_stages where workspace_id = ${f.ws.id} and key = ${app!.stageKey}`))[0]
			?.label
		expect(await view.getByRole('region', { name: 'Application' }).innerText()).toContain(`Stage: ${stageLabel ?? app!.stageKey}`)
		const items = view.getByRole('region', { name: 'Résumé check' }).locator('li')
		expect(await items.count()).toBe(app!.check.items.length)
		for (const [i, item] of app!.check.items.entries()) {
			expect(await items.nth(i).getAttribute('data-status')).toBe(item.status)
			expect(await items.nth(i).innerText()).toContain(item.requirement)
		}
		const interviewWords = await view.getByRole('region', { name: 'Interviews' }).innerText()
		for (const i of interviews) expect(interviewWords).toContain(`Score ${i.score}/100`)
		const kinds = await view
			.getByRole('region', { name: 'Documents on file' })
			.locator('[data-kind]')
			.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-kind')))
		expect(new Set(kinds)).toEqual(new Set(documents.map((d) => d.kind)))
		const calls = (await hostLog(page)).viewCalls.map((c) => [c.name, c.arguments])
		expect(calls).toEqual(
			expect.arrayContaining([
				['get_application', { applicationId: app!.id }],
				['list_candidate_documents', { candidateId: pick!.candidateId }],
			]),
		)
		await page.close()
	})

	test('get_application for a hiring manager: the applicant of their job, without contact details or documents', async () => {
		const [app] = await rows<{ id: string; email: string; name: string }>(
			sql`select a.id, c.email, c.name from applications a join candidates c on c.id = a.candidate_id where a.job_id = ${f.jobId} and not a.archived order by a.id limit 1`,
		)
		const { page, view } = await show('hiring_manager', 'get_application', { applicationId: app!.id })
		const docs = view.getByRole('region', { name: 'Documents on file' })
		await docs.waitFor()
		expect(await view.locator('h1').innerText()).toBe(app!.name)
		expect(await view.locator('main').innerText()).not.toContain(app!.email)
		expect(await docs.locator('[data-kind]').count()).toBe(0)
		expect(await docs.innerText()).toContain('Not shown to your role.')
		// The role cannot read documents: the view does not ask for them.
		expect((await hostLog(page)).viewCalls.map((c) => c.name)).not.toContain('list_candidate_documents')
		await page.close()
	})
})

describe('vendor submission check', () => {
	test('what is on file and missing, as in the database; the button asks the host for request_candidate_documents, which runs only once the person allows it', async () => {
		const { applicationId, candidateId, vendorId } = f.vendorCase
		const [c] = await rows<{ workAuthorization: string; rules: any }>(
			sql`select c.work_authorization as "workAuthorization", v.document_rules as rules from candidates c, vendors v where c.id = ${candidateId} and v.id = ${vendorId}`,
		)
		const onFile = (await rows<{ kind: string }>(sql`select distinct kind from candidate_documents where candidate_id = ${candidateId}`)).map((d) => d.kind)
		const required: string[] = requiredDocuments(c!.rules, c!.workAuthorization)
		const pick = { applicationId, candidateId, onFile, required, missing: required.filter((k) => !onFile.includes(k)) }
		expect(pick.missing).toEqual(['visa', 'i94'])
		const requests = async () =>
			(await rows<{ n: number }>(sql`select count(*)::int as n from document_requests where candidate_id = ${pick.candidateId}`))[0]!.n
		const before = await requests()

		const { page, view } = await show('recruiter', 'check_vendor_submission', { applicationId: pick.applicationId })
		for (const kind of pick.required)
			expect(await view.locator(`[data-kind="${kind}"]`).getAttribute('data-state')).toBe(pick.onFile.includes(kind) ? 'on-file' : 'missing')
		for (const kind of pick.onFile) expect(await view.locator(`[data-kind="${kind}"]`).getAttribute('data-state')).toBe('on-file')
		expect(await view.locator('main').innerText()).toContain('Not ready to submit')

		const button = view.getByRole('button', { name: 'Request the missing documents' })
		await button.click()
		await until('the write to reach the host', async () => (await hostLog(page)).writes.length === 1)
		const [write] = (await hostLog(page)).writes
		expect(write).toEqual({
			name: 'request_candidate_documents',
			arguments: { candidateId: pick.candidateId, applicationId: pick.applicationId, items: pick.missing },
			decided: false,
		})
		// Asked, not done: nothing happens until the person allows it.
		expect(await button.isDisabled()).toBe(true)
		expect(await requests()).toBe(before)

		await decide(page, 0, false)
		await until('the refusal', async () => (await view.getByRole('alert').count()) > 0)
		expect(await view.getByRole('alert').innerText()).toContain('did not allow')
		expect(await requests()).toBe(before)

		await button.click()
		await until('the second ask', async () => (await hostLog(page)).writes.length === 2)
		await decide(page, 1, true)
		await until('the confirmation', async () => (await view.locator('.status.done').count()) > 0)
		expect(await view.locator('.status.done').innerText()).toContain('Requested')
		const made = await rows<{ items: string[] }>(
			sql`select items from document_requests where candidate_id = ${pick.candidateId} order by created_at desc limit 1`,
		)
		expect(await requests()).toBe(before + 1)
		expect(made[0]!.items).toEqual(pick.missing)
		await page.close()
	})
})
