/**
 * Hostile files posted to the two pages that take files from anyone (issue 16, item 4): the careers
 * apply form (résumés: PDF and Word, read for their text) and the document upload page (PDF, JPEG,
 * PNG, judged by their first bytes and stored, never opened). In-process, on the run's database;
 * the server's memory is this process's VmRSS, sampled every 10 ms while each request runs.
 *
 * The bound (README, "Hostile files"): reading them grows the server process by less than
 * SERVER_GROWTH_BOUND; each résumé reader is a child process killed past 384 MB, two at most at once.
 * `tests/reliability/hostile-files.test.ts` does the same against a real server process.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { personActor } from '../modules/auth/index.ts'
import { RESUME_READER_MAX_RSS, RESUME_READERS } from '../modules/candidates/resume-file.ts'
import { requestCandidateDocuments } from '../modules/documents/requests.ts'
import { candidateDocuments } from '../modules/documents/table.ts'
import { createJob, setJobStatus } from '../modules/jobs/service.ts'
import { textToSend } from '../modules/outbox/index.ts'
import { outbox } from '../modules/outbox/table.ts'
import { fileStore } from '../core/files.ts'
import { lyingDocumentDocx, pdfBomb, spacesDocx, zipBombDocx } from './fixtures/hostile-files.ts'
import { makePdf } from './fixtures/resumes.ts'
import { careersPagePath, newPerson, newWorkspace, testDeps, unique } from './helpers.ts'
import { mb, watchMemory, type MemoryWatch } from './memory.ts'
import { portalApp, uniqueAddress } from './portal.ts'
import { newCandidate } from './staffing-fixtures.ts'

setDefaultTimeout(120_000)

const MB = 1024 * 1024
/** How much the server process may grow while it handles hostile files (README, "Hostile files"). */
const SERVER_GROWTH_BOUND = 150 * MB
/** A reader is killed once it is seen past 384 MB; it is watched every 5 ms, so it gets little further. */
const READER_BOUND = RESUME_READER_MAX_RSS + 64 * MB

// Built once: about 1 MB each.
const GiB_WORD_HONEST = zipBombDocx(1024)
const GiB_WORD_LYING_MEDIA = zipBombDocx(1024, 1000)
const GiB_WORD_LYING_DOCUMENT = lyingDocumentDocx(1024)
const GiB_PDF = pdfBomb(1024)

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

async function openJob(overrides: Record<string, string> = {}) {
	const { deps } = await portalApp(overrides)
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const actor = await personActor(deps, ws.slug, owner.email)
	const job = await setJobStatus(deps, actor, (await createJob(deps, actor, { title: 'Senior Java Developer', requirements: ['Java'] })).id, 'Open')
	return { deps, job, path: await careersPagePath(job.url!, deps) }
}

/** One application through the form, from an address of its own; with the server's memory watched meanwhile. */
async function apply(path: string, file: { bytes: Uint8Array; name: string; type: string }, overrides: Record<string, string> = {}) {
	const { app } = await portalApp(overrides)
	const address = uniqueAddress()
	const page = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': address } }))
	const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!
	const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
	const form = new FormData()
	for (const [k, v] of Object.entries({ csrf, name: 'Hostile Applicant', email: `${unique('h')}@example.com`, phone: '+1 512 555 0100' })) form.set(k, v)
	form.set('resume', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }))
	const started = Date.now()
	const res = await app.handle(new Request(`http://localhost${path}/apply`, { method: 'POST', body: form, headers: { cookie, 'x-forwarded-for': address } }))
	return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text(), ms: Date.now() - started }
}

/** Runs `work` with the server's memory (this process) and its résumé readers watched. */
async function watched<T>(work: () => Promise<T>): Promise<{ result: T; memory: MemoryWatch }> {
	Bun.gc(true)
	const watch = watchMemory()
	const result = await work()
	return { result, memory: watch.stop() }
}

function expectBounded(what: string, memory: MemoryWatch) {
	console.log(
		`${what}: server grew ${mb(memory.growthBytes)} MB (from ${mb(memory.startBytes)} MB); readers at once ${memory.mostChildren}, largest reader ${mb(memory.peakChildBytes)} MB`,
	)
	expect({ what, serverGrowthMB: mb(memory.growthBytes), withinBound: memory.growthBytes < SERVER_GROWTH_BOUND }).toEqual({
		what,
		serverGrowthMB: mb(memory.growthBytes),
		withinBound: true,
	})
	expect(memory.mostChildren).toBeLessThanOrEqual(RESUME_READERS)
	expect(memory.peakChildBytes).toBeLessThan(READER_BOUND)
}

const resumeError = (text: string) => /<span class="field-error" id="resume-error">([^<]*)<\/span>/.exec(text)?.[1]

describe('hostile résumés on the careers apply form', () => {
	test('a 1 MB Word file that unpacks to 1 GiB, its directory honest: 422 naming the 64 MB limit, quickly, memory bounded', async () => {
		const { path } = await openJob()
		const { result, memory } = await watched(() => apply(path, { bytes: GiB_WORD_HONEST, name: 'cv.docx', type: DOCX }))
		expectBounded('honest Word bomb', memory)
		expect(result.status).toBe(422)
		expect(resumeError(result.text)).toBe('Your résumé is over our limit: it unpacks to more than 64 MB. Save it as a smaller PDF and retry')
		expect(result.ms).toBeLessThan(10_000)
	})

	test('Word files whose zip directory understates what a part unpacks to (1 GiB) are refused as they unpack, memory bounded', async () => {
		const { path, job, deps } = await openJob()
		for (const [what, bytes, part] of [
			['the document part lies', GiB_WORD_LYING_DOCUMENT, 'word/document.xml'],
			['a picture the reader would never open lies', GiB_WORD_LYING_MEDIA, 'word/media/bomb.bin'],
		] as const) {
			const { result, memory } = await watched(() => apply(path, { bytes, name: 'cv.docx', type: DOCX }))
			expectBounded(`lying Word file (${what})`, memory)
			expect({ what, status: result.status }).toEqual({ what, status: 422 })
			expect(resumeError(result.text)).toMatch(
				new RegExp(
					`^We could not read your résumé: the part “${part}” unpacks to more than the \\d+ bytes its zip directory states\\. Save it again as a PDF and retry$`,
				),
			)
			expect(result.ms).toBeLessThan(10_000)
		}
		const [{ n }] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from applications where job_id = ${job.id}`)
		expect(n).toBe(0)
	})

	test('a PDF whose content stream inflates to 1 GiB: the reader is killed at its memory bound and the answer is a 422 naming it', async () => {
		const { path } = await openJob()
		const { result, memory } = await watched(() => apply(path, { bytes: GiB_PDF, name: 'cv.pdf', type: 'application/pdf' }))
		expectBounded('PDF bomb', memory)
		expect(result.status).toBe(422)
		expect(resumeError(result.text)).toBe('Your résumé is over our limit: it needs more than 384 MB of memory to read. Save it as a smaller PDF and retry')
		expect(result.ms).toBeLessThan(10_000)
	})

	test('a PDF that takes long to read (50 pages of 8 MiB of white space each) is cut at FILE_PARSE_TIMEOUT: a 422 naming the time limit', async () => {
		const slow = pdfBomb(8, 50)
		const settings = { FILE_PARSE_TIMEOUT: '1' }
		const { path } = await openJob(settings)
		const { result, memory } = await watched(() => apply(path, { bytes: slow, name: 'cv.pdf', type: 'application/pdf' }, settings))
		expectBounded('slow PDF', memory)
		expect(result.status).toBe(422)
		expect(resumeError(result.text)).toBe('Your résumé is over our limit: it takes longer than 1 second to read. Save it as a smaller PDF and retry')
		expect(result.ms).toBeLessThan(8_000)
	})

	test('a Word file with 400,000 spaces in a row is read in linear time (the text is tidied without a backtracking regex)', async () => {
		const { path, job, deps } = await openJob()
		const { result, memory } = await watched(() => apply(path, { bytes: spacesDocx(400_000), name: 'cv.docx', type: DOCX }))
		expectBounded('400,000 spaces', memory)
		expect(result.status).toBe(200)
		expect(result.ms).toBeLessThan(15_000)
		const [row] = await deps.database.rows<{ resume_text: string }>(
			sql`select c.resume_text from candidates c join applications a on a.candidate_id = c.id where a.job_id = ${job.id}`,
		)
		expect(row!.resume_text.startsWith('Jane Applicant')).toBe(true)
		expect(row!.resume_text.length).toBeLessThanOrEqual(100_000)
	})

	test('twelve hostile files at once: each a 422 or a 503 with Retry-After, never more than two readers, memory bounded; an ordinary application goes through after', async () => {
		const { path, job, deps } = await openJob()
		const files = Array.from({ length: 12 }, (_, i) =>
			i % 3 === 0 ? { bytes: GiB_WORD_LYING_DOCUMENT, name: 'cv.docx', type: DOCX } : { bytes: GiB_PDF, name: 'cv.pdf', type: 'application/pdf' },
		)
		const { result, memory } = await watched(() => Promise.all(files.map((f) => apply(path, f))))
		expectBounded('twelve at once', memory)
		const statuses = result.map((r) => r.status)
		console.log(`twelve at once: ${JSON.stringify(statuses)}`)
		expect(statuses.every((s) => s === 422 || s === 503)).toBe(true)
		// Two read, eight wait: the last two find the queue full and are turned away at once.
		expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(2)
		for (const busy of result.filter((r) => r.status === 503)) {
			expect(busy.retryAfter).toBe('30')
			expect(busy.text).toContain('We are reading many résumés right now. Wait 30 seconds, choose your résumé again and send the form')
			expect(busy.text).toContain('value="Hostile Applicant"')
		}
		const ok = await apply(path, { bytes: makePdf(['Jane Applicant', 'Java 17']), name: 'cv.pdf', type: 'application/pdf' })
		expect(ok.status).toBe(200)
		const [{ n }] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from applications where job_id = ${job.id}`)
		expect(n).toBe(1)
	})
})

describe('hostile files on the document upload page', () => {
	async function uploadLink() {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
		const email = `${unique('cand')}@example.test`
		const candidateId = await newCandidate(ws, { name: 'Ravi Kumar', email }, deps)
		await requestCandidateDocuments(deps, recruiter, { candidateId, items: ['dl', 'visa', 'i94'] })
		const [mail] = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
		return { deps, candidateId, path: (await textToSend(deps.secret, mail!)).match(/http:\/\/localhost:3000(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]! }
	}

	async function upload(path: string, kind: string, file: { bytes: Uint8Array; name: string; type: string }) {
		const { app } = await portalApp()
		const address = uniqueAddress()
		const page = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': address } }))
		const cookie = page.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const csrf = /name="csrf" value="([^"]*)"/.exec(await page.text())![1]!
		const form = new FormData()
		form.set('csrf', csrf)
		form.set('kind', kind)
		form.set('file', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }))
		const res = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', body: form, headers: { cookie, 'x-forwarded-for': address } }))
		return { status: res.status, text: await res.text() }
	}

	test('it opens no file: a PDF bomb is stored byte for byte, Word bombs are refused by their first bytes, twelve at once too; memory bounded', async () => {
		const { deps, candidateId, path } = await uploadLink()
		// Twelve links (one link takes at most 3 files of a kind and 10 a minute: modules/documents/upload-bounds.test.ts).
		const others = await Promise.all(Array.from({ length: 12 }, uploadLink))
		const { result, memory } = await watched(async () => ({
			pdf: await upload(path, 'dl', { bytes: GiB_PDF, name: 'dl.pdf', type: 'application/pdf' }),
			word: await upload(path, 'visa', { bytes: GiB_WORD_LYING_DOCUMENT, name: 'visa.docx', type: DOCX }),
			many: await Promise.all(
				others.map((link, i) =>
					upload(
						link.path,
						'i94',
						i % 2 ? { bytes: GiB_PDF, name: 'i94.pdf', type: 'application/pdf' } : { bytes: GiB_WORD_HONEST, name: 'i94.docx', type: DOCX },
					),
				),
			),
		}))
		expectBounded('upload page', memory)
		expect(result.pdf.status).toBe(303)
		expect(result.word.status).toBe(422)
		expect(result.word.text).toContain('Must be a PDF, JPEG or PNG file')
		expect(result.many.map((r) => r.status).sort()).toEqual([...Array(6).fill(303), ...Array(6).fill(422)])
		expect(memory.mostChildren).toBe(0)
		const stored = await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.candidateId, candidateId))
		expect(stored).toHaveLength(1)
		const kept = await fileStore(deps.config).get(stored.find((d) => d.kind === 'dl')!.storageKey)
		expect(Buffer.compare(Buffer.from(kept!), Buffer.from(GiB_PDF))).toBe(0)
	})
})
