import { afterAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { makeDocx, makePdf } from '../../tests/fixtures/resumes.ts'
import { closeBrowser, newContext } from '../../tests/browser.ts'
import { awayFromMinuteEdge, careersPagePath, newPerson, newWorkspace, serveApp, testApp, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, uniqueAddress } from '../../tests/portal.ts'
import { personActor } from '../auth/index.ts'
import { createJob, setJobStatus } from '../jobs/service.ts'
import { jobQuestions } from '../jobs/table.ts'
import { APPLICATIONS_PER_MINUTE } from './apply-routes.ts'

afterAll(() => closeBrowser())

const RESUME = [
	'Jane Applicant',
	'jane@example.com | +1 512 555 0100',
	'Senior Java engineer with 8 years of experience',
	'Skills: Java 17, SpringBoot, K8s, REST APIs',
]

async function openJob(ws: TestWorkspace, mustHave = ['Java', 'Spring Boot', 'Kubernetes', '7+ years of experience']) {
	const { deps } = await testApp()
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const created = await createJob(deps, actor, { title: 'Senior Java Developer', requirements: mustHave })
	const job = await setJobStatus(deps, actor, created.id, 'Open')
	await deps.db.insert(jobQuestions).values([
		{ id: `${job.id}_q1`, jobId: job.id, position: 1, prompt: 'Are you authorized to work in the US?', kind: 'yes_no', required: true },
		{ id: `${job.id}_q2`, jobId: job.id, position: 2, prompt: 'Years with Java?', kind: 'text', required: true },
	])
	return { job, path: await careersPagePath(job.url!), q1: `${job.id}_q1`, q2: `${job.id}_q2` }
}

/**
 * GET the job page like a browser: the CSRF cookie and the form's token. The app trusts
 * X-Forwarded-For and each visitor has an address of their own (applications are limited per address).
 */
async function formSession(path: string, address = uniqueAddress()) {
	const { app } = await portalApp()
	const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': address } }))
	const page = await res.text()
	const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!
	const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
	return { page, cookie, csrf, address }
}

async function post(path: string, fields: Record<string, string | Blob>, session?: { cookie: string; csrf: string; address?: string }) {
	const { app } = await portalApp()
	const s = session ?? (await formSession(path))
	const form = new FormData()
	form.set('csrf', s.csrf)
	for (const [k, v] of Object.entries(fields))
		if (v instanceof Blob) form.set(k, v, k === 'resume' ? ((v as File).name ?? 'resume') : undefined)
		else form.set(k, v)
	const res = await app.handle(
		new Request(`http://localhost${path}/apply`, {
			method: 'POST',
			body: form,
			headers: { cookie: s.cookie, 'x-forwarded-for': s.address ?? uniqueAddress() },
		}),
	)
	return { status: res.status, headers: res.headers, text: await res.text() }
}

const pdfFile = (lines = RESUME, name = 'jane.pdf') => new File([Buffer.from(makePdf(lines))], name, { type: 'application/pdf' })
const docxFile = (lines = RESUME, name = 'jane.docx') =>
	new File([Buffer.from(makeDocx(lines))], name, { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' })

describe('a refused application on a phone (issue 19)', () => {
	test('the problems are summarised above the job, focused, and the résumé already chosen is kept: the fixed form is sent without choosing it again', async () => {
		const { deps } = await testApp()
		const ws = await newWorkspace(deps)
		const { job, path, q1, q2 } = await openJob(ws)
		const session = await formSession(path)
		const refused = await post(
			path,
			{
				name: 'Jane Applicant',
				email: 'not an address',
				phone: '+1 512 555 0100',
				resume: pdfFile(RESUME, 'jane-cv.pdf'),
				[`answer_${q1}`]: 'yes',
				[`answer_${q2}`]: '8 years',
			},
			session,
		)
		expect(refused.status).toBe(422)
		expect(refused.text).toMatch(/<title>Error: /)
		// The summary comes before the job (not below its description), takes the focus and links to the field.
		const summary = refused.text.indexOf('class="error-summary"')
		expect(summary).toBeGreaterThan(-1)
		expect(summary).toBeLessThan(refused.text.indexOf('<article'))
		expect(refused.text.slice(summary, refused.text.indexOf('</div>', summary))).toContain('href="#apply-email"')
		expect(refused.text).toContain('data-autofocus')
		// What was typed is there, and the résumé is kept (named), not asked for again.
		expect(refused.text).toContain('value="Jane Applicant"')
		expect(refused.text).toContain('We kept “jane-cv.pdf”')
		expect(refused.text).not.toContain('please choose the file again')
		const token = /name="resume_kept" value="([^"]+)"/.exec(refused.text)![1]!
		const [kept] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from kept_resumes where workspace_id = ${ws.id}`)
		expect(kept!.n).toBe(1)
		expect(JSON.stringify(await deps.database.rows(sql`select * from kept_resumes where workspace_id = ${ws.id}`))).not.toContain(token) // only its hash

		// Another workspace's form cannot use the token; nor can a made-up one.
		const other = await newWorkspace(deps)
		const otherJob = await openJob(other)
		const stolen = await post(otherJob.path, {
			name: 'Mallory',
			email: 'm@example.com',
			phone: '+1 512 555 0101',
			resume_kept: token,
			[`answer_${otherJob.q1}`]: 'yes',
			[`answer_${otherJob.q2}`]: '1',
		})
		expect(stolen.status).toBe(422)
		expect(stolen.text).toContain('Attach your résumé')

		const sent = await post(
			path,
			{ name: 'Jane Applicant', email: 'jane@example.com', phone: '+1 512 555 0100', resume_kept: token, [`answer_${q1}`]: 'yes', [`answer_${q2}`]: '8 years' },
			session,
		)
		expect(sent.status).toBe(200)
		const [row] = await deps.database.rows<{ text: string; file: string }>(
			sql`select c.resume_text as text, c.resume_file_name as file from applications a join candidates c on c.id = a.candidate_id where a.job_id = ${job.id}`,
		)
		expect(row!.text).toContain('Senior Java engineer')
		expect(row!.file).toBe('jane-cv.pdf')
		const [left] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from kept_resumes where workspace_id = ${ws.id}`)
		expect(left!.n).toBe(0)
	})

	test('what is no text (noncharacters such as U+FFFE and U+FFFF, controls, direction overrides) goes from every text the form stores, the kept résumé’s name included', async () => {
		const { deps } = await testApp()
		const ws = await newWorkspace(deps)
		const { job, path, q1, q2 } = await openJob(ws)
		const session = await formSession(path)
		const junk = (text: string) => `\ufffe${text.replace(' ', '\uffff \u202e')}\u{10fffe}\ufdd0`
		const fields = {
			name: junk('Jane Applicant'),
			phone: '+1 512 555 0100',
			[`answer_${q1}`]: 'yes',
			[`answer_${q2}`]: junk('8 years'),
			source: junk('linkedin'),
		}
		const refused = await post(path, { ...fields, email: 'not an address', resume: pdfFile(RESUME, 'jane\ufffe-cv\uffff.pdf') }, session)
		expect(refused.status).toBe(422)
		const [kept] = await deps.database.rows<{ name: string }>(sql`select file_name as name from kept_resumes where workspace_id = ${ws.id}`)
		expect(kept!.name).toBe('jane-cv.pdf')
		const token = /name="resume_kept" value="([^"]+)"/.exec(refused.text)![1]!
		expect((await post(path, { ...fields, email: 'jane@example.com', resume_kept: token }, session)).status).toBe(200)
		const [row] = await deps.database.rows<{ name: string; file: string; source: string; answer: string }>(
			sql`select c.name, c.resume_file_name as file, a.source, q.answer from applications a join candidates c on c.id = a.candidate_id
				join application_answers q on q.application_id = a.id and q.question_id = ${q2} where a.job_id = ${job.id}`,
		)
		expect(row).toEqual({ name: 'Jane Applicant', file: 'jane-cv.pdf', source: 'linkedin', answer: '8 years' })
	})

	test('a file that is not a résumé is never kept', async () => {
		const { deps } = await testApp()
		const ws = await newWorkspace(deps)
		const { path, q1, q2 } = await openJob(ws)
		const refused = await post(path, {
			name: 'Jane',
			email: 'bad',
			phone: '+1 512 555 0100',
			resume: new File(['<html>hello</html>'], 'x.html', { type: 'text/html' }),
			[`answer_${q1}`]: 'yes',
			[`answer_${q2}`]: '8',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).not.toContain('resume_kept')
		const [kept] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from kept_resumes where workspace_id = ${ws.id}`)
		expect(kept!.n).toBe(0)
	})
})

describe('careers apply flow (in process)', () => {
	test('applying creates the candidate and the application, runs the résumé check and queues the confirmation', async () => {
		const { deps } = await testApp()
		const ws = await newWorkspace(deps)
		const { job, path, q1, q2 } = await openJob(ws)
		const session = await formSession(path)
		expect(session.page).toContain('Apply for this job')
		expect(session.page).toContain('Are you authorized to work in the US?')
		const res = await post(
			path,
			{
				name: 'Jane Applicant',
				email: 'Jane@Example.com',
				phone: '+1 512 555 0100',
				resume: pdfFile(),
				[`answer_${q1}`]: 'yes',
				[`answer_${q2}`]: '8 years',
				source: 'linkedin',
			},
			session,
		)
		expect(res.status).toBe(200)
		expect(res.text).toContain('Thank you for applying')
		const [app] = await deps.database.rows<any>(
			sql`select a.*, c.email, c.resume_text, c.resume_path, c.source as csource from applications a join candidates c on c.id = a.candidate_id where a.job_id = ${job.id}`,
		)
		expect(app.email).toBe('jane@example.com')
		expect(app.stage_key).toBe('applied')
		expect(app.source).toBe('linkedin')
		expect(app.csource).toBe('careers')
		expect(app.resume_text).toContain('SpringBoot')
		expect(app.resume_path).toMatch(/^resumes\/ws_[a-z0-9]+\/[a-z0-9]+\.pdf$/)
		expect(app.resume_score).toBe(100)
		expect(app.resume_check.items.map((i: any) => i.status)).toEqual(['met', 'met', 'met', 'met'])
		const answers = await deps.database.rows<any>(sql`select * from application_answers where application_id = ${app.id} order by question_id`)
		expect(answers.map((a) => a.answer)).toEqual(['yes', '8 years'])
		const mail = await deps.database.rows<any>(sql`select * from outbox where related_id = ${app.id}`)
		expect(mail).toHaveLength(1)
		expect(mail[0].to).toBe('jane@example.com')
		expect(mail[0].subject).toBe('We received your application: Senior Java Developer')
		const log = await deps.database.rows<any>(sql`select * from activity where target_id = ${app.id}`)
		expect(log[0].action).toBe('application.received')
		const events = await deps.database.rows<any>(sql`select * from careers_events where job_id = ${job.id} and kind = 'application'`)
		expect(events).toHaveLength(1)
	}, 30_000)

	test('a second application to the same job is told so and changes nothing; another job is the same candidate, its résumé kept with that application', async () => {
		const { deps } = await testApp()
		const ws = await newWorkspace(deps)
		const first = await openJob(ws)
		const fields = (q1: string, q2: string, resume: File) => ({
			name: 'Jane Applicant',
			email: 'jane@example.com',
			phone: '+1 512 555 0100',
			resume,
			[`answer_${q1}`]: 'no',
			[`answer_${q2}`]: '8',
		})
		expect((await post(first.path, fields(first.q1, first.q2, pdfFile()))).status).toBe(200)
		const again = await post(first.path, fields(first.q1, first.q2, docxFile()))
		expect(again.status).toBe(409)
		expect(again.text).toContain('You have already applied for this job.')
		const second = await openJob(ws, ['C#', '.NET Core'])
		expect((await post(second.path, fields(second.q1, second.q2, docxFile(['Jane Applicant', 'Now also C# and dotnet core'])))).status).toBe(200)
		const rows = await deps.database.rows<any>(
			sql`select c.id, c.resume_mime, count(a.id)::int as n from candidates c join applications a on a.candidate_id = c.id where c.workspace_id = ${ws.id} group by c.id`,
		)
		expect(rows).toHaveLength(1)
		expect(rows[0].n).toBe(2)
		// The résumé on file stays (anyone can type an address); the one sent goes with the new application and is checked there.
		expect(rows[0].resume_mime).toBe('application/pdf')
		const apps = await deps.database.rows<any>(sql`select job_id, resume_score, resume_mime from applications where candidate_id = ${rows[0].id}`)
		const byJob = Object.fromEntries(apps.map((a: any) => [a.job_id, a]))
		expect(byJob[first.job.id]).toMatchObject({ resume_mime: null })
		expect(byJob[second.job.id].resume_mime).toContain('wordprocessingml')
		expect(byJob[second.job.id].resume_score).toBe(100)
	}, 30_000)

	test('bad input shows the form again with messages and keeps what was typed', async () => {
		const ws = await newWorkspace()
		const { path, q1, q2 } = await openJob(ws)
		const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'resume.pdf', { type: 'application/pdf' })
		const res = await post(path, {
			name: '',
			email: 'not-an-email',
			phone: 'call me',
			resume: png,
			[`answer_${q1}`]: 'maybe',
			[`answer_${q2}`]: 'Ten <b>years</b>',
		})
		expect(res.status).toBe(422)
		for (const message of [
			'Enter your name',
			'Enter an e-mail address',
			'Enter a phone number of 7 to 15 digits',
			'Your résumé must be a PDF or a Word (.docx) file',
			'with yes or no',
		])
			expect(res.text).toContain(message)
		expect(res.text).toContain('value="not-an-email"')
		expect(res.text).toContain('Ten &lt;b&gt;years&lt;/b&gt;</textarea>')
		const missing = await post(path, { name: 'Jo', email: 'jo@example.com', phone: '5125550100', [`answer_${q1}`]: 'yes' })
		expect(missing.status).toBe(422)
		expect(missing.text).toContain('Attach your résumé')
		expect(missing.text).toContain('Answer “Years with Java?”')
		const big = new Uint8Array(10 * 1024 * 1024 + 1)
		big.set(new TextEncoder().encode('%PDF-1.4\n'))
		const tooBig = await post(path, {
			name: 'Jo',
			email: 'jo@example.com',
			phone: '5125550100',
			resume: new File([big], 'big.pdf'),
			[`answer_${q1}`]: 'yes',
			[`answer_${q2}`]: '3',
		})
		expect(tooBig.text).toContain('Your résumé must be at most 10 MB')
		const broken = await post(path, {
			name: 'Jo',
			email: 'jo@example.com',
			phone: '5125550100',
			resume: new File(['%PDF-1.4 nothing else'], 'x.pdf'),
			[`answer_${q1}`]: 'yes',
			[`answer_${q2}`]: '3',
		})
		expect(broken.text).toContain('We could not read your résumé')
	}, 30_000)

	test('one address may send 10 applications a minute: of 40 sent at once, 10 are handled and 30 answered 429 with Retry-After, the form kept; another address is not held up', async () => {
		const { deps } = await testApp()
		const ws = await newWorkspace(deps)
		const { job, path, q1, q2 } = await openJob(ws)
		await awayFromMinuteEdge()
		const address = uniqueAddress()
		const session = await formSession(path, address)
		// No résumé attached: the ten that are let through get the form's own answer (attach one)
		// without waiting for a résumé reader, so only the limit decides who gets what.
		const fields = (n: number) => ({
			name: `Burst ${n}`,
			email: `burst${n}@example.com`,
			phone: '+1 512 555 0100',
			[`answer_${q1}`]: 'yes',
			[`answer_${q2}`]: `${n} years`,
		})
		const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => post(path, fields(n), session)))
		const statuses = answers.map((a) => a.status)
		expect(statuses.filter((s) => s === 422)).toHaveLength(APPLICATIONS_PER_MINUTE)
		expect(statuses.filter((s) => s === 429)).toHaveLength(40 - APPLICATIONS_PER_MINUTE)
		expect(answers.find((a) => a.status === 422)!.text).toContain('Attach your résumé')
		const limited = answers.find((a) => a.status === 429)!
		const wait = Number(limited.headers.get('retry-after'))
		expect(wait).toBeGreaterThanOrEqual(1)
		expect(wait).toBeLessThanOrEqual(60)
		expect(limited.text).toContain('Too many applications were sent from your network in the last minute.')
		expect(limited.text).toContain(`Wait ${wait} seconds, choose your résumé again and send the form`)
		// What was typed comes back; the résumé field asks for the file again.
		const n = answers.indexOf(limited)
		expect(limited.text).toContain(`value="burst${n}@example.com"`)
		expect(limited.text).toContain(`${n} years</textarea>`)
		expect(limited.text).toContain('please choose the file again')
		// Still limited with a résumé attached: nothing is read or stored.
		expect((await post(path, { ...fields(41), resume: pdfFile() }, session)).status).toBe(429)
		const [{ applications }] = await deps.database.rows<{ applications: number }>(
			sql`select count(*)::int as applications from applications where job_id = ${job.id}`,
		)
		expect(applications).toBe(0)
		// Another address applies at once.
		expect((await post(path, { ...fields(99), resume: pdfFile() })).status).toBe(200)
	}, 60_000)

	test('a form without the CSRF token is refused', async () => {
		const ws = await newWorkspace()
		const { path } = await openJob(ws)
		const res = await post(path, { name: 'X' }, { cookie: '', csrf: '' })
		expect(res.status).toBe(403)
	})
})

describe('careers apply flow (headless Chromium)', () => {
	test('applies with a real PDF and a real DOCX, and shows problems in the page', async () => {
		const { url, deps } = await serveApp()
		const ws = await newWorkspace(deps)
		const pdfJob = await openJob(ws)
		const docxJob = await openJob(ws, ['C#', '.NET Core', 'SQL Server'])
		const context = await newContext()
		const page = await context.newPage()
		const apply = async (path: string, q1: string, q2: string, file: { name: string; mimeType: string; buffer: Buffer }, email: string) => {
			await page.goto(`${url}${path}`)
			await page.getByLabel('Full name').fill('Ravi Browser')
			await page.getByLabel('E-mail').fill(email)
			await page.getByLabel('Phone').fill('+1 214 555 0142')
			await page.locator('#apply-resume').setInputFiles(file)
			await page.locator(`input[name="answer_${q1}"][value="yes"]`).check()
			await page.locator(`#apply-answer_${q2}`).fill('6 years')
			await page.getByRole('button', { name: 'Submit application' }).click()
		}
		await apply(pdfJob.path, pdfJob.q1, pdfJob.q2, { name: 'ravi.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(RESUME)) }, 'ravi@example.com')
		await page.getByRole('heading', { name: 'Thank you for applying' }).waitFor()
		await apply(
			docxJob.path,
			docxJob.q1,
			docxJob.q2,
			{
				name: 'ravi.docx',
				mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
				buffer: Buffer.from(makeDocx(['Ravi Browser', 'C# and .NET Core 8 developer', 'SQL Server 2019, Azure'])),
			},
			'ravi.docx@example.com',
		)
		await page.getByRole('heading', { name: 'Thank you for applying' }).waitFor()
		const scores = await deps.database.rows<any>(
			sql`select a.resume_score, c.resume_mime from applications a join candidates c on c.id = a.candidate_id where c.workspace_id = ${ws.id} order by a.created_at`,
		)
		expect(scores.map((s) => [s.resume_score, s.resume_mime])).toEqual([
			[100, 'application/pdf'],
			[100, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
		])

		// A text file named .pdf: the page shows the problem and keeps what was typed.
		await apply(
			pdfJob.path,
			pdfJob.q1,
			pdfJob.q2,
			{ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some text') },
			'other@example.com',
		)
		await page.getByRole('alert').waitFor()
		expect(await page.getByRole('alert').innerText()).toContain('Your résumé must be a PDF or a Word (.docx) file')
		expect(await page.getByLabel('E-mail').inputValue()).toBe('other@example.com')
		expect(await page.locator(`#apply-answer_${pdfJob.q2}`).inputValue()).toBe('6 years')
		// Applying again for the same job is told, not duplicated.
		await apply(pdfJob.path, pdfJob.q1, pdfJob.q2, { name: 'ravi.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(RESUME)) }, 'ravi@example.com')
		expect(await page.getByRole('status').innerText()).toContain('You have already applied for this job.')

		// On a phone: a mistake in the e-mail address. The summary at the top has the focus and is on screen;
		// the résumé is kept, so fixing the address and sending again is all it takes.
		await page.setViewportSize({ width: 390, height: 800 })
		await apply(
			docxJob.path,
			docxJob.q1,
			docxJob.q2,
			{ name: 'ravi-phone.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(RESUME)) },
			'ravi.phone@',
		)
		await page.locator('.error-summary').waitFor()
		expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary')
		const box = (await page.locator('.error-summary').boundingBox())!
		expect(box.y + box.height).toBeLessThan(800)
		expect(await page.locator('#apply-resume-kept').innerText()).toContain('ravi-phone.pdf')
		await page.getByLabel('E-mail').fill('ravi.phone@example.com')
		await page.locator(`input[name="answer_${docxJob.q1}"][value="yes"]`).check()
		await page.getByRole('button', { name: 'Submit application' }).click()
		await page.getByRole('heading', { name: 'Thank you for applying' }).waitFor()
		await context.close()
	}, 60_000)
})
