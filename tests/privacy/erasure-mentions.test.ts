/**
 * What an erasure finds in text it does not own: the person's phone number however it was written
 * ("555-014-2299", "(555) 014-2299", "5550142299", "555 014 2299", with or without +1), and their
 * surname alone in searches when no other candidate's name holds it.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { flushAudit } from '../../modules/audit/index.ts'
import { personActor } from '../../modules/auth/index.ts'
import { enqueueMail } from '../../modules/outbox/index.ts'
import { eraseCandidate } from '../../modules/privacy/index.ts'
import { newPerson, newWorkspace, testApp, testDeps, unique } from '../helpers.ts'
import { signedIn } from '../portal.ts'
import { newCandidate } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

const WRITTEN = ['555-014-2299', '(555) 014-2299', '5550142299', '555 014 2299', '+1 555.014.2299', '1-555-014-2299']

test('a phone number in any written form, and a distinctive surname alone in searches, are gone from conversations, mail and the audit trail', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const tag = unique('ob')
	const candidateId = await newCandidate(ws, { name: `Ottoline ${tag} Brackenbury-Vesk`, phone: '+1 555 014 2299', resume: false })
	// Another candidate whose name holds "Vesk": that part alone is not hers to erase.
	const other = await newCandidate(ws, { name: `Ivo ${tag} Veskovic`, phone: '+1 555 014 3000', resume: false })
	const said = `Ivo said her numbers are ${WRITTEN.join(', ')}; a longer number 25550142299 is not hers`
	const thread = newId('thr')
	await deps.database.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, candidate_id, counterpart_name, counterpart_address, subject, snippet, last_message_at)
		values (${thread}, ${ws.id}, ${`candidate:${other}:${thread}`}, 'candidate', ${other}, 'Ivo', '+15550143000', 'Referral', ${said.slice(0, 100)}, now())`)
	await deps.database.rows(sql`insert into inbox_messages (id, workspace_id, thread_id, direction, channel, from_address, to_address, text)
		values (${newId('msg')}, ${ws.id}, ${thread}, 'in', 'message', '+15550143000', 'us@firm.example', ${said})`)
	const { id: mailId } = await enqueueMail(
		deps.db,
		{ workspaceId: ws.id, to: 'jobs@vendor.example', subject: 'A referral', text: `Call (555) 014-2299 or 555.014.2299 about Brackenbury` },
		deps,
	)
	const portal = await signedIn(owner)
	for (const q of ['555-014-2299', 'Brackenbury', 'Vesk', 'Veskovic']) await portal.get(`/candidates?q=${encodeURIComponent(q)}`)
	const found = async () => (await portal.get('/search?q=555-014-2299', { accept: 'application/json' })).text
	expect(await found()).toContain(thread)
	await flushAudit(deps)

	await eraseCandidate(deps, await personActor(deps, ws.slug, owner.email), candidateId, 'test')
	const [message] = await deps.database.rows<{ text: string }>(sql`select text from inbox_messages where thread_id = ${thread}`)
	expect(message!.text).toBe(`Ivo said her numbers are ${WRITTEN.map(() => 'Erased candidate').join(', ')}; a longer number 25550142299 is not hers`)
	const [mail] = await deps.database.rows<{ text: string }>(sql`select text from outbox where id = ${mailId}`)
	// "Brackenbury" alone is left in mail (a word, not a search); the numbers are not.
	expect(mail!.text).toBe('Call Erased candidate or Erased candidate about Brackenbury')
	const criteria = (
		await deps.database.rows<{ q: string }>(
			sql`select criteria->>'query' as q from audit_log where workspace_id = ${ws.id} and action = 'candidates.searched' order by at, id`,
		)
	).map((r) => r.q)
	// The header search recorded one too: every search for her keeps the search, not what named her.
	expect([...new Set(criteria)].sort()).toEqual(['Erased candidate', 'Vesk', 'Veskovic'])
	expect(await found()).not.toContain(thread)
})
