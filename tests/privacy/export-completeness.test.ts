/**
 * The export of a candidate holds every row the database keeps about them, found from the schema
 * itself: in every table, the rows whose `candidate_id` or `application_id` is theirs, or whose
 * reference by kind (`<x>_type` beside `<x>_id`: a message's `related_type`/`related_id`) names them or
 * one of their applications, are in `candidate.json` by their id (a table whose rows have no id: named
 * by a contribution). A new table, or a new kind of row in an old one (a vendor's conversation about
 * their submission), fails here until the export holds it or `NOT_EXPORTED` says why not.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { personActor } from '../../modules/auth/index.ts'
import { contributionsTo } from '../../core/registry.ts'
import { addNote, candidateData } from '../../modules/candidates/index.ts'
import { submitToVendor } from '../../modules/documents/index.ts'
import { syncOutbox } from '../../modules/inbox/index.ts'
import { unsubscribe } from '../../modules/outbox/service.ts'
import { exportCandidate } from '../../modules/privacy/index.ts'
import { newPerson, newWorkspace, testApp, testDeps, unique } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

/** Rows about the person the export leaves out on purpose, and why. */
const NOT_EXPORTED: Record<string, string> = {
	activity: 'the firm’s record of what its people did (names in it are erased with the person); not data about them',
	notifications: 'the firm’s people’s notifications, naming the record by id only (no data about the person)',
	outbox: 'mail the service sends: each message to or about them is exported as the conversation message copied from it (inbox_messages)',
}

/** Every way a table points at a candidate or an application: its columns, and its pairs of kind and id. */
async function references() {
	const deps = await testDeps()
	const columns = await deps.database.rows<{ table: string; column: string }>(
		sql`select c.table_name as table, c.column_name as column from information_schema.columns c
		join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema and t.table_type = 'BASE TABLE'
		where c.table_schema = current_schema() order by 1, 2`,
	)
	const byTable = Map.groupBy(columns, (c) => c.table)
	const out: { table: string; hasId: boolean; where: (candidateId: string, applicationIds: string[]) => ReturnType<typeof sql> }[] = []
	for (const [table, cols] of byTable) {
		const names = new Set(cols.map((c) => c.column))
		const kinds = [...names].filter((n) => n.endsWith('_type') && names.has(n.replace(/_type$/, '_id'))).map((n) => n.replace(/_type$/, ''))
		const direct = ['candidate_id', 'application_id'].filter((n) => names.has(n))
		if (!direct.length && !kinds.length) continue
		out.push({
			table,
			hasId: names.has('id'),
			where: (candidateId, applicationIds) => {
				const ids = sql`${sql.param([candidateId, ...applicationIds])}::text[]`
				const terms = [
					...direct.map((n) => sql`${sql.identifier(n)}::text = any(${ids})`),
					...kinds.map((k) => sql`(${sql.identifier(`${k}_type`)} in ('candidate', 'application') and ${sql.identifier(`${k}_id`)}::text = any(${ids}))`),
				]
				return sql.join(terms, sql` or `)
			},
		})
	}
	return out
}

test('every row that references the candidate or their applications is in their export, vendor conversations included', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const email = `${unique('x')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Quillon Exportwell', email }, deps)
	const vendorId = await newSubmissionVendor(ws, { rules: { always: [], byWorkAuthorization: {} } }, deps)
	const jobId = await newVendorJob(ws, { vendorId }, deps)
	const applicationId = await newApplication(ws, candidateId, jobId, {}, deps)
	await addNote(deps, actor, { candidateId, applicationId, text: 'Strong Java; wants remote.', private: false })
	// The submission's mail goes to the vendor: a conversation with the vendor, about this person.
	await submitToVendor(deps, actor, { applicationId, documents: [], note: 'Strong Java' })
	await syncOutbox(deps, ws.id)
	// They unsubscribed from marketing mail: the outbox keeps that by their id (a row with no id of its own).
	await unsubscribe(deps, deps.db, { workspaceId: ws.id, type: 'candidate', id: candidateId })

	const exported = await exportCandidate(deps, actor, candidateId, '127.0.0.1')
	const json = strFromU8(unzipSync(exported.bytes)['candidate.json']!)
	const missing: string[] = []
	let seen = 0
	const covered = new Set(contributionsTo(deps.registry, candidateData).flatMap((c) => c.tables))
	for (const { table, hasId, where } of await references()) {
		if (table in NOT_EXPORTED) continue
		const key = hasId ? sql`id::text` : sql`null`
		const rows = await deps.database.rows<{ id: string | null }>(
			sql`select ${key} as id from ${sql.identifier(table)} where ${where(candidateId, [applicationId])}`,
		)
		seen += rows.length
		// A row without an id of its own: its table is at least one a contribution exports.
		for (const { id } of rows) if (id === null ? !covered.has(table) : !json.includes(`"${id}"`)) missing.push(`${table} ${id ?? '(no id)'}`)
		if (table === 'outbox_unsubscribes') expect(rows).toHaveLength(1)
	}
	expect(missing).toEqual([])
	expect(seen).toBeGreaterThan(3)
	expect(JSON.parse(json).marketingMail).toEqual({ unsubscribedAt: expect.any(String) })
	// The vendor's conversation is there, with whom it was.
	expect(JSON.parse(json).messagesAboutThem).toEqual([
		expect.objectContaining({ counterpartType: 'vendor', messages: [expect.objectContaining({ direction: 'out' })] }),
	])
})
