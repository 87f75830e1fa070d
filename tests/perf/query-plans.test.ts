/**
 * Every list and search tool (and REST listJobs) reads its large tables through an index: no
 * `Seq Scan` on jobs, candidates, applications or bench_entries, and no Sort of more than 500 rows
 * in a keyset page (the index must give the order). Plans only show this once a table is large, so one
 * workspace gets a few thousand rows per table (generate_series, then ANALYZE); the planner
 * chooses on its own (no `enable_seqscan = off`). The statements are the ones the tools really
 * send: drizzle's query logger records them during each call, and each is EXPLAINed with its
 * parameters (drizzle prepared queries — the credential lookups — keep the logger they were prepared
 * with and are not seen; they are primary-key-like lookups, not lists). Runs on PGlite and PostgreSQL.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { callTool } from '../mcp/rpc.ts'
import { call, newPersonWithToken, newWorkspace, newVendor, testDeps, type TestWorkspace } from '../helpers.ts'
import type { AppDeps } from '../../core/deps.ts'
import { analyzeWhole, planOf, seqScans, statementsOf } from './statements.ts'

const LARGE = ['jobs', 'candidates', 'applications', 'bench_entries']
const N = { jobs: Number(process.env.PLAN_JOBS ?? 5_000), candidates: Number(process.env.PLAN_CANDIDATES ?? 4_000) }

// Varied enough that word and name statistics look like a real workspace's.
const words = (list: string) =>
	sql.raw(
		`(array[${list
			.split(' ')
			.map((w) => `'${w}'`)
			.join(',')}])`,
	)
const TECH = words('Java Salesforce Python React Oracle SAP Azure Golang Snowflake Workday .NET iOS Kafka')
const ROLE = words('Developer Administrator Engineer Analyst Architect Consultant Tester Lead')
const FIRST = words(
	'Priya Rahul Anil Sunita Wei Li Maria Jose Ahmed Fatima John Mary James Linda Robert Karen Ivan Olga Kenji Yuki Aarav Diya Omar Sara Lucas Emma Noah Ava Mateo Sofia Arjun Kavya Chen Mei Tom Anna David Laura Ravi Neha Sam',
)
const LAST = words(
	'Sharma Patel Reddy Nguyen Wang Garcia Smith Johnson Brown Khan Ali Kumar Singh Gupta Lee Kim Tanaka Ivanov Rossi Muller Silva Costa Lopez Martin Davis Miller Wilson Moore Taylor Thomas Anderson Jackson White Harris Clark Lewis Young',
)

let deps: AppDeps
let ws: TestWorkspace
let token: string
let vendorKey: string
let ownerEmail: string

async function plansOf(run: () => Promise<unknown>) {
	const statements = (await statementsOf(deps, run)).filter(
		(q) => LARGE.some((t) => new RegExp(`\\b"?${t}"?\\b`).test(q.text)) && /^\s*(select|with)\b/i.test(q.text),
	)
	const plans: { text: string; plan: string }[] = []
	for (const q of statements) plans.push({ text: q.text, plan: await planOf(deps, q) })
	return plans
}

function expectIndexed(plans: { text: string; plan: string }[], options: { cappedBranches?: boolean } = {}) {
	expect(plans.length).toBeGreaterThan(0)
	for (const { text, plan } of plans) {
		const context = `${text}\n${plan}`
		for (const table of LARGE) expect(seqScans(plan, table, options.cappedBranches).length ? context : '').toBe('')
		// A keyset page reads the index in order: sorting a handful of rows (one job's applicants) is
		// fine, sorting the workspace is the NULLS FIRST/LAST mismatch (an order the index cannot give).
		if (/order by [a-z]\.(created_at|added_at|last_message_at) desc/i.test(text) && /limit \$\d+\s*$/i.test(text)) {
			const sorted = [...plan.matchAll(/->\s+Sort\s+\(cost=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1]))
			expect(sorted.some((rows) => rows > 500) ? context : '').toBe('')
		}
	}
}

beforeAll(async () => {
	deps = await testDeps()
	ws = await newWorkspace(deps)
	const owner = await newPersonWithToken(ws, 'owner')
	token = owner.token
	ownerEmail = owner.email
	const vendor = await newVendor(ws, 'Plan Vendor', deps)
	vendorKey = vendor.apiKey
	const w = ws.id
	const j = N.jobs
	const c = N.candidates
	await deps.database.rows(sql`insert into jobs (id, workspace_id, vendor_id, vendor_job_id, slug, title, location, summary, must_have, status, published_at, created_at, closed_at)
		select 'jp_' || ${w} || '_' || g, ${w}, case when g % 2 = 0 then ${vendor.vendorId} end, case when g % 2 = 0 then 'v' || g end, 'plan-job-' || g,
			(array['Senior','Lead','Junior','Staff','Principal','Contract','Remote'])[1 + g % 7] || ' ' || ${TECH}[1 + g % 13] || ' ' || ${ROLE}[1 + g % 8] || ' ' || g, 'Austin, TX', 'A role', array['Java','AWS'],
			case when g % 10 = 3 then 'Closed' else 'Open' end, now() - g * interval '1 minute', now() - g * interval '1 minute', case when g % 10 = 3 then now() end
		from generate_series(1, ${j}::int) g`)
	await deps.database.rows(sql`insert into candidates (id, workspace_id, name, email, headline, location, skills, created_at)
		select 'cp_' || ${w} || '_' || g, ${w}, ${FIRST}[1 + g % 41] || ' ' || ${LAST}[1 + (g / 41) % 37], 'p' || g || '@plans.test',
			${TECH}[1 + g % 13] || ' ' || ${ROLE}[1 + g % 8], 'Dallas, TX', array[lower(${TECH}[1 + g % 13]), lower(${TECH}[1 + (g / 13) % 13]), 'sql'], now() - g * interval '1 minute'
		from generate_series(1, ${c}::int) g`)
	await deps.database.rows(sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, created_at)
		select 'ap_' || ${w} || '_' || g || '_' || k, ${w}, 'cp_' || ${w} || '_' || g, 'jp_' || ${w} || '_' || (1 + (g * 7 + k * 13) % ${j}::int), 'applied', now() - g * interval '1 minute' - k * interval '1 second'
		from generate_series(1, ${c}::int) g, generate_series(0, 1) k`)
	await deps.database.rows(sql`insert into bench_entries (id, workspace_id, candidate_id, role_family, added_at)
		select 'bp_' || ${w} || '_' || g, ${w}, 'cp_' || ${w} || '_' || g, 'java', now() - g * interval '1 minute' from generate_series(1, ${c / 2}::int) g`)
	await analyzeWhole(deps, ...LARGE)
}, 120_000)

const tool =
	(name: string, args: Record<string, unknown> = {}) =>
	async () => {
		const r = await callTool(token, name, args)
		if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`)
		return r
	}

describe('list and search query plans use indexes on a large workspace', () => {
	const cases: [string, string, Record<string, unknown>][] = [
		['list_jobs first page', 'list_jobs', {}],
		['list_jobs status', 'list_jobs', { status: 'Open' }],
		['list_candidates first page', 'list_candidates', {}],
		['list_candidates query', 'list_candidates', { query: 'salesforce' }],
		['list_applications first page', 'list_applications', {}],
		['list_bench first page', 'list_bench', {}],
		['search', 'search', { q: 'java developer' }],
		['search a name', 'search', { q: 'Priya Sharma' }],
		['search a misspelt name', 'search', { q: 'Prya Sharmma' }],
	]
	for (const [label, name, args] of cases)
		test(label, async () => expectIndexed(await plansOf(tool(name, args)), { cappedBranches: name === 'search' }), 30_000)

	test('list_jobs page 2 and list_candidates page 2 (cursor)', async () => {
		const jobsPage = (await tool('list_jobs')()).structuredContent
		expectIndexed(await plansOf(tool('list_jobs', { cursor: jobsPage.nextCursor })))
		const candidatesPage = (await tool('list_candidates')()).structuredContent
		expectIndexed(await plansOf(tool('list_candidates', { cursor: candidatesPage.nextCursor })))
	}, 30_000)

	// The candidate list page's orders by name (issue 31): read in order from candidates_workspace_name,
	// first and later pages, never a sort of the workspace's candidates.
	test('/candidates by name, A to Z and Z to A, pages 1 and 2', async () => {
		const { personActor } = await import('../../modules/auth/index.ts')
		const { listCandidates } = await import('../../modules/candidates/candidate-service.ts')
		const actor = await personActor(deps, ws.slug, ownerEmail)
		for (const sort of ['name', 'name-desc']) {
			const first = await listCandidates(deps, actor, { sort, limit: 25 })
			for (const cursor of [undefined, first.nextCursor!]) {
				const plans = await plansOf(() => listCandidates(deps, actor, { sort, limit: 25, cursor }))
				expectIndexed(plans)
				const paged = plans.filter((p) => /order by lower\(c\.name\)/.test(p.text))
				expect(paged.length).toBe(1)
				const sorted = [...paged[0]!.plan.matchAll(/->\s+Sort\s+\(cost=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1]))
				expect(sorted.some((rows) => rows > 500) ? `${paged[0]!.text}\n${paged[0]!.plan}` : '').toBe('')
			}
		}
	}, 30_000)

	test('list_applications by job', async () => expectIndexed(await plansOf(tool('list_applications', { jobId: `jp_${ws.id}_7` }))), 30_000)

	test('REST GET /api/v1/jobs (a vendor key)', async () => {
		const plans = await plansOf(async () => {
			const res = await call('GET', '/api/v1/jobs', { key: vendorKey })
			expect(res.status).toBe(200)
		})
		expectIndexed(plans)
	}, 30_000)
})
