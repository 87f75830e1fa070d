/**
 * The one builder every stored file is served through: the type it goes out as (never one a
 * browser would render as a page), the disposition, the protective headers and the file name.
 */
import { describe, expect, test } from 'bun:test'
import { textPdf } from '../text-pdf.ts'
import { DOCX, downloadDisposition, fileReference, fileResponse, isFileReference, PDF, servedType } from './file-response.ts'

const encode = (s: string) => new TextEncoder().encode(s)
const pdf = textPdf(['a résumé'])
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])
const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0])
const page = encode('<!doctype html><script>alert(1)</script>')

describe('fileResponse', () => {
	test('a PDF is shown inline, framable only by the portal itself; everything is sandboxed, not sniffed, not stored', async () => {
		const res = fileResponse({ bytes: pdf, contentType: PDF, fileName: 'CV.pdf' })
		expect(Object.fromEntries(res.headers)).toEqual({
			'content-type': PDF,
			'content-length': String(pdf.byteLength),
			'content-disposition': 'inline; filename=CV.pdf',
			'x-content-type-options': 'nosniff',
			'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'self'",
			'x-frame-options': 'SAMEORIGIN',
			'cache-control': 'no-store',
		})
		expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...pdf])
	})

	test('Word files and images are attachments, framable by no one', () => {
		for (const [bytes, type, name] of [
			[zip, DOCX, 'CV.docx'],
			[png, 'image/png', 'id.png'],
			[jpeg, 'image/jpeg', 'id.jpg'],
		] as const) {
			const res = fileResponse({ bytes, contentType: type, fileName: name })
			expect(res.headers.get('content-type')).toBe(type)
			expect(res.headers.get('content-disposition')).toBe(`attachment; filename=${name}`)
			expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; frame-ancestors 'none'")
			expect(res.headers.get('x-frame-options')).toBe('DENY')
		}
	})

	test('never a type a browser renders as a page: an unlisted type, or bytes that are not what the type says, go out as octet-stream attachments', () => {
		const cases: [Uint8Array, string][] = [
			[page, 'text/html'],
			[page, 'text/html; charset=utf-8'],
			[page, PDF],
			[page, 'image/png'],
			[encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
			[pdf, 'text/html'],
			[pdf, 'application/xhtml+xml'],
			[encode('plain'), 'text/plain'],
			[new Uint8Array(), PDF],
			[pdf, '__proto__'],
		]
		for (const [bytes, type] of cases) {
			const res = fileResponse({ bytes, contentType: type, fileName: 'x' })
			expect({ type, served: res.headers.get('content-type'), disposition: res.headers.get('content-disposition')?.split(';')[0] }).toEqual({
				type,
				served: 'application/octet-stream',
				disposition: 'attachment',
			})
		}
		expect(servedType({ bytes: pdf, contentType: 'Application/PDF' })).toBe(PDF)
	})

	test('the offered name ends with the served type’s extension, has no path or control characters, and survives any characters', () => {
		const name = (fileName: string, bytes = pdf, contentType = PDF) => fileResponse({ bytes, contentType, fileName }).headers.get('content-disposition')
		expect(name('resume.html')).toBe('inline; filename=resume.html.pdf')
		expect(name('RESUME.PDF')).toBe('inline; filename=RESUME.PDF')
		expect(name('cv.html', page, 'text/html')).toBe('attachment; filename=cv.html.bin')
		expect(name('../../etc/passwd')).toBe('inline; filename=passwd.pdf')
		expect(name('a\r\nSet-Cookie: x=1.pdf')).toBe('inline; filename="aSet-Cookie x=1.pdf"')
		expect(name('')).toBe('inline; filename=file.pdf')
		expect(name('Résumé "Zoë".pdf')).toBe(`inline; filename="R?sum? Zo?.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20Zo%C3%AB.pdf`)
	})

	test('a stored name cannot hide its extension, break the answer or swell it: direction controls, half characters and noncharacters go, the length is bounded', () => {
		const name = (fileName: string) => fileResponse({ bytes: zip, contentType: DOCX, fileName }).headers.get('content-disposition')!
		// U+202E showed "invoice\u202Excod.exe" as "invoiceexe.docx": the name is what it says.
		expect(name('invoice\u202excod.exe')).toBe('attachment; filename=invoicexcod.exe.docx')
		// Half a surrogate pair could not be percent-encoded: the download failed with a 500.
		expect(name('cv\ud800.docx')).toBe(`attachment; filename="cv?.docx"; filename*=UTF-8''cv%EF%BF%BD.docx`)
		expect(name('a\u2028b\u0085c\ufffe\uffff\ufdd0\u200b.docx')).toBe('attachment; filename=abc.docx')
		const long = name(`${'x'.repeat(5000)}.docx`)
		expect(long.length).toBeLessThan(160)
		expect(long).toEndWith('x.docx')
	})
})

describe('downloadDisposition', () => {
	test('every download names its file the same way: cleaned, quoted only as RFC 6266 writes it', () => {
		expect(downloadDisposition('audit-acme-2026-01-01.csv')).toBe('attachment; filename=audit-acme-2026-01-01.csv')
		expect(downloadDisposition('x"; filename=evil.exe\r\n.zip')).toBe('attachment; filename="x; filename=evil.exe.zip"')
		expect(downloadDisposition('\u202e', 'inline')).toBe('inline; filename=download')
	})
})

describe('fileReference', () => {
	const secret = crypto.getRandomValues(new Uint8Array(32))
	test('is the same for the same file, different for another file or secret, and checked in full', () => {
		const ref = fileReference(secret, 'resumes/ws/a.pdf')
		expect(ref).toMatch(/^[A-Za-z0-9_-]{32}$/)
		expect(fileReference(secret, 'resumes/ws/a.pdf')).toBe(ref)
		expect(fileReference(secret, 'resumes/ws/b.pdf')).not.toBe(ref)
		expect(fileReference(crypto.getRandomValues(new Uint8Array(32)), 'resumes/ws/a.pdf')).not.toBe(ref)
		expect(isFileReference(secret, 'resumes/ws/a.pdf', ref)).toBe(true)
		for (const wrong of [ref.slice(0, -1), `${ref}x`, '', ref.toUpperCase() === ref ? ref.toLowerCase() : ref.toUpperCase()])
			expect(isFileReference(secret, 'resumes/ws/a.pdf', wrong)).toBe(false)
	})
})
