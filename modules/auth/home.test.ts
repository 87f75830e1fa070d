/**
 * The portal home (`/portal`): what needs the person, their open jobs with applicants per stage,
 * today's calendar, unread messages and overdue to-dos, each shown only to roles that may see it,
 * and with the numbers the database holds (checked against SQL, not against the page's own code).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { jobTeam } from '../jobs/table.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	ws = await newWorkspace(deps)
	await runCommand(deps, 'seed', { workspace: ws.slug })
}, 60_000)

/** The open-jobs table of the home page: job id → its cells by column label. */
function openJobs(page: string): Map<string, Record<string, string>> {
	const section = page.slice(page.indexOf('id="open-jobs"'))
	const table = section.slice(0, section.indexOf('</table>'))
	const rows = new Map<string, Record<string, string>>()
	for (const row of table.split('<tr>').slice(2)) {
		const id = row.match(/href="\/jobs\/([^"]+)"/)?.[1]
		if (!id) continue
		const cells: Record<string, string> = {}
		for (const m of row.matchAll(/<td data-label="([^"]+)"[^>]*>(.*?)<\/td>/g)) cells[m[1]!] = m[2]!.replace(/<[^>]+>/g, '')
		// The stage counts: "<li><span>Label</span> <strong>n</strong></li>" each.
		for (const m of row.matchAll(/<li><span>([^<]+)<\/span> <strong>(\d+)<\/strong><\/li>/g)) cells[m[1]!] = m[2]!
		rows.set(id, cells)
	}
	return rows
}

describe('the portal home', () => {
	test('an owner sees the review queue, open jobs with the database’s counts per stage, calendar, unread messages and to-dos', async () => {
		const owner = await signedIn(await newPerson(ws, 'owner', {}, deps))
		const home = await owner.get('/portal')
		expect(home.status).toBe(200)
		for (const heading of ['Needs your attention', 'Open jobs', 'Today and tomorrow', 'Unread messages', 'Overdue to-dos'])
			expect(home.text).toContain(`>${heading}</h2>`)
		const shown = openJobs(home.text)
		expect(shown.size).toBeGreaterThan(0)
		const counts = await deps.database.rows<{ jobId: string; label: string; n: number }>(
			sql`select a.job_id as "jobId", s.label, count(*)::int as n from applications a join pipeline_stages s on s.workspace_id = a.workspace_id and s.key = a.stage_key
			where a.workspace_id = ${ws.id} and a.archived = false and (a.outcome is null or a.outcome = 'hired') group by a.job_id, s.label`,
		)
		const applicants = await deps.database.rows<{ jobId: string; n: number }>(
			sql`select job_id as "jobId", count(*)::int as n from applications where workspace_id = ${ws.id} and archived = false and kind = 'applicant' group by job_id`,
		)
		for (const [jobId, cells] of shown) {
			const [job] = await deps.database.rows<{ status: string }>(sql`select status from jobs where id = ${jobId} and workspace_id = ${ws.id}`)
			expect(job?.status).toBe('Open')
			expect(Number(cells.Applicants)).toBe(applicants.find((a) => a.jobId === jobId)?.n ?? 0)
			for (const c of counts.filter((x) => x.jobId === jobId))
				expect({ jobId, stage: c.label, n: Number(cells[c.label]) }).toEqual({ jobId, stage: c.label, n: c.n })
		}
	})

	test('a hiring manager sees only the jobs of their hiring teams; a viewer gets no candidate, inbox or to-do parts', async () => {
		const manager = await newPerson(ws, 'hiring_manager', {}, deps)
		const [team] = await deps.database.rows<{ id: string }>(sql`select id from jobs where workspace_id = ${ws.id} and status = 'Open' order by id limit 1`)
		await deps.db.insert(jobTeam).values({ jobId: team!.id, userId: manager.userId, teamRole: 'hiring_manager' })
		const managerHome = await (await signedIn(manager)).get('/portal')
		expect([...openJobs(managerHome.text).keys()]).toEqual([team!.id])
		expect(managerHome.text).not.toContain('>Unread messages</h2>') // no inbox for hiring managers

		const viewerHome = await (await signedIn(await newPerson(ws, 'viewer', {}, deps))).get('/portal')
		expect(viewerHome.status).toBe(200)
		for (const heading of ['Needs your attention', 'Open jobs', 'Unread messages', 'Overdue to-dos', 'Today and tomorrow'])
			expect(viewerHome.text).not.toContain(`>${heading}</h2>`)
	})

	test('the review queue links each entry where it is dealt with, in words for people', async () => {
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const home = await recruiter.get('/portal')
		const section = home.text.slice(home.text.indexOf('id="attention"'), home.text.indexOf('</section>', home.text.indexOf('id="attention"')))
		expect(section).toMatch(/href="\/(applications|candidates|inbox)\//)
		expect(section).not.toMatch(/get_[a-z_]+|list_[a-z_]+/) // tool names are for assistants
	})
})
