/**
 * bench/scale — issue 8, figure 5: every list and search tool and REST listJobs at p95 < 50 ms on a
 * workspace of 1,000,000 candidates, 100,000 jobs and 2,000,000 applications on PostgreSQL, and
 * the plan of every statement they send (sequential scans of a large table are flagged).
 *
 *   bun bench/scale.ts            (npm run bench:scale)
 *
 * One run:
 *  1. creates a throwaway database on SHARED_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 *     applies the migrations, creates the workspace, an owner, a hiring manager (on 5 jobs' teams)
 *     and a vendor through the services;
 *  2. generates the rows in SQL (generate_series): the secondary indexes of the big tables are
 *     dropped first and rebuilt after (a bulk build is several times faster than row-by-row
 *     upkeep, GIN above all), foreign-key triggers are off for the session (the rows are made
 *     consistent), then VACUUM ANALYZE. Sizes: CANDIDATES (1,000,000), JOBS (100,000),
 *     APPS_PER_CANDIDATE (2), BENCH (5,000), VENDOR_JOBS (10,000 of the jobs belong to the vendor);
 *  3. sends each scenario WARMUP (20) then CALLS (200) times through the real app (`app.handle`:
 *     token or key check, rate limit, MCP SDK, JSON) one at a time, with varying arguments, and
 *     prints p50/p95/p99 in ms (⚠ at p95 ≥ 50 ms);
 *  4. runs each scenario once more with drizzle's query logger on, EXPLAINs every statement that
 *     reads a large table and prints `index` or the sequential scans it found.
 * The database is dropped at the end (KEEP=1 keeps it; REUSE=<database> measures it again without
 * generating; ONLY=<regex> measures the scenarios whose `tool scenario` matches). Raw results:
 * bench/results/scale-<date>.json.
 */
import { cpus, loadavg, totalmem } from 'node:os'
import { sql, type SQL } from 'drizzle-orm'
import { operatorActor } from '../modules/auth/index.ts'
import { mcpCaller, openScaleWorkspace, timeCalls } from './lib/scale-workspace.ts'
import { DEFAULT_STAGES } from '../modules/candidates/stages.ts'
import { ROLE_TEMPLATES } from '../modules/jobs/index.ts'
import { createKey, createVendor } from '../modules/vendors/index.ts'

const env = process.env
const CANDIDATES = Number(env.CANDIDATES ?? 1_000_000)
const JOBS = Number(env.JOBS ?? 100_000)
const PER = Number(env.APPS_PER_CANDIDATE ?? 2)
const BENCH = Number(env.BENCH ?? 5_000)
const VENDOR_JOBS = Number(env.VENDOR_JOBS ?? 10_000)
const CALLS = Number(env.CALLS ?? 200)
const WARMUP = Number(env.WARMUP ?? 20)
const LARGE = ['jobs', 'candidates', 'applications', 'bench_entries', 'ratings']

const FIRST = 'Priya Rahul Anil Sunita Wei Li Maria Jose Ahmed Fatima John Mary James Linda Robert Karen Ivan Olga Kenji Yuki Aarav Diya Omar Sara Lucas Emma Noah Ava Mateo Sofia Arjun Kavya Chen Mei Tom Anna David Laura Ravi Neha Sam Grace Victor Elena Hiro Nina Pedro Lucia Daniel Chloe Amit Pooja Sanjay Deepa Kiran Vikram Meera Rohan Isha Tariq Leila'.split(' ')
const LAST = 'Sharma Patel Reddy Nguyen Wang Garcia Smith Johnson Brown Khan Ali Kumar Singh Gupta Lee Kim Tanaka Ivanov Rossi Muller Silva Costa Lopez Martin Davis Miller Wilson Moore Taylor Thomas Anderson Jackson White Harris Clark Lewis Young Iyer Rao Menon Nair Joshi Das Bose Chopra Mehta Shah Verma Yadav Pillai Okafor Mensah Haddad Novak Kowalski Dubois Fischer Weber Schmidt Jensen'.split(' ')
const CITIES = ['Austin, TX', 'Dallas, TX', 'Houston, TX', 'Chicago, IL', 'Newark, NJ', 'Jersey City, NJ', 'Atlanta, GA', 'Charlotte, NC', 'Seattle, WA', 'Phoenix, AZ', 'Remote']

const { deps, app, pg, ws, reused, owner, hm, cleanup } = await openScaleWorkspace({ pgMax: 2 })
const ownerToken = owner.token
const hmToken = hm.token
try {
	// On a reused database, the vendor that owns the generated jobs gets a new key.
	const reusedVendor = reused ? (await pg<{ id: string }[]>`select vendor_id as id from jobs where workspace_id = ${ws.id} and vendor_id is not null limit 1`)[0] : undefined
	const vendor = reusedVendor ? { vendorId: reusedVendor.id, ...(await createKey(deps, operatorActor(ws), reusedVendor.id)) } : await createVendor(deps, operatorActor(ws), { name: `Scale Vendor ${Date.now()}` })
	const stages = DEFAULT_STAGES.map((s) => s.key)

	if (!reused) await generate()
	async function generate() {
		const t0 = performance.now()
		const step = async (label: string, text: string, params: unknown[] = []) => {
			const s = performance.now()
			await pg.unsafe(text, params as never[])
			console.log(`  ${label}: ${((performance.now() - s) / 1000).toFixed(1)} s`)
		}
		const big = ['jobs', 'candidates', 'applications', 'ratings', 'bench_entries']
		const indexes = await pg<{ name: string; def: string }[]>`select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and tablename in ${pg(big)} and indexname not like '%_pkey'`
		const w = ws.id
		const t = ROLE_TEMPLATES
		// One connection for the load, so the session settings hold for every statement.
		await pg.begin(async (tx) => {
			await tx.unsafe(`set local maintenance_work_mem = '1GB'`)
			await tx.unsafe(`set local session_replication_role = replica`) // no FK triggers: the rows are consistent by construction
			await tx.unsafe(`set local synchronous_commit = off`)
			for (const i of indexes) await tx.unsafe(`drop index ${i.name}`)
			await tx`insert into pipeline_stages ${tx(DEFAULT_STAGES.map((s) => ({ workspace_id: w, key: s.key, label: s.label, position: s.position })))} on conflict do nothing`
			const s1 = performance.now()
			await tx.unsafe(
				`insert into jobs (id, workspace_id, vendor_id, vendor_job_id, slug, title, location, summary, must_have, nice_to_have, status, published_at, created_at, updated_at, closed_at)
				select 'job_s' || g, $1, case when g <= $9 then $2 end, case when g <= $9 then 'vj-' || g end, 'job-' || g,
					($3::text[])[1 + g % $8] || ' ' || g, ($6::text[])[1 + g % 11], ($7::text[])[1 + g % $8], string_to_array(($4::text[])[1 + g % $8], '|'), string_to_array(($5::text[])[1 + g % $8], '|'),
					case when g % 10 = 3 then 'Closed' when g % 10 = 7 then 'Draft' else 'Open' end, case when g % 10 <> 7 then now() - g * interval '1 minute' end,
					now() - g * interval '1 minute', now() - g * interval '1 minute', case when g % 10 = 3 then now() end
				from generate_series(1, $10::int) g`,
				[w, vendor.vendorId, t.map((r) => r.title), t.map((r) => r.mustHave.join('|')), t.map((r) => r.niceToHave.join('|')), CITIES, t.map((r) => r.summary), t.length, VENDOR_JOBS, JOBS],
			)
			console.log(`  jobs: ${((performance.now() - s1) / 1000).toFixed(1)} s`)
			await tx`insert into job_team ${tx([1, 2, 3, 4, 5].map((g) => ({ job_id: `job_s${g * 101}`, user_id: hm.userId })))}`
			const s2 = performance.now()
			await tx.unsafe(
				`insert into candidates (id, workspace_id, name, email, phone, location, headline, skills, work_authorization, years_experience, source, created_at, updated_at)
				select 'cand_s' || g, $1, ($2::text[])[1 + g % $7] || ' ' || ($3::text[])[1 + (g / $7) % $8], 'c' || g || '@scale.test', '+1 512 555 ' || lpad((g % 10000)::text, 4, '0'),
					($4::text[])[1 + (g / 7) % 11], ($5::text[])[1 + g % $9], string_to_array(($6::text[])[1 + g % $9], '|'),
					(array['USC','GC','H1B','OPT','EAD','TN','L2'])[1 + g % 7], 1 + g % 20, (array['careers','vendor','referral','sourced','job_board'])[1 + g % 5],
					now() - g * interval '30 seconds', now() - g * interval '30 seconds'
				from generate_series(1, $10::int) g`,
				[w, FIRST, LAST, CITIES, t.map((r) => r.title), t.map((r) => [...r.mustHave, ...r.niceToHave].join('|')), FIRST.length, LAST.length, t.length, CANDIDATES],
			)
			console.log(`  candidates: ${((performance.now() - s2) / 1000).toFixed(1)} s`)
			const s3 = performance.now()
			await tx.unsafe(
				`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, outcome, archived, kind, resume_score, source, created_at, updated_at, stage_changed_at)
				select 'app_s' || g || '_' || k, $1, 'cand_s' || g, 'job_s' || (1 + (g * 2 + k * 977) % $3), ($2::text[])[1 + (g + k) % cardinality($2::text[])],
					case when g % 13 = 0 then 'rejected' end, g % 11 = 0, case when k = 1 and g % 7 = 0 then 'lead' else 'applicant' end, (g * 37 + k) % 101, 'careers',
					now() - g * interval '30 seconds' + k * interval '1 second', now() - g * interval '30 seconds', now() - g * interval '30 seconds'
				from generate_series(1, $4::int) g, generate_series(0, $5::int - 1) k`,
				[w, stages, JOBS, CANDIDATES, PER],
			)
			console.log(`  applications: ${((performance.now() - s3) / 1000).toFixed(1)} s`)
			// The per-day counters the analytics funnel reads are kept by a trigger, which is off here.
			await tx.unsafe(
				`insert into application_daily_counts (workspace_id, day, stage_key, outcome, kind, n)
				select workspace_id, (created_at at time zone 'UTC')::date, stage_key, coalesce(outcome, ''), kind, count(*)::int from applications where workspace_id = $1 and id like 'app_s%' group by 1, 2, 3, 4, 5
				on conflict (workspace_id, day, stage_key, outcome, kind) do update set n = application_daily_counts.n + excluded.n`,
				[w],
			)
			await tx.unsafe(`insert into ratings (id, application_id, user_id, score) select 'rat_s' || g, 'app_s' || g || '_0', $1, 1 + g % 5 from generate_series(10, $2::int, 10) g`, [owner.userId, CANDIDATES])
			await tx.unsafe(
				`insert into bench_entries (id, workspace_id, candidate_id, role_family, added_by_user_id, hourly_rate, added_at)
				select 'bench_s' || g, $1, 'cand_s' || (1 + (g * 49) % $3), ($2::text[])[1 + g % cardinality($2::text[])], $4, 60 + (g % 8) * 5, now() - g * interval '1 minute'
				from generate_series(1, $5::int) g on conflict do nothing`,
				[w, [...new Set(t.map((r) => r.family))], CANDIDATES, owner.userId, BENCH],
			)
		})
		// Rebuilt two at a time (two cores); btree builds also use parallel workers.
		const s4 = performance.now()
		const queue = [...indexes]
		await Promise.all(
			[0, 1].map(async () => {
				const conn = await pg.reserve()
				try {
					await conn.unsafe(`set maintenance_work_mem = '1GB'`)
					for (let i = queue.shift(); i; i = queue.shift()) await conn.unsafe(i.def)
				} finally {
					conn.release()
				}
			}),
		)
		console.log(`  ${indexes.length} indexes rebuilt: ${((performance.now() - s4) / 1000).toFixed(1)} s`)
		await step('vacuum analyze', 'vacuum analyze')
		console.log(`Generated ${CANDIDATES} candidates, ${CANDIDATES * PER} applications, ${JOBS} jobs, ${BENCH} bench entries in ${Math.round((performance.now() - t0) / 1000)} s`)
	}

	const mcp = mcpCaller(app)
	const { callTool } = mcp
	const restJobs = async () => {
		const res = await app.handle(new Request('http://localhost/api/v1/jobs', { headers: { authorization: `Bearer ${vendor.apiKey}` } }))
		const text = await res.text()
		if (res.status !== 200) throw new Error(`GET /api/v1/jobs: ${res.status} ${text.slice(0, 300)}`)
		return text
	}
	const firstCursor = (name: string, args: Record<string, unknown>) => mcp.firstCursor(ownerToken, name, args)
	const people = await pg<{ name: string; email: string }[]>`select name, email from candidates where workspace_id = ${ws.id} and id like 'cand_s%' order by id limit 200`
	const jobIds = (await pg<{ id: string }[]>`select id from jobs where workspace_id = ${ws.id} order by id limit 500`).map((r) => r.id)
	const words = ['java', 'python developer', 'kubernetes terraform', 'snowflake', 'salesforce apex', 'austin', 'guidewire', 'data engineer', 'react node', 'oracle dba']
	const titles = ['java', 'data scientist', 'salesforce', 'full stack', 'devops', '.net', 'python backend', 'qa']
	const pick = <T>(list: T[], i: number) => list[i % list.length]!
	const cursors = {
		candidates: firstCursor('list_candidates', {}),
		bench: firstCursor('list_bench', {}),
		jobs: firstCursor('list_jobs', {}),
		applications: firstCursor('list_applications', {}),
	}
	const scenarios: [string, string, (i: number) => Promise<unknown>][] = [
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

	/** drizzle's sessions log every statement through `session.logger`; the plan pass swaps in a recorder. */
	const session = (deps.db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void } } }).session
	const explainOf = (text: string, params: unknown[]): SQL =>
		sql.join(
			[sql.raw('explain '), ...text.split(/\$(\d+)/).map((part, i) => (i % 2 ? sql`${params[Number(part) - 1]}` : sql.raw(part)))],
			sql.raw(''),
		)
	async function plansOf(run: () => Promise<unknown>) {
		const captured: { text: string; params: unknown[] }[] = []
		const previous = session.logger
		session.logger = { logQuery: (text, params) => void captured.push({ text, params }) }
		try {
			await run()
		} finally {
			session.logger = previous
		}
		const plans: { text: string; plan: string; seqScans: string[] }[] = []
		for (const q of captured.filter((q) => /^\s*(select|with)\b/i.test(q.text) && LARGE.some((t) => new RegExp(`\\b${t}\\b`).test(q.text)))) {
			const plan = (await deps.database.rows<{ 'QUERY PLAN': string }>(explainOf(q.text, q.params))).map((r) => r['QUERY PLAN']).join('\n')
			const seqScans = LARGE.flatMap((t) => (plan.match(new RegExp(`Seq Scan on ${t} \\w+`, 'g')) ?? []) as string[])
			plans.push({ text: q.text, plan, seqScans })
		}
		return plans
	}

	const results: Record<string, unknown>[] = []
	const la = loadavg()
	console.log(`\nLoad average before measuring: ${la.map((l) => l.toFixed(2)).join(' ')} (${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB)`)
	console.log(`\n| tool | scenario | p50 ms | p95 ms | p99 ms | plan |\n|---|---|---:|---:|---:|---|`)
	const only = env.ONLY ? new RegExp(env.ONLY) : null
	for (const [tool, scenario, run] of scenarios.filter(([tool, scenario]) => !only || only.test(`${tool} ${scenario}`))) {
		const { p50, p95, p99 } = await timeCalls(run, WARMUP, CALLS)
		const plans = await plansOf(() => run(1))
		const scans = [...new Set(plans.flatMap((p) => p.seqScans))]
		const planNote = !plans.length ? 'no large table' : scans.length ? `SEQ SCAN: ${scans.join(', ')}` : 'index'
		console.log(`| ${tool} | ${scenario} | ${p50.toFixed(1)} | ${p95.toFixed(1)}${p95 >= 50 ? ' ⚠' : ''} | ${p99.toFixed(1)} | ${planNote} |`)
		results.push({ tool, scenario, p50, p95, p99, plans })
	}
	await Bun.write(
		`${import.meta.dir}/results/scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		JSON.stringify({ loadavg: la, candidates: CANDIDATES, applications: CANDIDATES * PER, jobs: JOBS, bench: BENCH, calls: CALLS, results }, null, 2),
	)
} finally {
	await cleanup()
}
