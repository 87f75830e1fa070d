/**
 * What the candidates and bench modules show on a job's page: the pipeline (stages in order with
 * counts and the newest cards, rejected and archived apart, each stage's full list paged), the
 * ranked applicants and leads, the bench ranking; limited exactly as the tools limit them.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newVendor, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { benchEntries } from '../bench/table.ts'
import { vendorSubmissions } from '../documents/table.ts'
import { jobs, jobTeam } from '../jobs/table.ts'
import { applications } from './table.ts'

setDefaultTimeout(30_000)

let deps: AppDeps
let ws: TestWorkspace
let job: string
let portal: Record<'owner' | 'recruiter' | 'manager' | 'outsider' | 'viewer', PortalClient>
const apps: Record<string, string> = {}
const emails: string[] = []

/** A candidate (named, with an e-mail address) applied to `jobId`, then moved as `change` says. */
async function applicant(name: string, jobId: string, change: Partial<typeof applications.$inferInsert> = {}, daysAgo = 0) {
	const email = `${name.toLowerCase().replace(/\W+/g, '.')}@mail.example`
	emails.push(email)
	const candidate = await newCandidate(ws, { name, email }, deps)
	const id = await newApplication(ws, candidate, jobId, { createdAt: new Date(Date.now() - daysAgo * 86_400_000) }, deps)
	if (Object.keys(change).length) await deps.db.update(applications).set(change).where(eq(applications.id, id))
	apps[name] = id
	return { id, candidate }
}

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	const { vendorId } = await newVendor(ws, 'Acme Staffing', deps)
	job = await newVendorJob(ws, { vendorId, title: 'Pipeline Java Developer' }, deps)
	for (let i = 1; i <= 7; i++) await applicant(`Applied Person ${i}`, job, {}, 10 - i)
	const screened = await applicant('Screened Shortlisted', job, {
		stageKey: 'screening',
		shortlist: 'shortlisted',
		stageChangedAt: new Date(Date.now() - 3 * 86_400_000),
	})
	await deps.db.insert(vendorSubmissions).values({
		id: newId('sub'),
		workspaceId: ws.id,
		applicationId: screened.id,
		candidateId: screened.candidate,
		jobId: job,
		vendorId,
		documents: ['dl'],
		documentIds: [],
		toAddress: 'subs@acme.example',
		submittedByName: 'Rita Recruiter',
	})
	await applicant('Rejected Person', job, { stageKey: 'screening', outcome: 'rejected' })
	await applicant('Archived Person', job, { outcome: 'withdrawn', archived: true })
	await applicant('Hired Person', job, { stageKey: 'hired', outcome: 'hired' })
	const lead = await applicant('Sourced Lead', job, { kind: 'lead' })
	await deps.db.insert(benchEntries).values({ id: newId('bench'), workspaceId: ws.id, candidateId: lead.candidate, roleFamily: 'java', hourlyRate: 85 })
	const manager = await newPerson(ws, 'hiring_manager', {}, deps)
	await deps.db.insert(jobTeam).values({ jobId: job, userId: manager.userId })
	portal = {
		owner: await signedIn(await newPerson(ws, 'owner', {}, deps)),
		recruiter: await signedIn(await newPerson(ws, 'recruiter', {}, deps)),
		manager: await signedIn(manager),
		outsider: await signedIn(await newPerson(ws, 'hiring_manager', {}, deps)),
		viewer: await signedIn(await newPerson(ws, 'viewer', {}, deps)),
	}
}, 60_000)

/** The HTML of one section of the page (from its opening tag to the next section card). */
const section = (text: string, id: string) => text.match(new RegExp(`<section class="card" id="${id}"[\\s\\S]*?(?=<section class="card"|</main>)`))?.[0] ?? ''
const stageBlock = (pipeline: string, key: string) =>
	pipeline.match(new RegExp(`<section class="stage" aria-labelledby="stage-${key}"[^>]*>[\\s\\S]*?</section>`))![0]

describe('the pipeline on a job’s page', () => {
	test('stages in pipeline order with counts linking to their lists; the newest five cards; rejected and archived apart', async () => {
		const page = await portal.recruiter.get(`/jobs/${job}`)
		expect(page.status).toBe(200)
		const pipeline = section(page.text, 'pipeline')
		const order = [...pipeline.matchAll(/aria-labelledby="stage-([a-z_]+)"/g)].map((m) => m[1])
		expect(order).toEqual(['applied', 'screening', 'submitted', 'client_interview', 'offer', 'hired'])
		const applied = stageBlock(pipeline, 'applied')
		// 7 applicants and the lead are in the running at Applied.
		expect(applied).toContain(`<a href="/jobs/${job}?stage=applied"><span>Applied</span> <span class="count" data-count>8</span></a>`)
		expect([...applied.matchAll(/<a href="\/applications\/([^"]+)">([^<]+)<\/a>/g)].map((m) => m[2])).toEqual([
			'Sourced Lead',
			'Applied Person 7',
			'Applied Person 6',
			'Applied Person 5',
			'Applied Person 4',
		])
		expect(applied).toContain(`See all 8<span class="visually-hidden"> at Applied</span>`)
		const screening = stageBlock(pipeline, 'screening')
		expect(screening).toContain('<span class="count" data-count>1</span>')
		expect(screening).toContain(`<a href="/applications/${apps['Screened Shortlisted']}">Screened Shortlisted</a>`)
		expect(screening).toContain('Shortlisted</strong>')
		expect(screening).toContain('Submission sending</strong> <span class="meta">to Acme Staffing</span>')
		expect(screening).toContain('3 days in stage')
		expect(stageBlock(pipeline, 'hired')).toContain('Hired Person')
		// Rejected and archived applications are counted apart, with links to their lists.
		expect(pipeline).not.toContain('Rejected Person')
		expect(pipeline).not.toContain('Archived Person')
		expect(pipeline).toContain(`<a href="/jobs/${job}?list=closed">1 rejected or withdrawn application</a>`)
		expect(pipeline).toContain(`<a href="/jobs/${job}?list=archived">1 archived application</a>`)
	})

	test('a stage’s full list, paged with list_applications’ order; the rejected and archived lists', async () => {
		const big = await newVendorJob(ws, { title: 'Busy Job' }, deps)
		for (let i = 0; i < 27; i++) await applicant(`Busy Applicant ${String(i).padStart(2, '0')}`, big, {}, 30 - i)
		const owner = portal.owner
		const board = section((await owner.get(`/jobs/${big}`)).text, 'pipeline')
		expect(board).toContain('See all 27')
		const first = await owner.get(`/jobs/${big}?stage=applied`)
		expect(first.status).toBe(200)
		expect(first.text).toContain('Applied <span class="meta">· 27 applications</span>')
		const names = (t: string) => [...t.matchAll(/>(Busy Applicant \d\d)</g)].map((m) => m[1])
		expect(names(first.text)).toEqual(Array.from({ length: 25 }, (_, i) => `Busy Applicant ${String(26 - i).padStart(2, '0')}`))
		const next = first.text.match(/href="([^"]+)" rel="next">Next page/)![1]!.replaceAll('&amp;', '&')
		const second = await owner.get(next)
		expect(names(second.text)).toEqual(['Busy Applicant 01', 'Busy Applicant 00'])
		expect(second.text).toContain(`<a href="/jobs/${big}?stage=applied">First page</a>`)

		const closed = await owner.get(`/jobs/${job}?list=closed`)
		expect(closed.text).toContain('Rejected Person')
		expect(closed.text).toContain('Rejected</strong>')
		expect(closed.text).not.toContain('Applied Person')
		const archived = await owner.get(`/jobs/${job}?list=archived`)
		expect(archived.text).toContain('Archived Person')
		expect(archived.text).toContain('Archived</strong>')
		expect(archived.text).not.toContain('Rejected Person')
	})

	test('a bad stage, page link or list is a 422 page that says what to do, never a 500', async () => {
		const owner = portal.owner
		const stage = await owner.get(`/jobs/${job}?stage=interviewing`)
		expect(stage.status).toBe(422)
		expect(stage.text).toContain('The stage “interviewing” is not a stage of this workspace; use one of: applied, screening')
		for (const path of [
			`/jobs/${job}?stage=applied&cursor=forged.abc`,
			`/jobs/${job}?list=applicants&cursor=forged.abc`,
			`/jobs/${job}?list=bench&cursor=forged.abc`,
		]) {
			const res = await owner.get(path)
			expect(res.status).toBe(422)
			expect(res.text).toContain('This page link is out of date')
		}
		expect((await owner.get(`/jobs/${job}?list=everyone`)).status).toBe(422)
		expect((await owner.get(`/jobs/${job}?list=closed&stage=applied`)).status).toBe(422)
		expect((await owner.get(`/jobs/${job}?stage=${'s'.repeat(61)}`)).status).toBe(422)
	})
})

describe('ranked applicants, leads and the bench', () => {
	test('applicants and leads ranked by the résumé check, with shortlist and vendor submission; the bench by fit', async () => {
		const page = await portal.recruiter.get(`/jobs/${job}`)
		const ranked = section(page.text, 'applicants')
		expect(ranked).toContain('Applicants ranked by résumé check')
		expect(ranked).toContain(`<a href="/applications/${apps['Screened Shortlisted']}">Screened Shortlisted</a>`)
		expect(ranked).toContain('Submission sending</strong> <span class="meta">to Acme Staffing, <time')
		// Archived ones are left out (as get_job_applicants leaves them out); leads have their own list.
		expect(ranked).not.toContain('Archived Person')
		expect(ranked).not.toContain('Sourced Lead')
		expect(section(page.text, 'leads')).toContain('Sourced Lead')
		const bench = section(page.text, 'bench')
		expect(bench).toContain('Bench ranked by fit')
		expect(bench).toContain('Sourced Lead')
		expect(bench).toContain('85 / hour')
		expect(bench).toContain('on the java bench')
		// People read words: what is missing is named, never a field of the tool's answer.
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Kafka Streams'], niceToHave: ['Terraform'] })
			.where(eq(jobs.id, job))
		const why = section((await portal.recruiter.get(`/jobs/${job}`)).text, 'bench')
		expect(why).toContain('meets 0 of 1 must-haves')
		expect(why).toContain('missing: Kafka Streams')
		expect(why).not.toMatch(/see missing|niceToHavesMet/)
		const full = await portal.recruiter.get(`/jobs/${job}?list=bench`)
		expect(full.status).toBe(200)
		expect(full.text).toContain('Sourced Lead')
		expect(full.text).not.toContain('id="pipeline"')
		expect((await portal.recruiter.get(`/jobs/${job}?list=applicants`)).text).toContain('Screened Shortlisted')
		expect((await portal.recruiter.get(`/jobs/${job}?list=leads`)).text).toContain('Sourced Lead')
	})
})

describe('what each role sees of them', () => {
	test('a hiring manager on the team: pipeline and applicants, no contact details, no bench; off the team: nothing', async () => {
		const page = await portal.manager.get(`/jobs/${job}`)
		expect(page.status).toBe(200)
		expect(page.text).toContain('id="pipeline"')
		expect(page.text).toContain('Screened Shortlisted')
		for (const email of emails) expect(page.text).not.toContain(email)
		expect(page.text).not.toContain('Bench ranked by fit')
		expect((await portal.manager.get(`/jobs/${job}?stage=applied`)).status).toBe(200)
		expect((await portal.manager.get(`/jobs/${job}?list=bench`)).status).toBe(403)
		for (const path of [`/jobs/${job}`, `/jobs/${job}?stage=applied`, `/jobs/${job}?list=applicants`])
			expect((await portal.outsider.get(path)).status).toBe(404)
	})

	test('a viewer sees the job, never its applicants', async () => {
		const page = await portal.viewer.get(`/jobs/${job}`)
		expect(page.status).toBe(200)
		expect(page.text).toContain('<h1>Pipeline Java Developer</h1>')
		expect(page.text).toContain('Applicants and the pipeline are not shown for your role.')
		for (const name of Object.keys(apps)) expect(page.text).not.toContain(name)
		for (const path of [
			`/jobs/${job}?stage=applied`,
			`/jobs/${job}?list=applicants`,
			`/jobs/${job}?list=leads`,
			`/jobs/${job}?list=closed`,
			`/jobs/${job}?list=bench`,
		])
			expect((await portal.viewer.get(path)).status).toBe(403)
	})

	test('another workspace’s owner reaches none of it', async () => {
		const stranger = await signedIn(await newPerson(await newWorkspace(deps), 'owner', {}, deps))
		for (const path of [`/jobs/${job}`, `/jobs/${job}?stage=applied`, `/jobs/${job}?list=closed`, `/jobs/${job}?list=bench`]) {
			const res = await stranger.get(path)
			expect(res.status).toBe(404)
			expect(res.text).not.toContain('Pipeline Java Developer')
		}
	})
})
