/**
 * The interviews pages (`/interviews`, by status, and `/interviews/<id>`) for each role: the
 * interviews `list_interview_results` and `get_interview_result` show that person (hiring managers:
 * their jobs'), every one of them across the pages, each question with its answer and score, the
 * verdict; anything out of reach answered like an absent one. Checked against the database.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { untrusted, untrustedLine } from '../../core/untrusted.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { links, parsePage, section, tableRows, textOf } from '../../tests/page-reading.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { applications } from '../candidates/table.ts'
import { jobTeam } from '../jobs/table.ts'
import { interviewQuestions, interviews } from './table.ts'

setDefaultTimeout(60_000)
const HOUR = 3_600_000

type Role = 'owner' | 'admin' | 'recruiter' | 'hiring_manager' | 'viewer'
let deps: AppDeps
let ws: TestWorkspace
let people: Record<Role, PortalClient & { userId: string }>
let teamJob: string
let otherJob: string
let result: string

async function interview(
	ws: TestWorkspace,
	jobId: string,
	status: 'invited' | 'started' | 'completed' | 'expired',
	o: { hoursAgo: number; name?: string; questions?: { prompt: string; competency: string; transcript: string | null; score: number | null }[] },
) {
	const candidateId = await newCandidate(ws, { name: o.name ?? `Candidate ${status} ${o.hoursAgo}`, resume: false }, deps)
	const applicationId = newId('app')
	await deps.db.insert(applications).values({ id: applicationId, workspaceId: ws.id, candidateId, jobId, stageKey: 'screening' })
	const id = newId('int')
	const at = new Date(Date.now() - o.hoursAgo * HOUR)
	const completed = status === 'completed'
	await deps.db.insert(interviews).values({
		id,
		workspaceId: ws.id,
		candidateId,
		jobId,
		applicationId,
		status,
		scheduledAt: at,
		deadlineAt: new Date(at.getTime() + 72 * HOUR),
		invitedAt: at,
		createdAt: at,
		startedAt: status === 'started' || completed ? at : null,
		completedAt: completed ? at : null,
		expiredAt: status === 'expired' ? at : null,
		overallScore: completed ? 81 : null,
		verdict: completed ? 'recommended' : null,
		summary: completed ? 'Strong on the must-haves.' : null,
	})
	const questions = o.questions ?? [
		{ prompt: 'Tell us about yourself.', competency: 'Motivation', transcript: completed ? 'I build things.' : null, score: completed ? 70 : null },
	]
	await deps.db.insert(interviewQuestions).values(questions.map((q, i) => ({ id: newId('iq'), interviewId: id, position: i + 1, ...q })))
	return id
}

beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	ws = await newWorkspace(deps)
	teamJob = await newVendorJob(ws, { title: 'Team Java Role' }, deps)
	otherJob = await newVendorJob(ws, { title: 'Other QA Role' }, deps)
	people = {} as typeof people
	for (const role of ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] as const) {
		const person = await newPerson(ws, role, {}, deps)
		people[role] = Object.assign(await signedIn(person), { userId: person.userId })
	}
	await deps.db.insert(jobTeam).values({ jobId: teamJob, userId: people.hiring_manager.userId, teamRole: 'hiring_manager' })
	result = await interview(ws, teamJob, 'completed', {
		hoursAgo: 1,
		name: 'Grace <b>Hopper</b>',
		questions: [
			{
				prompt: 'Tell us about yourself and why the role interests you.',
				competency: 'Motivation',
				transcript: 'I like <script>alert(1)</script> reliable systems.\nAnd steady teams.',
				score: 88,
			},
			{ prompt: 'Describe a recent project where you used Java.', competency: 'Java', transcript: 'A payments service.', score: 74 },
			{ prompt: 'Tell us about a disagreement.', competency: 'Communication', transcript: null, score: null },
		],
	})
	await interview(ws, teamJob, 'invited', { hoursAgo: 2 })
	await interview(ws, otherJob, 'started', { hoursAgo: 3 })
	await interview(ws, otherJob, 'expired', { hoursAgo: 4 })
	for (let i = 0; i < 27; i++) await interview(ws, otherJob, 'completed', { hoursAgo: 10 + i })
}, 120_000)

/** Every interview a person's list shows, following Next page to the end. */
async function listed(client: PortalClient, path: string): Promise<string[]> {
	const ids: string[] = []
	let next: string | undefined = path
	while (next) {
		const res = await client.get(next)
		expect(res.status).toBe(200)
		const part = section(parsePage(res.text), 'list')
		ids.push(
			...links(part)
				.filter((l) => l.startsWith('/interviews/'))
				.map((l) => l.slice('/interviews/'.length)),
		)
		next = links(part).find((l) => l.includes('cursor='))
	}
	return ids
}

const inDatabase = async (o: { status?: string; jobId?: string } = {}) =>
	(
		await deps.database.rows<{ id: string }>(
			sql`select id from interviews where workspace_id = ${ws.id}${o.status ? sql` and status = ${o.status}` : sql``}${o.jobId ? sql` and job_id = ${o.jobId}` : sql``} order by created_at desc, seq desc`,
		)
	).map((r) => r.id)

describe('/interviews', () => {
	test('owners, admins and recruiters list every interview, newest first, over several pages; hiring managers their jobs’; viewers none', async () => {
		for (const role of ['owner', 'admin', 'recruiter'] as const) expect(await listed(people[role], '/interviews')).toEqual(await inDatabase())
		expect(await listed(people.hiring_manager, '/interviews')).toEqual(await inDatabase({ jobId: teamJob }))
		expect((await people.viewer.get('/interviews')).status).toBe(403)
	})

	test('the status filter lists exactly the interviews in that status; status, score and verdict in words', async () => {
		for (const status of ['invited', 'started', 'completed', 'expired'])
			expect([status, await listed(people.recruiter, `/interviews?status=${status}`)]).toEqual([status, await inDatabase({ status })])
		const rows = tableRows(section(parsePage((await people.recruiter.get('/interviews?status=completed')).text), 'list'))
		expect(rows[0]).toEqual([
			untrustedLine('Grace <b>Hopper</b>', 'candidate', 120).text,
			'Team Java Role',
			expect.stringMatching(/UTC$/),
			'81 of 100',
			'recommended',
			'Completed',
		])
		expect((await people.owner.get('/interviews?status=invited')).text).toContain('<strong class="tag tag-info">Invited</strong>')
	})

	test('a bad status or cursor is a clear 422, and a cursor works only with the filter it was made for', async () => {
		const bad = await people.owner.get('/interviews?status=done')
		expect([bad.status, bad.text.includes('status must be one of invited, started, completed, expired')]).toEqual([422, true])
		expect((await people.owner.get('/interviews?cursor=nonsense')).status).toBe(422)
		const next = links(section(parsePage((await people.owner.get('/interviews?status=completed')).text), 'list')).find((l) => l.includes('cursor='))!
		const cursor = next.split('cursor=')[1]!
		expect((await people.owner.get(`/interviews?status=completed&cursor=${cursor}`)).status).toBe(200)
		expect((await people.owner.get(`/interviews?status=expired&cursor=${cursor}`)).status).toBe(422)
	})
})

describe('/interviews/<id>', () => {
	test('the candidate, the job, each question with the answer and its score, and the verdict; answers are the candidate’s words as text, as the tool gives them', async () => {
		const res = await people.recruiter.get(`/interviews/${result}`)
		expect(res.status).toBe(200)
		const page = parsePage(res.text)
		expect(textOf(section(page, 'verdict-h'))).toContain('Verdict recommended Overall score 81 of 100 Questions answered 2 of 3')
		expect(textOf(section(page, 'verdict-h'))).toContain('Strong on the must-haves.')
		const questions = await deps.database.rows<{ prompt: string; transcript: string | null; score: number | null }>(
			sql`select prompt, transcript, score from interview_questions where interview_id = ${result} order by position`,
		)
		const shown = textOf(section(page, 'questions-h'))
		let at = 0
		for (const q of questions) {
			// The candidate's text as assistants and pages get it (core/untrusted.ts: markup never survives).
			const answer = q.transcript === null ? 'Not answered.' : untrusted(q.transcript, 'candidate', 8000).text
			for (const part of [q.prompt, answer, `Score: ${q.score === null ? '—' : `${q.score} of 100`}`]) {
				const found = shown.indexOf(part.replace(/\s+/g, ' '), at)
				expect({ part, found: found >= 0 }).toEqual({ part, found: true })
				at = found
			}
		}
		for (const markup of ['<script>alert(1)', '<b>Hopper</b>']) expect(res.text).not.toContain(markup)
		const facts = links(section(page, 'facts-h'))
		expect(facts).toContain(`/jobs/${teamJob}`)
		expect(facts.some((l) => l.startsWith('/candidates/cand_'))).toBe(true)
		// Opening a completed result takes it off the person's review queue, as the tool does.
		const [seen] = await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from interview_views where interview_id = ${result} and user_id = ${people.recruiter.userId}`,
		)
		expect(seen!.n).toBe(1)
	})

	test('out of reach is not found, like an absent one: another job for a hiring manager, another workspace for anyone; viewers are refused', async () => {
		const [other] = await inDatabase({ jobId: otherJob })
		expect((await people.hiring_manager.get(`/interviews/${result}`)).status).toBe(200)
		const absent = await people.hiring_manager.get('/interviews/int_nothing')
		const hidden = await people.hiring_manager.get(`/interviews/${other}`)
		expect([hidden.status, absent.status]).toEqual([404, 404])
		expect(hidden.text.replace(/name="csrf" value="[^"]*"/, '')).toBe(absent.text.replace(/name="csrf" value="[^"]*"/, ''))
		const elsewhere = await newWorkspace(deps)
		const foreign = await interview(elsewhere, await newVendorJob(elsewhere, {}, deps), 'completed', { hoursAgo: 1, name: 'Foreign Person' })
		for (const role of ['owner', 'admin', 'recruiter'] as const) expect((await people[role].get(`/interviews/${foreign}`)).status).toBe(404)
		expect((await people.viewer.get(`/interviews/${result}`)).status).toBe(403)
	})
})
