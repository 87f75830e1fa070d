/**
 * The portal's search (`/search?q=`, the header's box; issue 31), in-process through the real
 * sign-in: the best five of each type with its count and "See all", the same role limits as the
 * `search` tool (a hiring manager finds only their jobs and those jobs' applicants; a viewer no
 * candidates), the same answer as JSON for the header's dropdown, and a short search explained.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { flushAudit } from '../audit/index.ts'
import { auditLog } from '../audit/table.ts'
import { personActor } from '../auth/index.ts'
import { jobTeam } from '../jobs/table.ts'
import { search } from './service.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
/** A made-up word in every record of the test, so that only they match. */
const word = `zq${unique('')
	.slice(-6)
	.replace(/[^a-z]/g, 'x')}`
const cands: string[] = []
let teamJob: string
let otherJob: string
const people = {} as Record<'owner' | 'manager' | 'viewer', { email: string; password: string; userId: string }>
const portal = {} as Record<'owner' | 'manager' | 'viewer', PortalClient>

interface Answer {
	query: string
	groups: {
		type: string
		label: string
		count: string
		found: number
		hits: { id: string; title: string; href: string }[]
		seeAll: { href: string; text: string } | null
	}[]
}
const json = async (c: PortalClient, q: string) => {
	const res = await c.get(`/search?q=${encodeURIComponent(q)}`, { accept: 'application/json' })
	expect(res.status).toBe(200)
	return JSON.parse(res.text) as Answer
}

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	people.owner = await newPerson(ws, 'owner', {}, deps)
	people.manager = await newPerson(ws, 'hiring_manager', {}, deps)
	people.viewer = await newPerson(ws, 'viewer', {}, deps)
	teamJob = await newVendorJob(ws, { title: `${word} Platform Engineer` }, deps)
	otherJob = await newVendorJob(ws, { title: `${word} Data Analyst` }, deps)
	await deps.db.insert(jobTeam).values({ jobId: teamJob, userId: people.manager.userId })
	for (let i = 0; i < 7; i++) cands.push(await newCandidate(ws, { name: `${word} Person${'abcdefg'[i]}` }, deps))
	await newApplication(ws, cands[0]!, teamJob, {}, deps)
	for (const c of cands.slice(1)) await newApplication(ws, c, otherJob, {}, deps)
	for (const who of ['owner', 'manager', 'viewer'] as const) portal[who] = await signedIn(people[who])
}, 120_000)

describe('/search: grouped by type, five of each, counts and See all', () => {
	test('an owner: every type, the best five candidates of seven with See all to the list, both jobs', async () => {
		const a = await json(portal.owner, word)
		expect(a.groups.map((g) => g.type).sort()).toEqual(['candidate', 'inbox_thread', 'job'])
		const c = a.groups.find((g) => g.type === 'candidate')!
		expect({ found: c.found, shown: c.hits.length, seeAll: c.seeAll }).toEqual({
			found: 7,
			shown: 5,
			seeAll: { href: `/candidates?q=${word}`, text: `See all 7 candidates` },
		})
		for (const h of c.hits) expect(h.href).toBe(`/candidates/${h.id}`)
		const j = a.groups.find((g) => g.type === 'job')!
		// All are shown: no See all.
		expect({ found: j.found, ids: j.hits.map((h) => h.id).sort(), seeAll: j.seeAll }).toEqual({ found: 2, ids: [teamJob, otherJob].sort(), seeAll: null })
	})

	test('the page works without script: each group with its count, its links and See all', async () => {
		const res = await portal.owner.get(`/search?q=${word}`)
		expect(res.status).toBe(200)
		expect(res.text).toContain('<h2 id="group-candidate">Candidates <span class="meta">7</span></h2>')
		expect(res.text).toContain('<h2 id="group-job">Jobs <span class="meta">2</span></h2>')
		expect(res.text).toContain(`<a href="/candidates?q=${word}">See all 7 candidates</a>`)
		expect(res.text).toContain(`<a href="/jobs/${teamJob}">`)
		expect(res.text.match(/<a href="\/candidates\/cand_/g)?.length).toBe(5)
		expect(res.text).toContain('No conversations match.')
	})

	test('a hiring manager finds only their job and its applicant, exactly as the search tool does', async () => {
		const a = await json(portal.manager, word)
		// No inbox for a hiring manager: the type is left out, as the tool leaves it out.
		expect(a.groups.map((g) => g.type).sort()).toEqual(['candidate', 'job'])
		const c = a.groups.find((g) => g.type === 'candidate')!
		expect({ found: c.found, ids: c.hits.map((h) => h.id), seeAll: c.seeAll }).toEqual({ found: 1, ids: [cands[0]!], seeAll: null })
		expect(a.groups.find((g) => g.type === 'job')!.hits.map((h) => h.id)).toEqual([teamJob])
		const tool = await search(deps, await personActor(deps, ws.slug, people.manager.email), word)
		expect(tool.results.map((r) => r.id).sort()).toEqual([cands[0]!, teamJob].sort())
		const page = await portal.manager.get(`/search?q=${word}`)
		for (const c of cands.slice(1)) expect(page.text).not.toContain(c)
		expect(page.text).not.toContain(otherJob)
	})

	test('a viewer finds jobs only: no candidates, no conversations', async () => {
		const a = await json(portal.viewer, word)
		expect(a.groups.map((g) => g.type)).toEqual(['job'])
		expect((await portal.viewer.get(`/search?q=${word}`)).text).not.toContain('group-candidate')
	})

	test('a search that shows candidates is recorded as a search of the candidate database (41 CFR 60-1.12)', async () => {
		const q = `${word} persona`
		await json(portal.owner, q)
		await flushAudit(deps)
		const rows = await deps.db
			.select()
			.from(auditLog)
			.where(and(eq(auditLog.workspaceId, ws.id), eq(auditLog.action, 'candidates.searched')))
		expect(rows.some((r) => JSON.stringify(r).includes(q))).toBe(true)
	})

	test('one character is explained on the page (422) and answered with no groups as JSON; no search is just the form', async () => {
		const short = await portal.owner.get('/search?q=a')
		expect(short.status).toBe(422)
		expect(short.text).toContain('Search must have at least 2 characters')
		expect(await json(portal.owner, 'a')).toEqual({ query: 'a', groups: [], error: 'Search must have at least 2 characters' } as never)
		const empty = await portal.owner.get('/search')
		expect(empty.status).toBe(200)
		expect(empty.text).toContain('<input id="q" name="q" type="search" value=""')
	})

	test('a control character is read as a space before the length is checked: each door answers in its own shape', async () => {
		// The dropdown's JSON request got the generic 422 page (the service refused what the route had let through).
		expect(await json(portal.owner, 'a\u0001')).toEqual({ query: 'a', groups: [], error: 'Search must have at least 2 characters' } as never)
		expect(await json(portal.owner, '\u0001\u0002')).toEqual({ query: '', groups: [], error: null } as never)
		const found = await json(portal.owner, `${word}\u0001`)
		expect(found.query).toBe(word)
		expect(found.groups.find((g) => g.type === 'job')!.found).toBe(2)
		const page = await portal.owner.get('/search?q=a%01')
		expect(page.status).toBe(422)
		expect(page.text).toContain('Search must have at least 2 characters')
		expect(page.text).toContain('<input id="q" name="q" type="search" value="a"')
		const long = 'x'.repeat(121)
		expect(await json(portal.owner, long)).toEqual({ query: long, groups: [], error: 'Search must be 120 characters or fewer' } as never)
	})
})
