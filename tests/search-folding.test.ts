/**
 * Search folds what compatibility decomposition leaves apart, on both sides: letters such as ß, Ł, Ø
 * and Æ are spelled as people type them ("strasse" finds Straße, "Lukasz" Łukasz), and characters
 * nobody sees (zero-width space and joiners, soft hyphen, direction marks…) are dropped, so a word with
 * one inside is one word. `foldText` folds what is asked and the database's `bl_fold` what is indexed;
 * a database indexed with the old fold is folded again by the migrations that came with it (core 0004,
 * jobs 0007, candidates 0010, inbox 0007).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type SQL, sql } from 'drizzle-orm'
import { newId } from '../core/credentials.ts'
import { modules } from '../core/main.ts'
import { FOLDED_LETTERS, foldText, searchTerms } from '../core/text-search.ts'
import { rowsOf } from '../db/client.ts'
import { migrationsTable } from '../db/migrate.ts'
import candidatesModule from '../modules/candidates/index.ts'
import { candidates } from '../modules/candidates/table.ts'
import inboxModule from '../modules/inbox/index.ts'
import jobsModule from '../modules/jobs/index.ts'
import { call, emptyDatabase, migrationsBefore, newWorkspace, testApp, testDeps, unique, type TestWorkspace } from './helpers.ts'
import { closeClients, mcpPerson, type McpPerson } from './sdk.ts'
import { newPublicJob } from './staffing-fixtures.ts'

setDefaultTimeout(60_000)
afterAll(closeClients)

const ZWSP = '\u200b'
/** Every default-ignorable code point (Unicode's list, as JavaScript knows it). */
const INVISIBLE = Array.from({ length: 0x110000 }, (_, c) => c)
	.filter((c) => (c < 0xd800 || c > 0xdfff) && /\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(c)))
	.map((c) => String.fromCodePoint(c))

test('foldText drops every character nobody sees and spells the letters NFKD keeps whole', () => {
	expect(INVISIBLE.length).toBeGreaterThan(4000)
	for (const c of INVISIBLE) expect([c.codePointAt(0)!.toString(16), foldText(`a${c}b`)]).toEqual([c.codePointAt(0)!.toString(16), 'ab'])
	expect(foldText('Straße STRAẞE Łukasz Søren Æsir Œuvre Þór Đorđe Ħal Işık Ŧ')).toBe('Strasse STRASSE Lukasz Soren AEsir OEuvre THor Dorde Hal Isik T')
	expect(foldText(`Jav${ZWSP}a de\u00advel\u200doper \u202eTomás\u202c`)).toBe('Java developer Tomas')
	expect(searchTerms(`C${ZWSP}#`)).toBe('Csharp')
})

test('the database folds as foldText does: every letter of FOLDED_LETTERS, every invisible character, and samples', async () => {
	const deps = await testDeps()
	const samples = [
		Object.keys(FOLDED_LETTERS)
			.map((c) => `x${c}y`)
			.join(' '),
		INVISIBLE.map((c) => `a${c}b`).join(' '),
		'Straße Łódź Ørsted Jav\u200ba',
		'👩\u200d💻 ❤\ufe0f 🏴\u{e0067}\u{e0062}\u{e007f}',
		`C${ZWSP}# no\u2060de.js`,
	]
	for (const text of samples) {
		const [row] = await deps.database.rows<{ folded: string; terms: string }>(sql`select bl_fold(${text}) as folded, bl_terms(${text}) as terms`)
		expect(row!.folded).toBe(foldText(text))
		expect(row!.terms).toBe(searchTerms(text))
	}
})

describe('through the search tool, the list tools and the careers site: what is asked and what is stored meet folded', () => {
	let ws: TestWorkspace
	let owner: McpPerson
	const tag = unique('')
		.replace(/[^a-z]/g, '')
		.slice(-5)
	const people: Record<string, string> = {}
	const roles: Record<string, { id: string; slug: string }> = {}

	beforeAll(async () => {
		await testApp()
		ws = await newWorkspace()
		owner = await mcpPerson(ws, 'owner')
		const deps = await testDeps()
		const add = async (key: string, name: string, skills: string[]) => {
			people[key] = newId('cand')
			await deps.db
				.insert(candidates)
				.values({ id: people[key], workspaceId: ws.id, name: `${name} Q${tag}`, email: `${unique(key)}@example.test`, headline: 'Engineer', skills })
		}
		await add('strasser', 'Jürgen Straßer', ['SQL'])
		await add('lukasz', 'Łukasz Søndergaard', ['Go'])
		// A skill pasted with a zero-width space inside: one word, not "jav" and "a".
		await add('kotlin', 'Mara Ortiz', [`Kot${ZWSP}lin`])
		roles.strassen = await newPublicJob(ws, { title: `Straßenbau Data Engineer ${tag}` })
		roles.kotlin = await newPublicJob(ws, { title: `Kot${ZWSP}lin Developer ${tag}` })
	}, 120_000)

	test('the search tool and list_candidates find Straße by "strasse", Łukasz by "lukasz", a word with a zero-width space inside by the word', async () => {
		for (const [q, who] of [
			['strasser', 'strasser'],
			['STRASSER', 'strasser'],
			['Straßer', 'strasser'],
			['lukasz sondergaard', 'lukasz'],
			['kotlin', 'kotlin'],
			[`Ko${ZWSP}tlin`, 'kotlin'],
		] as const) {
			const found = await owner.tool('search', { q })
			expect(found.isError).toBe(false)
			const ids = new Set(found.data.results.map((r: { id: string }) => r.id))
			expect([q, Object.keys(people).filter((k) => ids.has(people[k]))]).toEqual([q, [who]])
			const listed = await owner.tool('list_candidates', { query: q })
			expect([q, listed.data.candidates.map((c: { id: string }) => c.id).filter((id: string) => Object.values(people).includes(id))]).toEqual([
				q,
				[people[who]],
			])
		}
	})

	test('list_jobs and the careers search find the jobs the same way', async () => {
		for (const [q, key] of [
			['strassenbau', 'strassenbau'],
			['kotlin developer', 'kotlin'],
		] as const) {
			const role = key === 'kotlin' ? roles.kotlin! : roles.strassen!
			const listed = new Set((await owner.tool('list_jobs', { query: q })).data.jobs.map((j: { id: string }) => j.id))
			expect([q, listed.has(role.id)]).toEqual([q, true])
			const page = await call('GET', `/careers/${ws.slug}?q=${encodeURIComponent(q)}`)
			expect(page.status).toBe(200)
			expect([q, page.text.includes(`/jobs/${role.slug}"`)]).toEqual([q, true])
		}
	})
})

test('upgrading: rows indexed with the old fold are folded again, their search vectors and trigram indexes alike', async () => {
	const owners = [jobsModule, candidatesModule, inboxModule]
	const before = owners.map((m) => migrationsBefore(fileURLToPath(m.migrations!), 'search_refolded'))
	const earlier = modules.map((m) => {
		const at = owners.findIndex((o) => o.name === m.name)
		return at < 0 ? m : { ...m, migrations: pathToFileURL(`${before[at]!.folder}/`) }
	})
	const scratch = await emptyDatabase()
	try {
		const db = scratch.database
		await db.migrate(earlier)
		// The core as the previous release left it: the old fold, and its new one not yet run.
		const core = sql.identifier(migrationsTable('core'))
		await db.rows(sql`delete from drizzle.${core} where created_at = (select max(created_at) from drizzle.${core})`)
		await db.rows(
			sql.raw(
				`CREATE OR REPLACE FUNCTION bl_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT regexp_replace(normalize(coalesce($1, ''), NFKD), '[\\u0300-\\u036f]', '', 'g') $$`,
			),
		)
		expect((await db.rows<{ f: string }>(sql`select bl_fold('Straße') as f`))[0]!.f).toBe('Straße')
		await db.rows(sql`insert into workspaces (id, slug, name) values ('w1', 'w1', 'Kept')`)
		await db.rows(
			sql`insert into candidates (id, workspace_id, name, email, skills) values ('c1', 'w1', 'Jürgen Straßer', 'c1@kept.test', array[${`Kot${ZWSP}lin`}])`,
		)
		await db.rows(
			sql`insert into jobs (id, workspace_id, slug, title, status, published_at) values ('j1', 'w1', 'j1', ${`Straßenbau Kot${ZWSP}lin`}, 'Open', now())`,
		)
		await db.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, counterpart_name, counterpart_address, subject, last_message_at)
			values ('t1', 'w1', 'k1', 'candidate', 'Jürgen Straßer', 'c1@kept.test', ${`Kot${ZWSP}lin role`}, now())`)
		await db.rows(sql`insert into inbox_messages (id, workspace_id, thread_id, direction, channel, from_address, to_address, text)
			values ('m1', 'w1', 't1', 'inbound', 'email', 'c1@kept.test', 'jobs@kept.test', ${`Grüße aus der Straße, Kot${ZWSP}lin`})`)
		const found = async () => ({
			candidates: await db.rows(sql`select id from candidates where search_vector @@ to_tsquery('english', 'strasser & kotlin')`),
			jobs: await db.rows(sql`select id from jobs where search_vector @@ to_tsquery('english', 'strassenbau & kotlin')`),
			threads: await db.rows(sql`select id from inbox_threads where search_vector @@ to_tsquery('english', 'strasser & kotlin')`),
			messages: await db.rows(sql`select id from inbox_messages where search @@ to_tsquery('english', 'strasse & kotlin')`),
			// Read through the trigram indexes (no sequential scan allowed): an index on the old fold holds no "strasse".
			names: await db.db.transaction(async (tx) => {
				await tx.execute(sql`set local enable_seqscan = off`)
				const read = async (query: SQL) => rowsOf(await tx.execute(query))
				return {
					candidates: await read(sql`select id from candidates where bl_fold(name) ilike '%strasser%'`),
					jobs: await read(sql`select id from jobs where bl_fold(title) ilike '%strassenbau%'`),
					threads: await read(sql`select id from inbox_threads where lower(bl_fold(counterpart_name)) ilike '%strasser%'`),
					subjects: await read(sql`select id from inbox_threads where lower(bl_fold(subject)) ilike '%kotlin%'`),
				}
			}),
		})
		const none = await found()
		expect(none).toMatchObject({ candidates: [], jobs: [], threads: [], messages: [] })
		await db.migrate(modules)
		expect((await db.rows<{ f: string }>(sql`select bl_fold('Straße') as f`))[0]!.f).toBe('Strasse')
		expect(await found()).toEqual({
			candidates: [{ id: 'c1' }],
			jobs: [{ id: 'j1' }],
			threads: [{ id: 't1' }],
			messages: [{ id: 'm1' }],
			names: { candidates: [{ id: 'c1' }], jobs: [{ id: 'j1' }], threads: [{ id: 't1' }], subjects: [{ id: 't1' }] },
		})
	} finally {
		await scratch.close()
		for (const b of before) b.remove()
	}
}, 240_000)
