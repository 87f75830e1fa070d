/**
 * The upload link is a door anyone holding it can use (links get forwarded): it takes files within
 * bounds. Per minute, per client address and per link (429 with Retry-After, the page says what to
 * do); per link in all, a few files of each kind and 50 MB (409, the page says to ask for a new link),
 * decided under the link's lock so uploads racing each other do not pass together.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { personActor } from '../auth/index.ts'
import { textToSend } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import type { DocumentKind } from '../vendors/index.ts'
import { awayFromMinuteEdge, newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { anonymousVisitor, portalApp, uniqueAddress } from '../../tests/portal.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { requestCandidateDocuments } from './requests.ts'
import { samplePdf } from './seed.ts'
import { candidateDocuments } from './table.ts'
import { UPLOADS_PER_MINUTE } from './upload-routes.ts'
import { BYTES_PER_LINK, FILES_PER_KIND_PER_LINK, linkAllowanceRefusal, storeUpload } from './uploads.ts'

setDefaultTimeout(30_000)

/** A candidate with a live link for `items`: its path (`/upload/bl_ul_…`), as the e-mail gives it. */
async function linkFor(items: DocumentKind[]) {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
	const candidateId = await newCandidate(ws, { name: 'Ravi Kumar', email: `${unique('ravi')}@example.test` }, deps)
	const request = await requestCandidateDocuments(deps, recruiter, { candidateId, items })
	const [mail] = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.relatedId, request.id), eq(outbox.channel, 'email')))
	const path = (await textToSend(deps.secret, mail!)).match(/http:\/\/localhost:3000(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]!
	const stored = async () => deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.candidateId, candidateId))
	/** Files in the store for this candidate (the local store of the tests). */
	const files = () => {
		const dir = resolve(deps.config.dataDir, 'files', 'documents', ws.id, candidateId)
		return existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.part')) : []
	}
	return { deps, ws, candidateId, path, token: path.split('/').pop()!, stored, files }
}

/** Opens the page from `address` and uploads one file from there, like a browser. */
async function upload(path: string, kind: string, file: { name: string; bytes: Uint8Array }, address = uniqueAddress()) {
	return (await anonymousVisitor(path, address)).upload(kind, { ...file, type: 'application/pdf' })
}

async function pageOf(path: string) {
	const { app } = await portalApp()
	return (await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': uniqueAddress() } }))).text()
}

/** A PDF of `size` bytes (its first bytes make it one; the rest is padding). */
function pdfOf(size: number): Uint8Array {
	const bytes = new Uint8Array(size)
	bytes.set(samplePdf('scan').subarray(0, Math.min(size, 64)))
	return bytes
}

const KINDS: DocumentKind[] = ['dl', 'visa', 'i94', 'workAuth']

describe('uploads a minute', () => {
	test(`one link takes ${UPLOADS_PER_MINUTE} uploads a minute, whatever the addresses they come from: the next is a 429 with Retry-After that stores nothing and says to wait`, async () => {
		const l = await linkFor(KINDS)
		await awayFromMinuteEdge()
		// Each from an address of its own (a forwarded link), within what the link takes of each kind.
		for (let i = 0; i < UPLOADS_PER_MINUTE; i++)
			expect((await upload(l.path, KINDS[i % 4]!, { name: `scan-${i}.pdf`, bytes: samplePdf(`scan ${i}`) })).status).toBe(303)
		const refused = await upload(l.path, 'i94', { name: 'one-more.pdf', bytes: samplePdf('one more') })
		expect(refused.status).toBe(429)
		const wait = Number(refused.retryAfter)
		expect(wait).toBeGreaterThanOrEqual(1)
		expect(wait).toBeLessThanOrEqual(60)
		expect(refused.text).toContain('Too many files were sent through this link in the last minute, so this one was not received.')
		expect(refused.text).toContain(`Wait ${wait} second`)
		expect(refused.text).toContain('role="alert"')
		expect(await l.stored()).toHaveLength(UPLOADS_PER_MINUTE)
		expect(l.files()).toHaveLength(UPLOADS_PER_MINUTE)
	})

	test(`one address sends ${UPLOADS_PER_MINUTE} uploads a minute, whatever the links: the next is a 429; another address is not held up`, async () => {
		const a = await linkFor(KINDS)
		const b = await linkFor(KINDS)
		await awayFromMinuteEdge()
		const address = uniqueAddress()
		for (let i = 0; i < UPLOADS_PER_MINUTE; i++)
			expect(
				(await upload(i % 2 ? a.path : b.path, KINDS[Math.floor(i / 2) % 4]!, { name: `scan-${i}.pdf`, bytes: samplePdf(`scan ${i}`) }, address)).status,
			).toBe(303)
		const refused = await upload(a.path, 'i94', { name: 'one-more.pdf', bytes: samplePdf('one more') }, address)
		expect(refused.status).toBe(429)
		expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1)
		expect(refused.text).toContain('Too many files were sent from your network in the last minute')
		expect((await a.stored()).length + (await b.stored()).length).toBe(UPLOADS_PER_MINUTE)
		expect((await upload(a.path, 'i94', { name: 'from-home.pdf', bytes: samplePdf('from home') })).status).toBe(303)
	})
})

describe('what one link takes in all', () => {
	test(`${FILES_PER_KIND_PER_LINK} files of one kind (a better copy is welcome, the newest is used); one more is refused, stores nothing, and the page says to ask for a new link, which takes files again`, async () => {
		const l = await linkFor(['dl', 'visa'])
		for (let i = 1; i <= FILES_PER_KIND_PER_LINK; i++)
			expect((await upload(l.path, 'dl', { name: `dl-${i}.pdf`, bytes: samplePdf(`dl ${i}`) })).status).toBe(303)
		const refused = await upload(l.path, 'dl', { name: 'dl-4.pdf', bytes: samplePdf('dl 4') })
		expect(refused.status).toBe(409)
		expect(refused.text).toContain(
			`This link has already taken ${FILES_PER_KIND_PER_LINK} files for the Driver’s license, the most it takes; the newest one is the one used.`,
		)
		expect(refused.text).toContain('ask your recruiter for a new link')
		expect((await l.stored()).map((d) => d.fileName).sort()).toEqual(['dl-1.pdf', 'dl-2.pdf', 'dl-3.pdf'])
		expect(l.files()).toHaveLength(FILES_PER_KIND_PER_LINK)
		// The page offers no form for that kind any more, says why and whom to ask; the other kind still has one.
		const page = await pageOf(l.path)
		expect(page).toContain(
			`This link has taken the ${FILES_PER_KIND_PER_LINK} files it takes for the driver’s license; the newest one is the one used. To send another, ask `,
		)
		expect(page).toMatch(/To send another, ask [^<]+ for a new link\./)
		expect(page).not.toContain('id="file-dl"')
		expect(page).toContain('id="file-visa"')
		expect((await upload(l.path, 'visa', { name: 'visa.pdf', bytes: samplePdf('visa') })).status).toBe(303)
		// A new request (it replaces this link) takes the documents again.
		const recruiter = await personActor(l.deps, l.ws.slug, (await newPerson(l.ws, 'recruiter', {}, l.deps)).email)
		const again = await requestCandidateDocuments(l.deps, recruiter, { candidateId: l.candidateId, items: ['dl'] })
		const [mail] = await l.deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.relatedId, again.id), eq(outbox.channel, 'email')))
		const newPath = (await textToSend(l.deps.secret, mail!)).match(/http:\/\/localhost:3000(\/upload\/bl_ul_[0-9A-Za-z]+)/)![1]!
		expect((await upload(newPath, 'dl', { name: 'dl-new.pdf', bytes: samplePdf('dl new') })).status).toBe(303)
	})

	test('uploads racing each other through one link do not pass the limit together, and the refused files are not kept', async () => {
		const l = await linkFor(['dl'])
		const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(l.path, 'dl', { name: `dl-${i}.pdf`, bytes: samplePdf(`dl ${i}`) })))
		expect(answers.map((a) => a.status).sort()).toEqual([...Array(FILES_PER_KIND_PER_LINK).fill(303), ...Array(6 - FILES_PER_KIND_PER_LINK).fill(409)])
		expect(await l.stored()).toHaveLength(FILES_PER_KIND_PER_LINK)
		expect(l.files()).toHaveLength(FILES_PER_KIND_PER_LINK)
	})

	test('bytes in all, with a lowered limit: a file past what is left is refused saying how much is left, a smaller one still goes; nothing refused is kept', async () => {
		const l = await linkFor(KINDS)
		const limits = { filesPerKind: FILES_PER_KIND_PER_LINK, bytes: 250 * 1024 }
		await storeUpload(l.deps, l.token, 'dl', { name: 'dl.pdf', bytes: pdfOf(100 * 1024) }, limits)
		await storeUpload(l.deps, l.token, 'visa', { name: 'visa.pdf', bytes: pdfOf(100 * 1024) }, limits)
		const refused = storeUpload(l.deps, l.token, 'i94', { name: 'i94.pdf', bytes: pdfOf(100 * 1024) }, limits)
		await expect(refused).rejects.toMatchObject({ code: 'CONFLICT' })
		await expect(refused).rejects.toThrow(
			'This link takes 250 KB of files in all and 200 KB were sent, so this file (100 KB) is too large: send a file of at most 50 KB',
		)
		await storeUpload(l.deps, l.token, 'i94', { name: 'i94-small.pdf', bytes: pdfOf(50 * 1024) }, limits)
		await expect(storeUpload(l.deps, l.token, 'workAuth', { name: 'ead.pdf', bytes: pdfOf(1024) }, limits)).rejects.toThrow(
			'This link has already taken 250 KB of files, the most it takes in all. To send more, ask your recruiter for a new link.',
		)
		expect((await l.stored()).map((d) => d.fileName).sort()).toEqual(['dl.pdf', 'i94-small.pdf', 'visa.pdf'])
		expect(l.files()).toHaveLength(3)
	})

	test('the limit itself: 50 MB in all, whatever the kinds', () => {
		expect(BYTES_PER_LINK).toBe(50 * 1024 * 1024)
		const tenMb = 10 * 1024 * 1024
		const five = ['dl', 'dl', 'visa', 'visa', 'i94'].map((kind) => ({ kind: kind as DocumentKind, sizeBytes: tenMb }))
		expect(linkAllowanceRefusal(five.slice(0, 4), 'workAuth', tenMb)).toBeNull()
		expect(linkAllowanceRefusal(five.slice(0, 4), 'workAuth', tenMb + 1)?.message).toContain('send a file of at most 10 MB')
		expect(linkAllowanceRefusal(five, 'workAuth', 1)?.message).toContain('This link has already taken 50 MB of files, the most it takes in all.')
	})
})
