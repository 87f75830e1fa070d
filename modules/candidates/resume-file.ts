/**
 * Résumé files: the type is decided by the content (magic bytes and, for DOCX, the zip's own
 * directory), never by the file name or the browser's content type; the text is extracted with
 * `unpdf` (PDF.js) and `mammoth` (DOCX); files are stored under random names in the file store.
 */
import mammoth from 'mammoth'
import { extractText, getDocumentProxy } from 'unpdf'
import { randomToken } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import { cleanText, cutText } from '../../core/untrusted.ts'

export type ResumeType = 'pdf' | 'docx'
export const MAX_RESUME_BYTES = 10 * 1024 * 1024
export const RESUME_MIME: Record<ResumeType, string> = { pdf: 'application/pdf', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }
/** A DOCX whose parts unpack to more than this is refused (zip bombs). */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024
const MAX_TEXT_CHARS = 100_000

const startsWith = (bytes: Uint8Array, ascii: string) => ascii.split('').every((ch, i) => bytes[i] === ch.charCodeAt(0))

interface ZipEntry {
	name: string
	unpackedSize: number
}

/** The entries of a zip's central directory, or null when it is not a well-formed zip. */
function zipEntries(bytes: Uint8Array): ZipEntry[] | null {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	let end = -1
	for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--)
		if (view.getUint32(i, true) === 0x06054b50) {
			end = i
			break
		}
	if (end < 0) return null
	const count = view.getUint16(end + 10, true)
	let at = view.getUint32(end + 16, true)
	const entries: ZipEntry[] = []
	for (let n = 0; n < count; n++) {
		if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null
		const nameLength = view.getUint16(at + 28, true)
		const extra = view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
		entries.push({ name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)), unpackedSize: view.getUint32(at + 24, true) })
		at += 46 + nameLength + extra
	}
	return entries
}

/** 'pdf', 'docx', or null for anything else (a renamed image, an old .doc, a zip that is no Word file). */
export function detectResumeType(bytes: Uint8Array): ResumeType | null {
	if (startsWith(bytes, '%PDF-')) return 'pdf'
	if (startsWith(bytes, 'PK\u0003\u0004')) {
		const entries = zipEntries(bytes)
		if (entries?.some((e) => e.name === 'word/document.xml') && entries.some((e) => e.name === '[Content_Types].xml')) return 'docx'
	}
	return null
}

export class UnreadableResume extends Error {}

/** The résumé's text, cleaned of control characters; throws `UnreadableResume` when the file cannot be read. */
export async function extractResumeText(bytes: Uint8Array, type: ResumeType): Promise<string> {
	let text: string
	try {
		if (type === 'pdf') {
			const pdf = await getDocumentProxy(new Uint8Array(bytes))
			text = String((await extractText(pdf, { mergePages: true })).text)
		} else {
			const unpacked = (zipEntries(bytes) ?? []).reduce((sum, e) => sum + e.unpackedSize, 0)
			if (unpacked > MAX_UNPACKED_BYTES) throw new UnreadableResume('the Word file unpacks to too much data')
			text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value
		}
	} catch (error) {
		throw error instanceof UnreadableResume ? error : new UnreadableResume('the file could not be read', { cause: error })
	}
	return cutText(
		cleanText(text)
			.replace(/[ \t]+\n/g, '\n')
			.replace(/\n{3,}/g, '\n\n')
			.trim(),
		MAX_TEXT_CHARS,
	)
}

/** Stores the file under a random name; returns its key in the file store. */
export async function storeResume(deps: Pick<AppDeps, 'config'>, workspaceId: string, bytes: Uint8Array, type: ResumeType): Promise<string> {
	const key = `resumes/${workspaceId}/${randomToken(16)}.${type}`
	await fileStore(deps.config).put(key, bytes, RESUME_MIME[type])
	return key
}

export async function deleteResume(deps: Pick<AppDeps, 'config'>, key: string): Promise<void> {
	await fileStore(deps.config).delete(key).catch(() => {})
}
