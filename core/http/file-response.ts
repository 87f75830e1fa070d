/**
 * Stored files (résumés, candidate documents) served back to a signed-in person. One builder, so
 * every file address answers with the same protections:
 *
 * - the type is one of the few the uploads accept (their content was checked when they were
 *   stored); the first bytes are checked again here, and anything else — a type that does not
 *   match its bytes, or a type outside the list, `text/html` included — goes out as
 *   `application/octet-stream`, so a browser never renders a stored file as a page;
 * - `X-Content-Type-Options: nosniff`, and `Content-Security-Policy: sandbox` (no script, no
 *   same-origin rights, nothing loaded) even if a browser did render it;
 * - `Content-Disposition: inline` only for a PDF (the browser's viewer shows it; the candidate page
 *   frames it, hence `frame-ancestors 'self'` on that one answer), `attachment` for everything
 *   else; the file name keeps the extension of the type it is served as;
 * - `Cache-Control: no-store`: these are personal documents, never kept by a browser or a proxy.
 *
 * File addresses are not guessable from record ids: each carries `fileReference`, a signature of
 * the stored file's key with the server secret (and so stops working when the file is replaced).
 *
 * Whether the person may have the file is the services' decision (they answer 404 otherwise).
 */
import { create as contentDisposition } from 'content-disposition'
import { hmacSha256, safeEqual } from '../credentials.ts'
import { cleanFileName } from '../file-name.ts'

export const PDF = 'application/pdf'
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const OCTET_STREAM = 'application/octet-stream'

/** The types files are served as, the bytes each must start with, and the extension each gets. */
const SERVED: Record<string, { magic: number[]; extension: string }> = {
	[PDF]: { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], extension: 'pdf' }, // %PDF-
	'image/jpeg': { magic: [0xff, 0xd8, 0xff], extension: 'jpg' },
	'image/png': { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], extension: 'png' },
	[DOCX]: { magic: [0x50, 0x4b, 0x03, 0x04], extension: 'docx' }, // a zip
}

/** The unguessable part of a stored file's address: its key signed with the server secret (32 characters). */
export function fileReference(secret: Uint8Array, storageKey: string): string {
	return hmacSha256(secret, `stored-file|${storageKey}`).toString('base64url').slice(0, 32)
}

/** True when `reference` (taken from an address) is the one of this stored file (compared in constant time). */
export const isFileReference = (secret: Uint8Array, storageKey: string, reference: string) => safeEqual(reference, fileReference(secret, storageKey))

export interface StoredFile {
	readonly bytes: Uint8Array
	/** The type recorded when the file was stored. */
	readonly contentType: string
	/** The name to offer (as the uploader named it). */
	readonly fileName: string
}

/** The type a file goes out as: its recorded type when that is a served type its bytes match, else octet-stream. */
export function servedType(file: Pick<StoredFile, 'bytes' | 'contentType'>): string {
	const type = file.contentType.split(';')[0]!.trim().toLowerCase()
	const rule = Object.hasOwn(SERVED, type) ? SERVED[type]! : null
	return rule?.magic.every((b, i) => file.bytes[i] === b) ? type : OCTET_STREAM
}

/** The offered name as `cleanFileName` leaves it, ending with the served type's extension. */
function offeredName(fileName: string, type: string): string {
	const base = cleanFileName(fileName, 'file')
	const extension = SERVED[type]?.extension ?? 'bin'
	return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`
}

/**
 * The `Content-Disposition` of a download (`attachment`, or `inline` for a file a browser shows
 * itself): the name cleaned (`cleanFileName`) and written by RFC 6266, quoted with an ASCII
 * fallback and the UTF-8 name in `filename*`. Every download names its file through this, never by
 * putting a name between quotes itself.
 */
export function downloadDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
	return contentDisposition(cleanFileName(fileName, 'download'), { type })
}

export function fileResponse(file: StoredFile): Response {
	const type = servedType(file)
	const inline = type === PDF
	// The store hands back bytes on an ArrayBuffer (never a SharedArrayBuffer), which a body may be.
	return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
		headers: {
			'Content-Type': type,
			'Content-Length': String(file.bytes.byteLength),
			'Content-Disposition': downloadDisposition(offeredName(file.fileName, type), inline ? 'inline' : 'attachment'),
			'X-Content-Type-Options': 'nosniff',
			'Content-Security-Policy': `sandbox; default-src 'none'; frame-ancestors ${inline ? "'self'" : "'none'"}`,
			'X-Frame-Options': inline ? 'SAMEORIGIN' : 'DENY',
			'Cache-Control': 'no-store',
		},
	})
}
