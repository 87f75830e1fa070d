/** The one cleaning of a file name from someone else (core/file-name.ts): stored, offered in a download, named in a ZIP. */
import { describe, expect, test } from 'bun:test'
import { cleanFileName } from './file-name.ts'

describe('cleanFileName', () => {
	test('paths, control and invisible characters go; a name with nothing readable left gets the fallback', () => {
		expect(cleanFileName('C:\\fakepath\\visa scan.pdf', 'visa.pdf')).toBe('visa scan.pdf')
		expect(cleanFileName('../../etc/pass"wd\r\n.pdf', 'x.pdf')).toBe('passwd.pdf')
		// A right-to-left override makes "invoice\u202Efdp.exe" read as "invoiceexe.pdf".
		expect(cleanFileName('invoice\u202efdp.exe', 'x.pdf')).toBe('invoicefdp.exe')
		expect(cleanFileName('\u200b\u2066\u3164', 'visa.pdf')).toBe('visa.pdf')
		expect(cleanFileName(`${'a'.repeat(130)}.pdf`, 'x.pdf')).toBe(`${'a'.repeat(116)}.pdf`)
	})

	test('noncharacters and line separators go, and half a character becomes U+FFFD: every name can be percent-encoded', () => {
		expect(cleanFileName('cv\ufffe\uffff\ufdd0\u2028\u2029.pdf', 'x.pdf')).toBe('cv.pdf')
		expect(cleanFileName('cv\udc00.pdf', 'x.pdf')).toBe('cv\ufffd.pdf')
		expect(() => encodeURIComponent(cleanFileName('\ud800\ud800b', 'x'))).not.toThrow()
		expect(cleanFileName('long.pdf', 'x', 6)).toBe('ng.pdf')
	})
})
