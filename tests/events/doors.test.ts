/**
 * Every listed event is written when its change happens, through every door that makes the change:
 * the vendor's REST API (publish, change, close, re-open), the portal and the assistant (job status,
 * actively hiring), the careers apply form, stage moves, the candidate's upload link, vendor
 * submissions and the interview provider's callback. A write that changes nothing writes none.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { personActor } from '../../modules/auth/index.ts'
import { applyToJob, moveToStage } from '../../modules/candidates/index.ts'
import { requestCandidateDocuments, submitToVendor } from '../../modules/documents/index.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { storeUpload } from '../../modules/documents/uploads.ts'
import { inviteToInterview } from '../../modules/interviews/index.ts'
import { interviewQuestions } from '../../modules/interviews/table.ts'
import { textToSend } from '../../modules/outbox/index.ts'
import { outbox } from '../../modules/outbox/table.ts'
import { call, callOn, newPerson, newVendor, newWorkspace, testApp, type TestWorkspace } from '../helpers.ts'
import { portalApp, signedIn } from '../portal.ts'
import { closeClients, mcpClient } from '../sdk.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	;({ deps } = await testApp())
	ws = await newWorkspace(deps)
}, 120_000)

interface Written {
	type: string
	data: Record<string, unknown>
	actorKind: string
}

/** The events of the workspace written since `after` (a seq), oldest first. */
async function eventsSince(after: number): Promise<Written[]> {
	return deps.database.rows<Written>(
		sql`select type, data, actor_kind as "actorKind" from events where workspace_id = ${ws.id} and seq > ${after} order by seq`,
	)
}
async function lastSeq(): Promise<number> {
	const [row] = await deps.database.rows<{ seq: number | string }>(sql`select coalesce(max(seq), 0) as seq from events`)
	return Number(row!.seq)
}
/** The events a step writes. */
async function written(step: () => Promise<unknown>): Promise<Written[]> {
	const before = await lastSeq()
	await step()
	return eventsSince(before)
}
const types = (events: Written[]) => events.map((e) => e.type)

describe('jobs', () => {
	test('the vendor’s REST API: publish, publish again, change, close and re-open each name what they did', async () => {
		const { apiKey, vendorId } = await newVendor(ws, 'Apex', deps)
		const post = (body: object) => call('POST', '/api/v1/jobs', { key: apiKey, body })
		const patch = (body: object) => call('PATCH', '/api/v1/jobs/REQ-1', { key: apiKey, body })

		const published = await written(() => post({ vendorJobId: 'REQ-1', title: 'Java Developer' }))
		expect(published).toMatchObject([{ type: 'job.published', data: { vendorId, status: 'Open' }, actorKind: 'vendor_key' }])
		const jobId = published[0]!.data.jobId
		expect(typeof jobId).toBe('string')
		expect(await written(() => post({ vendorJobId: 'REQ-1', title: 'Java Developer' }))).toEqual([])
		expect(types(await written(() => post({ vendorJobId: 'REQ-1', title: 'Senior Java Developer' })))).toEqual(['job.changed'])
		expect(types(await written(() => patch({ location: 'Austin, TX' })))).toEqual(['job.changed'])
		expect(await written(() => patch({ location: 'Austin, TX' }))).toEqual([])
		expect(await written(() => patch({ status: 'closed' }))).toMatchObject([{ type: 'job.closed', data: { jobId, vendorId, status: 'Closed' } }])
		expect(types(await written(() => patch({ summary: 'Closed but edited' })))).toEqual(['job.changed'])
		expect(types(await written(() => patch({ status: 'open' })))).toEqual(['job.reopened'])
		expect(types(await written(() => call('DELETE', '/api/v1/jobs/REQ-1', { key: apiKey })))).toEqual(['job.closed'])
		expect(types(await written(() => call('DELETE', '/api/v1/jobs/REQ-1', { key: apiKey })))).toEqual([])
		// Publishing a closed job re-opens it: one event says so.
		expect(types(await written(() => post({ vendorJobId: 'REQ-1', title: 'Java Lead' })))).toEqual(['job.reopened'])
	})

	test('the portal and the assistant: publish a draft, close, re-open, move to draft, and the actively-hiring flag', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const portal = await signedIn(owner)
		const assistant = await mcpClient(ws, owner.email)
		const job = await newVendorJob(ws, { status: 'Draft', title: 'Data Engineer' }, deps)

		expect(await written(() => portal.submit(`/jobs/${job}/status`, { status: 'Open' }))).toMatchObject([
			{ type: 'job.published', data: { jobId: job, vendorId: null, status: 'Open' }, actorKind: 'session' },
		])
		expect(types(await written(() => assistant.tool('set_job_status', { jobId: job, status: 'Closed' })))).toEqual(['job.closed'])
		expect((await written(() => assistant.tool('set_job_status', { jobId: job, status: 'Open' })))[0]).toMatchObject({
			type: 'job.reopened',
			actorKind: 'personal_token',
		})
		expect(types(await written(() => assistant.tool('set_job_status', { jobId: job, status: 'Open' })))).toEqual([])
		expect(types(await written(() => portal.submit(`/jobs/${job}/status`, { status: 'Draft' })))).toEqual(['job.closed'])
		expect(types(await written(() => portal.submit(`/jobs/${job}/actively-hiring`, { activelyHiring: 'on' })))).toEqual(['job.changed'])
		expect(types(await written(() => assistant.tool('set_job_actively_hiring', { jobId: job, activelyHiring: true })))).toEqual([])
		await closeClients()
	})
})

describe('candidates, applications, documents, submissions, interviews', () => {
	test('applying: a new candidate and their application; applying again to another job: only the application', async () => {
		const job = await newVendorJob(ws, { title: 'QA Engineer' }, deps)
		const other = await newVendorJob(ws, { title: 'SDET' }, deps)
		const apply = (jobId: string, title: string) =>
			applyToJob(deps, {
				workspace: ws,
				job: { id: jobId, title, status: 'Open', mustHave: null },
				name: 'Lena Park',
				email: `lena.${ws.slug}@example.test`,
				phone: '+1 737 555 0142',
				resume: { bytes: samplePdf('Lena Park, QA engineer: Selenium, Cypress'), fileName: 'lena.pdf' },
				answers: {},
			})
		const first = await written(() => apply(job, 'QA Engineer'))
		expect(first).toMatchObject([
			{ type: 'candidate.created', actorKind: 'careers_form' },
			{ type: 'application.created', data: { jobId: job, stage: expect.any(String) }, actorKind: 'careers_form' },
		])
		expect(first[1]!.data.candidateId).toBe(first[0]!.data.candidateId)
		expect(types(await written(() => apply(other, 'SDET')))).toEqual(['application.created'])
	})

	test('a stage move names from and to; a move to the stage it is in writes nothing', async () => {
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		const job = await newVendorJob(ws, {}, deps)
		const candidateId = await newCandidate(ws, { name: 'Ada Move' }, deps)
		const applicationId = await newApplication(ws, candidateId, job, {}, deps)
		const moved = await written(() => moveToStage(deps, recruiter, { applicationId, stageKey: 'screening' }))
		expect(moved).toMatchObject([{ type: 'application.stage_changed', data: { applicationId, candidateId, jobId: job, to: 'screening' } }])
		expect(moved[0]!.data.from).not.toBe('screening')
		expect(await written(() => moveToStage(deps, recruiter, { applicationId, stageKey: 'screening' }))).toEqual([])
	})

	test('an upload through the candidate’s link, and a submission to the vendor', async () => {
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		const vendorId = await newSubmissionVendor(ws, { name: 'Bright Staffing', rules: { always: ['workAuth'], byWorkAuthorization: {} } }, deps)
		const job = await newVendorJob(ws, { vendorId }, deps)
		const email = `ravi.${ws.slug}@example.test`
		const candidateId = await newCandidate(ws, { name: 'Ravi Kumar', email }, deps)
		const applicationId = await newApplication(ws, candidateId, job, {}, deps)
		await requestCandidateDocuments(deps, recruiter, { candidateId, applicationId, items: ['workAuth'], includeJobLink: false })
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
			.orderBy(desc(outbox.createdAt))
			.limit(1)
		const token = (await textToSend(deps.secret, mail!)).match(/\/upload\/(bl_ul_[0-9A-Za-z]+)/)![1]!
		const uploaded = await written(() => storeUpload(deps, token, 'workAuth', { name: 'ead.pdf', bytes: samplePdf('EAD') }))
		expect(uploaded).toMatchObject([{ type: 'document.uploaded', data: { candidateId, applicationId, kind: 'workAuth' }, actorKind: 'upload_link' }])
		const submitted = await written(() => submitToVendor(deps, recruiter, { applicationId, documents: ['workAuth'] }))
		expect(submitted).toMatchObject([{ type: 'submission.created', data: { applicationId, candidateId, jobId: job, vendorId, documents: ['workAuth'] } }])
	})

	test('the interview provider’s callback completing an interview', async () => {
		const secret = 'interview-provider-shared-secret-0123'
		const { app } = await portalApp({ INTERVIEW_WEBHOOK_SECRET: secret })
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		const job = await newVendorJob(ws, {}, deps)
		const candidateId = await newCandidate(ws, { name: 'Cy Interview' }, deps)
		const applicationId = await newApplication(ws, candidateId, job, {}, deps)
		const { id: interviewId } = await inviteToInterview(deps, recruiter, { applicationId })
		const questions = await deps.database.rows<{ id: string }>(sql`select id from ${interviewQuestions} where interview_id = ${interviewId} order by position`)
		const body = JSON.stringify({
			id: `evt_${crypto.randomUUID()}`,
			type: 'interview.completed',
			interviewId,
			occurredAt: new Date().toISOString(),
			result: { overallScore: 82, verdict: 'recommended', answers: questions.map((q) => ({ questionId: q.id, transcript: 'Spring Boot', score: 80 })) },
		})
		const timestamp = Math.floor(Date.now() / 1000)
		const headers = {
			'content-type': 'application/json',
			'x-interview-timestamp': String(timestamp),
			'x-interview-signature': signWebhook(secret, timestamp, body),
		}
		const completed = await written(() => callOn(app, 'POST', '/api/interviews/callback', { raw: body, headers }))
		expect(completed).toMatchObject([
			{ type: 'interview.completed', data: { interviewId, applicationId, candidateId, jobId: job, overallScore: 82, verdict: 'recommended' } },
		])
	})
})
