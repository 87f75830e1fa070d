/**
 * Unpacking Word files with every inflated byte counted (`zip.ts`): the directory's sizes are the
 * budget, an entry that inflates past its stated size (or short of it) stops the unpacking at once,
 * and what comes out is exactly the parts, zipped again without compression.
 */
import { describe, expect, test } from 'bun:test'
import { strToU8, unzipSync, zipSync } from 'fflate'
import { CONTENT_TYPES, deflateBomb, DOCUMENT, rawZip, RELS, stored, zipBombDocx } from '../../tests/fixtures/hostile-files.ts'
import { makeDocx } from '../../tests/fixtures/resumes.ts'
import { MAX_ZIP_ENTRIES, repackCounted, zipDirectory, ZipRefused } from './zip.ts'

const MiB = 1024 * 1024
const LIMIT = 64 * MiB

function refusal(bytes: Uint8Array): { kind: string; message: string } {
	try {
		repackCounted(bytes, LIMIT)
	} catch (error) {
		if (error instanceof ZipRefused) return { kind: error.kind, message: error.message }
		throw error
	}
	throw new Error('the zip was not refused')
}

const docxWith = (...extra: Parameters<typeof rawZip>[0]) =>
	rawZip([stored('[Content_Types].xml', CONTENT_TYPES), stored('_rels/.rels', RELS), stored('word/document.xml', DOCUMENT), ...extra])

describe('repackCounted', () => {
	test('a real Word file comes out with the same parts, stored', () => {
		const docx = makeDocx(['Jane Applicant', 'Java 17'])
		const repacked = repackCounted(docx, LIMIT)
		expect(unzipSync(repacked)).toEqual(unzipSync(docx))
		// Stored, not compressed: the parts' bytes are in the file as they are.
		expect(Buffer.from(repacked).includes(Buffer.from('Java 17'))).toBe(true)
	})

	test('parts that state more than the limit in all are refused before anything is inflated', () => {
		// The stated sizes alone refuse it: a limit refusal, not the damaged part inflating would find.
		expect(refusal(zipBombDocx(1024))).toEqual({ kind: 'limit', message: 'it unpacks to more than 64 MB' })
	})

	test('a part that inflates past the size its directory states is stopped there, not inflated to its 1 GiB', () => {
		const before = process.memoryUsage().rss
		expect(refusal(zipBombDocx(1024, 5000))).toEqual({
			kind: 'damaged',
			message: 'the part “word/media/bomb.bin” unpacks to more than the 5000 bytes its zip directory states',
		})
		// Stopped at the stated size: the memory it took is far from the 1 GiB the part holds.
		expect(process.memoryUsage().rss - before).toBeLessThan(32 * MiB)
	})

	test('a part that inflates to less than it states is refused too', () => {
		const packed = deflateBomb(2)
		expect(refusal(docxWith({ name: 'word/media/a.bin', packed, method: 8, declaredSize: 3 * MiB }))).toEqual({
			kind: 'damaged',
			message: `the part “word/media/a.bin” unpacks to ${2 * MiB} bytes, not the ${3 * MiB} its zip directory states`,
		})
	})

	test('damaged, odd or hostile zips are refused with what is wrong', () => {
		const text = strToU8('hello')
		const cases: [string, Uint8Array, string][] = [
			['not a zip', strToU8('PK\u0003\u0004 and nothing else'), 'the Word file is not a well-formed zip file'],
			['encrypted', docxWith({ name: 'word/secret.xml', packed: text, method: 0, declaredSize: 5, flags: 1 }), 'the Word file is encrypted'],
			[
				'stored with two sizes',
				docxWith({ name: 'word/a.xml', packed: text, method: 0, declaredSize: 4 }),
				'the stored part “word/a.xml” has two different sizes',
			],
			[
				'another packing method',
				docxWith({ name: 'word/a.xml', packed: text, method: 12, declaredSize: 5 }),
				'the part “word/a.xml” is packed with a method Word does not use (12)',
			],
			['a part named twice', docxWith(stored('word/document.xml', DOCUMENT)), 'the part “word/document.xml” appears twice'],
			[
				'not deflate data',
				docxWith({ name: 'word/a.xml', packed: strToU8('\u00ff\u00ff\u00ff\u00ff not deflate'), method: 8, declaredSize: 100 }),
				'the part “word/a.xml” is not valid compressed data',
			],
		]
		for (const [what, bytes, message] of cases) expect({ what, refused: refusal(bytes) }).toEqual({ what, refused: { kind: 'damaged', message } })
	})

	test('a part whose local header is missing, or whose data runs past the end, is refused', () => {
		const good = docxWith()
		const view = new DataView(good.buffer, good.byteOffset, good.byteLength)
		const end = good.length - 22
		const firstEntry = view.getUint32(end + 16, true)
		const shifted = good.slice()
		new DataView(shifted.buffer).setUint32(firstEntry + 42, 7, true)
		expect(refusal(shifted)).toEqual({ kind: 'damaged', message: 'the part “[Content_Types].xml” is missing' })
		const long = good.slice()
		new DataView(long.buffer).setUint32(firstEntry + 20, good.length, true)
		expect(refusal(long).message).toBe('the part “[Content_Types].xml” runs past the end of the file')
	})

	test('a part named __proto__ is refused (the zip writer would take it for the prototype); other object keys are plain names', () => {
		expect(refusal(docxWith(stored('__proto__', 'x')))).toEqual({ kind: 'damaged', message: 'a part has the name “__proto__”, which Word never uses' })
		const repacked = repackCounted(docxWith(stored('constructor', 'x'), stored('toString', 'y')), LIMIT)
		expect(Object.keys(unzipSync(repacked))).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'constructor', 'toString'])
	})
})

describe('zipDirectory', () => {
	test('more entries than any Word file has is not a zip we read', () => {
		const many = Object.fromEntries(Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => [`p${i}`, new Uint8Array()]))
		expect(zipDirectory(zipSync(many))).toBeNull()
		expect(
			zipDirectory(makeDocx(['x']))
				?.map((e) => e.name)
				.sort(),
		).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml'])
	})
})
