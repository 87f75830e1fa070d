/**
 * The candidates' search provider (search.ts) where its branches matter: a word with more matches
 * than FTS_CAP (50), and more candidates than SCAN_FIRST (2,000, the rows checked one by one
 * before the index is asked). Rows are inserted in one statement, in order, so the table order
 * the first branch reads is the order below.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { newPersonWithToken, newWorkspace, plain, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { analyzeWhole } from '../../tests/perf/statements.ts'
import { MAX_RESULTS } from '../search/index.ts'

const PEOPLE = 3_000
let deps: AppDeps
let ws: TestWorkspace
let token: string

beforeAll(async () => {
	deps = await testDeps()
	ws = await newWorkspace(deps)
	token = (await newPersonWithToken(ws, 'owner')).token
	// 60 people in Austin come first; near the end, one person named Austin (living in Dallas)
	// and one with a skill nobody else has.
	await deps.database.rows(sql`insert into candidates (id, workspace_id, name, email, headline, location, skills)
		select 'cs_' || ${ws.id} || '_' || g, ${ws.id},
			case when g = ${PEOPLE - 10} then 'Austin Reyes' else 'Sam Lee ' || g end, 's' || g || '@search.test', 'Java Developer',
			case when g <= 60 then 'Austin, TX' else 'Dallas, TX' end,
			case when g = ${PEOPLE - 5} then array['java', 'guidewire'] else array['java', 'sql'] end
		from generate_series(1, ${PEOPLE}::int) g`)
	await analyzeWhole(deps, 'candidates')
}, 120_000)

const candidates = async (q: string) => {
	const r = await callTool(token, 'search', { q })
	if (r.isError) throw new Error(JSON.stringify(r.content))
	return plain<{ type: string; id: string; title: string; score: number }[]>(r.structuredContent.results).filter((h) => h.type === 'candidate')
}

describe('search: candidates beyond the capped branches', () => {
	test('a word only found after the first rows is still found (through the index)', async () => {
		expect((await candidates('guidewire')).map((h) => h.id)).toEqual([`cs_${ws.id}_${PEOPLE - 5}`])
	}, 30_000)

	test('a name that is also a common word: the person comes first, though the word fills the cap elsewhere', async () => {
		const hits = await candidates('Austin')
		expect(hits[0]).toMatchObject({ id: `cs_${ws.id}_${PEOPLE - 10}`, title: 'Austin Reyes' })
		// The name weighs more than the city: the person ranks above everyone who only lives there.
		expect(hits[0]!.score).toBeGreaterThan(Math.max(...hits.slice(1).map((h) => h.score)))
		// Only candidates match, so they fill the whole merged list.
		expect(hits.length).toBe(MAX_RESULTS)
	}, 30_000)

	test('a word everyone has gives a full page', async () => {
		const hits = await candidates('java developer')
		expect(hits.length).toBe(MAX_RESULTS)
		expect(new Set(hits.map((h) => h.id)).size).toBe(MAX_RESULTS)
	}, 30_000)
})
