/**
 * The role × tool matrix for the job tools: for each role (and for people granted the
 * actively-hiring permission), which tools are listed and what each call returns or refuses;
 * hiring managers' reach; publishing to the careers site; and create_job's limits.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { jobTeam } from '../../modules/jobs/table.ts'
import { personActor } from '../../modules/auth/index.ts'
import { call, newPersonWithToken, newWorkspace, testApp, testDeps, type TestWorkspace } from '../helpers.ts'
import { callTool, listTools, textOf, tryTool } from './rpc.ts'

const JOB_TOOLS = ['list_jobs', 'get_job', 'create_job', 'set_job_status', 'set_job_actively_hiring'] as const
type JobTool = (typeof JOB_TOOLS)[number]

const SUBJECTS = {
	owner: { role: 'owner', grants: [] as string[] },
	admin: { role: 'admin', grants: [] },
	recruiter: { role: 'recruiter', grants: [] },
	hiring_manager: { role: 'hiring_manager', grants: [] },
	viewer: { role: 'viewer', grants: [] },
	'recruiter + actively hiring': { role: 'recruiter', grants: ['jobs:actively_hiring'] },
	'hiring manager + actively hiring': { role: 'hiring_manager', grants: ['jobs:actively_hiring'] },
	'viewer + actively hiring': { role: 'viewer', grants: ['jobs:actively_hiring'] },
} as const
type Subject = keyof typeof SUBJECTS

/** The job tools each subject is shown (and may call). */
const LISTED: Record<Subject, JobTool[]> = {
	owner: [...JOB_TOOLS],
	admin: [...JOB_TOOLS],
	recruiter: ['list_jobs', 'get_job', 'create_job'],
	hiring_manager: ['list_jobs', 'get_job', 'create_job'],
	viewer: ['list_jobs', 'get_job'],
	'recruiter + actively hiring': ['list_jobs', 'get_job', 'create_job', 'set_job_actively_hiring'],
	'hiring manager + actively hiring': ['list_jobs', 'get_job', 'create_job', 'set_job_actively_hiring'],
	'viewer + actively hiring': ['list_jobs', 'get_job', 'set_job_actively_hiring'],
}
const isHiringManager = (s: Subject) => SUBJECTS[s].role === 'hiring_manager'

interface World {
	ws: TestWorkspace
	tokens: Record<Subject, string>
	userIds: Record<Subject, string>
	/** On the hiring team of the hiring managers. */
	teamJob: string
	/** No hiring manager is on its team. */
	otherJob: string
}

let world: World

beforeAll(async () => {
	await testApp()
	const ws = await newWorkspace()
	const deps = await testDeps()
	const people = await Promise.all(
		Object.entries(SUBJECTS).map(async ([name, s]) => [name, await newPersonWithToken(ws, s.role, { grants: [...s.grants] })] as const),
	)
	const tokens = Object.fromEntries(people.map(([n, p]) => [n, p.token])) as Record<Subject, string>
	const userIds = Object.fromEntries(await Promise.all(people.map(async ([n, p]) => [n, (await personActor(deps, ws.slug, p.email)).userId!]))) as Record<
		Subject,
		string
	>
	const teamJob = (await callTool(tokens.owner, 'create_job', { title: 'Team Job' })).structuredContent.job.id
	const otherJob = (await callTool(tokens.owner, 'create_job', { title: 'Other Job' })).structuredContent.job.id
	for (const s of Object.keys(SUBJECTS) as Subject[])
		if (isHiringManager(s)) await deps.db.insert(jobTeam).values({ jobId: teamJob, userId: userIds[s], teamRole: 'hiring_manager' })
	world = { ws, tokens, userIds, teamJob, otherJob }
}, 60_000)

const subjects = Object.keys(SUBJECTS) as Subject[]

describe('what each role is shown', () => {
	test.each(subjects)('%s', async (subject) => {
		const listed = (await listTools(world.tokens[subject])).map((t) => t.name).filter((n: string) => (JOB_TOOLS as readonly string[]).includes(n))
		expect(listed.sort()).toEqual([...LISTED[subject]].sort())
	})
})

describe('what each role gets from each tool', () => {
	test.each(subjects)('%s', async (subject) => {
		const token = world.tokens[subject]
		const allowed = (tool: JobTool) => LISTED[subject].includes(tool)
		const hm = isHiringManager(subject)
		const notListed = async (tool: JobTool, args: Record<string, unknown>) => {
			const { status, result, error } = await tryTool(token, tool, args)
			// Not listed = unknown to this person: a protocol error, exactly like a tool that does not exist.
			expect({ subject, tool, status, result }).toEqual({ subject, tool, status: 200, result: undefined })
			expect(error).toEqual({ code: -32602, message: `Tool ${tool} not found` })
		}

		// list_jobs: hiring managers see only the jobs on whose hiring team they are.
		const listed = (await callTool(token, 'list_jobs', { query: 'Job' })).structuredContent.jobs.map((j: { title: { text: string } }) => j.title.text)
		expect({ subject, listed: listed.filter((t: string) => t === 'Team Job' || t === 'Other Job').sort() }).toEqual({
			subject,
			listed: hm ? ['Team Job'] : ['Other Job', 'Team Job'],
		})

		// get_job: a job out of reach is answered exactly like an absent one.
		const team = await callTool(token, 'get_job', { jobId: world.teamJob })
		expect(team.isError).toBeFalsy()
		expect(team.structuredContent.job.hiringTeam.map((m: { userId: string }) => m.userId)).toContain(world.userIds.owner)
		const other = await callTool(token, 'get_job', { jobId: world.otherJob })
		const absent = await callTool(token, 'get_job', { jobId: 'job_doesnotexist0000' })
		expect(absent.isError).toBe(true)
		if (hm) expect(other).toEqual(absent)
		else expect(other.structuredContent.job.title.text).toBe('Other Job')

		// create_job: a Draft the creator can see (hiring managers join its team).
		if (allowed('create_job')) {
			const created = await callTool(token, 'create_job', { title: `Created by ${subject}` })
			expect(created.isError).toBeFalsy()
			expect(created.structuredContent.job).toMatchObject({ status: 'Draft', url: null, activelyHiring: false })
			expect(created.structuredContent.job.hiringTeam).toEqual([
				{
					userId: world.userIds[subject],
					// The creator's own name, read by the creator: their own words.
					name: expect.objectContaining({ untrusted: true, writtenBy: 'self' }),
					teamRole: hm ? 'hiring_manager' : 'recruiter',
				},
			])
			// The query matches as search does (similar titles too, as "Created by owner" is): this one is among them, once.
			const mine = (await callTool(token, 'list_jobs', { query: `Created by ${subject}` })).structuredContent.jobs
			expect(mine.filter((j: { title: { text: string } }) => j.title.text === `Created by ${subject}`)).toHaveLength(1)
			// activelyHiring at creation needs its own permission.
			const flagged = await callTool(token, 'create_job', { title: `Flagged by ${subject}`, activelyHiring: true })
			if (allowed('set_job_actively_hiring')) expect(flagged.structuredContent.job.activelyHiring).toBe(true)
			else {
				expect(flagged.isError).toBe(true)
				expect(textOf(flagged)).toMatch(/actively-hiring permission/)
			}
		} else await notListed('create_job', { title: 'Not allowed' })

		// set_job_status: owners and admins only.
		if (allowed('set_job_status')) {
			const drafted = await callTool(token, 'set_job_status', { jobId: world.otherJob, status: 'Draft' })
			expect(drafted.structuredContent.job.status).toBe('Draft')
		} else await notListed('set_job_status', { jobId: world.teamJob, status: 'Open' })

		// set_job_actively_hiring: its own permission, within reach.
		if (allowed('set_job_actively_hiring')) {
			const on = await callTool(token, 'set_job_actively_hiring', { jobId: world.teamJob, activelyHiring: true })
			expect(on.structuredContent.job.activelyHiring).toBe(true)
			const off = await callTool(token, 'set_job_actively_hiring', { jobId: world.teamJob, activelyHiring: false })
			expect(off.structuredContent.job.activelyHiring).toBe(false)
			const outOfReach = await callTool(token, 'set_job_actively_hiring', { jobId: world.otherJob, activelyHiring: true })
			if (hm) expect(outOfReach).toEqual(await callTool(token, 'set_job_actively_hiring', { jobId: 'job_doesnotexist0000', activelyHiring: true }))
			else expect(outOfReach.isError).toBeFalsy()
		} else await notListed('set_job_actively_hiring', { jobId: world.teamJob, activelyHiring: true })
	})

	test('an owner setting the status of a job out of any reach (another workspace) gets "not found"', async () => {
		const elsewhere = await newWorkspace()
		const stranger = await newPersonWithToken(elsewhere, 'owner')
		const result = await callTool(stranger.token, 'set_job_status', { jobId: world.teamJob, status: 'Open' })
		expect(result.isError).toBe(true)
		expect(textOf(result)).toMatch(/^No job with this id/)
		expect((await callTool(world.tokens.owner, 'get_job', { jobId: world.teamJob })).structuredContent.job.status).toBe('Draft')
	})
})

describe('set_job_status and the careers site', () => {
	test('opening a job puts it live on the careers site; closing takes it down; Draft is never public', async () => {
		const ws = await newWorkspace()
		const admin = await newPersonWithToken(ws, 'admin')
		const title = `Careers Bound Engineer ${ws.slug}`
		const job = (await callTool(admin.token, 'create_job', { title, pitch: 'Build things.' })).structuredContent.job
		const listPage = async () => (await call('GET', `/careers/${ws.slug}`)).text
		expect(await listPage()).not.toContain(title)

		const opened = (await callTool(admin.token, 'set_job_status', { jobId: job.id, status: 'Open' })).structuredContent.job
		expect(opened.status).toBe('Open')
		expect(opened.publishedAt).toBeString()
		// The address an assistant is given holds no words of the title (someone else wrote them): the
		// job's id, which the careers site answers with a permanent redirect to the job's own page.
		expect(opened.url).toBe(`http://localhost:3000/careers/${ws.slug}/jobs/${job.id}`)
		const byId = await call('GET', new URL(opened.url).pathname)
		expect(byId.status).toBe(301)
		const path = new URL(byId.headers.get('location')!).pathname
		expect(path).toMatch(new RegExp(`^/careers/${ws.slug}/jobs/careers-bound-engineer-`))
		expect(await listPage()).toContain(title)
		const live = await call('GET', path)
		expect(live.status).toBe(200)
		expect(live.text).toContain(title)
		// Setting the same status again changes nothing.
		const again = (await callTool(admin.token, 'set_job_status', { jobId: job.id, status: 'Open' })).structuredContent.job
		expect(again.publishedAt).toBe(opened.publishedAt)

		const closed = (await callTool(admin.token, 'set_job_status', { jobId: job.id, status: 'Closed' })).structuredContent.job
		expect(closed).toMatchObject({ status: 'Closed', url: null, closedAt: expect.any(String) })
		expect(await listPage()).not.toContain(title)
		const gone = await call('GET', path)
		expect(gone.status).toBe(410)
		expect(gone.text).not.toContain('Build things.')

		const reopened = (await callTool(admin.token, 'set_job_status', { jobId: job.id, status: 'Open' })).structuredContent.job
		expect(reopened).toMatchObject({ status: 'Open', url: opened.url, closedAt: null })
		expect((await call('GET', path)).status).toBe(200)

		await callTool(admin.token, 'set_job_status', { jobId: job.id, status: 'Draft' })
		expect((await call('GET', path)).status).toBe(404)
		// A Draft job's id leads nowhere either (its address would name its title).
		expect((await call('GET', new URL(opened.url).pathname)).status).toBe(404)
		expect((await call('GET', `/careers/${ws.slug}/jobs/job_nosuchjob`)).status).toBe(404)
		expect(await listPage()).not.toContain(title)
	})
})

describe('create_job limits', () => {
	const s = (n: number, c = 'a') => c.repeat(n)
	const items = (n: number, len = 10) => Array.from({ length: n }, (_, i) => `${i}`.padEnd(len, 'x'))
	const accepted: [string, Record<string, unknown>][] = [
		['title at 200', { title: s(200) }],
		['title at 200 code points (emoji)', { title: s(200, '😀') }],
		['department at 120', { department: s(120) }],
		['location at 200', { location: s(200) }],
		['employment at 60', { employment: s(60) }],
		['pitch at 600', { pitch: s(600) }],
		['description at 20000', { description: s(20000) }],
		['40 requirements of 300', { requirements: items(40, 300) }],
		['40 niceToHave of 1', { niceToHave: items(40, 1).map((x) => x.slice(0, 1)) }],
		['salaries 0 and equal', { salaryMin: 0, salaryMax: 0 }],
		['salary min below max', { salaryMin: 90000, salaryMax: 120000 }],
		['contractType W2', { contractType: 'W2' }],
		['contractType C2C', { contractType: 'C2C' }],
		['contractType Fulltime', { contractType: 'Fulltime' }],
	]
	const refused: [string, Record<string, unknown>, RegExp][] = [
		['no title', { title: undefined }, /title.*required/],
		['empty title', { title: '' }, /title.*must not be empty/],
		['blank title', { title: '   ' }, /title.*blank/],
		['title over 200', { title: s(201) }, /title.*at most 200/],
		['department over 120', { department: s(121) }, /department.*at most 120/],
		['location over 200', { location: s(201) }, /location.*at most 200/],
		['employment over 60', { employment: s(61) }, /employment.*at most 60/],
		['pitch over 600', { pitch: s(601) }, /pitch.*at most 600/],
		['description over 20000', { description: s(20001) }, /description.*at most 20000/],
		['41 requirements', { requirements: items(41) }, /requirements.*at most 40 items/],
		['41 niceToHave', { niceToHave: items(41) }, /niceToHave.*at most 40 items/],
		['empty requirement', { requirements: ['ok', ''] }, /requirements\[1\].*must not be empty/],
		['requirement over 300', { requirements: [s(301)] }, /requirements\[0\].*at most 300/],
		['niceToHave item over 300', { niceToHave: [s(301)] }, /niceToHave\[0\].*at most 300/],
		['negative salaryMin', { salaryMin: -1 }, /salaryMin.*from 0 to 2147483647/],
		['negative salaryMax', { salaryMax: -5 }, /salaryMax.*from 0 to 2147483647/],
		['salary over what is stored', { salaryMax: 2 ** 31 }, /salaryMax.*from 0 to 2147483647/],
		['fractional salary', { salaryMin: 10.5 }, /salaryMin.*whole number/],
		['salaryMin above salaryMax', { salaryMin: 200, salaryMax: 100 }, /salaryMin.*not be greater than salaryMax/],
		['contractType W2 / C2C', { contractType: 'W2 / C2C' }, /contractType.*one of: W2, C2C, Fulltime/],
		['contractType lower case', { contractType: 'w2' }, /contractType.*one of/],
		['status given', { status: 'Open' }, /unknown property "status"/],
		['NUL in title', { title: 'a\u0000b' }, /title.*NUL/],
	]

	test.each(accepted)('accepts %s (as a Draft)', async (_name, args) => {
		const result = await callTool(world.tokens.recruiter, 'create_job', { title: 'Limits', ...args })
		expect(result.isError).toBeFalsy()
		expect(result.structuredContent.job.status).toBe('Draft')
		if (typeof args.title === 'string') expect(result.structuredContent.job.title.text).toBe(args.title)
		if (args.requirements) expect(result.structuredContent.job.requirements.map((r: { text: string }) => r.text)).toEqual(args.requirements)
		if (args.contractType) expect(result.structuredContent.job.contractType).toBe(args.contractType)
	})

	test.each(refused)('refuses %s', async (_name, args, message) => {
		const { title, ...rest } = { title: 'Limits', ...args }
		const result = await callTool(world.tokens.recruiter, 'create_job', title === undefined ? rest : { title, ...rest })
		expect(result.isError).toBe(true)
		expect(textOf(result)).toMatch(message)
	})
})
