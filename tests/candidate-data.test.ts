/**
 * Registry-wide: every table that holds a candidate's rows (a `candidate_id` or `application_id`
 * column) is named by some module's contribution to the candidate-data port, so an export holds it
 * and an erasure deletes it. A new module storing people fails here until it says what it holds.
 */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { contributionsTo } from '../core/registry.ts'
import { candidateData } from '../modules/candidates/index.ts'
import { testApp, testDeps } from './helpers.ts'

/** Kept on purpose after an erasure, with no name or contact: the legal hold's anonymous applicant-flow record (modules/privacy). */
const KEPT_ANONYMOUS = new Set(['applicant_flow'])

test('every table with a candidate_id or application_id column is covered by a candidate-data contribution', async () => {
	await testApp()
	const deps = await testDeps()
	const rows = await deps.database.rows<{ table: string }>(
		sql`select distinct table_name as table from information_schema.columns
		where table_schema = current_schema() and column_name in ('candidate_id', 'application_id') order by 1`,
	)
	const tables = rows.map((r) => r.table)
	expect(tables).toEqual(expect.arrayContaining(['notes', 'bench_entries', 'interviews', 'scorecards', 'eeo_self_identification']))
	const covered = new Set(contributionsTo(deps.registry, candidateData).flatMap((c) => c.tables))
	const missing = tables.filter((t) => !covered.has(t) && !KEPT_ANONYMOUS.has(t))
	expect(missing).toEqual([])
	// And no contribution names a table that does not exist (a renamed table would be silently skipped).
	const existing = new Set(
		(await deps.database.rows<{ table: string }>(sql`select table_name as table from information_schema.tables where table_schema = current_schema()`)).map(
			(r) => r.table,
		),
	)
	expect([...covered].filter((t) => !existing.has(t))).toEqual([])
})
