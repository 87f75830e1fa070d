/**
 * The one way a file name from someone else (an applicant's résumé, a candidate's upload) is made a
 * name to store and to offer: in a download's `Content-Disposition` (`core/http/file-response.ts`)
 * and inside the ZIP of a candidate's data.
 */
import { fileText, isBlank } from './untrusted.ts'

// Control characters and what Windows forbids in a name (a path is cut off before).
const NOT_IN_NAME = /[\0-\x1f\x7f"<>|*?:]/g

/**
 * The base name without paths, control or invisible characters (a right-to-left override made
 * `invoice\u202Efdp.exe` read as `invoiceexe.pdf`), lone surrogates (half a character cannot be
 * percent-encoded: the download failed) or noncharacters, at most `max` characters, cut from the
 * start so the extension stays; a fallback when nothing readable is left.
 */
export function cleanFileName(name: string, fallback: string, max = 120): string {
	const base = name.split(/[\\/]/).pop() ?? ''
	const clean = fileText(base).replace(NOT_IN_NAME, '').replace(/\s+/g, ' ').trim()
	if (isBlank(clean)) return fallback
	const chars = [...clean]
	return chars.length > max ? chars.slice(chars.length - max).join('') : clean
}
