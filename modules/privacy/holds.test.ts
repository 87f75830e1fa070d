/**
 * The daily legal-hold sweep deletes every applicant-flow record whose hold has ended, however many
 * ended that day: it runs once a day, so a cap on one run would keep the rest past their hold.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { releaseEndedHolds } from './index.ts'

setDefaultTimeout(120_000)

test('every record whose hold has ended is deleted in one run, a batch at a time', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const ended = sql`now() - interval '1 day'`
	for (let i = 0; i < 5; i++)
		await deps.database.rows(sql`insert into applicant_flow (id, workspace_id, job_id, kind, applied_at, stage, stage_changed_at, stages, erased_at, keep_until)
			values (${newId('app')}, ${ws.id}, ${newId('job')}, 'applicant', now() - interval '3 years', 'applied', now() - interval '3 years', '[]'::jsonb, now() - interval '2 years', ${ended})`)
	await deps.database.rows(sql`insert into applicant_flow (id, workspace_id, job_id, kind, applied_at, stage, stage_changed_at, stages, erased_at, keep_until)
		values (${newId('app')}, ${ws.id}, ${newId('job')}, 'applicant', now(), 'applied', now(), '[]'::jsonb, now(), now() + interval '1 year')`)

	// Batches of 2: the run goes on until none is left.
	expect(await releaseEndedHolds(deps, 2)).toBeGreaterThanOrEqual(5)
	const [left] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from applicant_flow where workspace_id = ${ws.id}`)
	expect(left!.n).toBe(1)
})
