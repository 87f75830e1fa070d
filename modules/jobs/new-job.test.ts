/**
 * The New job form (`/jobs/new`): create_job's fields, limits and rules, a Draft on success (with a
 * notice on the new job's page), and on refusal every problem on its field with every value kept.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newPersonWithToken, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { jobs, jobTeam } from './table.ts'

setDefaultTimeout(30_000)

let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
}, 30_000)

const jobsNamed = (title: string) =>
	deps.db
		.select()
		.from(jobs)
		.where(and(eq(jobs.workspaceId, ws.id), eq(jobs.title, title)))
/** The message shown under a field (its `-error` element). */
const fieldError = (text: string, field: string) => text.match(new RegExp(`id="${field}-error">([^<]*)<`))?.[1]

describe('creating a job with the New job form', () => {
	test('a recruiter creates a Draft with every field; the job page says so; logged with the portal session', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const page = await signedIn(person)
		expect((await page.get('/jobs')).text).toContain('<a class="button" href="/jobs/new">New job</a>')
		const form = await page.get('/jobs/new')
		expect(form.text).toContain('<h1>New job</h1>')
		// Without the actively-hiring permission the form does not offer the flag.
		expect(form.text).not.toContain('name="activelyHiring"')
		const created = await page.submit('/jobs/new', {
			title: '  Senior Kotlin Engineer ',
			department: 'Mobile',
			location: 'Austin, TX',
			employment: '12-month contract',
			contractType: 'C2C',
			salaryMin: '$95,000',
			salaryMax: '120 000',
			pitch: 'Ship the banking app.',
			description: '<h2>About</h2><p>Build <b>things</b>.</p><script>alert(1)</script><img src=x onerror=alert(2)>',
			requirements: 'Kotlin\n\n  Coroutines  \r\nAndroid SDK\n',
			niceToHave: 'Jetpack Compose',
		})
		const id = created.redirectedTo!.match(/^\/jobs\/(job_[a-z0-9]+)\?done=created#done$/)![1]!
		expect(created.status).toBe(200)
		expect(created.text).toContain('The job was created as a Draft: nobody outside sees it until it is published.')
		// The person may be the one who publishes it: nobody is told an owner or admin will.
		expect(created.text).not.toContain('An owner or admin publishes it')
		expect(created.text).toContain('<h1>Senior Kotlin Engineer</h1>')
		const [row] = await deps.db.select().from(jobs).where(eq(jobs.id, id))
		expect(row).toMatchObject({
			title: 'Senior Kotlin Engineer',
			status: 'Draft',
			department: 'Mobile',
			location: 'Austin, TX',
			employment: '12-month contract',
			contractType: 'C2C',
			salaryMin: 95000,
			salaryMax: 120000,
			summary: 'Ship the banking app.',
			mustHave: ['Kotlin', 'Coroutines', 'Android SDK'],
			niceToHave: ['Jetpack Compose'],
			activelyHiring: false,
		})
		// The description went through the tool's sanitiser; the page shows its text, never markup.
		expect(row!.description).toBe('<h2>About</h2><p>Build <b>things</b>.</p>')
		expect(created.text).not.toContain('<script>alert')
		expect(created.text).not.toContain('onerror')
		expect(created.text).toContain('Build things.')
		expect(await deps.db.select().from(jobTeam).where(eq(jobTeam.jobId, id))).toEqual([
			expect.objectContaining({ userId: person.userId, teamRole: 'recruiter' }),
		])
		const log = await deps.db.select().from(activity).where(eq(activity.targetId, id))
		expect(log.map((l) => [l.action, l.credentialKind, l.actorUserId])).toEqual([['job.created', 'session', person.userId]])
	})

	test('a hiring manager creates a job and, on its team, opens it; the actively-hiring flag needs its permission', async () => {
		const manager = await signedIn(await newPerson(ws, 'hiring_manager', {}, deps))
		await manager.get('/jobs/new')
		const before = (await jobsNamed('Flagged Role')).length
		// The flag is not on the form for them; posted anyway, it is refused like the tool refuses it.
		expect((await manager.post('/jobs/new', { title: 'Flagged Role', activelyHiring: 'on' })).status).toBe(403)
		expect((await jobsNamed('Flagged Role')).length).toBe(before)
		const created = await manager.submit('/jobs/new', { title: 'Manager Role' })
		expect(created.status).toBe(200)
		expect(created.text).toContain('<h1>Manager Role</h1>')

		const owner = await signedIn(await newPerson(ws, 'owner', {}, deps))
		const form = await owner.get('/jobs/new')
		expect(form.text).toContain('name="activelyHiring"')
		const flagged = await owner.submit('/jobs/new', { title: 'Owner Flagged Role', activelyHiring: 'on' })
		expect(flagged.text).toContain('aria-pressed="true">Actively hiring</button>')
		expect((await jobsNamed('Owner Flagged Role'))[0]!.activelyHiring).toBe(true)
	})

	test('bad input: 422, an error summary, each message on its field, every value kept, nothing created', async () => {
		const page = await signedIn(await newPerson(ws, 'admin', {}, deps))
		await page.get('/jobs/new')
		const values = {
			title: '   ',
			department: 'D'.repeat(121),
			location: 'Dallas <TX> & "Remote"',
			salaryMin: 'about 90k',
			salaryMax: '3000000000',
			description: 'Kept <b>as typed</b>',
			requirements: `Java\n\n${'R'.repeat(301)}`,
			niceToHave: 'Ok\u0007bell',
			contractType: 'Freelance',
			activelyHiring: 'on',
		}
		const refused = await page.post('/jobs/new', values)
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('<title>Error: New job · Benchline</title>')
		expect(refused.text).toContain('There is a problem')
		expect(fieldError(refused.text, 'title')).toBe('Enter a job title')
		expect(fieldError(refused.text, 'department')).toBe('Department must be at most 120 characters (got 121)')
		expect(fieldError(refused.text, 'salaryMin')).toBe('Lowest salary must be a whole number, like 95000')
		expect(fieldError(refused.text, 'requirements')).toBe('Must-haves, line 3, must be at most 300 characters (got 301)')
		expect(fieldError(refused.text, 'niceToHave')).toBe('Nice-to-haves, line 1, contains a control character')
		expect(fieldError(refused.text, 'contractType')).toBe('Contract type must be one of: W2, C2C, Fulltime')
		// Each summary entry links to its field.
		for (const field of ['title', 'department', 'salaryMin', 'requirements', 'niceToHave', 'contractType'])
			expect(refused.text).toContain(`<li><a href="#${field}">`)
		// Every value comes back as typed (escaped).
		expect(refused.text).toContain(`value="${'D'.repeat(121)}"`)
		expect(refused.text).toContain('value="Dallas &lt;TX&gt; &amp; &quot;Remote&quot;"')
		expect(refused.text).toContain('value="about 90k"')
		expect(refused.text).toContain('value="3000000000"')
		expect(refused.text).toContain('>Kept &lt;b&gt;as typed&lt;/b&gt;</textarea>')
		expect(refused.text).toContain(`>Java\n\n${'R'.repeat(301)}</textarea>`)
		expect(refused.text).toMatch(/id="activelyHiring-0" name="activelyHiring" value="on" checked/)
		expect((await deps.db.select().from(jobs).where(eq(jobs.workspaceId, ws.id))).filter((j) => j.location === values.location)).toEqual([])
	})

	test('the service’s own rules come back on their fields too (lowest salary above the highest)', async () => {
		const page = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await page.get('/jobs/new')
		const refused = await page.post('/jobs/new', { title: 'Upside Down Pay', salaryMin: '150000', salaryMax: '90000' })
		expect(refused.status).toBe(422)
		expect(fieldError(refused.text, 'salaryMin')).toBe('Lowest salary must not be greater than highest salary')
		expect(refused.text).toContain('value="Upside Down Pay"')
		expect(refused.text).toContain('value="150000"')
		expect(await jobsNamed('Upside Down Pay')).toEqual([])
	})

	test('a salary larger than the database holds is refused with the limit, never a 500', async () => {
		const page = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await page.get('/jobs/new')
		const refused = await page.post('/jobs/new', { title: 'Huge Pay', salaryMax: '3000000000' })
		expect(refused.status).toBe(422)
		expect(fieldError(refused.text, 'salaryMax')).toBe('Highest salary must be from 0 to 2147483647')
		expect(refused.text).toContain('value="3000000000"')
		expect(await jobsNamed('Huge Pay')).toEqual([])
		// The tool says the same: the limit is in its declared schema (the form checks against the same one).
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const tool = await callTool(token, 'create_job', { title: 'Huge Pay', salaryMin: 3_000_000_000 })
		expect(tool.isError).toBe(true)
		expect(JSON.stringify(tool.content)).toContain('salaryMin: must be from 0 to 2147483647')
		expect(await jobsNamed('Huge Pay')).toEqual([])
	})

	test('a title or place on two lines is refused, in the form and the tool alike (as the Job Publish API does)', async () => {
		const page = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await page.get('/jobs/new')
		const refused = await page.post('/jobs/new', { title: 'Java Developer\r\nBcc: someone@example.test', location: 'Austin, TX' })
		expect(refused.status).toBe(422)
		expect(fieldError(refused.text, 'title')).toContain('must be one line')
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const tool = await callTool(token, 'create_job', { title: 'Data Engineer', location: 'Austin,\nTX', requirements: ['Spark', 'Kafka\tStreams'] })
		expect(tool.isError).toBe(true)
		// Refused by its declared schema (the pattern a client reads), in the service's words.
		expect(JSON.stringify(tool.content)).toContain('location: must be one line')
		expect(JSON.stringify(tool.content)).toContain('requirements[1]: must be one line')
		expect([...(await jobsNamed('Data Engineer')), ...(await jobsNamed('Java Developer\r\nBcc: someone@example.test'))]).toEqual([])
	})

	test('a description whose stored form is over 20,000 characters is refused, in the form and the tool alike', async () => {
		const page = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await page.get('/jobs/new')
		const refused = await page.post('/jobs/new', { title: 'R and D Lead', description: 'R&D '.repeat(5000) })
		expect(refused.status).toBe(422)
		expect(fieldError(refused.text, 'description')).toContain('as stored (got 40000)')
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const tool = await callTool(token, 'create_job', { title: 'R and D Lead', description: 'R&D '.repeat(5000) })
		expect(tool.isError).toBe(true)
		expect(JSON.stringify(tool.content)).toContain('description must be at most 20000 characters as stored')
		expect(await jobsNamed('R and D Lead')).toEqual([])
	})

	test('blank requirements or department are refused by the tool; a requirement given twice is kept once', async () => {
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const blank = await callTool(token, 'create_job', {
			title: 'Blank Items',
			requirements: ['Java', 'Java', ' '],
			niceToHave: ['\u200b'],
			department: '\u200b',
		})
		expect(blank.isError).toBe(true)
		for (const field of ['requirements[2]', 'niceToHave[0]', 'department']) expect(JSON.stringify(blank.content)).toContain(`${field}: must not be blank`)
		expect(await jobsNamed('Blank Items')).toEqual([])
		const twice = await callTool(token, 'create_job', { title: 'Twice Items', requirements: ['Java', 'Java', 'SQL'], niceToHave: ['Go', 'Go'] })
		expect(twice.isError).toBeFalsy()
		const [row] = await jobsNamed('Twice Items')
		expect([row!.mustHave, row!.niceToHave]).toEqual([['Java', 'SQL'], ['Go']])
	})

	test('more than 40 must-haves are refused with the limit', async () => {
		const page = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await page.get('/jobs/new')
		const refused = await page.post('/jobs/new', { title: 'Too Demanding', requirements: Array.from({ length: 41 }, (_, i) => `Skill ${i}`).join('\n') })
		expect(refused.status).toBe(422)
		expect(fieldError(refused.text, 'requirements')).toBe('Must-haves must have at most 40 items')
	})
})
