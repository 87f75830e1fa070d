/**
 * An erasure and the audit trail's write-behind buffer: a search that named the person and was
 * recorded just before the erasure loses their name, whether this instance still held the line
 * (written first, then scrubbed) or another instance wrote it just after (scrubbed again a second later).
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { createLogger } from '../../core/log.ts'
import { closeDeps, createDeps } from '../../core/main.ts'
import { flushAudit, recordSearch, SCRUB_AGAIN_MS } from '../audit/index.ts'
import { operatorActor, personActor } from '../auth/index.ts'
import { eraseCandidate } from './index.ts'
import { newPerson, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'

setDefaultTimeout(60_000)

const searched = async (workspaceId: string) =>
	JSON.stringify(
		await (await testDeps()).database.rows(
			sql`select criteria from audit_log where workspace_id = ${workspaceId} and action = 'candidates.searched' order by at`,
		),
	)

test('a search still in this instance’s audit buffer at the erasure keeps no erased name', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const name = 'Ottoline Bufferwright'
	const candidateId = await newCandidate(ws, { name, resume: false })
	recordSearch(deps, new Request('http://localhost/candidates'), actor, { criteria: { query: name } }, [{ id: candidateId }])
	await eraseCandidate(deps, operatorActor(ws), candidateId, 'test')
	await flushAudit(deps)
	const rows = await searched(ws.id)
	expect(rows).toContain('Erased candidate')
	expect(rows).not.toContain('Bufferwright')
})

test('a search another instance writes just after the erasure is scrubbed by the second pass', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const name = 'Pellinore Latewriter'
	const candidateId = await newCandidate(ws, { name, resume: false })
	await eraseCandidate(deps, operatorActor(ws), candidateId, 'test')
	// Another instance's buffer, written 100 ms after the erasure committed.
	await Bun.sleep(100)
	await deps.database.rows(sql`insert into audit_log (id, workspace_id, at, kind, action, outcome, actor_name, credential_kind, credential_id, credential_name, record_ids, criteria, address)
		values (${`aud_late_${ws.id}`}, ${ws.id}, now() - interval '150 milliseconds', 'search', 'candidates.searched', 'ok', 'Owner', 'session', '', 'portal session', '{}',
			${JSON.stringify({ query: name })}::jsonb, 'x')`)
	expect(await searched(ws.id)).toContain('Latewriter')
	await Bun.sleep(SCRUB_AGAIN_MS + 500)
	const rows = await searched(ws.id)
	expect(rows).toContain('Erased candidate')
	expect(rows).not.toContain('Latewriter')
})

test('a search that named the person in other spacing, case or order loses the name too (as search found them)', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const candidateId = await newCandidate(ws, { name: 'Fatimah Wilsonby', resume: false })
	for (const query of ['Wilsonby Fatimah', 'fatimah   wilsonby', 'Fatimah\tWilsonby', 'Wilsonby, Fatimah', 'FATIMAH\nWILSONBY'])
		recordSearch(deps, new Request('http://localhost/candidates'), actor, { criteria: { query } }, [{ id: candidateId }])
	recordSearch(deps, new Request('http://localhost/candidates'), actor, { criteria: { query: 'Fatimah Jones' } }, [])
	await flushAudit(deps)
	await eraseCandidate(deps, operatorActor(ws), candidateId, 'test')
	const rows = await searched(ws.id)
	expect(rows.match(/Erased candidate/g)).toHaveLength(5)
	expect(rows.toLowerCase()).not.toContain('wilsonby')
	// Another person's search keeps its words.
	expect(rows).toContain('Fatimah Jones')
})

test('closing the dependencies (a CLI command’s end, a stopping server) waits for the second pass and writes the buffer: nothing is left behind', async () => {
	await testApp()
	const shared = await testDeps()
	// Dependencies of their own, closed as the CLI closes its own when its command has returned.
	const deps = await createDeps({ config: shared.config, database: shared.database, log: createLogger('silent') })
	const ws = await newWorkspace()
	const name = 'Isembard Lastsecond'
	const candidateId = await newCandidate(ws, { name, resume: false })
	await eraseCandidate(deps, operatorActor(ws), candidateId, 'cli')
	// Another instance's buffer, written just after the erasure committed; then this process closes at once.
	await shared.database.rows(sql`insert into audit_log (id, workspace_id, at, kind, action, outcome, actor_name, credential_kind, credential_id, credential_name, record_ids, criteria, address)
		values (${`aud_close_${ws.id}`}, ${ws.id}, now() - interval '150 milliseconds', 'search', 'candidates.searched', 'ok', 'Owner', 'session', '', 'portal session', '{}',
			${JSON.stringify({ query: name })}::jsonb, 'x')`)
	await closeDeps(deps)
	const rows = await searched(ws.id)
	expect(rows).toContain('Erased candidate')
	expect(rows).not.toContain('Lastsecond')
	const erased = await shared.database.rows(sql`select 1 from audit_log where workspace_id = ${ws.id} and action = 'candidate.erased' and address = 'cli'`)
	expect(erased).toHaveLength(1)
})
