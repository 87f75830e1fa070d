import { describe, expect, test } from 'bun:test'
import { cleanFileName } from './content.ts'

describe('cleanFileName', () => {
	test('paths, control and invisible characters go; a name with nothing readable left gets the fallback', () => {
		expect(cleanFileName('C:\\fakepath\\visa scan.pdf', 'visa.pdf')).toBe('visa scan.pdf')
		expect(cleanFileName('../../etc/pass"wd\r\n.pdf', 'x.pdf')).toBe('passwd.pdf')
		// A right-to-left override makes "invoice\u202Efdp.exe" read as "invoiceexe.pdf".
		expect(cleanFileName('invoice\u202efdp.exe', 'x.pdf')).toBe('invoicefdp.exe')
		expect(cleanFileName('\u200b\u2066\u3164', 'visa.pdf')).toBe('visa.pdf')
		expect(cleanFileName(`${'a'.repeat(130)}.pdf`, 'x.pdf')).toBe(`${'a'.repeat(116)}.pdf`)
	})
})
