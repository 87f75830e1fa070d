/**
 * What the portal's busiest pages read stays bounded as a workspace's history grows (bench/README.md,
 * "Portal pages at 1,000,000 candidates"): each rule checked on its results and on the statement
 * it sends, on PGlite and PostgreSQL.
 * - The calendar reads a window's interviews between two ends of the index range: an interview lasts
 *   at most a day, so one that began up to a day before the window is found, and no older one is read.
 * - A hiring manager's interview results are read by their jobs (`interviews_job`), not from all interviews.
 * - A job page ranks its applicants and its leads at once: they share one re-check of the job.
 * - Résumé hashes and texts for a whole bench are one statement text, whatever the bench's size.
 * - The public upload page reads what came through its link by the link (`candidate_documents_request`),
 *   not from every document on file.
 * - A job-wide résumé re-check decides from the application rows alone (a changed résumé marks its
 *   applications' checks in the same transaction, whatever writes it), and never stores a check made
 *   on a résumé that has changed since; a job's ranked applicants are an ordered index read.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { hashSecret, newCredential } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { personActor } from '../../modules/auth/index.ts'
import { getCalendar } from '../../modules/calendar/service.ts'
import { resumeHashes, resumeTexts } from '../../modules/candidates/index.ts'
import { getJobApplicants } from '../../modules/candidates/application-service.ts'
import { refreshChecks, saveCheck } from '../../modules/candidates/recheck.ts'
import { checkResume, resumeHash, RESUME_CHECK_VERSION } from '../../modules/candidates/resume-check.ts'
import { openUploadLink } from '../../modules/documents/uploads.ts'
import { completedInterviewsSource } from '../../modules/interviews/contributions.ts'
import { MAX_INTERVIEW_MINUTES } from '../../modules/interviews/table.ts'
import type { ReviewItem } from '../../modules/review/index.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'
import { analyzeWhole, planOf, statementsOf, theStatement } from './statements.ts'

const DAY = 86_400_000
let deps: AppDeps
let ws: TestWorkspace

beforeAll(async () => {
	deps = await testDeps()
	ws = await newWorkspace(deps)
})

describe('calendar: interviews of a window', () => {
	test('an interview running into the window is found, an older one is not read; none lasts more than a day', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const job = await newVendorJob(ws, {}, deps)
		const candidate = await newCandidate(ws, { resume: false }, deps)
		const application = await newApplication(ws, candidate, job, {}, deps)
		const from = new Date(Math.floor(Date.now() / DAY) * DAY + 10 * DAY)
		const to = new Date(from.getTime() + 7 * DAY)
		// A year of history before the window, one interview every 4 hours.
		await deps.database.rows(sql`insert into interviews (id, workspace_id, candidate_id, job_id, application_id, owner_user_id, status, scheduled_at, duration_minutes, deadline_at)
			select 'int_plan_' || ${ws.id} || '_' || g, ${ws.id}, ${candidate}, ${job}, ${application}, ${owner.userId}, 'expired', ${from.toISOString()}::timestamptz - g * interval '4 hours', 30, ${from.toISOString()}::timestamptz
			from generate_series(1, 2200) g`)
		const add = (id: string, start: Date, minutes: number) =>
			deps.database.rows(sql`insert into interviews (id, workspace_id, candidate_id, job_id, application_id, owner_user_id, status, scheduled_at, duration_minutes, deadline_at)
			values (${id}, ${ws.id}, ${candidate}, ${job}, ${application}, ${owner.userId}, 'invited', ${start.toISOString()}::timestamptz, ${minutes}, ${to.toISOString()}::timestamptz)`)
		const long = `int_long_${ws.id}`
		await add(long, new Date(from.getTime() - (MAX_INTERVIEW_MINUTES - 60) * 60_000), MAX_INTERVIEW_MINUTES)
		await add(`int_inside_${ws.id}`, new Date(from.getTime() + DAY), 30)
		await analyzeWhole(deps, 'interviews')

		let week: Awaited<ReturnType<typeof getCalendar>> | undefined
		const statements = await statementsOf(deps, async () => {
			week = await getCalendar(deps, actor, { from: from.toISOString(), to: to.toISOString(), types: ['interview'], limit: 100 })
		})
		expect(week!.events.map((e) => e.id)).toEqual([long, `int_inside_${ws.id}`])
		const plan = await planOf(deps, theStatement(statements, /from "interviews" i where/))
		const conditions = plan.split('\n').filter((l) => /Index Cond: .*scheduled_at/.test(l))
		expect(conditions.some((l) => /scheduled_at > /.test(l) && /scheduled_at < /.test(l)) ? '' : plan).toBe('')

		await expect(add(`int_too_long_${ws.id}`, from, MAX_INTERVIEW_MINUTES + 1)).rejects.toThrow()
		await expect(add(`int_no_time_${ws.id}`, from, 0)).rejects.toThrow()
	}, 60_000)
})

describe('review queue: a hiring manager’s interview results', () => {
	test('are read through the jobs of their teams, not every interview of the workspace', async () => {
		const hm = await newPerson(ws, 'hiring_manager', {}, deps)
		const actor = await personActor(deps, ws.slug, hm.email)
		const [teamJob, otherJob] = [await newVendorJob(ws, {}, deps), await newVendorJob(ws, {}, deps)]
		await deps.database.rows(sql`insert into job_team (job_id, user_id) values (${teamJob}, ${hm.userId})`)
		const candidate = await newCandidate(ws, { resume: false }, deps)
		const [teamApp, otherApp] = [await newApplication(ws, candidate, teamJob, {}, deps), await newApplication(ws, candidate, otherJob, {}, deps)]
		// Two years of results on another job, and two on the team's job.
		await deps.database.rows(sql`insert into interviews (id, workspace_id, candidate_id, job_id, application_id, status, scheduled_at, deadline_at, completed_at)
			select 'int_hm_' || ${ws.id} || '_' || g, ${ws.id}, ${candidate}, case when g <= 2 then ${teamJob} else ${otherJob} end, case when g <= 2 then ${teamApp} else ${otherApp} end,
				'completed', now() - g * interval '8 hours', now(), now() - g * interval '8 hours' + interval '1 hour'
			from generate_series(1, 2200) g`)
		await analyzeWhole(deps, 'interviews')
		let items: ReviewItem[] = []
		const statements = await statementsOf(deps, async () => {
			items = await completedInterviewsSource.items(deps, actor, { limit: 9 })
		})
		expect(items.map((i) => i.id)).toEqual([`int_hm_${ws.id}_2`, `int_hm_${ws.id}_1`])
		const plan = await planOf(deps, theStatement(statements, /status = 'completed'/))
		expect(/Seq Scan on interviews/.test(plan) ? plan : '').toBe('')
	}, 60_000)
})

describe('job page: résumé checks and the bench', () => {
	test('the applicants and the leads ranked at once share one re-check of the job; one after the other, each checks', async () => {
		const job = await newVendorJob(ws, {}, deps)
		for (let i = 0; i < 3; i++) await newApplication(ws, await newCandidate(ws, { resume: false }, deps), job, {}, deps)
		const readsOfTheJob = (statements: { text: string }[]) => statements.filter((q) => /resume_check->'version'/.test(q.text)).length
		expect(
			readsOfTheJob(await statementsOf(deps, () => Promise.all([refreshChecks(deps, ws.id, { jobId: job }), refreshChecks(deps, ws.id, { jobId: job })]))),
		).toBe(1)
		expect(
			readsOfTheJob(
				await statementsOf(deps, async () => {
					await refreshChecks(deps, ws.id, { jobId: job })
					await refreshChecks(deps, ws.id, { jobId: job })
				}),
			),
		).toBe(2)
	})

	test('résumé hashes and texts of any number of people are one statement text each', async () => {
		const ids = [await newCandidate(ws, {}, deps), await newCandidate(ws, {}, deps), await newCandidate(ws, { resume: false }, deps)]
		const [few, many] = [
			await statementsOf(deps, () => resumeHashes(deps, ws.id, ids.slice(0, 1))),
			await statementsOf(deps, () => resumeHashes(deps, ws.id, [...ids, 'cand_absent', ids[0]!])),
		]
		expect(few.map((q) => q.text)).toEqual(many.map((q) => q.text))
		const hashes = await resumeHashes(deps, ws.id, [...ids, 'cand_absent', ids[0]!])
		expect([...hashes.keys()].sort()).toEqual([...ids].sort())
		expect(hashes.get(ids[0]!)).toBe(resumeHash('Java, Spring Boot'))
		expect(hashes.get(ids[2]!)).toBe(resumeHash(null))
		const texts = await resumeTexts(deps, ws.id, [ids[0]!, ids[2]!, 'cand_absent'])
		expect(Object.fromEntries(texts)).toEqual({ [ids[0]!]: 'Java, Spring Boot', [ids[2]!]: null })
		const textStatements = [
			await statementsOf(deps, () => resumeTexts(deps, ws.id, ids.slice(0, 1))),
			await statementsOf(deps, () => resumeTexts(deps, ws.id, ids)),
		]
		expect(textStatements[0]!.map((q) => q.text)).toEqual(textStatements[1]!.map((q) => q.text))
		// Another workspace's candidate is not read.
		const other = await newWorkspace(deps)
		expect((await resumeHashes(deps, other.id, ids)).size).toBe(0)
	})

	test('a job-wide re-check reads no résumé; a résumé changed by any writer is checked again, only its applications', async () => {
		const job = await newVendorJob(ws, {}, deps)
		await deps.database.rows(sql`update jobs set must_have = array['Java', 'Kotlin'] where id = ${job}`)
		const people = [await newCandidate(ws, {}, deps), await newCandidate(ws, {}, deps), await newCandidate(ws, { resume: false }, deps)]
		const apps: string[] = []
		for (const c of people) apps.push(await newApplication(ws, c, job, {}, deps))
		expect(await refreshChecks(deps, ws.id, { jobId: job })).toBe(3)
		const current = await statementsOf(deps, async () => expect(await refreshChecks(deps, ws.id, { jobId: job })).toBe(0))
		expect(current.filter((q) => /candidates|resume_text|md5\(/.test(q.text)).map((q) => q.text)).toEqual([])

		// A plain update of the text (no service): its application, and only it, is checked again.
		await deps.database.rows(sql`update candidates set resume_text = ${'Java, Kotlin'} where id = ${people[0]}`)
		expect(await refreshChecks(deps, ws.id, { jobId: job })).toBe(1)
		const checkOf = async (id: string) =>
			(
				await deps.database.rows<{ hash: string | null; score: number | null }>(
					sql`select resume_check->>'resumeHash' as hash, resume_score as score from applications where id = ${id}`,
				)
			)[0]!
		expect(await checkOf(apps[0]!)).toEqual({ hash: resumeHash('Java, Kotlin'), score: 100 })
		expect(await checkOf(apps[1]!)).toEqual({ hash: resumeHash('Java, Spring Boot'), score: 50 })
		// A write that leaves the text as it was marks nothing.
		await deps.database.rows(sql`update candidates set resume_text = ${'Java, Kotlin'}, name = 'Renamed' where id = ${people[0]}`)
		expect(await refreshChecks(deps, ws.id, { jobId: job })).toBe(0)
	})

	test('a check made on a résumé that changed after it was read is not stored', async () => {
		const job = await newVendorJob(ws, {}, deps)
		const candidate = await newCandidate(ws, {}, deps)
		const app = await newApplication(ws, candidate, job, {}, deps)
		const made = checkResume('Java, Spring Boot', ['Java'], deps.now())
		await deps.database.rows(sql`update candidates set resume_text = ${'Kotlin'} where id = ${candidate}`)
		await saveCheck(deps, app, made)
		const stored = async () =>
			(await deps.database.rows<{ hash: string | null }>(sql`select resume_check->>'resumeHash' as hash from applications where id = ${app}`))[0]!.hash
		expect(await stored()).toBeNull()
		await saveCheck(deps, app, checkResume('Kotlin', ['Java'], deps.now()))
		expect(await stored()).toBe(resumeHash('Kotlin'))
	})

	test('a job’s applicants ranked by résumé score are read in order from an index, not sorted', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const job = await newVendorJob(ws, {}, deps)
		const n = 2000
		await deps.database.rows(sql`insert into candidates (id, workspace_id, name, email)
			select 'cand_rk_' || ${ws.id} || '_' || g, ${ws.id}, 'Ranked ' || g, 'rk' || g || '@' || ${ws.id} || '.test' from generate_series(1, ${n}::int) g`)
		// Current checks (the job has no must-haves, nobody a résumé): nothing to re-check.
		await deps.database.rows(sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, kind, archived, resume_check, resume_score)
			select 'app_rk_' || ${ws.id} || '_' || g, ${ws.id}, 'cand_rk_' || ${ws.id} || '_' || g, ${job}, 'applied', case when g % 10 = 0 then 'lead' else 'applicant' end, g % 7 = 0,
				jsonb_build_object('version', ${RESUME_CHECK_VERSION}::int, 'mustHaves', '[]'::jsonb, 'resumeHash', md5(''), 'items', '[]'::jsonb, 'met', 0, 'total', 0),
				case when g % 13 = 0 then null else (g * 37) % 101 end
			from generate_series(1, ${n}::int) g`)
		await analyzeWhole(deps, 'applications')
		await analyzeWhole(deps, 'candidates')
		let shown: string[] = []
		const statements = await statementsOf(deps, async () => {
			shown = (await getJobApplicants(deps, actor, { jobId: job, list: 'applicants', limit: 25 })).applicants.map((a) => a.applicationId)
		})
		const expected = (
			await deps.database.rows<{ id: string }>(
				sql`select id from applications where job_id = ${job} and kind = 'applicant' and not archived order by coalesce(resume_score, -1) desc, id limit 25`,
			)
		).map((r) => r.id)
		expect(shown).toEqual(expected)
		const plan = await planOf(deps, theStatement(statements, /order by coalesce\(a\.resume_score, -1\) desc/))
		expect(/applications_job_ranked/.test(plan) && !/Sort Key/.test(plan) ? '' : plan).toBe('')
	}, 60_000)
})

describe('the upload page', () => {
	test('what came through a link is read by the link, not from every document on file', async () => {
		const candidate = await newCandidate(ws, { resume: false }, deps)
		const link = newCredential('ul')
		const request = `dr_plan_${ws.id}`
		const expires = new Date(Date.now() + 7 * DAY).toISOString()
		await deps.database.rows(sql`insert into document_requests (id, workspace_id, candidate_id, items, token_hash, expires_at, requested_by_name)
			values (${request}, ${ws.id}, ${candidate}, array['dl','visa'], ${hashSecret(link)}, ${expires}::timestamptz, 'Plan Recruiter')`)
		// Years of documents on file: uploaded by others' links, seeded or imported (no link).
		await deps.database.rows(sql`insert into document_requests (id, workspace_id, candidate_id, items, token_hash, expires_at, requested_by_name)
			select 'dr_plan_' || ${ws.id} || '_' || g, ${ws.id}, ${candidate}, array['dl'], 'plan-hash-' || ${ws.id} || '-' || g, ${expires}::timestamptz, 'Plan Recruiter'
			from generate_series(1, 1000) g`)
		await deps.database.rows(sql`insert into candidate_documents (id, workspace_id, candidate_id, kind, file_name, content_type, size_bytes, storage_key, request_id)
			select 'cd_plan_' || ${ws.id} || '_' || g, ${ws.id}, ${candidate}, 'dl', 'licence.pdf', 'application/pdf', 1000, 'plan/' || g,
				case when g % 3 = 0 then null else 'dr_plan_' || ${ws.id} || '_' || (1 + g % 1000) end
			from generate_series(1, 6000) g`)
		await deps.database.rows(sql`insert into candidate_documents (id, workspace_id, candidate_id, kind, file_name, content_type, size_bytes, storage_key, request_id)
			values (${`cd_plan_${ws.id}_mine`}, ${ws.id}, ${candidate}, 'visa', 'visa.pdf', 'application/pdf', 1000, 'plan/mine', ${request})`)
		await analyzeWhole(deps, 'candidate_documents', 'document_requests')

		let page: Awaited<ReturnType<typeof openUploadLink>> | undefined
		const statements = await statementsOf(deps, async () => {
			page = await openUploadLink(deps, link)
		})
		expect(page?.received.map((r) => r.fileName)).toEqual(['visa.pdf'])
		const plan = await planOf(deps, theStatement(statements, /from "candidate_documents"/))
		expect(/Seq Scan on candidate_documents/.test(plan) || !/candidate_documents_request/.test(plan) ? plan : '').toBe('')
	}, 60_000)
})
