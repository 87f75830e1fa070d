/**
 * The portal's pages as a matrix (issue 19): every role × every recruiter page × a record in reach,
 * out of reach (another workspace's) and absent — 200, 403 or 404 as the role's tools would answer,
 * never a 500, never a candidate's contact details for a role that may not see them. And every form
 * of every signed-in page refuses a post without the session's CSRF token, found from the route
 * table (a new form is covered the day it is added).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { PersonRole } from '../core/actor.ts'
import { runCommand } from '../core/cli.ts'
import type { AppDeps } from '../core/deps.ts'
import { declaredAuth } from '../core/http/auth.ts'
import { jobTeam } from '../modules/jobs/table.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from './helpers.ts'
import { portalApp, signedIn, type PortalClient } from './portal.ts'

setDefaultTimeout(120_000)

let deps: AppDeps
let home: TestWorkspace
let other: TestWorkspace
/** Records of the home workspace (`in`), of another workspace (`out`), and made-up ids (`absent`). */
const ids: Record<'in' | 'out' | 'absent', { job: string; candidate: string; application: string }> = {} as never
/** A job on the hiring manager's team and an application on it; a job not on the team. */
let team: { job: string; candidate: string; application: string; email: string }

async function sample(ws: TestWorkspace, where = sql`true`) {
	const [row] = await deps.database.rows<{ job: string; candidate: string; application: string }>(
		sql`select a.job_id as job, a.candidate_id as candidate, a.id as application from applications a where a.workspace_id = ${ws.id} and ${where} order by a.id limit 1`,
	)
	return row!
}

beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	home = await newWorkspace(deps)
	other = await newWorkspace(deps)
	await runCommand(deps, 'seed', { workspace: home.slug })
	await runCommand(deps, 'seed', { workspace: other.slug })
	ids.in = await sample(home)
	ids.out = await sample(other)
	ids.absent = { job: 'job_doesnotexist0000000', candidate: 'cand_doesnotexist000000', application: 'app_doesnotexist0000000' }
}, 120_000)

type Expect = 200 | 403 | 404
const ROLES: readonly PersonRole[] = ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer']

/** What each role gets on each page for a record in reach (a hiring manager: on their team). */
const PAGES: {
	name: string
	path: (r: { job: string; candidate: string; application: string }) => string
	record: boolean
	allowed: Partial<Record<PersonRole, Expect>>
}[] = [
	{ name: 'home', path: () => '/portal', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 200 } },
	{ name: 'search', path: () => '/search?q=developer', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 200 } },
	{ name: 'jobs', path: () => '/jobs', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 200 } },
	{ name: 'new job', path: () => '/jobs/new', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 } },
	{ name: 'job', path: (r) => `/jobs/${r.job}`, record: true, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 200 } },
	{ name: 'candidates', path: () => '/candidates', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 } },
	{
		name: 'candidate',
		path: (r) => `/candidates/${r.candidate}`,
		record: true,
		allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 },
	},
	{
		name: 'application',
		path: (r) => `/applications/${r.application}`,
		record: true,
		allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 },
	},
	{
		name: 'scorecard form',
		path: (r) => `/applications/${r.application}/scorecard`,
		record: true,
		allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 },
	},
	{
		name: 'job scorecard attributes',
		path: (r) => `/jobs/${r.job}/scorecard`,
		record: true,
		allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 },
	},
	{
		name: 'schedule interview',
		path: (r) => `/applications/${r.application}/schedule`,
		record: true,
		allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 },
	},
	{ name: 'calendar', path: () => '/calendar', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 } },
	{ name: 'inbox', path: () => '/inbox', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 403, viewer: 403 } },
	{ name: 'activity', path: () => '/activity', record: false, allowed: { owner: 200, admin: 200, recruiter: 403, hiring_manager: 403, viewer: 403 } },
	{ name: 'audit', path: () => '/audit', record: false, allowed: { owner: 200, admin: 200, recruiter: 403, hiring_manager: 403, viewer: 403 } },
	{ name: 'eeo', path: () => '/eeo', record: false, allowed: { owner: 200, admin: 403, recruiter: 403, hiring_manager: 403, viewer: 403 } },
	{ name: 'analytics', path: () => '/analytics', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 } },
	{ name: 'interviews', path: () => '/interviews', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 200, viewer: 403 } },
	{ name: 'vendors', path: () => '/vendors', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 403, viewer: 403 } },
	{ name: 'bench', path: () => '/bench', record: false, allowed: { owner: 200, admin: 200, recruiter: 200, hiring_manager: 403, viewer: 403 } },
	{ name: 'single sign-on', path: () => '/settings/sso', record: false, allowed: { owner: 200, admin: 403, recruiter: 403, hiring_manager: 403, viewer: 403 } },
	{ name: 'webhooks', path: () => '/settings/webhooks', record: false, allowed: { owner: 200, admin: 200, recruiter: 403, hiring_manager: 403, viewer: 403 } },
	{ name: 'privacy', path: () => '/settings/privacy', record: false, allowed: { owner: 200, admin: 403, recruiter: 403, hiring_manager: 403, viewer: 403 } },
	{
		name: 'privacy requests',
		path: () => '/privacy-requests',
		record: false,
		allowed: { owner: 200, admin: 403, recruiter: 403, hiring_manager: 403, viewer: 403 },
	},
	{
		name: 'candidate export',
		path: (r) => `/candidates/${r.candidate}/export.zip`,
		record: true,
		allowed: { owner: 200, admin: 200, recruiter: 403, hiring_manager: 403, viewer: 403 },
	},
	{
		name: 'candidate erase',
		path: (r) => `/candidates/${r.candidate}/erase`,
		record: true,
		allowed: { owner: 200, admin: 403, recruiter: 403, hiring_manager: 403, viewer: 403 },
	},
]

async function client(role: PersonRole): Promise<PortalClient> {
	const person = await newPerson(home, role, {}, deps)
	if (role === 'hiring_manager') {
		team ??= await (async () => {
			const r = await sample(home)
			const [c] = await deps.database.rows<{ email: string }>(sql`select email from candidates where id = ${r.candidate}`)
			return { ...r, email: c!.email }
		})()
		await deps.db.insert(jobTeam).values({ jobId: team.job, userId: person.userId, teamRole: 'hiring_manager' }).onConflictDoNothing()
	}
	return signedIn(person)
}

describe('every role × every page × in reach, out of reach, absent', () => {
	for (const role of ROLES) {
		test(role, async () => {
			const c = await client(role)
			const seen: string[] = []
			for (const p of PAGES) {
				const allowed = p.allowed[role] ?? 404
				const inReach = await c.get(p.path(ids.in))
				seen.push(`${p.name}: ${inReach.status}`)
				expect({ page: p.name, status: inReach.status }).toEqual({ page: p.name, status: allowed })
				if (role === 'hiring_manager' || role === 'viewer') {
					// Never a candidate's e-mail address on a page for a role without contact details.
					const [cand] = await deps.database.rows<{ email: string }>(sql`select email from candidates where id = ${ids.in.candidate}`)
					// Read without the break points addresses carry (<wbr>), so an address shown in pieces is still found.
					const read = inReach.text.replaceAll('<wbr>', '')
					expect(read).not.toContain(cand!.email)
					if (team) expect(read).not.toContain(team.email)
				}
				if (!p.record) continue
				for (const where of ['out', 'absent'] as const) {
					const res = await c.get(p.path(ids[where]))
					// Out of reach is answered exactly like absent: 404 (or the role's 403 for the whole page).
					expect({ page: p.name, where, status: res.status }).toEqual({ page: p.name, where, status: allowed === 403 ? 403 : 404 })
				}
			}
			expect(seen.some((s) => s.endsWith(': 500'))).toBe(false)
		})
	}

	test('a hiring manager: the applications of jobs off their team are out of reach (404), never shown', async () => {
		const c = await client('hiring_manager')
		const off = await sample(home, sql`a.job_id <> ${team.job} and a.candidate_id not in (select candidate_id from applications where job_id = ${team.job})`)
		for (const path of [`/jobs/${off.job}`, `/candidates/${off.candidate}`, `/applications/${off.application}`])
			expect({ path, status: (await c.get(path)).status }).toEqual({ path, status: 404 })
		expect((await c.get(`/applications/${team.application}`)).status).toBe(200)
	})
})

describe('every form of the signed-in portal refuses a post without the CSRF token', () => {
	test('found from the route table: 403 without the token, whatever the form', async () => {
		const { app } = await portalApp()
		const forms = (app.routes as { method: string; path: string; hooks: unknown }[]).filter((r) => {
			const spec = declaredAuth(r.hooks)
			return r.method === 'POST' && (spec === 'signed-in' || (typeof spec === 'object' && spec !== null && 'permission' in spec))
		})
		expect(forms.length).toBeGreaterThan(20)
		const owner = await client('owner')
		const refused: string[] = []
		for (const f of forms) {
			// Parameters that name a choice get a valid one, so the token check is what answers.
			const path = f.path.replace(/:[A-Za-z]+/g, (name) =>
				name === ':id' || name === ':jobId'
					? ids.in.job
					: name === ':candidateId'
						? ids.in.candidate
						: name === ':applicationId'
							? ids.in.application
							: name === ':state'
								? 'off'
								: 'x',
			)
			const res = await owner.request('POST', path, { form: { anything: '1' } })
			if (res.status !== 403) refused.push(`${f.path}: ${res.status}`)
		}
		expect(refused).toEqual([])
	})
})
