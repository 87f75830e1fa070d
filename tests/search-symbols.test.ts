/**
 * Technology names spelled with symbols (C#, C++, F#, .NET, node.js, ASP.NET) are found on every
 * search surface: the `search` tool, `list_candidates` and `list_jobs` with a query, `/candidates?q=`
 * and `/jobs?q=`. The full-text parser dropped the symbols ("C#" was the one-letter "c", which no
 * query asks for), so none of them found anything; now both sides spell them as letters, the words
 * asked with `searchTerms` and what is indexed with the database's `bl_terms`.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { searchTerms } from '../core/text-search.ts'
import { newId } from '../core/credentials.ts'
import { candidates } from '../modules/candidates/table.ts'
import { jobs } from '../modules/jobs/table.ts'
import { newWorkspace, testApp, testDeps, unique, type TestWorkspace } from './helpers.ts'
import { signedIn } from './portal.ts'
import { closeClients, mcpPerson, type McpPerson } from './sdk.ts'

setDefaultTimeout(60_000)
afterAll(closeClients)

let ws: TestWorkspace
let owner: McpPerson
const people: Record<string, string> = {}
const roles: Record<string, string> = {}
const tag = unique('')
	.replace(/[^a-z]/g, '')
	.slice(-5)

beforeAll(async () => {
	await testApp()
	ws = await newWorkspace()
	owner = await mcpPerson(ws, 'owner')
	const deps = await testDeps()
	const add = async (key: string, skills: string[]) => {
		people[key] = newId('cand')
		await deps.db
			.insert(candidates)
			.values({ id: people[key], workspaceId: ws.id, name: `${key} Q${tag}`, email: `${unique(key)}@example.test`, headline: 'Developer', skills })
	}
	const addJob = async (key: string, title: string, mustHave: string[]) => {
		roles[key] = newId('job')
		await deps.db.insert(jobs).values({ id: roles[key], workspaceId: ws.id, slug: unique('job-'), title, mustHave, status: 'Open', publishedAt: new Date() })
	}
	await add('Csharp', ['C#', 'SQL Server'])
	await add('Cpp', ['C++', 'Linux'])
	await add('Fsharp', ['F#'])
	await add('Dotnet', ['.NET Core'])
	await add('Node', ['Node.js', 'React'])
	await add('Aspnet', ['ASP.NET MVC'])
	// One-letter C and a "net" word: none of the symbol-bearing names.
	await add('Plainc', ['C', 'Networking', 'Net Promoter'])
	await addJob('csharp', `C# Developer ${tag}`, ['C#/.NET'])
	await addJob('node', `Backend Engineer ${tag}`, ['Node.js', 'C++'])
}, 120_000)

const EXPECTED: [string, string[], string[]][] = [
	['C#', ['Csharp'], ['csharp']],
	['c++', ['Cpp'], ['node']],
	['F#', ['Fsharp'], []],
	['.NET', ['Dotnet'], ['csharp']],
	['node.js', ['Node'], ['node']],
	['ASP.NET', ['Aspnet'], []],
]

test('the search tool and the list tools find them; a one-letter C or a “net” word is none of them', async () => {
	for (const [q, who, jobsFound] of EXPECTED) {
		const found = await owner.tool('search', { q })
		expect(found.isError).toBe(false)
		const ids = new Set(found.data.results.map((r: { id: string }) => r.id))
		const candidates = Object.entries(people).filter(([, id]) => ids.has(id))
		expect([q, candidates.map(([k]) => k).sort()]).toEqual([q, who])
		// Jobs: a title merely like what was typed also counts (the similarity tier: "c++" is like "C# Developer").
		for (const k of jobsFound) expect([q, ids.has(roles[k])]).toEqual([q, true])
		const listed = await owner.tool('list_candidates', { query: q })
		expect([q, listed.data.candidates.map((c: { id: string }) => c.id).filter((id: string) => Object.values(people).includes(id))]).toEqual([
			q,
			who.map((k) => people[k]),
		])
		const jobs = new Set((await owner.tool('list_jobs', { query: q })).data.jobs.map((j: { id: string }) => j.id))
		for (const k of jobsFound) expect([q, jobs.has(roles[k])]).toEqual([q, true])
	}
})

test('the portal’s lists find them too', async () => {
	const page = await signedIn(owner)
	const list = await page.get('/candidates?q=C%23')
	expect(list.status).toBe(200)
	expect(list.text).toContain(`Csharp Q${tag}`)
	expect(list.text).not.toContain(`Plainc Q${tag}`)
	const jobs = await page.get('/jobs?q=C%23')
	expect(jobs.status).toBe(200)
	expect(jobs.text).toContain(`C# Developer ${tag}`)
	expect(jobs.text).not.toContain(`Backend Engineer ${tag}`)
})

test('the database spells what it indexes as the words asked are spelled (bl_terms and searchTerms are the same steps)', async () => {
	const deps = await testDeps()
	for (const text of [
		'C# and F#',
		'C++/CLI',
		'.NET Core',
		'ASP.NET',
		'Node.js, Vue.js',
		'C#/.NET',
		'HTML/CSS',
		'e.g. 2.5 versions',
		'Jàva.Script',
		'#1 ++x',
		'ＣＳＳ.ｎｅｔ',
	])
		expect((await deps.database.rows<{ terms: string }>(sql`select bl_terms(${text}) as terms`))[0]!.terms).toBe(searchTerms(text))
})
