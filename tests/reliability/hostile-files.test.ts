/**
 * Hostile files against a real server process (`bun core/main.ts` on a scratch PostgreSQL
 * database), its memory read from /proc/<pid>/status every 10 ms: the careers apply form and the
 * document upload page, one file at a time and many at once, up to the 10 MB the form accepts
 * (a 10 MB bomb inflates to about 10 GB). The server must answer each with a 422 (or a 503 with
 * Retry-After when every résumé reader is busy), stay up, and stay within the README's bound
 * ("Hostile files"): its own memory grows by less than 150 MB plus twice the uploads it is
 * receiving at that moment; each résumé reader, a child process, is killed past 384 MB; at most two
 * run at once.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { addPerson, createWorkspace, operatorActor, personActor } from '../../modules/auth/index.ts'
import { RESUME_READER_MAX_RSS, RESUME_READERS } from '../../modules/candidates/resume-file.ts'
import { requestCandidateDocuments } from '../../modules/documents/requests.ts'
import { createJob, setJobStatus } from '../../modules/jobs/service.ts'
import { textToSend } from '../../modules/outbox/index.ts'
import { outbox } from '../../modules/outbox/table.ts'
import { lyingDocumentDocx, pdfBomb, spacesDocx, zipBombDocx } from '../fixtures/hostile-files.ts'
import { makePdf } from '../fixtures/resumes.ts'
import { careersPagePath } from '../helpers.ts'
import { mb, watchMemory, type MemoryWatch } from '../memory.ts'
import { uniqueAddress } from '../portal.ts'
import { newCandidate } from '../staffing-fixtures.ts'
import { describeProcesses } from './gate.ts'
import { depsOn } from './load.ts'
import { scratchPostgresDatabase, startServer, type ServerProcess } from './processes.ts'

setDefaultTimeout(180_000)

const MB = 1024 * 1024
const SERVER_GROWTH_BOUND = 150 * MB
const READER_BOUND = RESUME_READER_MAX_RSS + 64 * MB
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
type Upload = { bytes: Uint8Array; name: string; type: string }

let server: ServerProcess
let database: Awaited<ReturnType<typeof scratchPostgresDatabase>>
let jobPath: string
/** One upload link per file sent at once (a link takes at most 3 files of a kind and 10 a minute). */
const uploadPaths: string[] = []

describeProcesses('hostile files against a server process', () => {
	beforeAll(async () => {
		database = await scratchPostgresDatabase()
		const fixtures = await depsOn(database.url)
		const { deps } = fixtures
		const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
		const ws = await createWorkspace(deps, { slug: `hostile${tag}`, name: 'Hostile Staffing' })
		const email = `owner-${tag}@example.test`
		await addPerson(deps, operatorActor(ws), ws, { email, name: 'Owner', role: 'owner', password: 'correct horse battery staple' })
		const owner = await personActor(deps, ws.slug, email)
		const job = await setJobStatus(deps, owner, (await createJob(deps, owner, { title: 'Senior Java Developer', requirements: ['Java'] })).id, 'Open')
		jobPath = await careersPagePath(job.url!, deps)
		for (let i = 0; i < 24; i++) {
			const candidateEmail = `cand-${tag}-${i}@example.test`
			const candidateId = await newCandidate(ws, { name: 'Ravi Kumar', email: candidateEmail, resume: false }, deps)
			await requestCandidateDocuments(deps, owner, { candidateId, items: ['dl', 'visa', 'i94'] })
			const [mail] = await deps.db
				.select()
				.from(outbox)
				.where(and(eq(outbox.to, candidateEmail), eq(outbox.channel, 'email')))
			uploadPaths.push((await textToSend(deps.secret, mail!)).match(/https?:\/\/[^/]+(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]!)
		}
		await fixtures.close()
		server = await startServer({ DATABASE_URL: database.url, TRUST_PROXY: 'on' })
	}, 120_000)

	afterAll(async () => {
		server?.kill('SIGKILL')
		await server?.exited
		await database?.drop()
	})

	/** GET the page (for its CSRF cookie and token), then POST the form with the file, from one address. */
	async function send(path: string, action: string, fields: Record<string, string>, fileField: string, file: Upload) {
		const address = uniqueAddress()
		const page = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-for': address } })
		const cookie = page.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
		const form = new FormData()
		form.set('csrf', csrf)
		for (const [k, v] of Object.entries(fields)) form.set(k, v)
		form.set(fileField, new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }))
		const res = await fetch(`${server.url}${action}`, { method: 'POST', body: form, headers: { cookie, 'x-forwarded-for': address }, redirect: 'manual' })
		return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() }
	}
	const apply = (file: Upload) =>
		send(
			jobPath,
			`${jobPath}/apply`,
			{ name: 'Hostile Applicant', email: `h${Math.random().toString(36).slice(2)}@example.com`, phone: '+1 512 555 0100' },
			'resume',
			file,
		)
	const upload = (link: number, kind: string, file: Upload) => send(uploadPaths[link]!, uploadPaths[link]!, { kind }, 'file', file)

	async function watched<T>(work: () => Promise<T>): Promise<{ result: T; memory: MemoryWatch }> {
		const watch = watchMemory(server.proc.pid!)
		const result = await work()
		return { result, memory: watch.stop() }
	}

	/** The server grows by less than 150 MB plus twice the bytes of the uploads it is receiving at once (`inFlight`). */
	function expectBounded(what: string, memory: MemoryWatch, inFlight = 0) {
		console.log(
			`${what}: server ${mb(memory.startBytes)} → peak ${mb(memory.peakBytes)} MB (${mb(inFlight)} MB of uploads in flight); readers at once ${memory.mostChildren}, largest reader ${mb(memory.peakChildBytes)} MB`,
		)
		expect({ what, growthMB: mb(memory.growthBytes), withinBound: memory.growthBytes < SERVER_GROWTH_BOUND + 2 * inFlight }).toEqual({
			what,
			growthMB: mb(memory.growthBytes),
			withinBound: true,
		})
		expect(memory.mostChildren).toBeLessThanOrEqual(RESUME_READERS)
		expect(memory.peakChildBytes).toBeLessThan(READER_BOUND)
		expect(server.alive()).toBe(true)
	}

	const resumeError = (text: string) => /<span class="field-error" id="resume-error">([^<]*)<\/span>/.exec(text)?.[1] ?? ''

	test('one at a time, on the apply form: Word bombs honest and lying, PDF bombs of 1 GiB and 10,000 MiB, 400,000 spaces — each answered, memory bounded', async () => {
		// Warm up: the first application loads the pages and the reader once.
		expect((await apply({ bytes: makePdf(['Jane Applicant', 'Java 17']), name: 'cv.pdf', type: 'application/pdf' })).status).toBe(200)
		const cases: [string, Upload, number, RegExp][] = [
			[
				'Word, 1 GiB, honest directory',
				{ bytes: zipBombDocx(1024), name: 'cv.docx', type: DOCX },
				422,
				/^Your résumé is over our limit: it unpacks to more than 64 MB\./,
			],
			[
				'Word, 1 GiB document part, lying directory',
				{ bytes: lyingDocumentDocx(1024), name: 'cv.docx', type: DOCX },
				422,
				/^We could not read your résumé: the part “word\/document\.xml” unpacks to more than/,
			],
			[
				'Word, 10,000 MiB (a 10 MB file), lying directory',
				{ bytes: lyingDocumentDocx(10_000), name: 'cv.docx', type: DOCX },
				422,
				/^We could not read your résumé: the part “word\/document\.xml” unpacks to more than/,
			],
			[
				'PDF, 1 GiB stream',
				{ bytes: pdfBomb(1024), name: 'cv.pdf', type: 'application/pdf' },
				422,
				/^Your résumé is over our limit: it needs more than 384 MB of memory to read\./,
			],
			[
				'PDF, 10,000 MiB stream (a 10 MB file)',
				{ bytes: pdfBomb(10_000), name: 'cv.pdf', type: 'application/pdf' },
				422,
				/^Your résumé is over our limit: it needs more than 384 MB of memory to read\./,
			],
			['Word, 400,000 spaces', { bytes: spacesDocx(400_000), name: 'cv.docx', type: DOCX }, 200, /^$/],
		]
		for (const [what, file, status, message] of cases) {
			const { result, memory } = await watched(() => apply(file))
			expectBounded(what, memory)
			expect({ what, status: result.status }).toEqual({ what, status })
			expect({ what, message: message.test(resumeError(result.text)) }).toEqual({ what, message: true })
		}
	})

	test('twenty-four hostile files at once on the apply form: each a 422 or a 503 with Retry-After, two readers at most, memory bounded; an ordinary application goes through after', async () => {
		const pdf = pdfBomb(1024)
		const word = lyingDocumentDocx(1024)
		const { result, memory } = await watched(() =>
			Promise.all(
				Array.from({ length: 24 }, (_, i) =>
					apply(i % 2 ? { bytes: pdf, name: 'cv.pdf', type: 'application/pdf' } : { bytes: word, name: 'cv.docx', type: DOCX }),
				),
			),
		)
		expectBounded('24 at once', memory, 12 * (pdf.length + word.length))
		const statuses = result.map((r) => r.status)
		console.log(`24 at once: ${JSON.stringify(statuses)}`)
		expect(statuses.every((s) => s === 422 || s === 503)).toBe(true)
		expect(result.filter((r) => r.status === 503).every((r) => r.retryAfter === '30')).toBe(true)
		expect((await apply({ bytes: makePdf(['Jane Applicant', 'Java 17']), name: 'cv.pdf', type: 'application/pdf' })).status).toBe(200)
	})

	test('the upload page opens no file: PDF bombs are stored, Word bombs refused by their first bytes, twenty-four at once too; memory bounded', async () => {
		const pdf = pdfBomb(10_000)
		const word = zipBombDocx(1024)
		const { result, memory } = await watched(() =>
			Promise.all(
				Array.from({ length: 24 }, (_, i) =>
					upload(
						i,
						['dl', 'visa', 'i94'][i % 3]!,
						i % 2 ? { bytes: pdf, name: 'scan.pdf', type: 'application/pdf' } : { bytes: word, name: 'scan.docx', type: DOCX },
					),
				),
			),
		)
		expectBounded('upload page, 24 at once', memory, 12 * (pdf.length + word.length))
		expect(memory.mostChildren).toBe(0)
		expect(result.map((r) => r.status).sort()).toEqual([...Array(12).fill(303), ...Array(12).fill(422)])
	})
})
