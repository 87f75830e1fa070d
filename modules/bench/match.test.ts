/**
 * Bench ranking (bench/README.md, "Portal pages at 1,000,000 candidates"): with a bench larger than
 * the in-process résumé cache every person is matched against their own résumé, whatever was ranked
 * before, and the same job ranks the same way every time; the ranking read from the stored checks
 * (`bench_checks`) is the one the résumé check gives, and stored checks spare the résumés; the ranking
 * joins each person's stored résumé hash instead of sending the bench's ids and hashes.
 */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { checkItems, prepareResume } from '../candidates/index.ts'
import { statementsOf } from '../../tests/perf/statements.ts'
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

/** The ranking as the app computed it before it moved to SQL: the reference the stored checks must give. */
function reference(
	people: { id: string; resume: string | null; entries: { family: string; from: string | null; jobId: string | null }[] }[],
	job: { mustHave: string[]; niceToHave: string[]; family: string },
	now: Date,
) {
	const ranked = people.map((p) => {
		const resume = prepareResume(p.resume, now)
		const must = checkItems(resume, job.mustHave)
		const nice = checkItems(resume, job.niceToHave)
		const mustMet = must.filter((m) => m.status === 'met').length
		const niceMet = nice.filter((n) => n.status === 'met').map((n) => n.requirement)
		const earliest = p.entries.map((e) => e.from).sort((a, b) => (a ?? '').localeCompare(b ?? ''))[0] ?? null
		const days = earliest ? Math.ceil((Date.parse(`${earliest}T00:00:00Z`) - now.getTime()) / 86_400_000) : 0
		const points = days <= 14 ? 10 : days <= 30 ? 5 : 0
		const onFamily = p.entries.some((e) => e.family === job.family)
		const score = Math.round(
			60 * (must.length ? mustMet / must.length : 1) + 15 * (nice.length ? niceMet.length / nice.length : 0) + (onFamily ? 15 : 0) + points,
		)
		return { id: p.id, score, mustMet, missing: must.filter((m) => m.status !== 'met').map((m) => m.requirement), niceMet }
	})
	return ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

test('the ranking read from stored checks is the résumé check’s, person by person; a second job with known requirements checks no résumé; a changed résumé is checked again', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const now = deps.now()
	const day = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10)
	const resumes = [
		'Senior Java engineer\nSKILLS\nJava 17, Spring Boot, Kafka',
		'Python developer\nSKILLS\nPython, Django, AWS',
		'Data engineer: Spark, Kafka, Python, SQL',
		null,
		'Java, AWS, Docker, Kubernetes, SQL',
		'QA analyst. Selenium, Java',
	]
	const starts = [null, day(-3), day(5), day(14), day(15), day(30), day(31), day(90)]
	const families = ['java', 'python', 'dataeng', 'qa']
	const job = await newVendorJob(ws, { title: 'Java Developer' }, deps)
	const people: Parameters<typeof reference>[0] = []
	for (let i = 0; i < 48; i++) {
		const id = `cand_rank_${ws.id}_${String.fromCharCode(97 + (i % 26))}${i}`
		const resume = resumes[i % resumes.length]!
		await deps.database.rows(
			sql`insert into candidates (id, workspace_id, name, email, resume_text) values (${id}, ${ws.id}, ${`Person ${i}`}, ${`rank${i}@${ws.id}.test`}, ${resume})`,
		)
		const entries = [
			{ family: families[i % families.length]!, from: starts[i % starts.length]!, jobId: i % 7 === 0 ? job : null },
			...(i % 5 === 0 ? [{ family: 'java', from: starts[(i + 3) % starts.length]!, jobId: null }] : []),
		]
		const unique = entries.filter((e, k) => entries.findIndex((x) => x.family === e.family) === k)
		for (const [k, e] of unique.entries())
			await deps.database.rows(
				sql`insert into bench_entries (id, workspace_id, candidate_id, role_family, job_id, available_from, added_at) values (${`bench_rank_${ws.id}_${i}_${k}`}, ${ws.id}, ${id}, ${e.family}, ${e.jobId}, ${e.from}, now() - ${i * 60 + k} * interval '1 second')`,
			)
		people.push({ id, resume, entries: unique })
	}
	const requirements = { mustHave: ['Java', 'Spring Boot', 'SQL'], niceToHave: ['Kafka', 'AWS', 'Docker'] }
	await deps.database.rows(
		sql`update jobs set must_have = ${sql.param(requirements.mustHave)}::text[], nice_to_have = ${sql.param(requirements.niceToHave)}::text[] where id = ${job}`,
	)

	const view = async (jobId: string, limit: number) => {
		const pages: Awaited<ReturnType<typeof jobBench>>['bench'] = []
		let cursor: string | undefined
		do {
			const page = await jobBench(deps, actor, { jobId, limit, cursor })
			pages.push(...page.bench)
			cursor = page.nextCursor ?? undefined
		} while (cursor)
		return pages
	}
	const expected = (family: string) => reference(people, { ...requirements, family }, now).map((r) => [r.id, r.score, r.mustMet, r.missing, r.niceMet])
	const shown = (bench: Awaited<ReturnType<typeof view>>) =>
		bench.map((b) => [b.candidate.id, b.score, b.mustHavesMet, b.missing.map(String), b.niceToHavesMet.map(String)])
	const ranked = await view(job, 7)
	expect(shown(ranked)).toEqual(expected('java'))
	expect(ranked.map((b) => b.rank)).toEqual(people.map((_, i) => i + 1))

	// Another job with the same requirements: every check is stored; no résumé is read, nothing written.
	const again = await newVendorJob(ws, { title: 'Python Developer' }, deps)
	await deps.database.rows(
		sql`update jobs set must_have = ${sql.param(requirements.mustHave)}::text[], nice_to_have = ${sql.param(requirements.niceToHave)}::text[] where id = ${again}`,
	)
	let second: Awaited<ReturnType<typeof view>> = []
	const statements = await statementsOf(deps, async () => {
		second = await view(again, 20)
	})
	expect(shown(second)).toEqual(expected('python'))
	expect(statements.filter((q) => /resume_text as text|insert into bench_checks/.test(q.text)).map((q) => q.text)).toEqual([])
	// Each person's current résumé hash is joined in SQL (`candidates.resume_hash`): no statement
	// carries the bench's ids or hashes as a parameter, and none hashes résumés.
	expect(statements.filter((q) => /md5\(/.test(q.text) || q.params.some((p) => Array.isArray(p) && p.length >= people.length)).map((q) => q.text)).toEqual([])

	// A changed résumé is checked again (its hash changed), and only that person's.
	const changed = people[3]!
	changed.resume = 'Java, Spring Boot, SQL, Kafka, AWS, Docker'
	await deps.database.rows(sql`update candidates set resume_text = ${changed.resume} where id = ${changed.id}`)
	const written = await statementsOf(deps, async () => {
		expect(shown(await view(job, 50))).toEqual(expected('java'))
	})
	const insert = written.find((q) => /insert into bench_checks/.test(q.text))
	expect(insert?.params.find((p) => Array.isArray(p))).toEqual([changed.id])
}, 120_000)

test('stored checks are numbered: 2 bytes a requirement for a person, numbers shared by the workspace and never clashing when jobs are ranked at once', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const people = 30
	await deps.database.rows(sql`insert into candidates (id, workspace_id, name, email, resume_text)
		select 'cand_num_' || ${ws.id} || '_' || g, ${ws.id}, 'Numbered ' || g, 'num' || g || '@' || ${ws.id} || '.test',
			case when g % 2 = 0 then 'Java, Spring Boot, Kafka' else 'Python, Django' end from generate_series(1, ${people}::int) g`)
	await deps.database.rows(sql`insert into bench_entries (id, workspace_id, candidate_id, role_family)
		select 'bench_num_' || ${ws.id} || '_' || g, ${ws.id}, 'cand_num_' || ${ws.id} || '_' || g, 'java' from generate_series(1, ${people}::int) g`)
	// 120 requirements over two jobs, ranked at the same time (only 200 newest open jobs are checked ahead: these two).
	const skills = Array.from({ length: 120 }, (_, i) => (i === 0 ? 'Java' : i === 1 ? 'Python' : `Skill ${i}`))
	const [a, b] = [await newVendorJob(ws, { title: 'Java Developer' }, deps), await newVendorJob(ws, { title: 'Python Developer' }, deps)]
	await deps.database.rows(sql`update jobs set must_have = ${sql.param([skills[0]!, ...skills.slice(2, 60)])}::text[] where id = ${a}`)
	await deps.database.rows(sql`update jobs set must_have = ${sql.param([skills[1]!, ...skills.slice(60)])}::text[] where id = ${b}`)
	const [first, second] = await Promise.all([jobBench(deps, actor, { jobId: a, limit: people }), jobBench(deps, actor, { jobId: b, limit: people })])
	expect(first.bench.filter((p) => p.mustHavesMet === 1).length).toBe(people / 2)
	expect(second.bench.filter((p) => p.mustHavesMet === 1).length).toBe(people / 2)
	const numbers = await deps.database.rows<{ n: number; distinct: number; max: number }>(
		sql`select count(*)::int as n, count(distinct ordinal)::int as distinct, max(ordinal)::int as max from bench_requirements where workspace_id = ${ws.id}`,
	)
	expect(numbers).toEqual([{ n: 120, distinct: 120, max: 120 }])
	// What the ranking reads per person: the 120 checks in under 400 bytes (a jsonb of the texts was over 2 KB).
	const [size] = await deps.database.rows<{ bytes: number }>(
		sql`select max(pg_column_size(k.*))::int as bytes from bench_checks k where k.workspace_id = ${ws.id}`,
	)
	expect(size!.bytes).toBeLessThan(400)
}, 60_000)
