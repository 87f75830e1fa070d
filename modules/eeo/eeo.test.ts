/**
 * Voluntary self-identification: asked on the apply form ("I don't wish to answer" first), stored apart
 * from the application, counted for owners only with small counts hidden, and never shown anywhere
 * else: every read tool of the registry and the record pages are searched for the answers.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { sql } from 'drizzle-orm'
import { axeProblems, closeBrowser, newContext } from '../../tests/browser.ts'
import { makePdf } from '../../tests/fixtures/resumes.ts'
import {
	call,
	careersPagePath,
	newPerson,
	newPersonWithToken,
	newVendor,
	newWorkspace,
	serveApp,
	testApp,
	testDeps,
	type TestWorkspace,
} from '../../tests/helpers.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn, uniqueAddress } from '../../tests/portal.ts'
import { newApplication, newCandidate } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { createJob, setJobStatus } from '../jobs/service.ts'
import { eraseCandidate, setPrivacyRules } from '../privacy/index.ts'
import { EEO_QUESTIONS } from './questions.ts'
import { eeoReport, SMALLEST_SHOWN, suppressRow } from './report.ts'
import { eeoSelfIdentification } from './table.ts'

async function openJob(ws: TestWorkspace, owner: { email: string }, title = 'EEO Java Developer') {
	const { deps } = await testApp()
	const actor = await personActor(deps, ws.slug, owner.email)
	const created = await createJob(deps, actor, { title, requirements: ['Java'] })
	const job = await setJobStatus(deps, actor, created.id, 'Open')
	return { job, path: await careersPagePath(job.url!) }
}

/**
 * Applies through the careers form like a browser (its CSRF cookie, a real PDF résumé); `omit` leaves
 * fields out, `twice` sends fields a second time after the first.
 */
async function apply(path: string, fields: Record<string, string>, o: { omit?: string[]; twice?: [string, string][] } = {}) {
	const { app } = await portalApp()
	const address = uniqueAddress()
	const page = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': address } }))
	const html = await page.text()
	const form = new FormData()
	form.set('csrf', /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '')
	form.set('name', 'Erin Applicant')
	form.set('email', `${crypto.randomUUID()}@example.test`)
	form.set('phone', '+1 512 555 0100')
	form.set('resume', new File([Buffer.from(makePdf(['Erin Applicant', 'Java developer']))], 'erin.pdf', { type: 'application/pdf' }))
	for (const [k, v] of Object.entries(fields)) form.set(k, v)
	for (const k of o.omit ?? []) form.delete(k)
	for (const [k, v] of o.twice ?? []) form.append(k, v)
	const res = await app.handle(
		new Request(`http://localhost${path}/apply`, {
			method: 'POST',
			body: form,
			headers: { cookie: (page.headers.get('set-cookie') ?? '').split(';')[0]!, 'x-forwarded-for': address },
		}),
	)
	return { status: res.status, text: await res.text(), form: html }
}

const ANSWERS = { eeo_sex: 'female', eeo_ethnicity: 'two_or_more', eeo_veteran: 'protected_veteran', eeo_disability: 'has_disability' }
/** What must never show outside the report: the chosen answers' codes and words. */
const TELLTALES = ['two_or_more', 'protected_veteran', 'has_disability', 'Two or More Races', 'protected veteran', 'I have a disability', 'self-identification']

async function rowsOf(ws: TestWorkspace) {
	const deps = await testDeps()
	return deps.database.rows<Record<string, string>>(sql`select * from eeo_self_identification where workspace_id = ${ws.id}`)
}

describe('the apply form', () => {
	test('offers the four questions with "I don’t wish to answer" first, and keeps the answers apart from the application', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { path } = await openJob(ws, owner)
		const applied = await apply(path, ANSWERS)
		expect(applied.status).toBe(200)
		for (const q of EEO_QUESTIONS) {
			const select = new RegExp(`<select id="apply-eeo_${q.key}" name="eeo_${q.key}"><option value="declined" selected>I don’t wish to answer</option>`)
			expect(applied.form).toMatch(select)
		}
		const silent = await apply(path, {})
		expect(silent.status).toBe(200)
		const rows = await rowsOf(ws)
		expect(rows.map((r) => [r.sex, r.ethnicity, r.veteran, r.disability]).sort()).toEqual([
			['declined', 'declined', 'declined', 'declined'],
			['female', 'two_or_more', 'protected_veteran', 'has_disability'],
		])
	})

	test('an answer that is not listed is refused on its field, with what was typed kept', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { path } = await openJob(ws, owner)
		const refused = await apply(path, { ...ANSWERS, eeo_veteran: 'general' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Choose one of the listed answers for “Veteran status”')
		expect(refused.text).toContain('value="two_or_more" selected')
		expect(await rowsOf(ws)).toHaveLength(0)
	})
})

describe('the apply form lists every problem at once', () => {
	test('a wrong answer is listed with the missing name, e-mail, phone and résumé, in the form’s order', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { path } = await openJob(ws, owner)
		const refused = await apply(path, { ...ANSWERS, eeo_sex: 'other' }, { omit: ['name', 'email', 'phone', 'resume'] })
		expect(refused.status).toBe(422)
		const summary = /<div class="error-summary"[\s\S]*?<\/ul>/.exec(refused.text)![0]
		expect([...summary.matchAll(/href="#apply-([a-z_]+)"/g)].map((m) => m[1])).toEqual(['name', 'email', 'phone', 'resume', 'eeo_sex'])
		expect(await rowsOf(ws)).toHaveLength(0)
	})

	test('an answer sent twice is read as the first, as every form reads a field (it was recorded as declined)', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { path } = await openJob(ws, owner)
		const applied = await apply(path, ANSWERS, {
			twice: [
				['eeo_ethnicity', 'asian'],
				['name', 'Someone Else'],
			],
		})
		expect(applied.status).toBe(200)
		expect((await rowsOf(ws)).map((r) => r.ethnicity)).toEqual(['two_or_more'])
		const [candidate] = await (await testDeps()).database.rows<{ name: string }>(sql`select name from candidates where workspace_id = ${ws.id}`)
		expect(candidate!.name).toBe('Erin Applicant')
	})
})

afterAll(() => closeBrowser())

describe('the apply form in Chromium', () => {
	test('the questions are labelled selects under the job’s questions, axe-clean at 390 and 1280 px; the answers chosen are kept apart', async () => {
		const { url, deps } = await serveApp()
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const { path } = await openJob(ws, owner)
		const context = await newContext()
		const page = await context.newPage()
		for (const width of [1280, 390]) {
			await page.setViewportSize({ width, height: 900 })
			await page.goto(`${url}${path}`)
			expect(await axeProblems(page)).toEqual([])
			await page.locator('fieldset.eeo').screenshot({ path: `.tmp/screenshots/apply-eeo-${width}.png` })
		}
		await page.getByLabel('Full name').fill('Erin Browser')
		await page.getByLabel('E-mail').fill('erin.browser@example.com')
		await page.getByLabel('Phone').fill('+1 214 555 0142')
		await page.locator('#apply-resume').setInputFiles({ name: 'erin.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(['Erin Browser', 'Java'])) })
		await page.getByLabel('Veteran status').selectOption({ label: 'I am not a protected veteran' })
		await page.getByLabel('Race or ethnicity').selectOption({ label: 'Asian (not Hispanic or Latino)' })
		await page.getByRole('button', { name: 'Submit application' }).click()
		await page.getByRole('heading', { name: 'Thank you for applying' }).waitFor()
		await context.close()
		expect((await rowsOf(ws)).map((r) => [r.sex, r.ethnicity, r.veteran, r.disability])).toEqual([['declined', 'asian', 'not_protected_veteran', 'declined']])
	}, 120_000)
})

describe('the EEO report', () => {
	async function counted() {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { job } = await openJob(ws, owner, 'Report Developer')
		const deps = await testDeps()
		// 6 women and 2 men applied (the men's count is under 5).
		for (const sex of ['female', 'female', 'female', 'female', 'female', 'female', 'male', 'male']) {
			const candidateId = await newCandidate(ws, { resume: false })
			const applicationId = await newApplication(ws, candidateId, job.id)
			await deps.db.insert(eeoSelfIdentification).values({
				applicationId,
				workspaceId: ws.id,
				jobId: job.id,
				sex,
				ethnicity: 'declined',
				veteran: 'declined',
				disability: 'declined',
			})
		}
		return { ws, owner, job }
	}

	test('owners see counts per job and stage; a line with a count under 5 is hidden whole, total included; CSV says the same', async () => {
		const { ws, owner } = await counted()
		const client = await signedIn(owner)
		const page = await client.get('/eeo?question=sex')
		expect(page.status).toBe(200)
		const row = page.text.slice(page.text.indexOf('Report Developer'))
		// The line's total (8) is known from the pipeline: with Female shown, Male would be 8 - 6.
		for (const label of ['I don’t wish to answer', 'Female', 'Male', 'Total'])
			expect(row).toMatch(new RegExp(`data-label="${label}"[^>]*><div class="cell"><span class="meta">hidden<`))
		const csv = await client.get('/eeo/report.csv?question=sex')
		expect([...csv.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		expect(csv.text.split('\n')[1]).toMatch(/^Report Developer,job_\w+,[^,]+,hidden,hidden,hidden,hidden$/)
		expect((await client.get('/eeo?question=religion')).status).toBe(422)
		expect((await client.get('/eeo')).text).toContain(ws.slug ? 'Report Developer' : '')
	})

	test('a vendor’s job title in the CSV is text to a spreadsheet: no formula, not even where ; separates cells', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { apiKey } = await newVendor(ws)
		const deps = await testDeps()
		const titles = ["Dev;=cmd|' /C calc'!A0", ' =HYPERLINK(A1)', '\u200b@SUM(A1)']
		for (const title of titles) {
			const published = await call('POST', '/api/v1/jobs', { key: apiKey, body: { vendorJobId: crypto.randomUUID(), title } })
			expect(published.status).toBe(201)
			const [job] = await deps.database.rows<{ id: string }>(
				sql`select id from jobs where workspace_id = ${ws.id} and vendor_job_id = ${published.json.job.vendorJobId}`,
			)
			const applicationId = await newApplication(ws, await newCandidate(ws, { resume: false }), job!.id)
			await deps.db
				.insert(eeoSelfIdentification)
				.values({ applicationId, workspaceId: ws.id, jobId: job!.id, sex: 'declined', ethnicity: 'declined', veteran: 'declined', disability: 'declined' })
		}
		const lines = (await (await signedIn(owner)).get('/eeo/report.csv?question=sex')).text.trim().split('\n').slice(1).sort()
		expect(lines.map((l) => l.slice(0, l.indexOf(',job_')))).toEqual([`"Dev;=cmd|' /C calc'!A0"`, `' =HYPERLINK(A1)`, `'@SUM(A1)`])
	})

	test('a lone applicant’s answer cannot be told from which cells are hidden, on the page or in the CSV', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const deps = await testDeps()
		// The tester's three single-applicant jobs: Asian, declined and Black; a man, a woman and a declined.
		const answers = [
			['Lone Asian', 'asian', 'male'],
			['Lone Declined', 'declined', 'female'],
			['Lone Black', 'black', 'declined'],
		] as const
		for (const [title, ethnicity, sex] of answers) {
			const { job } = await openJob(ws, owner, title)
			const applicationId = await newApplication(ws, await newCandidate(ws, { resume: false }), job.id)
			await deps.db
				.insert(eeoSelfIdentification)
				.values({ applicationId, workspaceId: ws.id, jobId: job.id, sex, ethnicity, veteran: 'declined', disability: 'declined' })
		}
		const client = await signedIn(owner)
		for (const question of ['ethnicity', 'sex']) {
			const lines = (await client.get(`/eeo/report.csv?question=${question}`)).text.trim().split('\n').slice(1)
			expect(lines).toHaveLength(3)
			const cells = new Set(lines.map((line) => line.split(',').slice(3).join(',')))
			expect([...cells]).toEqual([
				Array(EEO_QUESTIONS.find((q) => q.key === question)!.options.length + 1)
					.fill('hidden')
					.join(','),
			])
			const page = (await client.get(`/eeo?question=${question}`)).text
			expect(page).not.toMatch(/<div class="cell">\d/)
		}
	})

	test('for every total, every line with a small count hides the same cells whatever the answers (property)', () => {
		// Every way of spreading `total` applicants over `width` answers.
		const spreads = (total: number, width: number): number[][] =>
			width === 1 ? [[total]] : Array.from({ length: total + 1 }, (_, first) => spreads(total - first, width - 1).map((rest) => [first, ...rest])).flat()
		for (const width of [3, 8]) {
			for (let total = 1; total <= 12; total++) {
				const patterns = new Set<string>()
				for (const counts of spreads(total, width)) {
					const shown = suppressRow(counts)
					if (counts.some((n) => n > 0 && n < SMALLEST_SHOWN)) patterns.add(shown.map((n) => (n === null ? 'hidden' : 'shown')).join())
					// A line shown is shown as it is.
					else expect(shown).toEqual(counts)
				}
				expect({ width, total, patterns: [...patterns] }).toEqual({ width, total, patterns: [Array(width).fill('hidden').join()] })
			}
		}
	})

	test('one small count hides its whole line: the line’s total, shown under another question, would give it', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const { job } = await openJob(ws, owner, 'Subtraction Developer')
		const deps = await testDeps()
		// The reviewer's numbers: 2 Asian, 5 White, 5 Black applicants; 6 women and 6 men (all shown under Sex).
		const ethnicities = ['asian', 'asian', ...Array(5).fill('white'), ...Array(5).fill('black')]
		for (const [i, ethnicity] of ethnicities.entries()) {
			const applicationId = await newApplication(ws, await newCandidate(ws, { resume: false }), job.id)
			await deps.db
				.insert(eeoSelfIdentification)
				.values({ applicationId, workspaceId: ws.id, jobId: job.id, sex: i % 2 ? 'female' : 'male', ethnicity, veteran: 'declined', disability: 'declined' })
		}
		const actor = await personActor(deps, ws.slug, owner.email)
		const [sex] = (await eeoReport(deps, actor, 'sex')).rows
		const [eth] = (await eeoReport(deps, actor, 'ethnicity')).rows
		expect(sex!.total).toBe(12)
		expect(sex!.counts).toEqual([0, 6, 6])
		expect(eth!.counts.every((n) => n === null)).toBe(true)
		expect(eth!.total).toBeNull()
	})

	test('applicants erased under a legal hold still count: 6 applied, one erased, the total stays 6', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const { job } = await openJob(ws, owner, 'Held Developer')
		const deps = await testDeps()
		const actor = await personActor(deps, ws.slug, owner.email)
		await setPrivacyRules(deps, actor, { federalContractor: true, holdYears: '2', inactiveMonths: '' })
		const candidates: string[] = []
		for (let i = 0; i < 6; i++) {
			const candidateId = await newCandidate(ws, { resume: false })
			candidates.push(candidateId)
			const applicationId = await newApplication(ws, candidateId, job.id)
			await deps.db
				.insert(eeoSelfIdentification)
				.values({ applicationId, workspaceId: ws.id, jobId: job.id, sex: 'female', ethnicity: 'white', veteran: 'declined', disability: 'declined' })
		}
		expect((await eeoReport(deps, actor, 'sex')).rows.map((r) => r.total)).toEqual([6])
		const erased = await eraseCandidate(deps, actor, candidates[0]!, 'test')
		expect(erased.heldUntil).not.toBeNull()
		const after = await eeoReport(deps, actor, 'sex')
		expect(after.rows.map((r) => [r.jobId, r.total])).toEqual([[job.id, 6]])
	})

	test('admins, recruiters, hiring managers and viewers get 403', async () => {
		const { ws } = await counted()
		for (const role of ['admin', 'recruiter', 'hiring_manager', 'viewer']) {
			const person = await newPersonWithToken(ws, role)
			const client = await signedIn(person)
			expect((await client.get('/eeo')).status).toBe(403)
			expect((await client.get('/eeo/report.csv')).status).toBe(403)
		}
	})
})

describe('EEO answers never leave the report', () => {
	test('no read tool of the registry, and no record page, shows them', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { job, path } = await openJob(ws, owner)
		expect((await apply(path, ANSWERS)).status).toBe(200)
		const deps = await testDeps()
		const [application] = await deps.database.rows<{ id: string; candidateId: string }>(
			sql`select id, candidate_id as "candidateId" from applications where job_id = ${job.id}`,
		)
		const ids: Record<string, string> = { jobId: job.id, candidateId: application!.candidateId, applicationId: application!.id }
		const shown: string[] = []
		let called = 0
		for (const tool of deps.registry.tools.filter((t) => t.readOnly)) {
			const props = (tool.params as { properties: Record<string, unknown>; required?: string[] }).properties
			const required = (tool.params as { required?: string[] }).required ?? []
			if (required.some((name) => !(name in ids))) continue
			const args = Object.fromEntries(Object.keys(props).flatMap((name) => (name in ids ? [[name, ids[name]]] : [])))
			const result = await callTool(owner.token, tool.name, args)
			called++
			shown.push(`${tool.name}: ${JSON.stringify(result)}`)
		}
		expect(called).toBeGreaterThan(10)
		const client = await signedIn(owner)
		for (const page of [`/candidates/${ids.candidateId}`, `/applications/${ids.applicationId}`, `/jobs/${job.id}`, '/candidates', '/portal'])
			shown.push(`${page}: ${(await client.get(page)).text}`)
		for (const text of shown) for (const telltale of TELLTALES) expect(text.includes(telltale) ? `${text.slice(0, 60)} shows ${telltale}` : '').toBe('')
		// The report does show them (so the telltales are the right words).
		expect((await client.get('/eeo?question=veteran')).text).toContain('protected veteran')
	})

	test('no module but eeo names its table', () => {
		const root = join(import.meta.dir, '..')
		const files: string[] = []
		const walk = (dir: string) => {
			for (const name of readdirSync(dir)) {
				const full = join(dir, name)
				if (statSync(full).isDirectory()) walk(full)
				else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) files.push(full)
			}
		}
		walk(root)
		const readers = files.filter(
			(f) => !relative(root, f).startsWith('eeo/') && /eeo_self_identification|eeoSelfIdentification|eeo\/table/.test(readFileSync(f, 'utf8')),
		)
		expect(readers).toEqual([])
	})
})
