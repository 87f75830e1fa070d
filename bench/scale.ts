/**
 * bench/scale — issue 8, figure 5: every list and search tool and REST listJobs at p95 < 50 ms on a
 * workspace of 1,000,000 candidates, 100,000 jobs and 2,000,000 applications on PostgreSQL; and
 * issue 19, "Speed": every portal page at p95 < 100 ms on the same workspace. With the plan of
 * every statement they send (sequential scans of a large table are flagged).
 *
 *   bun bench/scale.ts            (npm run bench:scale)
 *
 * One run:
 *  1. creates a throwaway database on SHARED_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 *     applies the migrations, creates the workspace, an owner, a hiring manager (on 5 jobs' teams)
 *     and a vendor through the services;
 *  2. generates the rows in SQL (`lib/scale-data.ts`, which says what and why): CANDIDATES
 *     (1,000,000; the RESUMES (50,000) newest with a résumé), JOBS (100,000; VENDOR_JOBS 10,000 of
 *     them the vendor's), APPS_PER_CANDIDATE (2) plus BUSY_JOBS (5) jobs with BUSY_APPLICATIONS
 *     (5,000) each, BENCH (5,000), ACTIVITY (1,000,000), INTERVIEWS (100,000), THREADS (100,000);
 *  3. sends each scenario WARMUP (20) then CALLS (200) times through the real app (`app.handle`)
 *     one at a time, with varying arguments, and prints p50/p95/p99 in ms: the tools as MCP
 *     `tools/call` with a personal token (⚠ at p95 ≥ 50 ms), the pages as GETs with the session
 *     cookie of a sign-in through the sign-in form (`lib/scale-pages.ts`; ⚠ at p95 ≥ 100 ms).
 *     A scenario stops after SCENARIO_SECONDS (40) with at least 20 measured calls;
 *  4. runs each scenario once more with drizzle's query logger on and EXPLAIN ANALYZEs every
 *     statement that reads a large table: the table shows how many statements a call sends, the
 *     slowest one's time, and `index` or the sequential scans found.
 * The database is dropped at the end (KEEP=1 keeps it; REUSE=<database> measures it again without
 * generating; ONLY=<regex> measures the scenarios whose `tool scenario` or `page scenario` matches).
 * Raw results, with every plan: bench/results/scale-<date>.json.
 */
import { cpus, loadavg, totalmem } from 'node:os'
import { operatorActor } from '../modules/auth/index.ts'
import { DEFAULT_STAGES } from '../modules/candidates/stages.ts'
import { careersBurst, careersEventsOf, dashboardScenarios, generateCareersEvents } from './lib/scale-dashboards.ts'
import { generateScaleData, sizesFrom } from './lib/scale-data.ts'
import { pageScenarios, type Scenario } from './lib/scale-pages.ts'
import { mcpCaller, openScaleWorkspace, timeCalls } from './lib/scale-workspace.ts'
import { planOf, statementsOf } from '../tests/perf/statements.ts'
import { createKey, createVendor } from '../modules/vendors/index.ts'

const env = process.env
const sizes = sizesFrom(env)
const VENDOR_JOBS = sizes.vendorJobs
const CALLS = Number(env.CALLS ?? 200)
const WARMUP = Number(env.WARMUP ?? 20)
/** At most this long per scenario (warm-up included; at least 20 measured calls), so a very slow one does not stall the run. */
const SCENARIO_SECONDS = Number(env.SCENARIO_SECONDS ?? 40)
/** Tables whose sequential scan the plan pass flags. */
const LARGE = [
	'jobs',
	'candidates',
	'applications',
	'bench_entries',
	'ratings',
	'activity',
	'interviews',
	'inbox_threads',
	'inbox_messages',
	'careers_events',
	'careers_daily_jobs',
]
/** The goals: issue 8's for the tools and REST, issue 19's for the pages. */
const TOOL_GOAL_MS = 50
const PAGE_GOAL_MS = 100

const { deps, app, pg, ws, reused, owner, hm, cleanup } = await openScaleWorkspace({ pgMax: 2 })
const ownerToken = owner.token
const hmToken = hm.token
try {
	// On a reused database, the vendor that owns the generated jobs gets a new key.
	const reusedVendor = reused
		? (await pg<{ id: string }[]>`select vendor_id as id from jobs where workspace_id = ${ws.id} and vendor_id is not null limit 1`)[0]
		: undefined
	const vendor = reusedVendor
		? { vendorId: reusedVendor.id, ...(await createKey(deps, operatorActor(ws), reusedVendor.id)) }
		: await createVendor(deps, operatorActor(ws), { name: `Scale Vendor ${Date.now()}` })
	const stages = DEFAULT_STAGES.map((s) => s.key)

	if (!reused) await generateScaleData(pg, { workspaceId: ws.id, vendorId: vendor.vendorId, ownerId: owner.userId, hmId: hm.userId }, sizes)
	if (!reused) await generateCareersEvents(pg, ws.id, sizes, careersEventsOf(env))

	const mcp = mcpCaller(app)
	const { callTool } = mcp
	const restJobs = async () => {
		const res = await app.handle(new Request('http://localhost/api/v1/jobs', { headers: { authorization: `Bearer ${vendor.apiKey}` } }))
		const text = await res.text()
		if (res.status !== 200) throw new Error(`GET /api/v1/jobs: ${res.status} ${text.slice(0, 300)}`)
		return text
	}
	const firstCursor = (name: string, args: Record<string, unknown>) => mcp.firstCursor(ownerToken, name, args)
	const people = await pg<
		{ name: string; email: string }[]
	>`select name, email from candidates where workspace_id = ${ws.id} and id like 'cand\\_s%' order by id limit 200`
	const jobIds = (await pg<{ id: string }[]>`select id from jobs where workspace_id = ${ws.id} order by id limit 500`).map((r) => r.id)
	const words = [
		'java',
		'python developer',
		'kubernetes terraform',
		'snowflake',
		'salesforce apex',
		'austin',
		'guidewire',
		'data engineer',
		'react node',
		'oracle dba',
	]
	const titles = ['java', 'data scientist', 'salesforce', 'full stack', 'devops', '.net', 'python backend', 'qa']
	const pick = <T>(list: T[], i: number) => list[i % list.length]!
	const cursors = {
		candidates: firstCursor('list_candidates', {}),
		bench: firstCursor('list_bench', {}),
		jobs: firstCursor('list_jobs', {}),
		applications: firstCursor('list_applications', {}),
	}
	const scenarios: Scenario[] = [
		['get_job', 'floor: one job by id', (i) => callTool(ownerToken, 'get_job', { jobId: pick(jobIds, i) })],
		['list_jobs', 'first page (with applicant counts)', () => callTool(ownerToken, 'list_jobs', {})],
		['list_jobs', 'page 2 (cursor)', async () => callTool(ownerToken, 'list_jobs', { cursor: await cursors.jobs })],
		['list_jobs', 'status Closed', () => callTool(ownerToken, 'list_jobs', { status: 'Closed' })],
		['list_jobs', 'query (varied titles)', (i) => callTool(ownerToken, 'list_jobs', { query: pick(titles, i) })],
		['list_jobs', 'hiring manager', () => callTool(hmToken, 'list_jobs', {})],
		['REST GET /api/v1/jobs', `vendor's jobs (${Math.min(VENDOR_JOBS, 500)} of ${VENDOR_JOBS})`, () => restJobs()],
		['list_candidates', 'first page', () => callTool(ownerToken, 'list_candidates', {})],
		['list_candidates', 'page 2 (cursor)', async () => callTool(ownerToken, 'list_candidates', { cursor: await cursors.candidates })],
		['list_candidates', 'query (varied words)', (i) => callTool(ownerToken, 'list_candidates', { query: pick(words, i) })],
		['list_candidates', 'jobId (varied)', (i) => callTool(ownerToken, 'list_candidates', { jobId: pick(jobIds, i * 7) })],
		['list_candidates', 'hiring manager', () => callTool(hmToken, 'list_candidates', {})],
		['list_applications', 'first page', () => callTool(ownerToken, 'list_applications', {})],
		['list_applications', 'page 2 (cursor)', async () => callTool(ownerToken, 'list_applications', { cursor: await cursors.applications })],
		['list_applications', 'stageKey (varied)', (i) => callTool(ownerToken, 'list_applications', { stageKey: pick(stages, i) })],
		['list_applications', 'jobId + includeArchived', (i) => callTool(ownerToken, 'list_applications', { jobId: pick(jobIds, i * 13), includeArchived: true })],
		['list_applications', 'hiring manager', () => callTool(hmToken, 'list_applications', {})],
		['list_bench', 'first page', () => callTool(ownerToken, 'list_bench', {})],
		['list_bench', 'page 2 (cursor)', async () => callTool(ownerToken, 'list_bench', { cursor: await cursors.bench })],
		['list_interview_results', 'first page', () => callTool(ownerToken, 'list_interview_results', {})],
		['list_todos', 'first page', () => callTool(ownerToken, 'list_todos', {})],
		['list_inbox_threads', 'first page', () => callTool(ownerToken, 'list_inbox_threads', {})],
		['list_vendors', 'first page', () => callTool(ownerToken, 'list_vendors', {})],
		['search', 'skills and titles (varied)', (i) => callTool(ownerToken, 'search', { q: pick(words, i) })],
		['search', 'a name (varied)', (i) => callTool(ownerToken, 'search', { q: pick(people, i).name })],
		['search', 'a misspelt name (varied)', (i) => callTool(ownerToken, 'search', { q: pick(people, i).name.replace(/[aeiou]/, 'y') })],
		['search', 'an e-mail address (varied)', (i) => callTool(ownerToken, 'search', { q: pick(people, i).email })],
		['search', 'hiring manager', (i) => callTool(hmToken, 'search', { q: pick(words, i) })],
	]

	const pages = await pageScenarios(app, pg, ws.id, sizes, { ownerEmail: owner.email, hmEmail: hm.email })
	const dashboards = await dashboardScenarios(app, pg, ws.id, { ownerEmail: owner.email, hmEmail: hm.email })

	/**
	 * How many statements one call sends, and the plan of each read that touches a large table, with
	 * actual times (EXPLAIN ANALYZE runs it once more; a statement that writes is only planned).
	 */
	async function plansOf(run: () => Promise<unknown>) {
		const captured = await statementsOf(deps, run)
		const plans: { text: string; plan: string; seqScans: string[]; ms: number }[] = []
		for (const q of captured.filter((q) => /^\s*(select|with)\b/i.test(q.text) && LARGE.some((t) => new RegExp(`\\b${t}\\b`).test(q.text)))) {
			const plan = await planOf(deps, q, /\b(insert|update|delete)\b/i.test(q.text) ? '' : 'analyze, buffers')
			const seqScans = LARGE.flatMap((t) => (plan.match(new RegExp(`Seq Scan on ${t} \\w+`, 'g')) ?? []) as string[])
			plans.push({ text: q.text, plan, seqScans, ms: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN) })
		}
		return { statements: captured.length, plans }
	}

	const results: Record<string, unknown>[] = []
	const la = loadavg()
	console.log(`\nLoad average before measuring: ${la.map((l) => l.toFixed(2)).join(' ')} (${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB)`)
	const only = env.ONLY ? new RegExp(env.ONLY) : null
	async function measure(heading: string, list: Scenario[], goalMs: number) {
		const chosen = list.filter(([what, scenario]) => !only || only.test(`${what} ${scenario}`))
		if (!chosen.length) return
		console.log(`\n| ${heading} | scenario | p50 ms | p95 ms | p99 ms | statements (slowest, ms) | plan |\n|---|---|---:|---:|---:|---|---|`)
		for (const [what, scenario, run] of chosen) {
			const { p50, p95, p99, calls } = await timeCalls(run, WARMUP, CALLS, SCENARIO_SECONDS * 1000)
			const { statements, plans } = await plansOf(() => run(1))
			const scans = [...new Set(plans.flatMap((p) => p.seqScans))]
			const planNote = !plans.length ? 'no large table' : scans.length ? `SEQ SCAN: ${scans.join(', ')}` : 'index'
			const slowest = Math.max(0, ...plans.map((p) => p.ms).filter(Number.isFinite))
			const cut = calls < CALLS ? ` (${calls} calls: ${SCENARIO_SECONDS} s budget)` : ''
			console.log(
				`| ${what} | ${scenario}${cut} | ${p50.toFixed(1)} | ${p95.toFixed(1)}${p95 >= goalMs ? ' ⚠' : ''} | ${p99.toFixed(1)} | ${statements} (${slowest.toFixed(1)}) | ${planNote} |`,
			)
			results.push({ kind: heading, tool: what, scenario, goalMs, p50, p95, p99, calls, statements, plans })
		}
	}
	await measure('tool', scenarios, TOOL_GOAL_MS)
	await measure('page', pages, PAGE_GOAL_MS)
	await measure('dashboard page', dashboards, PAGE_GOAL_MS)
	if (!only || only.test('careers burst')) {
		// Issue 13: the careers page's write path under a burst (every view updates the same counter rows).
		const burst = await careersBurst(app, pg, ws, Number(env.BURST ?? 50), Number(env.BURST_ROUNDS ?? 10))
		console.log(
			`\nCareers page views, ${env.BURST ?? 50} at once of one job from one source: ${burst.views} views, ${burst.perSecond.toFixed(0)}/s, p50 ${burst.p50.toFixed(1)} ms, p95 ${burst.p95.toFixed(1)} ms, p99 ${burst.p99.toFixed(1)} ms; events ${burst.events}, counted ${burst.counters}${burst.events === burst.counters ? '' : ' ⚠ MISMATCH'}`,
		)
		results.push({ kind: 'careers burst', ...burst })
	}
	await Bun.write(
		`${import.meta.dir}/results/scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		JSON.stringify({ loadavg: la, loadavgAfter: loadavg(), sizes, calls: CALLS, warmup: WARMUP, results }, null, 2),
	)
} finally {
	await cleanup()
}
