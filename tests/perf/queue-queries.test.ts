/**
 * The owner's home and `search` read what the page shows, not the workspace's history (bench/README.md,
 * "Portal pages at 1,000,000 candidates"), on PGlite and PostgreSQL:
 * - unread replies and unopened interview results are looked for within the review window
 *   (`modules/review/window.ts`), on index ranges bounded below by it; an older one is not listed;
 * - new applications are read per job from `applications_waiting`, however many moved on before;
 * - the inbox's search finds conversations through its indexes (no sequential scan of them).
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { ReviewItem } from '../../modules/review/index.ts'
import { personActor } from '../../modules/auth/index.ts'
import { inboxSearchProvider, repliesWaitingSource } from '../../modules/inbox/contributions.ts'
import { completedInterviewsSource } from '../../modules/interviews/contributions.ts'
import { newApplicationsSource } from '../../modules/review/service.ts'
import { UNSEEN_WINDOW_DAYS } from '../../modules/review/index.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'
import { analyzeWhole, planOf, statementsOf, theStatement } from './statements.ts'

let deps: AppDeps
let ws: TestWorkspace

beforeAll(async () => {
	deps = await testDeps()
	ws = await newWorkspace(deps)
})

describe('review queue: the owner’s sources', () => {
	test('replies waiting: the window’s unread ones, through inbox_threads_inbound bounded by the window; an older unread one is not listed', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const candidate = await newCandidate(ws, { resume: false }, deps)
		// Two years of replies, every one read; two unread in the window and one unread before it.
		await deps.database.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, candidate_id, counterpart_name, counterpart_address, subject, message_count, last_message_at, last_inbound_at)
			select 'thr_q_' || ${ws.id} || '_' || g, ${ws.id}, 'address:q' || g || '@x.test', 'candidate', ${candidate}, 'Jane Candidate', 'q' || g || '@x.test', 'Your application', 1,
				now() - g * interval '6 hours', now() - g * interval '6 hours'
			from generate_series(1, 3000) g`)
		await deps.database.rows(
			sql`insert into inbox_states (thread_id, user_id, read_at) select id, ${owner.userId}, now() from inbox_threads where workspace_id = ${ws.id} and id not in (${`thr_q_${ws.id}_2`}, ${`thr_q_${ws.id}_3`}, ${`thr_q_${ws.id}_200`})`,
		)
		await analyzeWhole(deps, 'inbox_threads')
		await analyzeWhole(deps, 'inbox_states')
		let items: ReviewItem[] = []
		const statements = await statementsOf(deps, async () => {
			items = await repliesWaitingSource.items(deps, actor, { limit: 9 })
		})
		// Thread 200 (unread, 50 days old) is before the window.
		expect((200 * 6) / 24).toBeGreaterThan(UNSEEN_WINDOW_DAYS)
		expect(items.map((i) => i.id)).toEqual([`thr_q_${ws.id}_3`, `thr_q_${ws.id}_2`])
		const plan = await planOf(deps, theStatement(statements, /last_inbound_at/))
		expect(/Index Cond: .*last_inbound_at >=/.test(plan) && !/Seq Scan on inbox_threads/.test(plan) ? '' : plan).toBe('')
	}, 60_000)

	test('interview results: the window’s unopened ones, on an index range bounded by the window; an older unopened one is not listed', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const job = await newVendorJob(ws, {}, deps)
		const candidate = await newCandidate(ws, { resume: false }, deps)
		const app = await newApplication(ws, candidate, job, {}, deps)
		await deps.database.rows(sql`insert into interviews (id, workspace_id, candidate_id, job_id, application_id, owner_user_id, status, scheduled_at, deadline_at, completed_at)
			select 'int_q_' || ${ws.id} || '_' || g, ${ws.id}, ${candidate}, ${job}, ${app}, ${owner.userId}, 'completed', now() - g * interval '8 hours', now(), now() - g * interval '8 hours' + interval '1 hour'
			from generate_series(1, 2200) g`)
		await deps.database.rows(
			sql`insert into interview_views (interview_id, user_id, seen_at) select id, ${owner.userId}, now() from interviews where workspace_id = ${ws.id} and id like 'int\\_q\\_%' and id not in (${`int_q_${ws.id}_2`}, ${`int_q_${ws.id}_200`})`,
		)
		await analyzeWhole(deps, 'interviews')
		let items: ReviewItem[] = []
		const statements = await statementsOf(deps, async () => {
			items = await completedInterviewsSource.items(deps, actor, { limit: 9 })
		})
		// Result 200 (unopened, 66 days old) is before the window.
		expect((200 * 8) / 24).toBeGreaterThan(UNSEEN_WINDOW_DAYS)
		expect(items.map((i) => i.id)).toEqual([`int_q_${ws.id}_2`])
		const plan = await planOf(deps, theStatement(statements, /status = 'completed'/))
		expect(/Index Cond: .*completed_at >=/.test(plan) && !/Seq Scan on interviews/.test(plan) ? '' : plan).toBe('')
	}, 60_000)

	test('new applications: each job’s oldest waiting ones read in order from applications_waiting, not every waiting one collected and sorted', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const [a, b] = [await newVendorJob(ws, {}, deps), await newVendorJob(ws, {}, deps)]
		await deps.database.rows(sql`insert into job_team (job_id, user_id) values (${a}, ${owner.userId}), (${b}, ${owner.userId})`)
		await deps.database.rows(
			sql`insert into candidates (id, workspace_id, name, email) select 'cand_q_' || ${ws.id} || '_' || g, ${ws.id}, 'Person ' || g, 'q' || g || '@' || ${ws.id} || '.test' from generate_series(1, 4000) g`,
		)
		// Two busy jobs, 2,000 applications each: the oldest moved on, the other 1,500 still waiting.
		await deps.database.rows(sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, created_at)
			select 'app_q_' || ${ws.id} || '_' || g, ${ws.id}, 'cand_q_' || ${ws.id} || '_' || g, case when g % 2 = 0 then ${a} else ${b} end,
				case when g > 3000 then 'screening' else 'applied' end, now() - g * interval '1 hour'
			from generate_series(1, 4000) g`)
		await deps.database.rows(sql`vacuum applications`)
		await analyzeWhole(deps, 'applications')
		let items: ReviewItem[] = []
		const statements = await statementsOf(deps, async () => {
			items = await newApplicationsSource.items(deps, actor, { limit: 3 })
		})
		expect(items.map((i) => i.id)).toEqual([`app_q_${ws.id}_3000`, `app_q_${ws.id}_2999`, `app_q_${ws.id}_2998`])
		const plan = await planOf(deps, theStatement(statements, /from applications a/))
		const sorted = [...plan.matchAll(/Sort\s+\(cost=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1]))
		expect(/Index Only Scan using applications_waiting/.test(plan) && !sorted.some((rows) => rows > 100) ? '' : plan).toBe('')
	}, 60_000)
})

describe('search: conversations', () => {
	test('found by subject words, name, address and message text through their indexes, never by reading every conversation', async () => {
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const titles = ['Java Developer', 'Python Developer', 'Data Engineer', 'QA Analyst', 'Scrum Master', 'Oracle DBA']
		await deps.database.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, counterpart_name, counterpart_address, subject, message_count, last_message_at)
			select 'thr_s_' || ${ws.id} || '_' || g, ${ws.id}, 'address:s' || g || '@x.test', 'other', 'Person ' || g, 's' || g || '@x.test', 'Your application: ' || (${sql.param(titles)}::text[])[1 + g % 6], 1, now() - g * interval '1 minute'
			from generate_series(1, 3000) g`)
		await deps.database.rows(sql`insert into inbox_messages (id, workspace_id, thread_id, direction, channel, from_address, to_address, text, at)
			select 'msg_s_' || ${ws.id} || '_' || g, ${ws.id}, 'thr_s_' || ${ws.id} || '_' || g, 'in', 'email', 's' || g || '@x.test', 'jobs@x.test',
				case when g = 77 then 'I can start on the 1st of Quintember' else 'Thanks, I am available Tuesday afternoon.' end, now() - g * interval '1 minute'
			from generate_series(1, 3000) g`)
		await deps.database.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, counterpart_name, counterpart_address, subject, message_count, last_message_at)
			values (${`thr_s_${ws.id}_omar`}, ${ws.id}, 'address:omar@x.test', 'other', 'Omar Reyes', 'omar@x.test', 'Hello', 0, now())`)
		await analyzeWhole(deps, 'inbox_threads')
		await analyzeWhole(deps, 'inbox_messages')
		const found = async (q: string) => {
			let ids: string[] = []
			const statements = await statementsOf(deps, async () => {
				ids = (await inboxSearchProvider.search(deps, actor, q, 10))?.hits.map((h) => h.id) ?? []
			})
			const plan = await planOf(deps, theStatement(statements, /from "inbox_threads" t/))
			// Only the conversations the branches found are ranked, fetched by key. (At this size the
			// planner reads a few thousand rows rather than a GIN or trigram index inside a branch, as
			// tests/perf/query-plans.test.ts explains; at 100,000 conversations bench/scale.ts shows the plans.)
			expect(/Index Scan (using|on) inbox_threads_pkey/.test(plan) ? '' : plan).toBe('')
			return ids
		}
		expect((await found('python developer')).length).toBe(10)
		expect(await found('Omar Reyes')).toContain(`thr_s_${ws.id}_omar`)
		expect(await found('Omar Reyse')).toContain(`thr_s_${ws.id}_omar`)
		expect(await found('omar@x.test')).toEqual([`thr_s_${ws.id}_omar`])
		expect(await found('quintember')).toEqual([`thr_s_${ws.id}_77`])
	}, 60_000)
})
