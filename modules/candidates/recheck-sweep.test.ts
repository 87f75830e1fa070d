/**
 * The minute's sweep re-checks the applications of every job changed since the last sweep, however
 * many changed (a vendor may update thousands of jobs at once), reading them a page at a time. Its
 * first version read one page of 500 and moved on: the 501st job's scores stayed stale. It then asked
 * job by job whether anything was stale: two statements per changed job on every instance, every
 * minute, nearly always for nothing; a page is now told in one.
 */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newWorkspace, testDeps } from '../../tests/helpers.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { statementsOf } from '../../tests/perf/statements.ts'
import { recheckChangedJobs } from './recheck.ts'

test('every changed job is swept, past a page of 500 and across jobs changed in the same microsecond', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const candidate = await newCandidate(ws, { name: 'Sweep Candidate' }, deps)
	const jobs = 501
	await deps.database.rows(
		sql`insert into jobs (id, workspace_id, slug, title, status, published_at)
select 'job_sweep_' || ${ws.id} || '_' || n, ${ws.id}, 'sweep-' || n, 'Sweep job ' || n, 'Open', now() from generate_series(1, ${jobs}) n`,
	)
	await deps.database.rows(
		sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key)
select 'app_sweep_' || ${ws.id} || '_' || n, ${ws.id}, ${candidate}, 'job_sweep_' || ${ws.id} || '_' || n, 'applied' from generate_series(1, ${jobs}) n`,
	)
	// All changed at one instant, far ahead, so that only these jobs are in the sweep's window.
	const changedAt = '2099-01-01T00:00:00.000001Z'
	await deps.database.rows(sql`update jobs set must_have = array['COBOL']::text[], updated_at = ${changedAt}::timestamptz where workspace_id = ${ws.id}`)
	try {
		const n = await recheckChangedJobs(deps, new Date('2098-12-31T00:00:00Z'))
		expect(n).toBe(jobs)
		const [checked] = await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from applications where workspace_id = ${ws.id} and resume_check->'mustHaves' = '["COBOL"]'::jsonb`,
		)
		expect(checked!.n).toBe(jobs)
		// Swept again with every check current (as every other instance sweeps the same jobs): nothing
		// re-run, and a statement or two per page of jobs, not one or two per job.
		let again = -1
		const statements = await statementsOf(deps, async () => {
			again = await recheckChangedJobs(deps, new Date('2098-12-31T00:00:00Z'))
		})
		expect(again).toBe(0)
		expect(statements.length).toBeLessThanOrEqual(4)
		// One application's résumé check gone stale again: only its job is refreshed.
		await deps.database.rows(sql`update applications set resume_check = resume_check - 'resumeHash' where id = ${`app_sweep_${ws.id}_7`}`)
		expect(await recheckChangedJobs(deps, new Date('2098-12-31T00:00:00Z'))).toBe(1)
	} finally {
		// Back to the past: later sweeps in this process would otherwise find these jobs every minute.
		await deps.database.rows(sql`update jobs set updated_at = now() - interval '2 days' where workspace_id = ${ws.id}`)
	}
}, 60_000)
