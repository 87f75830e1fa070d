/**
 * Bench ranking with a bench larger than its in-process résumé cache (bench/README.md, "Portal pages
 * at 1,000,000 candidates"): every person is matched against their own résumé, whatever was ranked
 * before in the process, and the same job ranks the same way every time.
 */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { jobBench, RESUME_CACHE_SIZE } from './match.ts'

test('a bench larger than the résumé cache is ranked from every person’s résumé, after other jobs too', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const people = RESUME_CACHE_SIZE + 200
	await deps.database.rows(sql`insert into candidates (id, workspace_id, name, email, resume_text)
		select 'cand_big_' || ${ws.id} || '_' || g, ${ws.id}, 'Bench Person ' || g, 'bench' || g || '@' || ${ws.id} || '.test',
			'Senior engineer ' || g || E'\nSKILLS\nJava 17, Spring Boot, Microservices, REST APIs, Kafka' from generate_series(1, ${people}::int) g`)
	await deps.database.rows(sql`insert into bench_entries (id, workspace_id, candidate_id, role_family, added_at)
		select 'bench_big_' || ${ws.id} || '_' || g, ${ws.id}, 'cand_big_' || ${ws.id} || '_' || g, 'java', now() - g * interval '1 second' from generate_series(1, ${people}::int) g`)
	const [first, second] = [await newVendorJob(ws, { title: 'Java Developer' }, deps), await newVendorJob(ws, { title: 'Integration Engineer' }, deps)]
	await deps.database.rows(sql`update jobs set must_have = array['Spring Boot', 'Java'], nice_to_have = array['Kafka'] where id = ${first}`)
	await deps.database.rows(sql`update jobs set must_have = array['Microservices', 'REST APIs'], nice_to_have = array['Kafka'] where id = ${second}`)

	const everyone = async (jobId: string) => (await jobBench(deps, actor, { jobId, limit: people })).bench
	expect((await everyone(first)).every((b) => b.mustHavesMet === 2)).toBe(true)
	// The second job is ranked while the first one's résumés fill the cache and are evicted.
	const ranked = await everyone(second)
	expect(ranked.length).toBe(people)
	expect(ranked.filter((b) => b.mustHavesMet !== 2).map((b) => b.candidate.id)).toEqual([])
	expect((await everyone(second)).map((b) => [b.candidate.id, b.score])).toEqual(ranked.map((b) => [b.candidate.id, b.score]))
}, 120_000)
