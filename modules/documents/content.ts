/**
 * What an uploaded file really is, from its first bytes (never from its name or the browser's
 * claim), and the name an attachment gets (`cleanFileName`, core/file-name.ts, cleans an uploaded one).
 */

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024

export type DocumentType =
	| { contentType: 'application/pdf'; extension: 'pdf' }
	| { contentType: 'image/jpeg'; extension: 'jpg' }
	| { contentType: 'image/png'; extension: 'png' }

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b)

/** PDF (`%PDF-`), JPEG (FF D8 FF) or PNG (the 8-byte signature); null for anything else. */
export function detectType(bytes: Uint8Array): DocumentType | null {
	if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { contentType: 'application/pdf', extension: 'pdf' }
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { contentType: 'image/jpeg', extension: 'jpg' }
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: 'image/png', extension: 'png' }
	return null
}

/** A file name for an attachment: `Jane_Doe-dl.pdf` (safe in any mail client). */
export function attachmentName(candidateName: string, label: string, extension: string): string {
	const part = (s: string) =>
		s
			.normalize('NFKD')
			.replace(/[^\w\s-]/g, '')
			.trim()
			.replace(/\s+/g, '_')
			.slice(0, 60) || 'candidate'
	return `${part(candidateName)}-${part(label)}.${extension}`
}
