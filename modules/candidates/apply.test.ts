/**
 * Applying with an address in either spelling (core/email.ts): `ann@Bücher.example` and
 * `ann@xn--bcher-kva.example.` are one candidate; a domain with no ASCII form is refused on the field;
 * a candidate stored before in a Unicode spelling is rewritten at start (`candidateAddresses`) and
 * then found by either spelling, and two candidates of one address in two spellings are left, logged.
 */
import { describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { normalDomain } from '../../core/email.ts'
import { fileStore } from '../../core/files.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { logLines, newWorkspace, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { samplePdf } from '../documents/seed.ts'
import { applyToJob, candidateAddresses } from './apply.ts'
import { refreshChecks } from './recheck.ts'
import { applicationResumeAddress, resumeDownload } from './resume-download.ts'
import { operatorActor } from '../auth/index.ts'
import { eraseCandidate, exportCandidate } from '../privacy/index.ts'
import { unzipSync } from 'fflate'
import { candidatesByAddress } from './queries.ts'
import { candidates } from './table.ts'

/** A Unicode domain of the test's own: its Unicode and ASCII spellings. */
function newUnicodeDomain() {
	const unicode = `bücher-${unique('d')}.example`
	return { unicode, ascii: normalDomain(unicode)! }
}

async function apply(ws: TestWorkspace, email: string, title = 'QA Engineer') {
	const deps = await testDeps()
	const job = await newVendorJob(ws, { title })
	return applyToJob(deps, {
		workspace: ws,
		job: { id: job, title, status: 'Open', mustHave: null },
		name: 'Ann Weber',
		email,
		phone: '+1 737 555 0142',
		resume: { bytes: samplePdf('Ann Weber, QA engineer: Selenium, Cypress'), fileName: 'ann.pdf' },
		answers: {},
	})
}

const emailOf = async (id: string) => (await (await testDeps()).db.select({ email: candidates.email }).from(candidates).where(eq(candidates.id, id)))[0]!.email

describe('one candidate per address, in either spelling', () => {
	test('applying in the Unicode spelling, then in the ASCII one with a trailing dot: one candidate, kept in ASCII', async () => {
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const first = await apply(ws, `Ann@${domain.unicode.toUpperCase()}`)
		const second = await apply(ws, `ann@${domain.ascii}.`)
		expect(first.newCandidate).toBe(true)
		expect(second).toMatchObject({ candidateId: first.candidateId, newCandidate: false })
		expect(await emailOf(first.candidateId)).toBe(`ann@${domain.ascii}`)
	})

	test('a domain with no ASCII form is refused on the e-mail field, saying so; nothing is stored', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		for (const [typed, domain] of [
			['ann@exa mple.com', 'exa mple.com'],
			['ann@xn--a.example', 'xn--a.example'],
		])
			await expect(apply(ws, typed!)).rejects.toMatchObject({
				code: 'VALIDATION',
				fields: [{ field: 'email', message: `“${domain}” is not a domain name: it has no ASCII (IDNA) form` }],
			})
		expect(await deps.database.rows(sql`select id from candidates where workspace_id = ${ws.id}`)).toEqual([])
	})
})

describe('candidates stored before addresses had one spelling', () => {
	test('rewritten in ASCII at start, then found and applied to by either spelling; a second candidate of the address in ASCII is left, and logged', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const old = await newCandidate(ws, { email: `ann@${domain.unicode}.` })
		// A twin: the same address in both spellings, two candidates already.
		const twin = await newCandidate(ws, { email: `bo@${domain.unicode}` })
		const clash = await newCandidate(ws, { email: `bo@${domain.ascii}` })

		expect(await rewriteStoredAddresses(deps, candidateAddresses)).toBeGreaterThanOrEqual(1)
		expect(await emailOf(old)).toBe(`ann@${domain.ascii}`)
		expect(await emailOf(twin)).toBe(`bo@${domain.unicode}`)
		expect(logLines.some((l) => l.includes('left as it is for an operator to merge') && l.includes(twin))).toBe(true)
		const found = await candidatesByAddress(deps, ws.id, [`Ann@${domain.unicode}`, `bo@${domain.ascii}`])
		expect(found.get(`Ann@${domain.unicode}`)?.map((c) => c.id)).toEqual([old])
		expect(found.get(`bo@${domain.ascii}`)?.map((c) => c.id)).toEqual([clash])
		expect(await apply(ws, `ann@${domain.unicode}`)).toMatchObject({ candidateId: old, newCandidate: false })
		// Nothing left to do for this workspace's rows: a second run leaves the twin as it is.
		await rewriteStoredAddresses(deps, candidateAddresses)
		expect(await emailOf(twin)).toBe(`bo@${domain.unicode}`)
	})
})

describe('applying again', () => {
	test('an address already on file changes nothing the firm holds: name, phone and résumé stay; the résumé sent stays with its application, checked against it, downloadable and erased with the candidate', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const email = `${unique('again')}@example.com`
		const first = await apply(ws, email, 'QA Engineer')
		const profile = async () =>
			(
				await deps.db
					.select({ name: candidates.name, phone: candidates.phone, path: candidates.resumePath })
					.from(candidates)
					.where(eq(candidates.id, first.candidateId))
			)[0]!
		const before = await profile()
		// Someone else types the same address, another name and phone, and a résumé of their own.
		const job = await newVendorJob(ws, { title: 'Java Lead' })
		await deps.database.rows(sql`update jobs set must_have = array['Java'] where id = ${job}`)
		const second = await applyToJob(deps, {
			workspace: ws,
			job: { id: job, title: 'Java Lead', status: 'Open', mustHave: ['Java'] },
			name: 'Mallory Impostor',
			email: email.toUpperCase(),
			phone: '+1 999 555 0000',
			resume: { bytes: samplePdf('Mallory: Java, Spring'), fileName: 'mallory.pdf' },
			answers: {},
		})
		expect(second).toMatchObject({ candidateId: first.candidateId, newCandidate: false })
		expect(await profile()).toEqual(before)
		// The address's owner is greeted by the name on file, not the one typed.
		const [mail] = await deps.database.rows<{ text: string }>(
			sql`select text from outbox where related_type = 'application' and related_id = ${second.applicationId}`,
		)
		expect(mail!.text).toStartWith('Hello Ann Weber,')
		expect(await fileStore(deps.config).get(before.path!)).not.toBeNull()
		const [sent] = await deps.database.rows<{ path: string; fileName: string; score: number; text: string }>(
			sql`select resume_path as path, resume_file_name as "fileName", resume_score as score, resume_text as text from applications where id = ${second.applicationId}`,
		)
		expect(sent).toMatchObject({ fileName: 'mallory.pdf', score: 100 })
		expect(sent!.text).toContain('Mallory')
		expect(await fileStore(deps.config).get(sent!.path)).not.toBeNull()
		// The first application keeps its check against the résumé on file.
		const [firstApp] = await deps.database.rows<{ path: string | null }>(sql`select resume_path as path from applications where id = ${first.applicationId}`)
		expect(firstApp!.path).toBeNull()
		// A job-wide re-check keeps checking the second application against the résumé it came with.
		await deps.database.rows(sql`update applications set resume_check = resume_check - 'resumeHash' where id = ${second.applicationId}`)
		await refreshChecks(deps, ws.id, { applicationIds: [second.applicationId] })
		expect(
			(await deps.database.rows<{ score: number }>(sql`select resume_score as score from applications where id = ${second.applicationId}`))[0]!.score,
		).toBe(100)

		// People who may have résumé files download it from the application's page; the export has both; an erasure deletes both.
		const owner = operatorActor(ws)
		const address = await applicationResumeAddress(deps, owner, first.candidateId, second.applicationId)
		expect(address?.fileName).toBe('mallory.pdf')
		const reference = address!.href.split('/').pop()!
		expect(new TextDecoder().decode((await resumeDownload(deps, owner, first.candidateId, reference)).bytes)).toContain('Mallory')
		expect(await applicationResumeAddress(deps, owner, first.candidateId, first.applicationId)).toBeNull()
		const exported = unzipSync((await exportCandidate(deps, owner, first.candidateId, 'test')).bytes)
		expect(
			Object.keys(exported)
				.filter((f) => f.startsWith('files/'))
				.sort(),
		).toEqual(['files/resume.pdf', `files/resume-${second.applicationId}.pdf`].sort())
		await eraseCandidate(deps, owner, first.candidateId, 'test')
		expect(await fileStore(deps.config).get(before.path!)).toBeNull()
		expect(await fileStore(deps.config).get(sent!.path)).toBeNull()
	})

	test('a name that draws nothing (Hangul fillers, lone combining marks, a blank Braille pattern) is refused', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const job = await newVendorJob(ws, { title: 'QA Engineer' })
		for (const name of ['\u3164\u3164', '\u0301\u0301', '\u2800']) {
			const refused = await applyToJob(deps, {
				workspace: ws,
				job: { id: job, title: 'QA Engineer', status: 'Open', mustHave: null },
				name,
				email: `${unique('blank')}@example.com`,
				phone: '+1 737 555 0142',
				resume: { bytes: samplePdf('Resume'), fileName: 'r.pdf' },
				answers: {},
			}).catch((e) => e)
			expect(refused.fields, JSON.stringify(name)).toEqual([{ field: 'name', message: 'Enter your name' }])
		}
	})
})
