/**
 * The one spelling of an address and its domain (email.ts): Unicode in any case, with or without the
 * trailing dot, and the ASCII form are one; the one check of an address, saying when its domain is
 * the problem; the spellings erasure searches sent mail for.
 */
import { describe, expect, test } from 'bun:test'
import { domainOf, emailProblem, emailSpellings, isEmailAddress, mayBeEmailOnFile, normalDomain, normalEmail, readableDomain, readableEmail } from './email.ts'

describe('one spelling of a domain', () => {
	test('Unicode in any case, with or without the trailing dot, and the ASCII form are one; what has no ASCII form is null', () => {
		for (const typed of ['Bücher.example', 'BÜCHER.EXAMPLE.', ' bücher.example ', 'xn--bcher-kva.example', 'XN--BCHER-KVA.EXAMPLE.'])
			expect(normalDomain(typed)).toBe('xn--bcher-kva.example')
		for (const typed of ['a b.example', 'xn--zz.example', '', '.', 'ann@example.com']) expect(normalDomain(typed)).toBeNull()
		expect(normalEmail(' Ann@Bücher.Example. ')).toBe('ann@xn--bcher-kva.example')
		expect(domainOf('ann@BÜCHER.example')).toBe('xn--bcher-kva.example')
		expect(readableDomain('xn--bcher-kva.example')).toBe('bücher.example (xn--bcher-kva.example)')
		expect(readableDomain('firm.example')).toBe('firm.example')
	})
})

describe('one check of an address', () => {
	test('an address in either spelling is one; a domain with no ASCII form is said to be the problem; anything else gets the form’s words', () => {
		expect(emailProblem(normalEmail('Ann@Bücher.example'))).toBeNull()
		expect(emailProblem(normalEmail('ann@xn--bcher-kva.example.'))).toBeNull()
		expect(emailProblem(normalEmail('a@exa mple.com'))).toBe('“exa mple.com” is not a domain name: it has no ASCII (IDNA) form')
		expect(emailProblem(normalEmail('a@xn--a.example'))).toBe('“xn--a.example” is not a domain name: it has no ASCII (IDNA) form')
		for (const typed of ['not an address', 'a@', '@example.com', 'a@localhost', 'a b@example.com', 'a@b@example.com', '<a@example.com>'])
			expect({ typed, problem: emailProblem(normalEmail(typed), 'Enter an e-mail address') }).toEqual({ typed, problem: 'Enter an e-mail address' })
	})

	test('letters have one form (NFC): a combining accent is the composed letter, in any case', () => {
		expect(normalEmail('jose\u0301@firm.example')).toBe('jos\u00e9@firm.example')
		expect(normalEmail('JOSE\u0301@Firm.Example')).toBe(normalEmail('jos\u00e9@firm.example'))
		expect(emailProblem(normalEmail('jose\u0301@firm.example'))).toBeNull()
	})

	test('letters have one form (NFKC): full-width letters, a full-width @ and ligatures fold to the plain address', () => {
		expect(normalEmail('ｏｗｎｅｒ@a.test')).toBe('owner@a.test')
		expect(normalEmail('ＯＷＮＥＲ＠a.test')).toBe('owner@a.test')
		expect(normalEmail('ﬁnn@a.test')).toBe('finn@a.test')
		// A compatibility letter that folds to a capital is lower-cased after: one pass is the normal form.
		expect(normalEmail('\u210cal@a.test')).toBe('hal@a.test')
		expect(normalEmail(normalEmail('\u210cal@a.test'))).toBe('hal@a.test')
	})

	test('the part before the @ is a dot-atom: no dot first or last, no two in a row; so is the domain', () => {
		for (const typed of ['a..b@a.test', '.a@a.test', 'a.@a.test', '.@a.test', 'a@b..test', 'a@.b.test'])
			expect({ typed, problem: emailProblem(normalEmail(typed), 'Enter an e-mail address') }).toEqual({ typed, problem: 'Enter an e-mail address' })
		for (const typed of ['a.b@a.test', 'a.b.c@sub.a.test', "o'neil+jobs@a.test"]) expect(isEmailAddress(normalEmail(typed))).toBe(true)
	})

	test('an account kept from before the dot-atom rule may still be looked up by its address (a dot first, last or doubled before the @), nothing else', () => {
		for (const typed of ['a..b@a.test', '.a@a.test', 'A.@A.test', 'a.b@a.test'])
			expect({ typed, onFile: mayBeEmailOnFile(normalEmail(typed)) }).toEqual({ typed, onFile: true })
		for (const typed of [
			'a@b..test',
			'a@.b.test',
			'a@b',
			'a b@a.test',
			'a@b@a.test',
			'a\u200b..b@a.test',
			'a\ufffe@a.test',
			'',
			'@a.test',
			`${'a'.repeat(250)}@a.test`,
		])
			expect({ typed, onFile: mayBeEmailOnFile(normalEmail(typed)) }).toEqual({ typed, onFile: false })
	})

	test('an address with invisible or control characters is refused with words saying so, whatever the form’s own words', () => {
		for (const typed of [
			'jane.doe\u200b@firm.example',
			'\u202egro.live@firm.example',
			'jane\u2066@firm.example',
			'ja\u00adne@firm.example',
			'jane\ufeff@firm.example',
			'a\u0085b@firm.example',
			'a\u0000b@example.com',
			'a\u001b[31m@example.com',
			'ann\u{e0041}@firm.example',
			'ann\ufffe@firm.example',
			'ann\uffff@firm.example',
			'ann\u{10ffff}@firm.example',
		]) {
			const email = normalEmail(typed)
			expect({ typed, problem: emailProblem(email, 'Enter an e-mail address') }).toEqual({
				typed,
				problem: 'has invisible or control characters in it (such as a zero-width space or a direction mark): type it again without them',
			})
			expect(isEmailAddress(email)).toBe(false)
		}
		expect(emailProblem(normalEmail('half\ud800@firm.example'))).toBe('holds a broken character (a lone surrogate)')
	})

	test('at most 254 characters, counted in the ASCII form the address is kept in', () => {
		const local = 'a'.repeat(64)
		const label = (n: number) => 'b'.repeat(n)
		const fits = `${local}@${label(63)}.${label(63)}.${label(53)}.example`
		expect(fits.length).toBe(254)
		expect(isEmailAddress(fits)).toBe(true)
		expect(isEmailAddress(`a${fits}`)).toBe(false)
		// 250 characters typed, 256 in ASCII: too long to send.
		const unicode = `${local}@${label(63)}.${label(63)}.${label(40)}.bücher-ü.example`
		expect(unicode.length).toBeLessThan(254)
		expect(normalEmail(unicode).length).toBeGreaterThan(254)
		expect(emailProblem(normalEmail(unicode))).toBe('must be an e-mail address')
	})
})

test('the spellings sent mail may hold an address in: as given, normal, its domain in Unicode; a name or phone is itself', () => {
	expect(emailSpellings('ann@xn--bcher-kva.example')).toEqual(['ann@xn--bcher-kva.example', 'ann@bücher.example'])
	expect(emailSpellings('Ann@Bücher.example')).toEqual(['Ann@Bücher.example', 'ann@xn--bcher-kva.example', 'ann@bücher.example'])
	expect(emailSpellings('ann@firm.example')).toEqual(['ann@firm.example'])
	expect(emailSpellings('+1 512 555 0100')).toEqual(['+1 512 555 0100'])
	expect(readableEmail('ann@xn--bcher-kva.example')).toBe('ann@bücher.example')
	expect(readableEmail('ann@firm.example')).toBe('ann@firm.example')
})
