/**
 * The résumé reader, run as a child process of its own (`resume-file.ts` starts it through
 * `core/child-task.ts`, which bounds its memory and time and kills it past either): a hostile file
 * can exhaust this process, never the server. It reads the file from stdin and writes one JSON
 * object to stdout: `{"text"}`, or `{"refused","reason"}`: over a limit (`limit`, the reason names it),
 * a damaged or lying Word file (`damaged`, the reason says what, in words for the applicant), or
 * anything else a reader threw (`unreadable`, the reason is for the log).
 *
 * Usage: `bun resume-reader.ts pdf|docx < file`
 */
import mammoth from 'mammoth'
import { getDocumentProxy } from 'unpdf'
import { repackCounted, ZipRefused } from './zip.ts'

/** A Word file whose parts unpack to more than this is refused (counted while inflating, not as declared). */
export const MAX_UNPACKED_BYTES = 64 * 1024 * 1024
/** Only the first pages of a PDF are read: a résumé is a few pages, and the text kept is capped anyway. */
export const MAX_PDF_PAGES = 50
/** Characters of raw text handed back at most (the caller cleans and caps it again). */
export const MAX_RAW_TEXT = 200_000

type Answer = { text: string } | { refused: 'limit' | 'damaged' | 'unreadable'; reason: string }

async function pdfText(bytes: Uint8Array): Promise<string> {
	const pdf = await getDocumentProxy(bytes)
	const pages: string[] = []
	let length = 0
	for (let n = 1; n <= Math.min(pdf.numPages, MAX_PDF_PAGES) && length < MAX_RAW_TEXT; n++) {
		const page = await pdf.getPage(n)
		const content = await page.getTextContent()
		const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')
		pages.push(text)
		length += text.length
		page.cleanup()
	}
	// As unpdf's `mergePages`: whitespace collapsed, line breaks kept, at most one blank line.
	return pages
		.join('\n')
		.replace(/[^\S\n]+/g, ' ')
		.replace(/ ?\n ?/g, '\n')
		.replace(/\n{3,}/g, '\n\n')
}

async function docxText(bytes: Uint8Array): Promise<string> {
	const counted = repackCounted(bytes, MAX_UNPACKED_BYTES)
	return (await mammoth.extractRawText({ buffer: Buffer.from(counted.buffer, counted.byteOffset, counted.byteLength) })).value
}

async function read(type: string, bytes: Uint8Array): Promise<Answer> {
	try {
		const text = type === 'pdf' ? await pdfText(bytes) : type === 'docx' ? await docxText(bytes) : null
		if (text === null) return { refused: 'unreadable', reason: `unknown file type ${type}` }
		return { text: text.slice(0, MAX_RAW_TEXT) }
	} catch (error) {
		if (error instanceof ZipRefused) return { refused: error.kind, reason: error.message }
		return { refused: 'unreadable', reason: error instanceof Error ? error.message.slice(0, 300) : 'unknown error' }
	}
}

if (import.meta.main) {
	const bytes = new Uint8Array(await Bun.stdin.arrayBuffer())
	process.stdout.write(JSON.stringify(await read(process.argv[2] ?? '', bytes)))
}
