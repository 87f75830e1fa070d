/**
 * What an erasure finds in text it does not own: the person's phone number however it was written
 * ("555-014-2299", "(555) 014-2299", "5550142299", "555 014 2299", with or without +1), and their
 * surname alone in searches when no other candidate's name holds it; what people wrote elsewhere
 * naming them (a note on another candidate, a to-do about no one, a saved search), on every page
 * that shows it and in the other candidate's export.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { newId } from '../../core/credentials.ts'
import { flushAudit, recordSearch } from '../../modules/audit/index.ts'
import { personActor } from '../../modules/auth/index.ts'
import { addNote } from '../../modules/candidates/index.ts'
import { enqueueMail } from '../../modules/outbox/index.ts'
import { eraseCandidate, exportCandidate } from '../../modules/privacy/index.ts'
import { saveSearch } from '../../modules/saved-searches/index.ts'
import { addTodo } from '../../modules/todos/service.ts'
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

test('a note on another candidate, a to-do about no one and saved searches that name the person keep no trace of them, on any page or export', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('ob')
	const name = `Ottoline ${tag} Brackenbury-Vesk`
	const email = `${tag}@erase-me.example`
	const candidateId = await newCandidate(ws, { name, email, phone: '+1 555 014 2299', resume: false })
	const other = await newCandidate(ws, { name: 'Ivo Veskovic', phone: null, resume: false })
	await addNote(deps, actor, { candidateId: other, text: `Referred by ${name} (555) 014-2299`, private: false })
	await addTodo(deps, actor, { title: `Thank ${name} for the referral`, notes: `Write to ${email} or call 555-014-2299` })
	// One search already has the name the other one will get: the erasure numbers it.
	await saveSearch(deps, actor, { list: 'candidates', name: 'Erased candidate', query: 'java' })
	await saveSearch(deps, actor, { list: 'candidates', name, query: name })
	await saveSearch(deps, actor, { list: 'inbox', name: 'Her number', query: '555-014-2299' })

	await eraseCandidate(deps, actor, candidateId, 'test')
	const portal = await signedIn(owner)
	for (const path of ['/todos', '/saved-searches', '/activity', `/candidates/${other}`]) {
		const page = await portal.get(path)
		expect(page.status).toBe(200)
		for (const word of [tag, 'Ottoline', '014-2299', 'Brackenbury']) expect(page.text).not.toContain(word)
	}
	const saved = await deps.database.rows<{ name: string; query: string }>(
		sql`select name, query from saved_searches where workspace_id = ${ws.id} order by list, name`,
	)
	expect(saved).toEqual([
		{ name: 'Erased candidate', query: 'java' },
		{ name: 'Erased candidate 2', query: 'Erased candidate' },
		{ name: 'Her number', query: 'Erased candidate' },
	])
	const exported = strFromU8(unzipSync((await exportCandidate(deps, actor, other, 'test')).bytes)['candidate.json']!)
	expect(exported).toContain('Referred by Erased candidate Erased candidate')
	expect(exported).not.toContain(tag)
})

test('a name or phone number written with a no-break space or another Unicode space is found and erased too', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('sp').replace(/[^a-z0-9]/gi, '')
	const candidateId = await newCandidate(ws, { name: `Annika ${tag} Johnson`, phone: '+1 555 014 2299', resume: false })
	const other = await newCandidate(ws, { name: 'Ivo Veskovic', phone: null, resume: false })
	// U+00A0, U+2009, U+202F, U+205F, U+3000: what word processors and phones put between words and digit groups.
	const spaces = ['\u00a0', '\u2009', '\u202f', '\u205f', '\u3000']
	for (const space of spaces)
		await addNote(deps, actor, { candidateId: other, text: `Ask Annika${space}${tag}${space}Johnson, (555)${space}014${space}2299`, private: false })
	await eraseCandidate(deps, actor, candidateId, 'test')
	const notes = await deps.database.rows<{ body: string }>(sql`select body from notes where workspace_id = ${ws.id} order by created_at`)
	expect(notes.map((n) => n.body)).toEqual(spaces.map(() => 'Ask Erased candidate, Erased candidate'))
})

test('a name holding a quote or a backslash is erased from the JSON of the audit trail’s criteria and the activity log’s details, which stay JSON', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('qt').replace(/[^a-z0-9]/gi, '')
	const names = [`Annika "Nika" ${tag} Johnson`, `Marta \\Tata\\ ${tag} Okafor`]
	const ids = []
	for (const name of names) ids.push(await newCandidate(ws, { name, phone: null, resume: false }))
	for (const name of names) {
		recordSearch(deps, new Request('http://localhost/candidates'), actor, { criteria: { query: name } }, [])
		await addTodo(deps, actor, { title: `Call ${name} about referral` })
	}
	await flushAudit(deps)
	for (const id of ids) await eraseCandidate(deps, actor, id, 'test')
	const criteria = await deps.database.rows<{ q: string }>(
		sql`select criteria->>'query' as q from audit_log where workspace_id = ${ws.id} and action = 'candidates.searched' order by at, id`,
	)
	expect(criteria.map((c) => c.q)).toEqual(['Erased candidate', 'Erased candidate'])
	const titles = await deps.database.rows<{ title: string }>(
		sql`select detail->>'title' as title from activity where workspace_id = ${ws.id} and detail->>'title' is not null order by at, id`,
	)
	expect(titles.length).toBeGreaterThan(0)
	for (const { title } of titles) expect(title).toBe('Call Erased candidate about referral')
	const [left] = await deps.database.rows<{ n: number }>(
		sql`select (select count(*) from audit_log where workspace_id = ${ws.id} and criteria::text like ${`%${tag}%`}) + (select count(*) from activity where workspace_id = ${ws.id} and detail::text like ${`%${tag}%`}) as n`,
	)
	expect(Number(left!.n)).toBe(0)
})
