/**
 * A candidate's data (issue 30): the export holds every module's part and the files, the erasure
 * leaves no copy of the person's name, e-mail address or phone number in any text column of any
 * table nor in any search, list, tool or page, cancels the mail still waiting for them, writes
 * `candidate.erased`, and under a legal hold keeps only an anonymous applicant-flow record until
 * the hold ends. Who may do what, through the portal and the CLI.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { runCommand } from '../../core/commands.ts'
import { fileStore } from '../../core/files.ts'
import { flushAudit } from '../../modules/audit/index.ts'
import { personActor } from '../../modules/auth/index.ts'
import { addNote, applyToJob } from '../../modules/candidates/index.ts'
import { requestCandidateDocuments } from '../../modules/documents/index.ts'
import { storeUpload } from '../../modules/documents/uploads.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { enqueueMail, textToSend } from '../../modules/outbox/index.ts'
import { eraseCandidate, releaseEndedHolds, runRetention } from '../../modules/privacy/index.ts'
import { addTodo } from '../../modules/todos/service.ts'
import { clock, newPerson, newWorkspace, testApp, testDeps, unique } from '../helpers.ts'
import { newCandidate, newVendorJob } from '../staffing-fixtures.ts'
import { signedIn } from '../portal.ts'
import { closeClients, mcpClient } from '../sdk.ts'

setDefaultTimeout(300_000)
afterAll(closeClients)

/** Every text-like column of every table (text, varchar, jsonb, arrays), as the scan reads them. */
async function textColumns() {
	const deps = await testDeps()
	return deps.database.rows<{ table: string; column: string }>(
		sql`select c.table_name as table, c.column_name as column from information_schema.columns c
		join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema and t.table_type = 'BASE TABLE'
		where c.table_schema = current_schema() and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'tsvector')
		order by 1, 2`,
	)
}

/** Where `needles` still appear, in any case: `table.column` for each hit (one scan per table, then per column of a table that holds one). */
async function findEverywhere(needles: string[]): Promise<string[]> {
	const deps = await testDeps()
	const lowered = sql`${sql.param(needles.map((n) => n.toLowerCase()))}::text[]`
	const holds = (column: string) => sql`exists (select 1 from unnest(${lowered}) n where strpos(lower(${sql.identifier(column)}::text), n) > 0)`
	const hits: string[] = []
	for (const [table, columns] of Map.groupBy(await textColumns(), (c) => c.table)) {
		const any = sql.join(
			columns.map((c) => holds(c.column)),
			sql` or `,
		)
		const [row] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)} where ${any}`)
		if (!row!.n) continue
		for (const { column } of columns) {
			const [hit] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)} where ${holds(column)}`)
			if (hit!.n) hits.push(`${table}.${column} (${hit!.n})`)
		}
	}
	return hits
}

/** A seeded workspace and the candidate holding the most kinds of data, renamed to a name, address and phone found nowhere else. */
async function seededPerson() {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	await runCommand(deps, 'seed', { workspace: ws.slug })
	const has = (table: string, where = 'x.candidate_id = c.id') => sql.raw(`(exists (select 1 from ${table} x where ${where}))::int`)
	const [picked] = await deps.database.rows<{ id: string }>(
		sql`select c.id from candidates c where c.workspace_id = ${ws.id} order by
			${has('interviews')} + ${has('inbox_threads')} + ${has('candidate_documents')} + ${has('bench_entries')} + ${has('notes')}
			+ ${has('scorecards', 'x.application_id in (select a.id from applications a where a.candidate_id = c.id)')} + ${has('scheduled_interviews')} desc, c.id limit 1`,
	)
	const candidateId = picked!.id
	const tag = unique('zq')
	const digits = String(Math.floor(1e6 + Math.random() * 8e6))
	const person = { name: `Zephyrine ${tag} Quistorp`, email: `${tag}@erase-me.example`, phone: `+1 415 ${digits}` }
	await deps.database.rows(sql`update candidates set name = ${person.name}, email = ${person.email}, phone = ${person.phone} where id = ${candidateId}`)
	const actor = await personActor(deps, ws.slug, owner.email)
	const [app] = await deps.database.rows<{ id: string }>(sql`select id from applications where candidate_id = ${candidateId} order by created_at limit 1`)
	// Copies of the name, address and phone in free text, written by the real flows.
	await addNote(deps, actor, { candidateId, text: `Called ${person.name} on ${person.phone}`, private: false })
	await addTodo(deps, actor, { title: `Follow up with ${person.name}`, candidateId })
	await enqueueMail(
		deps.db,
		{ workspaceId: ws.id, to: person.email, subject: 'Your interview', text: `Hello ${person.name}`, recipient: { type: 'candidate', id: candidateId } },
		deps,
	)
	await enqueueMail(
		deps.db,
		{
			workspaceId: ws.id,
			to: 'jobs@vendor.example',
			subject: `Submitting ${person.name}`,
			text: `${person.name} (${person.email}, ${person.phone}) for your job`,
			related: { type: 'application', id: app!.id },
		},
		deps,
	)
	const mcp = await mcpClient(ws, owner.email)
	expect((await mcp.tool('list_candidates', { query: person.name })).words.candidates.map((c: any) => c.id)).toEqual([candidateId])
	await flushAudit(deps)
	return { deps, ws, owner, candidateId, person, mcp }
}

const countOf = async (query: ReturnType<typeof sql>) => (await (await testDeps()).database.rows<{ n: number }>(query))[0]!.n

describe('export', () => {
	test('the CLI writes one ZIP with every module’s part and the files, recorded in the audit trail', async () => {
		const { deps, ws, candidateId, person } = await seededPerson()
		const out = join(mkdtempSync(join(tmpdir(), 'export-')), 'person.zip')
		const { json } = await runCommand(deps, 'candidate export', { candidate: candidateId, out })
		expect(json).toMatchObject({ candidateId, file: out })
		const zip = unzipSync(new Uint8Array(readFileSync(out)))
		const data = JSON.parse(strFromU8(zip['candidate.json']!))
		expect(data.candidate.profile).toMatchObject({ id: candidateId, name: person.name, email: person.email, phone: person.phone })
		expect(data.candidate.applications.length).toBeGreaterThan(0)
		expect(data.candidate.notes.some((n: any) => n.body.includes(person.phone))).toBe(true)
		for (const key of ['documents', 'messages', 'interviews', 'scheduledInterviews', 'scorecards', 'bench', 'todos', 'selfIdentification'])
			expect(Object.keys(data)).toContain(key)
		expect(data.todos.some((t: any) => t.title.includes(person.name))).toBe(true)
		const kinds = ['interviews', 'messages', 'bench'].filter((k) => (Array.isArray(data[k]) ? data[k].length : 0) > 0)
		expect(kinds.length).toBeGreaterThan(0)
		// The files: the résumé and each document on file, under the names candidate.json gives.
		const files = Object.keys(zip).filter((k) => k.startsWith('files/'))
		for (const d of data.documents.documents) expect(files).toContain(`files/${d.file}`)
		if (data.candidate.profile.resumeFileName && !data.missingFiles) expect(files.some((f) => f.startsWith('files/resume.'))).toBe(true)
		await flushAudit(deps)
		const [line] = await deps.database.rows<{ kind: string; credentialKind: string; recordIds: string[] }>(
			sql`select kind, credential_kind as "credentialKind", record_ids as "recordIds" from audit_log where workspace_id = ${ws.id} and action = 'candidate.exported'`,
		)
		expect(line).toMatchObject({ kind: 'data', credentialKind: 'cli' })
		expect(line!.recordIds[0]).toBe(candidateId)
	})

	test('owners and admins export from the candidate page; other roles may not, and only owners erase', async () => {
		await testApp()
		const deps = await testDeps()
		const ws = await newWorkspace()
		await runCommand(deps, 'seed', { workspace: ws.slug })
		const [c] = await deps.database.rows<{ id: string }>(sql`select id from candidates where workspace_id = ${ws.id} order by id limit 1`)
		const as = async (role: string) => signedIn(await newPerson(ws, role))
		const admin = await as('admin')
		const page = await admin.get(`/candidates/${c!.id}`)
		expect(page.text).toContain('Export data')
		expect(page.text).not.toContain('Erase candidate')
		const zip = await admin.get(`/candidates/${c!.id}/export.zip`)
		expect(zip.status).toBe(200)
		expect(zip.headers.get('content-type')).toBe('application/zip')
		expect((await admin.get(`/candidates/${c!.id}/erase`)).status).toBe(403)
		const recruiter = await as('recruiter')
		expect((await recruiter.get(`/candidates/${c!.id}`)).text).not.toContain('Export data')
		expect((await recruiter.get(`/candidates/${c!.id}/export.zip`)).status).toBe(403)
		const owner = await as('owner')
		expect((await owner.get(`/candidates/${c!.id}`)).text).toContain('Erase candidate')
		const confirm = await owner.get(`/candidates/${c!.id}/erase`)
		expect(confirm.status).toBe(200)
		expect(confirm.text).toContain('cannot be undone')
		// Another workspace's candidate is out of reach, like an absent one.
		const other = await newWorkspace()
		const outsider = await signedIn(await newPerson(other, 'owner'))
		expect((await outsider.get(`/candidates/${c!.id}/export.zip`)).status).toBe(404)
		expect((await outsider.get(`/candidates/${c!.id}/erase`)).status).toBe(404)
	})
})

describe('erasure', () => {
	test('leaves the name, address and phone in no table, search, tool or page; cancels their mail; writes candidate.erased', async () => {
		const { deps, ws, owner, candidateId, person, mcp } = await seededPerson()
		const needles = [person.name, person.email, person.phone]
		expect((await findEverywhere(needles)).length).toBeGreaterThan(0)
		const [resume] = await deps.database.rows<{ key: string | null }>(sql`select resume_path as key from candidates where id = ${candidateId}`)
		const store = fileStore(deps.config)
		if (resume?.key) await store.put(resume.key, new TextEncoder().encode('%PDF-1.4 resume'), 'application/pdf')
		const documentKeys = (
			await deps.database.rows<{ key: string }>(sql`select storage_key as key from candidate_documents where candidate_id = ${candidateId}`)
		).map((d) => d.key)

		const portal = await signedIn(owner)
		await portal.get(`/candidates/${candidateId}/erase`)
		const done = await portal.submit(`/candidates/${candidateId}/erase`)
		expect(done.redirectedTo).toBe(`/candidates/${candidateId}/erased`)
		expect(done.text).toContain('The candidate was erased.')

		expect(await findEverywhere(needles)).toEqual([])
		for (const table of [
			'candidates',
			'applications',
			'notes',
			'interviews',
			'inbox_threads',
			'candidate_documents',
			'bench_entries',
			'scheduled_interviews',
			'todos',
		])
			expect(
				await countOf(
					sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(table === 'candidates' ? 'id' : 'candidate_id')} = ${candidateId}`,
				),
			).toBe(0)
		// The mail waiting for them is not sent; the copy of what went to a vendor about them says "Erased candidate".
		const mail = await deps.database.rows<{ status: string; to: string; text: string }>(
			sql`select status, "to", text from outbox where workspace_id = ${ws.id} and recipient_type = 'candidate' and recipient_id = ${candidateId}`,
		)
		expect(mail.length).toBeGreaterThan(0)
		expect(mail.every((m) => m.status === 'not_sent' || m.status === 'sent')).toBe(true)
		expect(mail.some((m) => m.status === 'not_sent')).toBe(true)
		expect(await countOf(sql`select count(*)::int as n from outbox where workspace_id = ${ws.id} and text like ${'Erased candidate (%'}`)).toBe(1)
		// Files are gone from the store.
		for (const key of [...(resume?.key ? [resume.key] : []), ...documentKeys]) expect(await store.get(key)).toBeNull()
		// The event, with ids only.
		const [event] = await deps.database.rows<{ data: { candidateId: string } }>(
			sql`select data from events where workspace_id = ${ws.id} and type = 'candidate.erased'`,
		)
		expect(event!.data.candidateId).toBe(candidateId)

		// Through every door: pages first (the searches below are recorded in the audit trail with what was typed), then tools and search.
		expect((await portal.get(`/candidates/${candidateId}`)).status).toBe(404)
		for (const path of ['/candidates', '/inbox', '/todos', '/bench', '/calendar', '/activity', '/audit', '/outbox', '/interviews', '/portal']) {
			const page = await portal.get(path)
			expect(page.status).toBe(200)
			for (const needle of needles) expect(page.text.toLowerCase()).not.toContain(needle.toLowerCase())
		}
		expect((await mcp.tool('get_candidate', { candidateId })).isError).toBe(true)
		for (const needle of needles) {
			expect((await mcp.tool('list_candidates', { query: needle })).words.candidates).toEqual([])
			const found = await mcp.tool('search', { q: needle })
			expect(found.isError).toBe(false)
			expect(found.text).not.toContain(candidateId)
			const listed = await portal.get(`/candidates?q=${encodeURIComponent(needle)}`)
			expect(listed.text).not.toContain(candidateId)
		}
	})

	test('a federal contractor keeps an anonymous applicant-flow record until the hold ends, then the sweep deletes it', async () => {
		const { deps, ws, owner, candidateId, person } = await seededPerson()
		const portal = await signedIn(owner)
		await portal.get('/settings/privacy')
		const refused = await portal.post('/settings/privacy', { federalContractor: 'on', holdYears: '3', inactiveMonths: '' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Choose 1 or 2 years')
		const saved = await portal.submit('/settings/privacy', { federalContractor: 'on', holdYears: '1', inactiveMonths: '' })
		expect(saved.text).toContain('The privacy rules were saved.')
		const apps = (await deps.database.rows<{ id: string }>(sql`select id from applications where candidate_id = ${candidateId}`)).map((a) => a.id)
		const eeo = await countOf(sql`select count(*)::int as n from eeo_self_identification where application_id = any(${sql.param(apps)}::text[])`)

		const { json } = await runCommand(deps, 'candidate erase', { candidate: candidateId })
		expect(json).toMatchObject({ candidateId, applications: apps.length })
		expect(json.heldUntil).toEqual(expect.any(String))
		const flow = await deps.database.rows<Record<string, unknown>>(sql`select * from applicant_flow where workspace_id = ${ws.id} order by applied_at`)
		expect(flow.map((f) => f.id).sort()).toEqual([...apps].sort())
		expect(JSON.stringify(flow)).not.toContain(person.name)
		// EEO answers are anonymous codes: kept with the record for the hold.
		expect(await countOf(sql`select count(*)::int as n from eeo_self_identification where application_id = any(${sql.param(apps)}::text[])`)).toBe(eeo)
		expect(await findEverywhere([person.name, person.email, person.phone])).toEqual([])

		expect(await releaseEndedHolds(deps)).toBe(0)
		clock.advance(366 * 24 * 3600 * 1000)
		try {
			expect(await releaseEndedHolds(deps)).toBeGreaterThanOrEqual(apps.length)
		} finally {
			clock.reset()
		}
		expect(await countOf(sql`select count(*)::int as n from applicant_flow where workspace_id = ${ws.id}`)).toBe(0)
		expect(await countOf(sql`select count(*)::int as n from eeo_self_identification where application_id = any(${sql.param(apps)}::text[])`)).toBe(0)
	})

	test('a name another candidate shares stays in what is about that other person; everything tied to the erased one loses it', async () => {
		const { deps, ws, owner, candidateId, person } = await seededPerson()
		// Someone else of exactly the same name, with mail and a to-do about them.
		const namesake = await newCandidate(ws, { name: person.name, email: `${unique('other')}@keep-me.example` }, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		await enqueueMail(
			deps.db,
			{
				workspaceId: ws.id,
				to: 'namesake@keep-me.example',
				subject: 'Hello',
				text: `Dear ${person.name}, welcome`,
				recipient: { type: 'candidate', id: namesake },
			},
			deps,
		)
		await addTodo(deps, actor, { title: `Call back ${person.name} (the other one)`, candidateId: namesake })
		const portal = await signedIn(owner)
		await portal.get(`/candidates/${candidateId}/erase`)
		expect((await portal.submit(`/candidates/${candidateId}/erase`)).redirectedTo).toBe(`/candidates/${candidateId}/erased`)
		// The erased person's address and phone are nowhere; their mail and records' lines hold no name.
		expect(await findEverywhere([person.email, person.phone])).toEqual([])
		expect(await countOf(sql`select count(*)::int as n from outbox where workspace_id = ${ws.id} and subject = 'Submitting Erased candidate'`)).toBe(1)
		// The namesake's mail and to-do line still name them.
		expect(
			await countOf(sql`select count(*)::int as n from outbox where "to" = 'namesake@keep-me.example' and text like ${`%Dear ${person.name}, welcome%`}`),
		).toBe(1)
		expect(
			await countOf(
				sql`select count(*)::int as n from activity where target_id in (select id from todos where candidate_id = ${namesake}) and detail::text like ${`%${person.name}%`}`,
			),
		).toBe(1)
	})

	test('what the person did themself (applied, twice under another typed name; uploaded a document) names them nowhere after', async () => {
		await testApp()
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const actor = await personActor(deps, ws.slug, owner.email)
		const tag = unique('ob')
		const person = { name: `Ottoline ${tag} Brackenbury-Vesk`, typed: `Ottie ${tag} Vesk`, email: `${tag}@erase-me.example` }
		const apply = async (name: string, title: string) => {
			const job = await newVendorJob(ws, { title })
			return applyToJob(deps, {
				workspace: ws,
				job: { id: job, title, status: 'Open', mustHave: null },
				name,
				email: person.email,
				phone: '+1 415 555 0199',
				resume: { bytes: samplePdf(`${name}, QA engineer`), fileName: 'cv.pdf' },
				answers: {},
			})
		}
		const { candidateId } = await apply(person.name, 'QA Engineer')
		// The address is on file: the same person, under the name they typed this time.
		expect((await apply(person.typed, 'Test Lead')).candidateId).toBe(candidateId)
		await requestCandidateDocuments(deps, actor, { candidateId, items: ['dl'] })
		const [mail] = await deps.database.rows<{ id: string; text: string; privateSealed: string | null }>(
			sql`select id, text, private_sealed as "privateSealed" from outbox where "to" = ${person.email} and private_sealed is not null`,
		)
		const token = (await textToSend(deps.secret, mail!)).match(/\/upload\/(bl_ul_[0-9A-Za-z]+)/)![1]!
		await storeUpload(deps, token, 'dl', { name: 'licence.pdf', bytes: samplePdf('licence') })
		const actors = async () =>
			(
				await deps.database.rows<{ actorName: string }>(
					sql`select actor_name as "actorName" from activity where workspace_id = ${ws.id} and credential_kind in ('careers_form', 'upload_link') order by at, seq`,
				)
			).map((r) => r.actorName)
		expect(await actors()).toEqual([person.name, person.typed, `${person.name} (candidate)`])

		await eraseCandidate(deps, actor, candidateId, 'test')
		expect(await actors()).toEqual(['Erased candidate', 'Erased candidate', 'Erased candidate'])
		const page = (await (await signedIn(owner)).get('/activity')).text
		for (const word of [tag, 'Brackenbury', 'Ottie']) expect(page).not.toContain(word)
	})

	test('without a hold nothing is kept; the CLI refuses an unknown candidate', async () => {
		const { deps, ws, candidateId } = await seededPerson()
		const { json } = await runCommand(deps, 'candidate erase', { candidate: candidateId })
		expect(json.heldUntil).toBeNull()
		expect(await countOf(sql`select count(*)::int as n from applicant_flow where workspace_id = ${ws.id}`)).toBe(0)
		await expect(runCommand(deps, 'candidate erase', { candidate: candidateId })).rejects.toThrow('No candidate')
	})
})

describe('retention', () => {
	test('the daily run erases candidates with no activity for the workspace’s months, keeps the active ones and e-mails the owners', async () => {
		await testApp()
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		await runCommand(deps, 'seed', { workspace: ws.slug })
		const portal = await signedIn(owner)
		await portal.get('/settings/privacy')
		expect((await portal.post('/settings/privacy', { holdYears: '2', inactiveMonths: '3' })).text).toContain('from 6 to 120')
		expect((await portal.submit('/settings/privacy', { holdYears: '2', inactiveMonths: '12' })).text).toContain('The privacy rules were saved.')
		// Three candidates untouched for three years; one gets a note today, one wrote a message today.
		const none = (table: string) => sql.raw(`not exists (select 1 from ${table} x where x.candidate_id = c.id)`)
		const [quiet, noted] = (
			await deps.database.rows<{ id: string }>(
				sql`select c.id from candidates c where c.workspace_id = ${ws.id} and ${none('inbox_threads')} and ${none('interviews')} and ${none('scheduled_interviews')} order by c.id limit 2`,
			)
		).map((r) => r.id)
		const [messaged] = (
			await deps.database.rows<{ id: string }>(
				sql`select c.id from candidates c where c.workspace_id = ${ws.id} and not ${none('inbox_threads')} and ${none('interviews')} and ${none('scheduled_interviews')} order by c.id limit 1`,
			)
		).map((r) => r.id)
		const ids = sql`any(${sql.param([quiet!, noted!, messaged!])}::text[])`
		const old = sql`now() - interval '3 years'`
		await deps.database.rows(sql`update candidates set created_at = ${old}, updated_at = ${old} where id = ${ids}`)
		await deps.database.rows(sql`update applications set created_at = ${old}, updated_at = ${old}, stage_changed_at = ${old} where candidate_id = ${ids}`)
		await deps.database.rows(sql`update notes set created_at = ${old} where candidate_id = ${ids}`)
		await deps.database.rows(sql`update inbox_threads set last_message_at = ${old} where candidate_id = ${ids}`)
		// Everything else the demo wrote about them counts as activity too (scorecards, to-dos, the bench, documents).
		const theirApps = sql`(select id from applications where candidate_id = ${ids})`
		await deps.database.rows(sql`update scorecards set created_at = ${old}, updated_at = ${old} where application_id in ${theirApps}`)
		await deps.database.rows(
			sql`update todos set created_at = ${old}, done_at = least(done_at, ${old}) where candidate_id = ${ids} or application_id in ${theirApps}`,
		)
		await deps.database.rows(sql`update bench_entries set added_at = ${old} where candidate_id = ${ids}`)
		await deps.database.rows(sql`update candidate_documents set uploaded_at = ${old} where candidate_id = ${ids}`)
		await deps.database.rows(sql`update vendor_submissions set submitted_at = ${old} where candidate_id = ${ids}`)
		await deps.database.rows(sql`update document_requests set created_at = ${old}, last_upload_at = least(last_upload_at, ${old}) where candidate_id = ${ids}`)
		await deps.database.rows(sql`update inbox_threads set last_message_at = now() where candidate_id = ${messaged!}`)
		await addNote(deps, await personActor(deps, ws.slug, owner.email), { candidateId: noted!, text: 'Still interested, call in March.', private: false })

		const runs = (await runRetention(deps)).filter((r) => r.workspaceId === ws.id)
		expect(runs).toEqual([{ workspaceId: ws.id, erased: 1, failed: 0, more: false }])
		expect(await countOf(sql`select count(*)::int as n from candidates where id = ${quiet!}`)).toBe(0)
		expect(await countOf(sql`select count(*)::int as n from candidates where id = any(${sql.param([noted!, messaged!])}::text[])`)).toBe(2)
		const [erasure] = await deps.database.rows<{ actorName: string }>(
			sql`select actor_name as "actorName" from activity where workspace_id = ${ws.id} and action = 'candidate.erased' and target_id = ${quiet!}`,
		)
		expect(erasure!.actorName).toBe('Retention rule')
		const mail = await deps.database.rows<{ to: string; subject: string; text: string }>(
			sql`select "to", subject, text from outbox where workspace_id = ${ws.id} and subject like 'Retention:%'`,
		)
		expect(mail.map((m) => [m.to, m.subject])).toEqual([[owner.email, 'Retention: 1 candidate erased']])
		expect(mail[0]!.text).toContain('no activity for 12 months')
		// Nothing left to erase: a second run sends nothing.
		expect((await runRetention(deps)).filter((r) => r.workspaceId === ws.id)).toEqual([{ workspaceId: ws.id, erased: 0, failed: 0, more: false }])
	})
})
