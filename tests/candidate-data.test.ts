/**
 * Registry-wide: every table that holds a candidate's rows (a `candidate_id` or `application_id`
 * column) is named by some module's contribution to the candidate-data port, so an export holds it
 * and an erasure deletes it. A new module storing people fails here until it says what it holds.
 * And every column of free text a contribution names (`freeText`) is rid of an erased person
 * wherever it names them: the test writes them into each column of every row of a seeded workspace.
 */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runCommand } from '../core/commands.ts'
import { contributionsTo } from '../core/registry.ts'
import { personActor } from '../modules/auth/index.ts'
import { candidateData } from '../modules/candidates/index.ts'
import { requestCandidateDocuments, submitToVendor } from '../modules/documents/index.ts'
import { newPerson, newWorkspace, testApp, testDeps, unique } from './helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from './staffing-fixtures.ts'

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

/** How to reach a table's rows of one workspace: its own column, or its parent's. */
const OF_WORKSPACE: Record<string, (ws: string) => ReturnType<typeof sql>> = {
	workspace_id: (ws) => sql`workspace_id = ${ws}`,
	application_id: (ws) => sql`application_id in (select id from applications where workspace_id = ${ws})`,
	interview_id: (ws) => sql`interview_id in (select id from interviews where workspace_id = ${ws})`,
}

test('free text people write about anyone (every column a contribution names) keeps no mention of an erased person', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	// The demo writes notes, to-dos, scorecards and saved searches as the workspace's people.
	const owner = await newPerson(ws, 'owner')
	await runCommand(deps, 'seed', { workspace: ws.slug })
	// And someone else asked for documents and was submitted to a vendor (the words of each are planted below).
	const actor = await personActor(deps, ws.slug, owner.email)
	const someone = await newCandidate(ws, { name: 'Someone Else' }, deps)
	const job = await newVendorJob(ws, { vendorId: await newSubmissionVendor(ws, { rules: { always: [], byWorkAuthorization: {} } }, deps) }, deps)
	await requestCandidateDocuments(deps, actor, { candidateId: someone, items: ['dl'], message: 'Thanks' })
	await submitToVendor(deps, actor, { applicationId: await newApplication(ws, someone, job, {}, deps), documents: [], note: 'Strong' })
	const [picked] = await deps.database.rows<{ id: string }>(sql`select id from candidates where workspace_id = ${ws.id} order by id limit 1`)
	const tag = unique('fx').replace(/[^a-z0-9]/g, '')
	const digits = String(Math.floor(1e6 + Math.random() * 8e6))
	const person = { name: `Philippa ${tag} Quennell`, email: `${tag}@erase-me.example`, phone: `+1 415 ${digits}` }
	await deps.database.rows(sql`update candidates set name = ${person.name}, email = ${person.email}, phone = ${person.phone} where id = ${picked!.id}`)
	// Written as people write it: the number in another form than the one on file.
	const written = `(415) ${digits.slice(0, 3)}-${digits.slice(3)}`
	const planted = `referred by ${person.name} (${person.email}, ${written})`
	const columns = [...new Set(contributionsTo(deps.registry, candidateData).flatMap((c) => c.freeText ?? []))].sort()
	expect(columns).toEqual(
		expect.arrayContaining(['notes.body', 'todos.title', 'todos.notes', 'saved_searches.name', 'saved_searches.query', 'scorecards.notes', 'ratings.comment']),
	)
	expect(columns).toEqual(expect.arrayContaining(['document_requests.message', 'vendor_submissions.note', 'inbox_messages.text']))
	const typeOf = new Map(
		(
			await deps.database.rows<{ key: string; type: string }>(
				sql`select table_name || '.' || column_name as key, data_type as type from information_schema.columns where table_schema = current_schema()`,
			)
		).map((r) => [r.key, r.type]),
	)
	const scope = async (table: string) => {
		const [link] = await deps.database.rows<{ column: string }>(
			sql`select column_name as column from information_schema.columns where table_schema = current_schema() and table_name = ${table}
				and column_name = any(${sql.param(Object.keys(OF_WORKSPACE))}::text[]) order by array_position(${sql.param(Object.keys(OF_WORKSPACE))}::text[], column_name::text) limit 1`,
		)
		return OF_WORKSPACE[link!.column]!(ws.id)
	}
	const empty: string[] = []
	for (const key of columns) {
		const [table, column] = key.split('.') as [string, string]
		const c = sql.identifier(column)
		const value = typeOf.get(key) === 'jsonb' ? sql`${c} || jsonb_build_object('planted', ${planted}::text)` : sql`concat_ws(' ', ${c}, ${planted}::text)`
		// A saved search's name is unique per person and list: each keeps its own words before the mention.
		const [{ n }] = (await deps.database.rows<{ n: number }>(
			sql`with planted as (update ${sql.identifier(table)} set ${c} = ${value} where ${await scope(table)} returning 1) select count(*)::int as n from planted`,
		)) as [{ n: number }]
		if (!n) empty.push(key)
	}
	expect(empty).toEqual([])

	await runCommand(deps, 'candidate erase', { candidate: picked!.id })
	const needles = [person.name, person.email, written].map((n) => n.toLowerCase())
	const left: string[] = []
	for (const key of columns) {
		const [table, column] = key.split('.') as [string, string]
		const [{ n }] = (await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from ${sql.identifier(table)} where exists (select 1 from unnest(${sql.param(needles)}::text[]) x where strpos(lower(${sql.identifier(column)}::text), x) > 0)`,
		)) as [{ n: number }]
		if (n) left.push(`${key} (${n})`)
	}
	expect(left).toEqual([])
}, 300_000)
