/**
 * The audit trail through every door: tool calls (answered, refused for the role or for a record out
 * of reach, failed on bad arguments), portal views and searches, who may read it, its filters, its
 * downloads (CSV with formulas escaped, NDJSON), the CLI export and the retention sweep.
 */
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runCommand } from '../../core/commands.ts'
import { newId } from '../../core/credentials.ts'
import { callOn, newPerson, newPersonWithToken, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { MCP_HEADERS, messageOf } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn, uniqueAddress } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { operatorActor, personActor, removePerson } from '../auth/index.ts'
import { setPrivacyRules } from '../privacy/index.ts'
import { flushAudit, pruneAudit } from './index.ts'
import { auditChoices } from './queries.ts'
import { auditLog } from './table.ts'
import { writeAuditLine } from './writer.ts'

type Line = typeof auditLog.$inferSelect

async function linesOf(ws: TestWorkspace): Promise<Line[]> {
	const deps = await testDeps()
	await flushAudit(deps)
	return deps.database.rows<Line>(
		sql`select id, kind, action, outcome, actor_user_id as "actorUserId", actor_name as "actorName", credential_kind as "credentialKind", credential_name as "credentialName", record_ids as "recordIds", criteria, job_id as "jobId", address from audit_log where workspace_id = ${ws.id} order by at, seq`,
	)
}

/** A tool call over HTTP from a given client address (the app trusts X-Forwarded-For, as behind nginx). */
async function tool(token: string, name: string, args: Record<string, unknown>, address: string) {
	const { app } = await portalApp()
	const res = await callOn(app, 'POST', '/api/mcp', {
		key: token,
		body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
		headers: { ...MCP_HEADERS, 'x-forwarded-for': address },
	})
	return { status: res.status, message: messageOf(res.text) }
}

async function staffed() {
	const ws = await newWorkspace()
	const owner = await newPersonWithToken(ws, 'owner')
	const jobId = await newVendorJob(ws, { title: 'Audit Java Developer' })
	const candidateId = await newCandidate(ws, { name: 'Ada Audited' })
	const applicationId = await newApplication(ws, candidateId, jobId)
	return { ws, owner, jobId, candidateId, applicationId }
}

describe('audit trail: tool calls', () => {
	test('an answered call is recorded with the person, the token, the tool, the records returned and the address', async () => {
		const { ws, owner, candidateId } = await staffed()
		const address = uniqueAddress()
		const res = await tool(owner.token, 'get_candidate', { candidateId }, address)
		expect(res.message.result.isError).toBeFalsy()
		const [line] = (await linesOf(ws)).filter((l) => l.kind === 'tool_call')
		expect(line).toMatchObject({
			action: 'get_candidate',
			outcome: 'ok',
			actorUserId: owner.userId,
			credentialKind: 'personal_token',
			credentialName: 'owner token',
			address,
		})
		expect(line!.recordIds).toContain(candidateId)
	})

	test('a tool the role does not have, and a record out of reach, are recorded as refused; bad arguments as an error', async () => {
		const { ws, candidateId } = await staffed()
		const viewer = await newPersonWithToken(ws, 'viewer')
		const address = uniqueAddress()
		const denied = await tool(viewer.token, 'submit_to_vendor', { candidateId, vendorId: 'vend_x', jobId: 'job_x' }, address)
		expect(denied.message.error ?? denied.message.result?.isError).toBeTruthy()
		const owner = await newPersonWithToken(ws, 'owner')
		const missing = await tool(owner.token, 'get_candidate', { candidateId: newId('cand') }, address)
		expect(missing.message.result.isError).toBe(true)
		const bad = await tool(owner.token, 'list_candidates', { limit: 'many' }, address)
		expect(bad.message.error ?? bad.message.result?.isError).toBeTruthy()
		const calls = (await linesOf(ws)).filter((l) => l.kind === 'tool_call').map((l) => [l.action, l.outcome, l.actorUserId])
		expect(calls).toEqual([
			['submit_to_vendor', 'refused', viewer.userId],
			['get_candidate', 'refused', owner.userId],
			['list_candidates', 'error', owner.userId],
		])
	})

	test('a call the MCP SDK refuses, before building a server or after, is recorded as an error', async () => {
		const { ws, owner } = await staffed()
		const { app } = await portalApp()
		const call = (version: string) =>
			callOn(app, 'POST', '/api/mcp', {
				key: owner.token,
				body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_jobs', arguments: {} } },
				headers: { ...MCP_HEADERS, 'mcp-protocol-version': version, 'x-forwarded-for': uniqueAddress() },
			})
		// A revision it does not know: refused by the 2025-era transport, after the server was built.
		expect((await call('1999-01-01')).status).toBe(400)
		// A 2026 request without its envelope: refused before any server is built.
		expect((await call('2026-07-28')).status).toBe(400)
		const calls = (await linesOf(ws)).filter((l) => l.kind === 'tool_call').map((l) => [l.action, l.outcome])
		expect(calls).toEqual([
			['list_jobs', 'error'],
			['list_jobs', 'error'],
		])
	})

	test('a search of the candidate database made for a job is kept with its criteria, job and the candidates found (41 CFR 60-1.12)', async () => {
		const { ws, owner, jobId, candidateId } = await staffed()
		await tool(owner.token, 'list_candidates', { query: 'Ada', jobId }, uniqueAddress())
		await tool(owner.token, 'list_candidates', {}, uniqueAddress())
		const searches = (await linesOf(ws)).filter((l) => l.kind === 'search')
		expect(searches).toHaveLength(1)
		expect(searches[0]).toMatchObject({ action: 'candidates.searched', jobId, criteria: { query: 'Ada', jobId } })
		expect(searches[0]!.recordIds).toContain(candidateId)
	})
})

describe('audit trail: portal', () => {
	test('views of a candidate, an application and a search are recorded; a page out of reach as refused', async () => {
		const { ws, owner, candidateId, applicationId } = await staffed()
		const manager = await newPersonWithToken(ws, 'hiring_manager')
		const client = await signedIn(owner)
		expect((await client.get(`/candidates/${candidateId}`)).status).toBe(200)
		expect((await client.get(`/applications/${applicationId}`)).status).toBe(200)
		expect((await client.get('/candidates?q=Ada')).status).toBe(200)
		// The forms that show an application (its scorecard, scheduling an interview) are views of it too.
		expect((await client.get(`/applications/${applicationId}/scorecard`)).status).toBe(200)
		expect((await client.get(`/applications/${applicationId}/schedule`)).status).toBe(200)
		const outsider = await signedIn(manager)
		expect((await outsider.get(`/candidates/${candidateId}`)).status).toBe(404)
		const lines = (await linesOf(ws)).map((l) => [l.action, l.outcome, l.actorUserId, l.credentialKind])
		expect(lines).toEqual([
			['candidate.viewed', 'ok', owner.userId, 'session'],
			['application.viewed', 'ok', owner.userId, 'session'],
			['candidates.searched', 'ok', owner.userId, 'session'],
			['application.viewed', 'ok', owner.userId, 'session'],
			['application.viewed', 'ok', owner.userId, 'session'],
			['candidate.viewed', 'refused', manager.userId, 'session'],
		])
	})

	test('owners and admins read /audit with its filters; other roles get 403', async () => {
		const { ws, owner, candidateId, applicationId } = await staffed()
		const admin = await newPersonWithToken(ws, 'admin')
		const recruiter = await newPersonWithToken(ws, 'recruiter')
		await tool(owner.token, 'get_candidate', { candidateId }, uniqueAddress())
		await tool(owner.token, 'get_application', { applicationId }, uniqueAddress())
		const client = await signedIn(admin)
		const page = await client.get('/audit')
		expect(page.status).toBe(200)
		expect(page.text).toContain('get_candidate')
		expect(page.text).toContain('get_application')
		const byRecord = await client.get(`/audit?record=${candidateId}&action=get_candidate`)
		expect(byRecord.text).toContain('get_candidate')
		expect(byRecord.text).not.toContain('<code>get_application</code>')
		const byDay = await client.get('/audit?from=2001-01-01&until=2001-01-02')
		expect(byDay.text).toContain('Nothing in the trail matches these filters')
		expect((await client.get('/audit?from=yesterday')).status).toBe(422)
		expect((await (await signedIn(recruiter)).get('/audit')).status).toBe(403)
		expect((await (await signedIn(recruiter)).get('/audit/export.csv')).status).toBe(403)
	})

	test('the filters offer every member and every tool, and the people and apps the latest lines name', async () => {
		const { ws, owner } = await staffed()
		const deps = await testDeps()
		const quiet = await newPersonWithToken(ws, 'viewer')
		// Someone no longer a member, named only by an old line: offered while among the latest lines.
		const gone = { id: newId('usr'), name: 'Gone Person' }
		await deps.db.insert(auditLog).values({
			id: newId('aud'),
			workspaceId: ws.id,
			at: new Date(),
			kind: 'tool_call',
			action: 'list_jobs',
			outcome: 'ok',
			actorUserId: gone.id,
			actorName: gone.name,
			credentialKind: 'oauth_app',
			credentialId: 'cli_x',
			credentialName: 'Old Assistant',
			recordIds: [],
			address: '203.0.113.9',
		})
		const choices = await auditChoices(deps, ws.id)
		const ids = choices.people.map((p) => p.id)
		expect(ids).toContain(owner.userId)
		expect(ids).toContain(quiet.userId)
		expect(choices.people).toContainEqual(gone)
		expect(choices.apps).toEqual(['Old Assistant'])
		expect(choices.actions).toContain('get_candidate')
		expect(choices.actions).toContain('list_jobs')
		// Other workspaces' people and apps are never offered.
		const other = await auditChoices(deps, (await newWorkspace()).id)
		expect(other.people.map((p) => p.id)).not.toContain(gone.id)
		expect(other.apps).toEqual([])
	})

	test('downloads: CSV escapes what a spreadsheet would run, NDJSON is one object a line', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const deps = await testDeps()
		// A token named like a formula (names are typed by people).
		const { personActor, createPersonalToken } = await import('../auth/index.ts')
		const actor = await personActor(deps, ws.slug, owner.email)
		const { token } = await createPersonalToken(
			deps,
			{ ...actor, credential: { kind: 'session', id: 't', name: 'portal session' } },
			{ name: '=HYPERLINK("x")' },
		)
		await tool(token, 'list_jobs', {}, uniqueAddress())
		const client = await signedIn(owner)
		const csv = await client.get('/audit/export.csv')
		expect(csv.status).toBe(200)
		expect(csv.headers.get('content-type')).toContain('text/csv')
		expect(csv.headers.get('content-disposition')).toContain('attachment')
		// UTF-8 said in the file itself, for Excel; the NDJSON has no byte-order mark.
		expect([...csv.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		expect(csv.text.split('\n')[0]).toBe('at,kind,action,outcome,person,personId,through,app,records,job,criteria,address')
		expect(csv.text).toContain(`'=HYPERLINK`)
		const ndjson = await client.get('/audit/export.ndjson?action=list_jobs')
		expect(ndjson.bytes[0]).toBe('{'.charCodeAt(0))
		const rows = ndjson.text
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l))
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({ action: 'list_jobs', outcome: 'ok', app: '=HYPERLINK("x")', through: 'personal_token' })
		// A control character in a filter is answered 422 like on the page, before any download begins
		// (it once reset the connection mid-answer and printed the failed statement with its values).
		for (const path of ['/audit/export.csv?record=%00', '/audit/export.ndjson?person=a%00b', '/audit?action=%01'])
			expect((await client.get(path)).status, path).toBe(422)
	})
})

describe('audit trail: the person filter', () => {
	test('a person the page does not offer is refused (422 on its field, the downloads too), as /activity refuses one; members and those who left with lines in the trail are not', async () => {
		const { ws, owner, candidateId } = await staffed()
		const deps = await testDeps()
		const outsider = await newPerson(await newWorkspace(), 'recruiter')
		const leaver = await newPerson(ws, 'recruiter')
		expect((await (await signedIn(leaver)).get(`/candidates/${candidateId}`)).status).toBe(200)
		await flushAudit(deps)
		await removePerson(deps, operatorActor(ws), ws, { userId: leaver.userId })
		const client = await signedIn(owner)
		for (const path of [`/audit?person=${outsider.userId}`, `/activity?person=${outsider.userId}`, '/audit?person=usr_nobody']) {
			const page = await client.get(path)
			expect(page.status, path).toBe(422)
			expect(page.text, path).toContain('Choose a person from the list')
		}
		for (const path of [`/audit/export.csv?person=${outsider.userId}`, `/audit/export.ndjson?person=${outsider.userId}`])
			expect((await client.get(path)).status, path).toBe(422)
		expect((await client.get(`/audit?person=${owner.userId}`)).status).toBe(200)
		const left = await client.get(`/audit?person=${leaver.userId}`)
		expect(left.status).toBe(200)
		expect(left.text).toContain('<code>candidate.viewed</code>')
		expect(left.text).not.toContain('Nothing in the trail matches these filters.')
	})
})

describe('audit trail: CLI and retention', () => {
	test('audit export streams the trail between two instants', async () => {
		const { ws, owner, candidateId } = await staffed()
		await tool(owner.token, 'get_candidate', { candidateId }, uniqueAddress())
		const deps = await testDeps()
		const since = new Date(Date.now() - 3_600_000).toISOString()
		const out = await runCommand(deps, 'audit export', { workspace: ws.slug, since, format: 'ndjson' })
		const rows = out.output
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l))
		expect(rows.map((r) => r.action)).toEqual(['get_candidate'])
		const csv = await runCommand(deps, 'audit export', { workspace: ws.slug, since, format: 'csv' })
		expect(csv.output.trim().split('\n')).toHaveLength(2)
		const none = await runCommand(deps, 'audit export', { workspace: ws.slug, since: '2001-01-01', until: '2001-02-01', format: 'ndjson' })
		expect(none.output).toBe('')
		await expect(runCommand(deps, 'audit export', { workspace: ws.slug, since: 'last week', format: 'ndjson' })).rejects.toThrow('ISO 8601')
		await expect(runCommand(deps, 'audit export', { workspace: ws.slug, since, format: 'xml' })).rejects.toThrow('ndjson or csv')
	})

	test('audit export refuses a date that does not exist or that PostgreSQL cannot hold, instead of moving it', async () => {
		const ws = await newWorkspace()
		const deps = await testDeps()
		for (const since of ['2026-02-29', '2026-02-30', '2026-04-31', '0000-01-01', '0999-12-31', '2026-01-31T24:00:00Z', '2026-01-31T09:00+25:00'])
			await expect(runCommand(deps, 'audit export', { workspace: ws.slug, since, format: 'ndjson' })).rejects.toThrow('must be an existing date or time')
		await expect(runCommand(deps, 'audit export', { workspace: ws.slug, since: '2026-01-01', until: '2026-02-30', format: 'csv' })).rejects.toThrow('--until')
		const leap = await runCommand(deps, 'audit export', { workspace: ws.slug, since: '2024-02-29', until: '2024-03-01T00:00:00+01:00', format: 'ndjson' })
		expect(leap.json).toMatchObject({ workspaceId: ws.id, format: 'ndjson' })
	})

	test('lines older than AUDIT_RETENTION_DAYS are deleted, newer ones kept', async () => {
		const ws = await newWorkspace()
		const deps = await testDeps()
		const base = {
			workspaceId: ws.id,
			kind: 'view',
			action: 'candidate.viewed',
			outcome: 'ok',
			actorName: 'Someone',
			credentialKind: 'session',
			credentialId: 's',
			credentialName: 'portal session',
			recordIds: ['cand_x'],
			address: '10.0.0.1',
		}
		const day = 86_400_000
		await deps.db.insert(auditLog).values([
			{ ...base, id: newId('aud'), at: new Date(deps.now().getTime() - 401 * day) },
			{ ...base, id: newId('aud'), at: new Date(deps.now().getTime() - 399 * day) },
		])
		expect(await pruneAudit(deps)).toBeGreaterThanOrEqual(1)
		const left = await linesOf(ws)
		expect(left).toHaveLength(1)
	})

	test('a federal contractor keeps its searches for its hold period (2 years), past AUDIT_RETENTION_DAYS', async () => {
		const deps = await testDeps()
		const contractor = await newWorkspace()
		const other = await newWorkspace()
		const owner = await newPerson(contractor, 'owner')
		await setPrivacyRules(deps, await personActor(deps, contractor.slug, owner.email), { federalContractor: true, holdYears: '2', inactiveMonths: '' })
		const day = 86_400_000
		const search = (ws: TestWorkspace, daysAgo: number) => ({
			id: newId('aud'),
			workspaceId: ws.id,
			at: new Date(deps.now().getTime() - daysAgo * day),
			kind: 'search',
			action: 'candidates.searched',
			outcome: 'ok',
			actorName: 'Someone',
			credentialKind: 'session',
			credentialId: 's',
			credentialName: 'portal session',
			recordIds: [],
			criteria: { query: `java ${daysAgo}` },
			address: '10.0.0.1',
		})
		await deps.db.insert(auditLog).values([search(contractor, 500), search(contractor, 800), search(other, 500)])
		await pruneAudit(deps)
		expect((await linesOf(contractor)).map((l) => l.criteria)).toEqual([{ query: 'java 500' }])
		expect(await linesOf(other)).toEqual([])
	})
})

describe('the trail’s writer', () => {
	test('a NUL or a lone surrogate in what was typed is stored as U+FFFD; a line the database refuses is dropped alone, never holding the rest back', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const line = (action: string, criteria: Record<string, unknown> | null = null) => ({
			id: newId('aud'),
			workspaceId: ws.id,
			at: new Date(),
			kind: 'search',
			action,
			outcome: 'ok',
			actorUserId: null,
			actorName: 'Probe',
			credentialKind: 'pat',
			credentialId: 'pat_probe',
			credentialName: 'probe',
			recordIds: [],
			criteria,
			jobId: null,
			address: '127.0.0.1',
		})
		writeAuditLine(deps, line('before', { q: 'java' }))
		writeAuditLine(deps, line('nul', { q: 'ja\u0000va', 'k\u0000': 'x' }))
		writeAuditLine(deps, line('surrogate', { q: 'ja\ud800va' }))
		// Refused for its data (actor_name is NOT NULL): before the fix this held every later line back for good.
		writeAuditLine(deps, { ...line('refused'), actorName: null as unknown as string })
		writeAuditLine(deps, line('after', { q: 'java' }))
		await flushAudit(deps)
		const rows = await deps.database.rows<{ action: string; criteria: Record<string, unknown> | null }>(
			sql`select action, criteria from audit_log where workspace_id = ${ws.id} order by seq`,
		)
		expect(rows.map((r) => r.action)).toEqual(['before', 'nul', 'surrogate', 'after'])
		expect(rows[1]!.criteria).toEqual({ q: 'ja\uFFFDva', 'k\uFFFD': 'x' })
		expect(rows[2]!.criteria).toEqual({ q: 'ja\uFFFDva' })
		// And the trail goes on: a line added afterwards is written.
		writeAuditLine(deps, line('later'))
		await flushAudit(deps)
		expect(
			(await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from audit_log where workspace_id = ${ws.id} and action = 'later'`))[0]!.n,
		).toBe(1)
	})
})
