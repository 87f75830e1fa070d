/**
 * Reading a résumé's text in the résumé reader (a child process): ordinary files read as before,
 * a Word file that is honest but needs too much memory to read is stopped at the reader's bound,
 * damaged files say why, and the text comes back tidied and capped.
 */
import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../core/config.ts'
import { createLogger } from '../../core/log.ts'
import { hugeXmlDocx, rawZip, stored } from '../../tests/fixtures/hostile-files.ts'
import { makeDocx, makePdf } from '../../tests/fixtures/resumes.ts'
import { extractResumeText, ResumeOverLimit, UnreadableResume } from './resume-file.ts'

const deps = { config: loadConfig({ BASE_URL: 'http://localhost:3000' }), log: createLogger('silent') }
const read = (bytes: Uint8Array, type: 'pdf' | 'docx') => extractResumeText(deps, bytes, type)
const failure = (bytes: Uint8Array, type: 'pdf' | 'docx') =>
	read(bytes, type).then(
		() => null,
		(error: Error) => error,
	)

describe('extractResumeText', () => {
	test('reads a PDF and a Word file', async () => {
		expect(await read(makePdf(['Jane Applicant', 'Java 17, SpringBoot']), 'pdf')).toBe('Jane Applicant\nJava 17, SpringBoot')
		expect(await read(makeDocx(['Jane Applicant', 'Java 17, SpringBoot']), 'docx')).toBe('Jane Applicant\n\nJava 17, SpringBoot')
	}, 30_000)

	test('a demo résumé longer and wider than a page (core/text-pdf.ts) is read back whole: no line past the page edge is lost', async () => {
		const long = `Led the migration of forty services ${'and their pipelines '.repeat(12)}to Kubernetes, END-OF-LONG-LINE`
		const lines = [...Array.from({ length: 120 }, (_, i) => `Line ${i + 1}`), long, 'LAST-LINE']
		const text = await read(makePdf(lines), 'pdf')
		expect(text.split('\n')).toContain('Line 120')
		expect(text).toContain('END-OF-LONG-LINE')
		expect(text).toEndWith('LAST-LINE')
		// Wrapped at spaces: the words come back as they were, only the line breaks are new.
		expect(text.replace(/\s+/g, ' ')).toContain(long.replace(/\s+/g, ' ').trim())
	}, 30_000)

	test('a Word file of 8 MiB of real XML (within the 64 MB unpacked) needs more than the reader may hold: over the memory limit', async () => {
		const error = await failure(hugeXmlDocx(8), 'docx')
		expect(error).toBeInstanceOf(ResumeOverLimit)
		expect(error!.message).toBe('it needs more than 384 MB of memory to read')
	}, 30_000)

	test('a damaged Word file says what is wrong; a file no reader understands is just unreadable', async () => {
		const lying = rawZip([
			stored('[Content_Types].xml', '<Types/>'),
			{ name: 'word/document.xml', packed: new Uint8Array([0x03, 0x00]), method: 8, declaredSize: 10 },
		])
		const damaged = await failure(lying, 'docx')
		expect(damaged).toBeInstanceOf(UnreadableResume)
		expect((damaged as UnreadableResume).detail).toBe('the part “word/document.xml” unpacks to 0 bytes, not the 10 its zip directory states')
		const garbage = await failure(new TextEncoder().encode('%PDF-1.4 nothing else'), 'pdf')
		expect(garbage).toBeInstanceOf(UnreadableResume)
		expect((garbage as UnreadableResume).detail).toBeUndefined()
	}, 30_000)

	test('the text comes back without trailing spaces or runs of blank lines, and at most 100,000 characters', async () => {
		const text = await read(makeDocx(['Jane Applicant   \t', '', '', '', 'Java', 'x'.repeat(150_000)]), 'docx')
		expect(text.startsWith('Jane Applicant\n\nJava\n\nxxx')).toBe(true)
		expect(text).toHaveLength(100_000)
	}, 30_000)
})
