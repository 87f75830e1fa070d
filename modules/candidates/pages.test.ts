/**
 * The candidate pages in-process, as each role sees them: who opens the list, a profile and the
 * file addresses (résumés, documents), what a hiring manager's page leaves out, the headers files
 * are served with, and the list's search, job filter and paging.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { newId } from '../../core/credentials.ts'
import { PDF } from '../../core/http/file-response.ts'
import { candidatePageWorld, fileLinks, newDocument, PAGE_ROLES, type CandidatePageWorld, type PageRole } from '../../tests/candidate-pages.ts'
import { operatorActor } from '../auth/index.ts'
import { samplePdf } from '../documents/seed.ts'
import { inviteToInterview } from '../interviews/index.ts'
import { candidates } from './table.ts'

setDefaultTimeout(60_000)

let w: CandidatePageWorld
/** File addresses as the owner's pages link them. */
let files: { pdfResume: string; wordResume: string; pdfDocument: string; pngDocument: string; foreignResume: string; foreignDocument: string }

beforeAll(async () => {
	w = await candidatePageWorld()
	const onTeam = fileLinks((await w.people.owner.get(`/candidates/${w.onTeam.id}`)).text)
	const offTeam = fileLinks((await w.people.owner.get(`/candidates/${w.offTeam.id}`)).text)
	const foreign = fileLinks((await w.foreignOwner.get(`/candidates/${w.foreign.id}`)).text)
	files = {
		pdfResume: onTeam.resume!,
		wordResume: offTeam.resume!,
		pdfDocument: onTeam.documents.find((d) => d.includes(w.onTeam.pdfDocumentId))!,
		pngDocument: onTeam.documents.find((d) => d.includes(w.onTeam.pngDocumentId))!,
		foreignResume: foreign.resume!,
		foreignDocument: foreign.documents[0]!,
	}
	for (const [name, href] of Object.entries(files)) if (!href) throw new Error(`no link for ${name}`)
}, 120_000)

describe('role × page', () => {
	test('each role opens exactly what its tools reach; everything else is 403 (no candidate tools) or 404, never 500', async () => {
		const S: Record<'ok' | 'forbidden' | 'absent', number> = { ok: 200, forbidden: 403, absent: 404 }
		const full = { list: S.ok, onTeam: S.ok, offTeam: S.ok, foreign: S.absent, files: S.ok, foreignFiles: S.absent }
		const expected: Record<PageRole, typeof full> = {
			owner: full,
			admin: full,
			recruiter: full,
			// Their job's applicant only, and never a file: résumés and documents carry contact details.
			hiring_manager: { list: S.ok, onTeam: S.ok, offTeam: S.absent, foreign: S.absent, files: S.absent, foreignFiles: S.absent },
			outsider_manager: { list: S.ok, onTeam: S.absent, offTeam: S.absent, foreign: S.absent, files: S.absent, foreignFiles: S.absent },
			viewer: { list: S.forbidden, onTeam: S.forbidden, offTeam: S.forbidden, foreign: S.forbidden, files: S.absent, foreignFiles: S.absent },
		}
		const answered = {} as Record<PageRole, typeof full>
		for (const role of PAGE_ROLES) {
			const client = w.people[role]
			const status = async (paths: string[]) => {
				const codes = new Set<number>()
				for (const p of paths) codes.add((await client.get(p)).status)
				return codes.size === 1 ? [...codes][0]! : -1 // -1: the same kind of address answered differently
			}
			answered[role] = {
				list: await status(['/candidates']),
				onTeam: await status([`/candidates/${w.onTeam.id}`]),
				offTeam: await status([`/candidates/${w.offTeam.id}`]),
				foreign: await status([`/candidates/${w.foreign.id}`, '/candidates/cand_doesnotexist']),
				files: await status([files.pdfResume, files.wordResume, files.pdfDocument, files.pngDocument]),
				foreignFiles: await status([files.foreignResume, files.foreignDocument]),
			}
		}
		expect(answered).toEqual(expected)
		// The other workspace's owner reaches none of this workspace's pages or files.
		for (const path of [`/candidates/${w.onTeam.id}`, files.pdfResume, files.wordResume, files.pdfDocument, files.pngDocument])
			expect((await w.foreignOwner.get(path)).status).toBe(404)
	})

	test('a file address is not guessable: a changed reference, another candidate’s id or a made-up document is a 404', async () => {
		const owner = w.people.owner
		const tamper = (href: string) => href.replace(/[^/]+$/, (ref) => `${ref.slice(0, -1)}${ref.endsWith('A') ? 'B' : 'A'}`)
		for (const path of [
			tamper(files.pdfResume),
			tamper(files.pdfDocument),
			files.pdfResume.replace(w.onTeam.id, w.offTeam.id),
			files.pdfDocument.replace(w.onTeam.pdfDocumentId, 'doc_madeup'),
			files.pdfDocument.replace(w.onTeam.id, w.offTeam.id),
			`/candidates/${w.onTeam.id}/resume/x`,
		])
			expect({ path, status: (await owner.get(path)).status }).toEqual({ path, status: 404 })
	})

	test('a hiring manager’s page has no e-mail, phone, document or résumé file, and says contact details are hidden', async () => {
		const page = await w.people.hiring_manager.get(`/candidates/${w.onTeam.id}`)
		expect(page.status).toBe(200)
		// Read without the break points addresses carry (<wbr>), so an address shown in pieces is still found.
		const body = page.text.replaceAll('<wbr>', '')
		expect(body).not.toContain(w.onTeam.email)
		expect(body).not.toContain('555 0199')
		expect(body).not.toContain('mailto:')
		expect(body).not.toContain('tel:')
		expect(fileLinks(body)).toEqual({ resume: null, documents: [] })
		expect(body).not.toContain('id="documents"')
		expect(body).not.toContain('Request documents')
		expect(body).not.toContain('id="bench"')
		expect(body).not.toContain('id="messages"')
		expect(body).toContain('Hidden for your role')
		expect(body).toContain('[e-mail hidden]')
		expect(body).toContain('id="todos"')
		expect(body).toContain('id="interviews"')
		expect((await w.people.outsider_manager.get('/candidates')).text).toContain('You are on no job’s hiring team yet')
		const list = await w.people.hiring_manager.get('/candidates')
		expect(list.text).toContain('Priya Raman')
		expect(list.text).not.toContain('Omar Haddad')
		expect(list.text.replaceAll('<wbr>', '')).not.toContain(w.onTeam.email)
	})

	test('a recruiter’s page shows contact details, the résumé, documents and every section with its form', async () => {
		const body = (await w.people.recruiter.get(`/candidates/${w.onTeam.id}`)).text
		expect(body).toContain(`mailto:${w.onTeam.email}`)
		expect(body).toContain('+1 512 555 0199')
		expect(body).toContain(w.onTeam.email) // the résumé text too
		for (const section of ['applications-h', 'resume', 'notes', 'documents', 'todos', 'bench', 'messages', 'interviews'])
			expect(body).toContain(`id="${section}"`)
		for (const button of ['Add note', 'Request documents', 'Add to-do', 'Add to bench']) expect(body).toContain(`<button type="submit">${button}</button>`)
		expect(body).toContain(`href="/applications/${w.onTeam.applicationId}"`)
		expect(fileLinks(body).documents).toHaveLength(2)
		// The PDF is shown inline in a frame; the Word résumé only downloads, its text on the page.
		expect(body).toMatch(/<iframe src="\/candidates\/[^"]+\/resume\//)
		const word = (await w.people.recruiter.get(`/candidates/${w.offTeam.id}`)).text
		expect(word).not.toContain('<iframe')
		expect(word).toContain('Word résumé of Omar')
	})
})

describe('sections other modules add', () => {
	test('AI video interviews for everyone who reaches the application; messages only for people who read the inbox', async () => {
		// An invitation records the interview and e-mails the candidate (which the inbox threads).
		await inviteToInterview(w.deps, operatorActor(w.ws), { applicationId: w.onTeam.applicationId })
		const section = (page: string, id: string) => {
			const start = page.indexOf(`<section class="card" id="${id}"`)
			return start < 0 ? null : page.slice(start, page.indexOf('</section>', start))
		}
		const recruiter = (await w.people.recruiter.get(`/candidates/${w.onTeam.id}`)).text
		expect(section(recruiter, 'interviews')).toContain('Invited')
		expect(section(recruiter, 'interviews')).toContain(`href="/applications/${w.onTeam.applicationId}"`)
		expect(section(recruiter, 'messages')).toContain('Your video interview for Kafka Engineer')
		expect(section(recruiter, 'messages')).toMatch(/href="\/inbox\/[^"]+"/)
		const manager = (await w.people.hiring_manager.get(`/candidates/${w.onTeam.id}`)).text
		expect(section(manager, 'interviews')).toContain('Invited')
		expect(section(manager, 'messages')).toBeNull()
		expect(manager).not.toContain('Your video interview for')
	})
})

describe('files are served safely', () => {
	const expectProtected = (headers: Headers, type: string, disposition: 'inline' | 'attachment', fileName: string) => {
		expect(headers.get('content-type')).toBe(type)
		expect(headers.get('content-disposition')).toStartWith(`${disposition}; filename=`)
		expect(headers.get('content-disposition')).toContain(fileName)
		expect(headers.get('x-content-type-options')).toBe('nosniff')
		expect(headers.get('cache-control')).toBe('no-store')
		const csp = headers.get('content-security-policy') ?? ''
		expect(csp.split(';')[0]).toBe('sandbox')
		expect(csp).toContain(disposition === 'inline' ? "frame-ancestors 'self'" : "frame-ancestors 'none'")
	}

	test('a PDF inline, a Word file and an image as attachments, with nosniff, CSP sandbox and no-store', async () => {
		const owner = w.people.owner
		const pdf = await owner.get(files.pdfResume)
		expectProtected(pdf.headers, PDF, 'inline', 'Jane resume.pdf')
		expect(pdf.text.startsWith('%PDF-')).toBe(true)
		expectProtected(
			(await owner.get(files.wordResume)).headers,
			'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
			'attachment',
			'Omar CV.docx',
		)
		expectProtected((await owner.get(files.pngDocument)).headers, 'image/png', 'attachment', 'licence.png')
		expectProtected((await owner.get(files.pdfDocument)).headers, PDF, 'inline', 'visa.pdf')
	})

	test('never as HTML: a record saying text/html, a file named .html, HTML bytes under a PDF type', async () => {
		const html = new TextEncoder().encode('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>')
		const cases = [
			{ fileName: 'cv.html', contentType: 'text/html', bytes: html, type: 'application/octet-stream', served: 'cv.html.bin' },
			{ fileName: 'scan.pdf', contentType: PDF, bytes: html, type: 'application/octet-stream', served: 'scan.pdf.bin' },
			{ fileName: 'resume.html', contentType: PDF, bytes: samplePdf('a real PDF'), type: PDF, served: 'resume.html.pdf' },
			{
				fileName: 'page.svg',
				contentType: 'image/svg+xml',
				bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
				type: 'application/octet-stream',
				served: 'page.svg.bin',
			},
		]
		const candidateId = w.offTeam.id
		for (const c of cases) await newDocument(w.deps, w.ws, candidateId, { kind: 'workAuth', fileName: c.fileName, contentType: c.contentType, bytes: c.bytes })
		const links = fileLinks((await w.people.owner.get(`/candidates/${candidateId}`)).text).documents
		expect(links).toHaveLength(cases.length)
		const served = await Promise.all(links.map((l) => w.people.owner.get(l)))
		for (const c of cases) {
			const answer = served.find((r) => (r.headers.get('content-disposition') ?? '').includes(c.served))
			expect({ file: c.fileName, found: Boolean(answer) }).toEqual({ file: c.fileName, found: true })
			expectProtected(answer!.headers, c.type, c.type === PDF ? 'inline' : 'attachment', c.served)
		}
	})
})

describe('the list', () => {
	test('search keeps the candidates it matches (the same search as list_candidates); the job filter keeps that job’s applicants', async () => {
		const owner = w.people.owner
		const byName = await owner.get('/candidates?q=priya')
		expect(byName.text).toContain('Priya Raman')
		expect(byName.text).not.toContain('Omar Haddad')
		expect(byName.text).toContain('value="priya"')
		const byJob = await owner.get(`/candidates?jobId=${w.offTeam.jobId}`)
		expect(byJob.text).toContain('Omar Haddad')
		expect(byJob.text).not.toContain('Priya Raman')
		const none = await owner.get('/candidates?q=nobody+called+this')
		expect(none.status).toBe(200)
		expect(none.text).toContain('No candidates match this search')
	})

	test('pages with Next page and First page; a filter starts again at the first page', async () => {
		const tag = newId('pg').slice(3, 11)
		await w.deps.db.insert(candidates).values(
			Array.from({ length: 27 }, (_, i) => ({
				id: newId('cand'),
				workspaceId: w.ws.id,
				name: `Pager ${tag} ${String(i).padStart(2, '0')}`,
				email: `${tag}.${i}@example.test`,
				createdAt: new Date(Date.now() - i * 60_000),
			})),
		)
		const first = await w.people.recruiter.get(`/candidates?q=${tag}`)
		expect(first.text.match(new RegExp(`">Pager ${tag}`, 'g'))).toHaveLength(25)
		const next = first.text.match(/href="([^"]+)" rel="next">Next page</)![1]!.replace(/&amp;/g, '&')
		const second = await w.people.recruiter.get(next)
		expect(second.status).toBe(200)
		expect(second.text.match(new RegExp(`">Pager ${tag}`, 'g'))).toHaveLength(2)
		expect(second.text).toContain('First page')
		expect(second.text).not.toContain('Next page')
		// The cursor belongs to this person and this search.
		expect((await w.people.owner.get(next)).status).toBe(422)
		// The filters form carries no cursor: a new search starts on the first page.
		const form = second.text.slice(
			second.text.indexOf('<form method="get" action="/candidates"'),
			second.text.indexOf('</form>', second.text.indexOf('<form method="get" action="/candidates"')),
		)
		expect(form).toContain('name="q"')
		expect(form).not.toContain('name="cursor"')
	})

	test('bad filters answer the list page with a clear error and the values kept, never a 500', async () => {
		const long = 'k'.repeat(121)
		const tooLong = await w.people.owner.get(`/candidates?q=${long}`)
		expect(tooLong.status).toBe(422)
		expect(tooLong.text).toContain('Search must be 120 characters or fewer')
		expect(tooLong.text).toContain(`value="${long}"`)
		expect(tooLong.text).toContain('<title>Error: ')
		const badCursor = await w.people.owner.get('/candidates?cursor=forged.cursor')
		expect(badCursor.status).toBe(422)
		expect(badCursor.text).toContain('There is a problem')
		const notTheirs = await w.people.hiring_manager.get(`/candidates?jobId=${w.offTeam.jobId}`)
		expect(notTheirs.status).toBe(422)
		expect(notTheirs.text).toContain('There is no job with this id that you can see')
		expect(notTheirs.text).not.toContain('Omar Haddad')
		for (const path of [
			'/candidates?jobId=' + 'x'.repeat(200),
			'/candidates?cursor=' + 'y'.repeat(300),
			'/candidates?q=%00%ff',
			`/candidates/${'z'.repeat(300)}`,
		])
			expect((await w.people.owner.get(path)).status).toBeLessThan(500)
	})
})

describe('what the pages show of the records', () => {
	test('a candidate’s text is escaped, never markup', async () => {
		const id = newId('cand')
		await w.deps.db.insert(candidates).values({
			id,
			workspaceId: w.ws.id,
			name: '<img src=x onerror=alert(1)>Eve',
			email: `${id}@example.test`,
			headline: '<script>alert(2)</script>',
			skills: ['<b>bold</b>'],
			resumeText: '<iframe src="https://evil.example"></iframe>',
		})
		const body = (await w.people.owner.get(`/candidates/${id}`)).text
		expect(body).not.toMatch(/<img src=x|<script>alert|<b>bold|<iframe src="https:\/\/evil/)
		expect(body).toContain('Eve')
	})
})

describe('navigation', () => {
	test('Candidates is in the work navigation for roles that read candidates, before the Inbox; current on the candidate pages', async () => {
		const nav = (page: string) => page.slice(page.indexOf('<nav aria-label="Main"'), page.indexOf('</nav>', page.indexOf('<nav aria-label="Main"')))
		const recruiter = nav((await w.people.recruiter.get('/portal')).text)
		expect(recruiter).toContain('<a href="/candidates">Candidates</a>')
		expect(recruiter.indexOf('href="/candidates"')).toBeLessThan(recruiter.indexOf('href="/inbox"'))
		expect(nav((await w.people.hiring_manager.get('/portal')).text)).toContain('<a href="/candidates">Candidates</a>')
		expect(nav((await w.people.viewer.get('/portal')).text)).not.toContain('href="/candidates"')
		expect(nav((await w.people.recruiter.get(`/candidates/${w.onTeam.id}`)).text)).toContain('<a href="/candidates" aria-current="page">Candidates</a>')
	})
})
