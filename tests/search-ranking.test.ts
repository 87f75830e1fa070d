/**
 * `search` ranks across all its sources before it cuts the list, puts a name or title that is
 * exactly what was typed first, breaks ties by what the records are (an open job before a closed
 * one, the latest change first), never by type, and says how many records of each type match and
 * which list tool pages through them. Through the official MCP client of a workspace owner.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../core/credentials.ts'
import { personActor } from '../modules/auth/index.ts'
import { candidates } from '../modules/candidates/table.ts'
import { inboxThreads } from '../modules/inbox/table.ts'
import { jobs } from '../modules/jobs/table.ts'
import { search as searchService } from '../modules/search/service.ts'
import { foldText } from '../core/text-search.ts'
import { newWorkspace, testApp, testDeps, unique, type TestWorkspace } from './helpers.ts'
import { closeClients, mcpPerson, type McpPerson } from './sdk.ts'

setDefaultTimeout(60_000)
afterAll(closeClients)

let ws: TestWorkspace
let owner: McpPerson
const id: Record<string, string> = {}
const hour = (h: number) => new Date(Date.UTC(2026, 10, 1, h))

interface Result {
	type: string
	id: string
	score: number
}

async function addCandidate(key: string, name: string, headline: string, skills: string[], updatedAt: Date) {
	const deps = await testDeps()
	id[key] = newId('cand')
	await deps.db
		.insert(candidates)
		.values({ id: id[key]!, workspaceId: ws.id, name, email: `${unique(key)}@example.test`, headline, skills, location: 'Austin, TX', updatedAt })
}

async function addJob(key: string, title: string, mustHave: string[], status: 'Open' | 'Closed', updatedAt: Date) {
	const deps = await testDeps()
	id[key] = newId('job')
	await deps.db.insert(jobs).values({
		id: id[key]!,
		workspaceId: ws.id,
		slug: unique('job-'),
		title,
		mustHave,
		status,
		publishedAt: new Date(),
		closedAt: status === 'Closed' ? new Date() : null,
		updatedAt,
	})
}

beforeAll(async () => {
	await testApp()
	ws = await newWorkspace()
	owner = await mcpPerson(ws, 'owner')
	// 24 Elixir developers: more than the list holds, all better matches for "elixir" than the two
	// jobs that merely ask for it among their must-haves.
	for (let i = 0; i < 24; i++) await addCandidate(`elixir${i}`, `Person ${i} Quill`, 'Elixir Developer', ['Elixir', 'Phoenix', 'OTP'], hour(1 + (i % 5)))
	await addJob('elixirMention1', 'Backend Generalist', ['Go', 'Elixir'], 'Open', hour(1))
	await addJob('elixirMention2', 'Platform Generalist', ['Rust', 'Elixir'], 'Open', hour(1))
	// Two jobs titled exactly "Zig Systems Engineer" (one closed), and people whose headline holds the title and more.
	await addJob('zigOpen', 'Zig Systems Engineer', ['Zig'], 'Open', hour(1))
	await addJob('zigClosed', 'Zig Systems Engineer', ['Zig'], 'Closed', hour(9))
	for (let i = 0; i < 3; i++) await addCandidate(`zigPerson${i}`, `Zed ${i} Marlow`, 'Senior Zig Systems Engineer', ['Zig', 'C', 'Linux'], hour(10 + i))
	// A tie of score between a candidate and a job: the later change comes first, whatever the type.
	await addCandidate('ocamlPerson', 'Ola Fenwick', 'OCaml Developer', ['OCaml'], hour(3))
	await addJob('ocamlJob', 'OCaml Developer', ['OCaml'], 'Open', hour(4))
	const deps = await testDeps()
	await deps.database.rows(sql`analyze candidates`)
}, 120_000)

const search = async (q: string) => {
	const answer = await owner.tool('search', { q })
	expect(answer.isError).toBe(false)
	return answer.data as { results: Result[]; types: { type: string; found: number; foundAtLeast: boolean; shown: number; seeAll: any; note: string }[] }
}
const keyOf = (r: Result) => Object.entries(id).find(([, v]) => v === r.id)?.[0] ?? r.id

test('the list is ranked across all sources before it is cut: no weaker hit of one type takes the place of a better one of another', async () => {
	const { results, types } = await search('elixir')
	expect(results).toHaveLength(20)
	// Each hit scores at least as well as every hit left out: the 24 developers (headline and skill)
	// fill the list, and the two jobs that only mention Elixir among their requirements are not in it.
	const keys = results.map(keyOf)
	expect(keys.filter((k) => k.startsWith('elixirMention'))).toEqual([])
	expect(keys.every((k) => k.startsWith('elixir'))).toBe(true)
	for (let i = 1; i < results.length; i++) expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score)
	const candidateCount = types.find((t) => t.type === 'candidate')!
	expect(candidateCount).toMatchObject({ found: 24, foundAtLeast: false, shown: 20, seeAll: { tool: 'list_candidates', arguments: { query: 'elixir' } } })
	expect(candidateCount.note).toContain('Showing 20 of 24 matching candidates')
	expect(types.find((t) => t.type === 'job')).toMatchObject({ found: 2, shown: 0, seeAll: { tool: 'list_jobs', arguments: { query: 'elixir' } } })
	// The list tool it names shows the rest: every developer, page after page.
	const seen = new Set<string>()
	let cursor: string | undefined
	do {
		const page = (await owner.tool('list_candidates', { ...candidateCount.seeAll.arguments, limit: 10, ...(cursor ? { cursor } : {}) })).data
		for (const c of page.candidates) seen.add(c.id)
		cursor = page.nextCursor ?? undefined
	} while (cursor)
	expect([...seen].sort()).toEqual(Array.from({ length: 24 }, (_, i) => id[`elixir${i}`]!).sort())
})

test('a title that is exactly what was typed ranks first, the open job before the closed one, then partial matches', async () => {
	const { results, types } = await search('zig systems  engineer')
	expect(results.slice(0, 2).map(keyOf)).toEqual(['zigOpen', 'zigClosed'])
	expect(results.slice(0, 2).map((r) => r.score)).toEqual([1, 1])
	expect(results.slice(2).map((r) => r.type)).toEqual(['candidate', 'candidate', 'candidate'])
	for (const r of results.slice(2)) expect(r.score).toBeLessThan(1)
	expect(types.find((t) => t.type === 'job')).toMatchObject({ found: 2, shown: 2, seeAll: null, note: 'All 2 matching jobs are shown.' })
	// A person's name typed in full ranks first too.
	const byName = await search('Zed 1 Marlow')
	expect(keyOf(byName.results[0]!)).toBe('zigPerson1')
	expect(byName.results[0]!.score).toBe(1)
})

test('the person typed exactly comes before the newer conversations with them, and both before word matches', async () => {
	const deps = await testDeps()
	await addCandidate('talker', 'Tamsin Ortolan', 'Ortolan Migration Lead', ['Go'], hour(1))
	const [person] = await deps.database.rows<{ email: string }>(sql`select email from candidates where id = ${id.talker}`)
	id.talkerThread = newId('thr')
	await deps.db.insert(inboxThreads).values({
		id: id.talkerThread,
		workspaceId: ws.id,
		counterpartKey: `candidate:${id.talker}`,
		counterpartType: 'candidate',
		candidateId: id.talker,
		counterpartName: 'Tamsin Ortolan',
		counterpartAddress: person!.email,
		subject: 'Your application',
		lastMessageAt: hour(20),
	})
	for (const typed of [person!.email, 'tamsin ortolan']) {
		const { results } = await search(typed)
		expect(results.slice(0, 2).map(keyOf)).toEqual(['talker', 'talkerThread'])
		expect(results[0]!.score).toBe(1)
		expect(results[1]!.score).toBeGreaterThan(0.99)
		expect(results[1]!.score).toBeLessThan(1)
	}
	// A subject typed exactly is the conversation itself.
	expect((await search('your application')).results[0]).toMatchObject({ id: id.talkerThread, score: 1 })
})

test('a tie of score goes to the record changed last, whatever its type', async () => {
	const { results } = await search('ocaml')
	expect(results.map(keyOf).slice(0, 2)).toEqual(['ocamlJob', 'ocamlPerson'])
	expect(results[0]!.score).toBe(results[1]!.score)
	const deps = await testDeps()
	await deps.db
		.update(candidates)
		.set({ updatedAt: hour(5) })
		.where(sql`${candidates.id} = ${id.ocamlPerson}`)
	expect((await search('ocaml')).results.map(keyOf).slice(0, 2)).toEqual(['ocamlPerson', 'ocamlJob'])
})

test('a type with more matches than were counted says "at least"', async () => {
	const deps = await testDeps()
	const rows = Array.from({ length: 60 }, (_, i) => ({
		id: newId('cand'),
		workspaceId: ws.id,
		name: `Many ${i} Haskeller`,
		email: `${unique('hs')}@example.test`,
		headline: 'Haskell Developer',
		skills: ['Haskell'],
	}))
	await deps.db.insert(candidates).values(rows)
	const { types } = await search('haskell')
	const count = types.find((t) => t.type === 'candidate')!
	expect(count.foundAtLeast).toBe(true)
	expect(count.found).toBeGreaterThanOrEqual(50)
	expect(count.note).toContain(`of at least ${count.found} matching candidates`)
})

test('control characters in what was typed are spaces: every source still answers (a NUL once failed the job and inbox sources of the portal search)', async () => {
	// The portal's header search hands the words to the service as typed (the MCP tool refuses control characters up front).
	const deps = await testDeps()
	const actor = await personActor(deps, ws.slug, owner.email)
	const plain = await searchService(deps, actor, 'zig systems engineer')
	expect(plain.results.length).toBeGreaterThan(0)
	for (const typed of ['zig\u0000systems engineer', 'zig systems\u0007engineer\u0000', 'zig systems engineer\ud800']) {
		const { results, types } = await searchService(deps, actor, typed)
		expect(results.map((r) => r.id)).toEqual(plain.results.map((r) => r.id))
		expect(types).toEqual(plain.types)
	}
})

/** Every row the list tool `seeAll` names returns for its arguments, page after page. */
async function seeAllIds(seeAll: { tool: string; arguments: { query: string } }) {
	const rows = new Set<string>()
	let cursor: string | undefined
	do {
		const page = (await owner.tool(seeAll.tool, { ...seeAll.arguments, limit: 10, ...(cursor ? { cursor } : {}) })).data
		for (const r of page.candidates ?? page.jobs) rows.add(r.id)
		cursor = page.nextCursor ?? undefined
	} while (cursor)
	return rows
}

test('accents and width are folded on both sides: what is stored with accents is found without, and the other way round', async () => {
	await addCandidate('tomas', 'Tomás Quiroga', 'Nim Developer', ['Nim'], hour(1))
	await addCandidate('muller', 'Greta Muller', 'Nim Developer', ['Nim'], hour(1))
	await addJob('developpeur', 'Développeur Nim', ['Nim'], 'Open', hour(1))
	for (const [typed, key] of [
		['Tomas', 'tomas'],
		['Tomás', 'tomas'],
		['TOMAS QUIROGA', 'tomas'],
		['Müller', 'muller'],
		['Muller', 'muller'],
		['Ｍｕｌｌｅｒ', 'muller'],
		['developpeur', 'developpeur'],
		['Développeur', 'developpeur'],
		['ＤＥＶＥＬＯＰＰＥＵＲ ＮＩＭ', 'developpeur'],
	] as const) {
		const { results } = await search(typed)
		expect([typed, results.map(keyOf)[0]]).toEqual([typed, key])
		// The name or title typed in full, accents aside, is what was typed.
		if (typed.includes(' ')) expect(results[0]!.score).toBe(1)
	}
})

test('conversations too: a correspondent or subject stored with accents is found without them, and the other way round', async () => {
	const deps = await testDeps()
	const thread = async (key: string, name: string, subject: string) => {
		id[key] = newId('thr')
		await deps.db.insert(inboxThreads).values({
			id: id[key]!,
			workspaceId: ws.id,
			counterpartKey: `outside:${key}@example.test`,
			counterpartType: 'outside',
			counterpartName: name,
			counterpartAddress: `${key}@example.test`,
			subject,
			lastMessageAt: hour(2),
		})
	}
	await thread('jurgenThread', 'Jürgen Østergaard', 'Rates for Q3')
	await thread('zoeThread', 'Zoe Hallström', 'Café meeting notes')
	for (const [typed, key] of [
		['Jurgen', 'jurgenThread'],
		['Jürgen Østergaard', 'jurgenThread'],
		['Hallstrom', 'zoeThread'],
		['cafe meeting', 'zoeThread'],
		['Ｃａｆé', 'zoeThread'],
	] as const) {
		const { results } = await search(typed)
		expect([typed, results.filter((r) => r.type === 'inbox_thread').map(keyOf)[0]]).toEqual([typed, key])
	}
})

test('the count search reports is what the list tool it names returns for the same words, full-width and accented words too', async () => {
	// Jobs that ask for Elixir without it in their title, and a job titled with it.
	await addJob('elixirTitle', 'Elixir Platform Lead', ['Erlang'], 'Open', hour(2))
	const asked = ['elixir', 'ＥＬＩＸＩＲ', 'Èlixir', 'nim', 'Tomas', 'Müller', 'zig systems engineer']
	let offered = 0
	for (const typed of asked) {
		const { types } = await search(typed)
		for (const t of types.filter((x) => x.type === 'job' || x.type === 'candidate')) {
			// Every type the list tools serve: page through the list tool's answer for the words search was given.
			const seeAll = t.seeAll ?? { tool: t.type === 'job' ? 'list_jobs' : 'list_candidates', arguments: { query: typed } }
			expect(seeAll.arguments).toEqual({ query: typed })
			expect([typed, t.type, (await seeAllIds(seeAll)).size]).toEqual([typed, t.type, t.found])
			if (t.seeAll) offered++
		}
	}
	expect(offered).toBeGreaterThan(0)
	const elixir = (await search('ＥＬＩＸＩＲ')).types
	expect(elixir.find((t) => t.type === 'job')).toMatchObject({ found: 3, seeAll: { tool: 'list_jobs', arguments: { query: 'ＥＬＩＸＩＲ' } } })
	expect(elixir.find((t) => t.type === 'candidate')).toMatchObject({ found: 24, seeAll: { tool: 'list_candidates' } })
})

test('the database folds what it indexes as the words asked are folded (bl_fold and foldText are the same steps)', async () => {
	const deps = await testDeps()
	for (const text of [
		'Tomás Müller',
		'ＪＡＶＡ Ｄｅｖｅｌｏｐｅｒ',
		'Jàva',
		'Zoë Šťastná',
		'ﬁnance',
		'Ångström',
		'naïve café',
		'Łódź Ørsted',
		'Ⅻ ① ²',
		'Straße STRAẞE',
		'Jav\u200ba de\u00advel\u2060oper',
	])
		expect((await deps.database.rows<{ folded: string }>(sql`select bl_fold(${text}) as folded`))[0]!.folded).toBe(foldText(text))
})
