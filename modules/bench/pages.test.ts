/**
 * The bench page (`/bench`): the people `list_bench` shows, newest on the bench first, every one of
 * them across the pages, filtered by role family, with the date added, skills and the job each entry
 * is for, linking to the candidate; for the roles that have the bench (not hiring managers or viewers).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { links, parsePage, section, tableRows } from '../../tests/page-reading.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { candidates } from '../candidates/table.ts'
import { benchEntries } from './table.ts'

setDefaultTimeout(60_000)

type Role = 'owner' | 'admin' | 'recruiter' | 'hiring_manager' | 'viewer'
let deps: AppDeps
let ws: TestWorkspace
let people: Record<Role, PortalClient>
let job: string

beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	ws = await newWorkspace(deps)
	job = await newVendorJob(ws, { title: 'Bench Java Role' }, deps)
	for (let i = 0; i < 33; i++) {
		const candidateId = await newCandidate(ws, { name: `Benched ${i}`, resume: false }, deps)
		await deps.db
			.update(candidates)
			.set({ skills: Array.from({ length: i % 12 }, (_, k) => `Skill ${k}`) })
			.where(sql`id = ${candidateId}`)
		await deps.db.insert(benchEntries).values({
			id: newId('bench'),
			workspaceId: ws.id,
			candidateId,
			roleFamily: i % 11 === 0 ? 'qa' : 'java',
			jobId: i % 4 === 0 ? job : null,
			addedAt: new Date(Date.now() - i * 3_600_000),
		})
	}
	// Another workspace's bench never shows.
	const elsewhere = await newWorkspace(deps)
	await deps.db.insert(benchEntries).values({
		id: newId('bench'),
		workspaceId: elsewhere.id,
		candidateId: await newCandidate(elsewhere, { name: 'Foreign Benched', resume: false }, deps),
		roleFamily: 'java',
	})
	people = {} as Record<Role, PortalClient>
	for (const role of ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] as const) people[role] = await signedIn(await newPerson(ws, role, {}, deps))
}, 120_000)

/** Every row the page lists, following Next page to the end. */
async function listed(client: PortalClient, path: string): Promise<string[][]> {
	const rows: string[][] = []
	let next: string | undefined = path
	while (next) {
		const res = await client.get(next)
		expect(res.status).toBe(200)
		const part = section(parsePage(res.text), 'list-h')
		rows.push(...tableRows(part).map((r, i) => [links(part).filter((l) => l.startsWith('/candidates/'))[i]!, ...r]))
		next = links(part).find((l) => l.includes('cursor='))
	}
	return rows
}

const inDatabase = (family?: string) =>
	deps.database.rows<{ candidateId: string; name: string; family: string; jobTitle: string | null; skills: string[] }>(
		sql`select b.candidate_id as "candidateId", c.name, b.role_family as family, j.title as "jobTitle", c.skills from bench_entries b join candidates c on c.id = b.candidate_id left join jobs j on j.id = b.job_id
		where b.workspace_id = ${ws.id}${family ? sql` and b.role_family = ${family}` : sql``} order by b.added_at desc, b.id desc`,
	)

const FAMILY: Record<string, string> = { java: 'Java', qa: 'QA and testing' }

describe('/bench', () => {
	test('owners, admins and recruiters see everyone on the bench, newest first, with family, skills and job, linked to the candidate', async () => {
		const expected = await inDatabase()
		for (const role of ['owner', 'admin', 'recruiter'] as const) {
			const rows = await listed(people[role], '/bench')
			expect(rows.map((r) => [r[0], r[1]!.startsWith(String(expected[rows.indexOf(r)]!.name)), r[2], r[4]])).toEqual(
				expected.map((e) => [`/candidates/${e.candidateId}`, true, FAMILY[e.family], e.jobTitle ?? 'Any job']),
			)
			for (const [i, e] of expected.entries()) {
				const skills = rows[i]![3]!
				expect(skills).toBe(e.skills.length ? `${e.skills.slice(0, 8).join(', ')}${e.skills.length > 8 ? ` and ${e.skills.length - 8} more` : ''}` : '—')
			}
		}
		expect((await people.owner.get('/bench')).text).not.toContain('Foreign Benched')
	})

	test('the role family filter shows that bench only, over its own pages', async () => {
		for (const family of ['java', 'qa', 'dba']) {
			const rows = await listed(people.recruiter, `/bench?family=${family}`)
			expect([family, rows.map((r) => r[0])]).toEqual([family, (await inDatabase(family)).map((e) => `/candidates/${e.candidateId}`)])
		}
		expect((await people.recruiter.get('/bench?family=dba')).text).toContain('Nobody is on the Database administration bench.')
	})

	test('hiring managers and viewers have no bench; a bad family or a cursor of another filter is a clear 422', async () => {
		for (const role of ['hiring_manager', 'viewer'] as const) expect((await people[role].get('/bench')).status).toBe(403)
		const bad = await people.owner.get('/bench?family=cobol')
		expect([bad.status, bad.text.includes('family must be a role family')]).toEqual([422, true])
		const javaNext = links(section(parsePage((await people.owner.get('/bench?family=java')).text), 'list-h')).find((l) => l.includes('cursor='))!
		const cursor = javaNext.split('cursor=')[1]!
		expect((await people.owner.get(`/bench?family=java&cursor=${cursor}`)).status).toBe(200)
		expect((await people.owner.get(`/bench?cursor=${cursor}`)).status).toBe(422)
		expect((await people.owner.get(`/bench?family=qa&cursor=${cursor}`)).status).toBe(422)
	})
})
