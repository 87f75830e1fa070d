/**
 * An erasure finds the person's name as search finds it: search folds accents, case, full-width
 * letters, letters such as Ł and ß, and invisible characters on both sides (core/text-search.ts), so
 * "tomas lukaszewski-gross" found Tomás Łukaszewski-Groß, and the search kept naming her in the audit
 * trail after the erasure; so did a note or a to-do that wrote her name without its accents.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { normalEmail } from '../../core/email.ts'
import { flushAudit, recordSearch } from '../../modules/audit/index.ts'
import { personActor } from '../../modules/auth/index.ts'
import { addNote } from '../../modules/candidates/index.ts'
import { eraseCandidate } from '../../modules/privacy/index.ts'
import { addTodo } from '../../modules/todos/service.ts'
import { newPerson, newWorkspace, testApp, testDeps, unique } from '../helpers.ts'
import { signedIn } from '../portal.ts'
import { newCandidate } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

/** `s` in full-width letters and digits (ＴＯＭＡＳ), as some keyboards type it. */
const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0))

test('searches, notes and to-dos that wrote the name without its accents, in capitals, full width or decomposed lose it, as search found her', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('fo').replace(/[^a-z0-9]/gi, '')
	const name = `Tomás ${tag} Łukaszewski-Groß`
	const candidateId = await newCandidate(ws, { name, phone: null, resume: false })
	const other = await newCandidate(ws, { name: `Ivo ${tag} Veskovic`, phone: null, resume: false })
	const typed = [`tomas ${tag} lukaszewski-gross`, `TOMAS ${tag.toUpperCase()} LUKASZEWSKI-GROSS`, fullWidth(`tomas ${tag} lukaszewski-gross`), 'lukaszewski']
	const portal = await signedIn(owner)
	for (const q of typed) expect((await portal.get(`/candidates?q=${encodeURIComponent(q)}`)).status).toBe(200)
	await portal.get(`/candidates?q=${encodeURIComponent(`Ivo ${tag}`)}`)
	await flushAudit(deps)
	const searches = async () =>
		deps.database.rows<{ q: string; ids: string[] }>(
			sql`select criteria->>'query' as q, record_ids as ids from audit_log where workspace_id = ${ws.id} and action = 'candidates.searched' order by at, id`,
		)
	// Each search found her: what the erasure must find in turn.
	for (const s of (await searches()).slice(0, typed.length)) expect(s.ids).toContain(candidateId)
	const notes = [
		`Referred by Tomas ${tag} Lukaszewski-Gross`,
		`Referred by TOMÁS ${tag.toUpperCase()} ŁUKASZEWSKI-GROSS`,
		`Referred by ${name.normalize('NFD')}`,
		`Referred by To\u200bmás ${tag} Lukaszewski-Gross`,
	]
	for (const text of notes) await addNote(deps, actor, { candidateId: other, text, private: false })
	await addTodo(deps, actor, { title: `Call tomas ${tag} lukaszewski-gross back` })

	await eraseCandidate(deps, actor, candidateId, 'test')
	const criteria = (await searches()).map((s) => s.q)
	expect(criteria).toEqual([...typed.map(() => 'Erased candidate'), `Ivo ${tag}`])
	const bodies = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other} order by created_at, id`)
	expect(bodies.map((b) => b.body)).toEqual(notes.map(() => 'Referred by Erased candidate'))
	const page = await portal.get('/todos')
	expect(page.text).toContain('Call Erased candidate back')
	const [left] = await deps.database.rows<{ n: number }>(
		sql`select (select count(*) from audit_log where workspace_id = ${ws.id} and lower(bl_fold(criteria::text)) like ${'%lukaszewski%'})
			+ (select count(*) from notes where workspace_id = ${ws.id} and lower(bl_fold(body)) like ${'%lukaszewski%'})
			+ (select count(*) from activity where workspace_id = ${ws.id} and lower(bl_fold(detail::text)) like ${'%lukaszewski%'}) as n`,
	)
	expect(Number(left!.n)).toBe(0)
})

test('a colleague whose name search reads as the same (Tomas for Tomás) keeps it: the name is not the erased person’s alone', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('fs').replace(/[^a-z0-9]/gi, '')
	const candidateId = await newCandidate(ws, { name: `Tomás ${tag} Øberg`, phone: null, resume: false })
	const namesake = await newCandidate(ws, { name: `Tomas ${tag} Oberg`, phone: null, resume: false })
	await addNote(deps, actor, { candidateId: namesake, text: `Tomas ${tag} Oberg asked for a call`, private: false })
	await eraseCandidate(deps, actor, candidateId, 'test')
	const [note] = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${namesake}`)
	expect(note!.body).toBe(`Tomas ${tag} Oberg asked for a call`)
})

test('a phone number written in full-width digits, which search finds by the number, is erased too', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('fp').replace(/[^a-z0-9]/gi, '')
	const candidateId = await newCandidate(ws, { name: `Annika ${tag} Johnson`, phone: '+1 555 014 2299', resume: false })
	const other = await newCandidate(ws, { name: `Ivo ${tag} Veskovic`, phone: '+1 555 014 3000', resume: false })
	const said = `Her number is ${fullWidth('555 014 2299')}, or ${fullWidth('(555) 014-2299')}`
	const thread = newId('thr')
	await deps.database.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, candidate_id, counterpart_name, counterpart_address, subject, snippet, last_message_at)
		values (${thread}, ${ws.id}, ${`candidate:${other}:${thread}`}, 'candidate', ${other}, 'Ivo', '+15550143000', 'Referral', 'Referral', now())`)
	await deps.database.rows(sql`insert into inbox_messages (id, workspace_id, thread_id, direction, channel, from_address, to_address, text)
		values (${newId('msg')}, ${ws.id}, ${thread}, 'in', 'message', '+15550143000', 'us@firm.example', ${said})`)
	await addNote(deps, actor, { candidateId: other, text: `Call ${fullWidth('555-014-2299')}`, private: false })
	const portal = await signedIn(owner)
	const found = async () => (await portal.get('/search?q=555-014-2299', { accept: 'application/json' })).text
	expect(await found()).toContain(thread)

	await eraseCandidate(deps, actor, candidateId, 'test')
	const [message] = await deps.database.rows<{ text: string }>(sql`select text from inbox_messages where thread_id = ${thread}`)
	expect(message!.text).toBe('Her number is Erased candidate, or Erased candidate')
	const [note] = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other}`)
	expect(note!.body).toBe('Call Erased candidate')
	expect(await found()).not.toContain(thread)
})

test('a name in Hangul or kana, which folding writes apart (김 is three jamo), is still found as written, in a search and a note', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('kr').replace(/[^a-z0-9]/gi, '')
	const other = await newCandidate(ws, { name: `Ivo ${tag} Veskovic`, phone: null, resume: false })
	for (const name of [`김민준 ${tag}`, `ガルシア ${tag} マリア`]) {
		const candidateId = await newCandidate(ws, { name, phone: null, resume: false })
		await addNote(deps, actor, { candidateId: other, text: `Referred by ${name}`, private: false })
		await eraseCandidate(deps, actor, candidateId, 'test')
	}
	const bodies = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other} order by created_at, id`)
	expect(bodies.map((b) => b.body)).toEqual(['Referred by Erased candidate', 'Referred by Erased candidate'])
})

test('a name of several words is replaced only where it stands as words: another word that holds it keeps its letters', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const candidateId = await newCandidate(ws, { name: 'Ann Lee', phone: null, resume: false })
	const other = await newCandidate(ws, { name: 'Ivo Veskovic', phone: null, resume: false })
	await addNote(deps, actor, { candidateId: other, text: 'Joann Leeds called; Ann Lee did not, nor (ann lee).', private: false })
	await addTodo(deps, actor, { title: 'Ask Suzann Leeson, then Ann Lee' })
	await eraseCandidate(deps, actor, candidateId, 'test')
	const [note] = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other}`)
	expect(note!.body).toBe('Joann Leeds called; Erased candidate did not, nor (Erased candidate).')
	const portal = await signedIn(owner)
	expect((await portal.get('/todos')).text).toContain('Ask Suzann Leeson, then Erased candidate')
})

test('a name in a script written without spaces is erased where a particle or honorific follows it (マリアさん, 김민준씨)', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const other = await newCandidate(ws, { name: 'Ivo Veskovic', phone: null, resume: false })
	const notes: [string, string][] = [
		['ガルシア マリア', 'ガルシア マリアさんから電話'],
		['김민준', '김민준씨에게 연락'],
	]
	for (const [name, text] of notes) {
		const candidateId = await newCandidate(ws, { name, phone: null, resume: false })
		await addNote(deps, actor, { candidateId: other, text, private: false })
		await eraseCandidate(deps, actor, candidateId, 'test')
	}
	const bodies = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other} order by created_at, id`)
	expect(bodies.map((b) => b.body)).toEqual(['Erased candidateさんから電話', 'Erased candidate씨에게 연락'])
})

test('an address typed with its domain in Unicode (bücher), which search finds as the stored xn-- form, is erased in that spelling too', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const tag = unique('ud').replace(/[^a-z0-9]/gi, '')
	const typed = `${tag}@bücher.example`
	// Stored in its one form, as every door stores an address (xn--bcher-kva.example).
	const candidateId = await newCandidate(ws, { name: `Annika ${tag} Johnson`, email: normalEmail(typed), phone: null, resume: false })
	const other = await newCandidate(ws, { name: 'Ivo Veskovic', phone: null, resume: false })
	await addNote(deps, actor, { candidateId: other, text: `Write to ${typed.toUpperCase()} today`, private: false })
	const portal = await signedIn(owner)
	await portal.get(`/candidates?q=${encodeURIComponent(typed)}`)
	await flushAudit(deps)
	const searches = () =>
		deps.database.rows<{ q: string; ids: string[] }>(
			sql`select criteria->>'query' as q, record_ids as ids from audit_log where workspace_id = ${ws.id} and action = 'candidates.searched'`,
		)
	expect((await searches())[0]!.ids).toContain(candidateId)
	await eraseCandidate(deps, actor, candidateId, 'test')
	expect((await searches()).map((s) => s.q)).toEqual(['Erased candidate'])
	const [note] = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other}`)
	expect(note!.body).toBe('Write to Erased candidate today')
})

test('a name whose words a search or a note joined with other punctuation (ottilie-quenby, Quenby/Ottilie), which search reads as the words, is erased whole', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const actor = await personActor(deps, ws.slug, owner.email)
	const surname = `Quenby${unique('pj').replace(/[^a-z0-9]/gi, '')}`
	const candidateId = await newCandidate(ws, { name: `Ottilie ${surname}`, phone: null, resume: false })
	const other = await newCandidate(ws, { name: 'Ivo Veskovic', phone: null, resume: false })
	const typed = [`ottilie-${surname}`, `${surname}/Ottilie`, `ottilie + ${surname}`]
	const portal = await signedIn(owner)
	for (const q of typed) await portal.get(`/candidates?q=${encodeURIComponent(q)}`)
	await addNote(deps, actor, { candidateId: other, text: `Ask Ottilie–${surname} (via ${surname}/Ottilie)`, private: false })
	// Two fields of JSON are not two words: no match across the quotes that end one and start the next.
	recordSearch(deps, new Request('http://localhost/candidates'), actor, { criteria: { query: 'Ottilie', location: surname } }, [])
	await flushAudit(deps)
	const searches = () =>
		deps.database.rows<{ q: string; ids: string[] }>(
			sql`select criteria->>'query' as q, record_ids as ids from audit_log where workspace_id = ${ws.id} and action = 'candidates.searched' order by at, id`,
		)
	for (const s of (await searches()).slice(0, typed.length)) expect({ q: s.q, found: s.ids.includes(candidateId) }).toEqual({ q: s.q, found: true })
	await eraseCandidate(deps, actor, candidateId, 'test')
	expect((await searches()).map((s) => s.q)).toEqual([...typed.map(() => 'Erased candidate'), 'Ottilie'])
	const [two] = await deps.database.rows<{ criteria: unknown }>(
		sql`select criteria from audit_log where workspace_id = ${ws.id} and criteria->>'query' = 'Ottilie'`,
	)
	expect(two!.criteria).toEqual({ query: 'Ottilie', location: surname })
	const [note] = await deps.database.rows<{ body: string }>(sql`select body from notes where candidate_id = ${other}`)
	expect(note!.body).toBe('Ask Erased candidate (via Erased candidate)')
})
