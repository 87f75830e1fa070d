/**
 * The retention rule keeps whoever had activity in any module that holds candidate data: every
 * contribution to the candidate-data port says what counts (`activeSince`), and a registry-wide
 * test fails when a new one says nothing.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { newId } from '../../core/credentials.ts'
import { contributionsTo } from '../../core/registry.ts'
import { personActor } from '../auth/index.ts'
import { candidateData } from '../candidates/index.ts'
import { exportCandidate, runRetention, setPrivacyRules } from './index.ts'
import { retentionRetryQueue } from './retention-failures.ts'
import { clock, logLines, newPerson, newVendor, newWorkspace, testApp, testDeps, unique } from '../../tests/helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'

setDefaultTimeout(120_000)

/**
 * Contributions whose activity the rule reads another way. `candidate`: its records (profile,
 * applications, notes) are where the rule starts (`inactiveCandidates`). `selfIdentification`
 * (eeo): written in the application's own transaction, so the application's creation counts for it.
 * `jobAlerts` (careers): alerts are tied to an e-mail address, not a candidate (not decided here).
 * `marketingMail` (the outbox's unsubscribes): asking for less mail is no activity with the firm.
 * `retentionFailures`: the rule's own failed erasures, no activity of the person's.
 */
const READ_ANOTHER_WAY = new Set(['candidate', 'selfIdentification', 'jobAlerts', 'marketingMail', 'retentionFailures'])

test('every module that holds candidate data says what counts as activity for the retention rule', async () => {
	const deps = await testDeps()
	const sources = contributionsTo(deps.registry, candidateData)
	expect(sources.map((s) => s.key)).toEqual(expect.arrayContaining(['documents', 'bench', 'scorecards', 'todos', 'messages', 'interviews']))
	const silent = sources.filter((s) => !s.activeSince && !READ_ANOTHER_WAY.has(s.key)).map((s) => s.key)
	expect(silent).toEqual([])
})

/** A new workspace whose owner set the retention rule to `months` without activity (not a federal contractor). */
async function workspaceWithRule<D extends Awaited<ReturnType<typeof testDeps>>>(deps: D, months: string) {
	await testApp()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	await setPrivacyRules(deps, await personActor(deps, ws.slug, owner.email), { federalContractor: false, holdYears: '2', inactiveMonths: months })
	return { deps, ws, owner }
}

test('a 12-month rule keeps candidates active today on the bench, in documents, vendor submissions, scorecards and to-dos', async () => {
	const { deps, ws, owner } = await workspaceWithRule(await testDeps(), '12')
	const job = await newVendorJob(ws)
	const { vendorId } = await newVendor(ws)
	const names = ['Benched Today', 'Uploaded Today', 'Submitted Today', 'Asked For Documents Today', 'Scored Today', 'To-do Today', 'Quiet For Years']
	const ids: string[] = []
	const apps: string[] = []
	for (const name of names) {
		const id = await newCandidate(ws, { name, resume: false })
		ids.push(id)
		apps.push(await newApplication(ws, id, job))
	}
	const all = sql`any(${sql.param(ids)}::text[])`
	const old = sql`now() - interval '3 years'`
	await deps.database.rows(sql`update candidates set created_at = ${old}, updated_at = ${old} where id = ${all}`)
	await deps.database.rows(sql`update applications set created_at = ${old}, updated_at = ${old}, stage_changed_at = ${old} where candidate_id = ${all}`)
	await deps.database.rows(
		sql`insert into bench_entries (id, workspace_id, candidate_id, role_family, added_at) values (${newId('bench')}, ${ws.id}, ${ids[0]}, 'java', now())`,
	)
	await deps.database.rows(sql`insert into candidate_documents (id, workspace_id, candidate_id, kind, file_name, content_type, size_bytes, storage_key, uploaded_at)
		values (${newId('doc')}, ${ws.id}, ${ids[1]}, 'visa', 'visa.pdf', 'application/pdf', 10, ${`docs/${ids[1]}`}, now())`)
	await deps.database.rows(sql`insert into vendor_submissions (id, workspace_id, application_id, candidate_id, job_id, vendor_id, documents, document_ids, to_address, submitted_by_name, submitted_at)
		values (${newId('sub')}, ${ws.id}, ${apps[2]}, ${ids[2]}, ${job}, ${vendorId}, '{}', '{}', 'subs@vendor.example', 'Owner', now())`)
	await deps.database.rows(sql`insert into document_requests (id, workspace_id, candidate_id, application_id, token_hash, items, requested_by_name, expires_at, created_at)
		values (${newId('dreq')}, ${ws.id}, ${ids[3]}, ${apps[3]}, ${newId('hash')}, '{visa}', 'Owner', now() + interval '7 days', now())`)
	await deps.database.rows(sql`insert into scorecards (id, workspace_id, application_id, author_user_id, recommendation, created_at, updated_at)
		values (${newId('sc')}, ${ws.id}, ${apps[4]}, ${owner.userId}, 'yes', now(), now())`)
	await deps.database.rows(sql`insert into todos (id, workspace_id, assignee_user_id, application_id, title, created_at)
		values (${newId('todo')}, ${ws.id}, ${owner.userId}, ${apps[5]}, 'Call back', now())`)

	const runs = (await runRetention(deps)).filter((r) => r.workspaceId === ws.id)
	const left = await deps.database.rows<{ name: string }>(sql`select name from candidates where id = ${all} order by name`)
	expect(left.map((l) => l.name)).toEqual(names.filter((n) => n !== 'Quiet For Years').sort())
	expect(runs).toEqual([{ workspaceId: ws.id, erased: 1, failed: 0, more: false }])
})

test('candidates kept by activity elsewhere do not stop the rule from reaching the quiet ones behind them', async () => {
	const { deps, ws } = await workspaceWithRule(await testDeps(), '12')
	// Oldest first: two candidates on the bench today (kept), then one quiet for years (erased).
	const names = ['Benched One', 'Benched Two', 'Quiet Behind Them']
	const ids: string[] = []
	for (const [i, name] of names.entries()) {
		const id = await newCandidate(ws, { name, resume: false })
		ids.push(id)
		const old = sql`now() - interval '3 years' + ${`${i} days`}::interval`
		await deps.database.rows(sql`update candidates set created_at = ${old}, updated_at = ${old} where id = ${id}`)
	}
	for (const id of ids.slice(0, 2))
		await deps.database.rows(
			sql`insert into bench_entries (id, workspace_id, candidate_id, role_family, added_at) values (${newId('bench')}, ${ws.id}, ${id}, 'java', now())`,
		)

	// One erasure a run: the two kept ones fill the first page of inactive candidates.
	const runs = (await runRetention(deps, 1)).filter((r) => r.workspaceId === ws.id)
	const left = await deps.database.rows<{ name: string }>(sql`select name from candidates where id = any(${sql.param(ids)}::text[]) order by name`)
	expect(left.map((l) => l.name)).toEqual(['Benched One', 'Benched Two'])
	expect(runs).toEqual([{ workspaceId: ws.id, erased: 1, failed: 0, more: false }])
})

test('N months before the 31st is the end of a shorter month: nobody is erased days before their N months', async () => {
	// 31 August: six months before is 28 February, not "31 February" (3 March).
	const { deps, ws } = await workspaceWithRule({ ...(await testDeps()), now: () => new Date('2026-08-31T12:00:00Z') }, '6')
	const lastActive = { 'Active First Of March': '2026-03-01T12:00:00Z', 'Quiet Since February': '2026-02-27T12:00:00Z' }
	const ids: string[] = []
	for (const [name, at] of Object.entries(lastActive)) {
		const id = await newCandidate(ws, { name, resume: false })
		ids.push(id)
		await deps.database.rows(sql`update candidates set created_at = ${at}::timestamptz, updated_at = ${at}::timestamptz where id = ${id}`)
	}
	await runRetention(deps)
	const left = await deps.database.rows<{ name: string }>(sql`select name from candidates where id = any(${sql.param(ids)}::text[]) order by name`)
	expect(left.map((l) => l.name)).toEqual(['Active First Of March'])
})

test('a candidate whose erasure fails waits out a backoff instead of coming first in every run: those behind it are erased; the failure is recorded, logged and on /metrics', async () => {
	const { deps, ws, owner } = await workspaceWithRule(await testDeps(), '12')
	const tag = unique('stuck').replace(/[^a-z0-9]/g, '')
	// Oldest first: the one whose erasure fails, then two quiet ones behind it.
	const names = [`Stuck ${tag}`, 'Quiet Second', 'Quiet Third']
	const ids: string[] = []
	for (const [i, name] of names.entries()) {
		const id = await newCandidate(ws, { name, resume: false })
		ids.push(id)
		const old = sql`now() - interval '3 years' + ${`${i} days`}::interval`
		await deps.database.rows(sql`update candidates set created_at = ${old}, updated_at = ${old} where id = ${id}`)
	}
	const stuck = ids[0]!
	// Its erasure fails every time: the database refuses to delete its row.
	await deps.database.rows(sql.raw(`create function fail_${tag}() returns trigger language plpgsql as $$ begin raise exception 'refused in a test'; end $$`))
	await deps.database.rows(
		sql.raw(`create trigger stuck_${tag} before delete on candidates for each row when (old.id = '${stuck}') execute function fail_${tag}()`),
	)
	const day = 24 * 3_600_000
	const run = async () => (await runRetention(deps, 1)).find((r) => r.workspaceId === ws.id)
	const failure = async () =>
		(
			await deps.database.rows<{ failures: number; waitMs: number }>(
				sql`select failures, (extract(epoch from retry_at - last_failed_at) * 1000)::float8 as "waitMs" from retention_failures where candidate_id = ${stuck}`,
			)
		)[0]
	try {
		// Three runs of one place each: the next ones pass over it while it waits, so the two behind it are erased.
		const runs = [await run(), await run(), await run()]
		const left = await deps.database.rows<{ id: string }>(sql`select id from candidates where id = any(${sql.param(ids)}::text[])`)
		expect(left.map((l) => l.id)).toEqual([stuck])
		expect(runs).toEqual([
			{ workspaceId: ws.id, erased: 0, failed: 1, more: true },
			{ workspaceId: ws.id, erased: 1, failed: 0, more: true },
			{ workspaceId: ws.id, erased: 1, failed: 0, more: false },
		])
		// The owners' summary of each run counts the failed erasures, this run's and those waiting to be retried; it names nobody.
		const summaries = await deps.database.rows<{ subject: string; text: string }>(
			sql`select subject, text from outbox where workspace_id = ${ws.id} and "to" = ${owner.email} and subject like 'Retention:%' order by seq`,
		)
		expect(summaries.map((m) => m.subject)).toEqual(['Retention: 1 erasure failed', 'Retention: 1 candidate erased', 'Retention: 1 candidate erased'])
		expect(summaries[0]!.text).toContain(
			'The rule could not erase 1 candidate in this run. 1 candidate the rule could not erase is kept until a later try succeeds',
		)
		expect(summaries[0]!.text).not.toContain('retention rule erased')
		for (const m of summaries.slice(1)) {
			expect(m.text).toContain('erased 1 candidate with no activity for 12 months')
			expect(m.text).not.toContain('in this run')
			expect(m.text).toContain('1 candidate the rule could not erase is kept until a later try succeeds')
		}
		for (const m of summaries) expect(`${m.subject} ${m.text}`).not.toMatch(new RegExp(`${tag}|${stuck}|Quiet`, 'i'))

		// Recorded (the candidate kept whole), with when it is tried again; logged; and on /metrics.
		expect(await failure()).toEqual({ failures: 1, waitMs: day })
		// (The database's words stay out of the log, which may not hold personal data; its error code is there.)
		const logged = logLines
			.flatMap((l) => (l.startsWith('{') ? [JSON.parse(l)] : []))
			.find((l) => l.msg.startsWith('the retention rule could not erase a candidate') && l.candidateId === stuck)
		expect(logged).toMatchObject({ level: 'warn', workspaceId: ws.id, failures: 1, retryAt: expect.any(String), error: { code: 'P0001' } })
		expect((await retentionRetryQueue.measure(deps)).depth).toBeGreaterThanOrEqual(1)
		// It is data about them: in their export.
		const exported = await exportCandidate(deps, await personActor(deps, ws.slug, owner.email), stuck, '127.0.0.1')
		expect(JSON.parse(strFromU8(unzipSync(exported.bytes)['candidate.json']!)).retentionFailures).toMatchObject({ failures: 1 })

		// A day later it is tried again, fails again, and waits twice as long.
		clock.advance(day)
		expect(await run()).toEqual({ workspaceId: ws.id, erased: 0, failed: 1, more: false })
		expect(await failure()).toEqual({ failures: 2, waitMs: 2 * day })
		clock.advance(day)
		expect(await run()).toEqual({ workspaceId: ws.id, erased: 0, failed: 0, more: false })

		// Once the fault is gone, its next try erases it, and the record goes with it.
		await deps.database.rows(sql.raw(`drop trigger stuck_${tag} on candidates`))
		clock.advance(day)
		expect(await run()).toEqual({ workspaceId: ws.id, erased: 1, failed: 0, more: false })
		expect(await failure()).toBeUndefined()
	} finally {
		clock.reset()
		await deps.database.rows(sql.raw(`drop trigger if exists stuck_${tag} on candidates`))
		await deps.database.rows(sql.raw(`drop function if exists fail_${tag}()`))
	}
})
