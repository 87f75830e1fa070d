/** RFC 8601 `Authentication-Results`: the parser, and which results verify a From address. */
import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../core/config.ts'
import { modules } from '../index.ts'
import { checkSender, parseAuthResults, verdictOf } from './authentication-results.ts'
import { inboxSettings } from './settings.ts'

describe('parseAuthResults (RFC 8601 §2.2)', () => {
	test('a field as Gmail writes it: folded, comments with colons and at-signs, header.i, several methods', () => {
		const value = ` mx.google.com;\r\n       dkim=pass header.i=@github.com header.s=pf2023 header.b=Ab+/de=;\r\n       spf=pass (google.com: domain of noreply@github.com designates 192.30.252.201 as permitted sender) smtp.mailfrom=noreply@github.com;\r\n       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=github.com`
		expect(parseAuthResults(value.replace(/\r\n/g, ''))).toEqual({
			authservId: 'mx.google.com',
			results: [
				{ method: 'dkim', result: 'pass', props: { 'header.i': '@github.com', 'header.s': 'pf2023', 'header.b': 'Ab+/de=' } },
				{ method: 'spf', result: 'pass', props: { 'smtp.mailfrom': 'noreply@github.com' } },
				{ method: 'dmarc', result: 'pass', props: { 'header.from': 'github.com' } },
			],
		})
	})

	test('a version, method versions, nested comments, quoted strings with quoted pairs, reason, SRS addresses, case', () => {
		const value =
			'"mx.example.com" 1 (the (nested) comment \\) still); SPF/1 = Pass (ok) reason="a \\"quoted\\" reason" smtp.mailfrom=SRS0=ab=cd=example.org=x@fwd.example ; DKIM=FAIL header.d=(c)example.org'
		expect(parseAuthResults(value)).toEqual({
			authservId: 'mx.example.com',
			results: [
				{ method: 'spf', result: 'pass', props: { reason: 'a "quoted" reason', 'smtp.mailfrom': 'SRS0=ab=cd=example.org=x@fwd.example' } },
				{ method: 'dkim', result: 'fail', props: { 'header.d': 'example.org' } },
			],
		})
	})

	test('"none": no method was applied', () => {
		expect(parseAuthResults('mx.example.com; none')).toEqual({ authservId: 'mx.example.com', results: [] })
		expect(parseAuthResults('mx.example.com 1 ; none (nothing to check)')).toEqual({ authservId: 'mx.example.com', results: [] })
	})

	test('a field it cannot read to the end gives nothing, not part of it', () => {
		for (const bad of [
			'',
			'   ',
			'mx.example.com; dmarc=pass (unclosed',
			'mx.example.com; dmarc=pass header.from="unclosed',
			'mx.example.com; dmarc pass',
			'mx.example.com; =pass',
			'mx.example.com; dmarc=pass header.from',
			'mx.example.com; dmarc=pass headerfrom=x.com',
			'mx.example.com dmarc=pass',
			'mx.example.com; dmarc=pass; spf=',
			`mx.example.com; ${'x'.repeat(17_000)}`,
		])
			expect(parseAuthResults(bad)).toBeNull()
	})

	test('a property named like one of Object’s own is only data', () => {
		const parsed = parseAuthResults('mx.example.com; dkim=pass header.constructor=x header.tostring=y')
		expect(parsed?.results[0]?.props).toEqual({ 'header.constructor': 'x', 'header.tostring': 'y' })
		// Not a keyword (RFC 8601: letters, digits, hyphens): the field does not parse.
		expect(parseAuthResults('mx.example.com; dkim=pass header.__proto__=y')).toBeNull()
	})
})

describe('checkSender: only our receiving server’s topmost field counts', () => {
	const ours = 'mx.benchline.test'
	const from = 'nora@example.org'

	test('DMARC pass for the From domain verifies; for another domain, or failing, does not', () => {
		expect(checkSender([`${ours}; dmarc=pass header.from=example.org`], ours, from)).toEqual({ check: 'verified', reason: 'DMARC passed' })
		expect(checkSender([`${ours}; dmarc=pass header.from=EXAMPLE.org.`], ours, from).check).toBe('verified')
		expect(checkSender([`${ours}; dmarc=pass header.from=attacker.example`], ours, from).check).toBe('not_verified')
		// DMARC failed: an aligned DKIM pass beside it does not overrule it.
		expect(checkSender([`${ours}; dkim=pass header.d=example.org; dmarc=fail header.from=example.org`], ours, from)).toEqual({
			check: 'not_verified',
			reason: 'DMARC failed for the From domain',
		})
	})

	test('another server’s field (what a sender can write) counts for nothing, even saying pass', () => {
		const forged = 'mx.google.com; dmarc=pass header.from=example.org; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=nora@example.org'
		expect(checkSender([forged], ours, from)).toEqual({ check: 'not_verified', reason: 'The receiving server recorded no results for this message' })
		expect(checkSender([forged, `${ours}; spf=fail smtp.mailfrom=example.org`], ours, from).check).toBe('not_verified')
		// The authserv-id is compared case aside.
		expect(checkSender([`MX.Benchline.TEST; dmarc=pass header.from=example.org`], ours, from).check).toBe('verified')
	})

	test('case aside is ASCII case only: a look-alike that lower-cases into our id (the Kelvin sign) is another server’s', () => {
		const kelvin = '\u212A'
		expect(kelvin.toLowerCase()).toBe('k')
		const bank = 'mx.bank.test'
		// A copy the receiving server does not recognise as its own (and so does not delete) is not ours.
		expect(checkSender([`mx.ban${kelvin}.test; dmarc=pass header.from=example.org`], bank, from)).toEqual({
			check: 'not_verified',
			reason: 'The receiving server recorded no results for this message',
		})
		expect(checkSender([`mx.ban${kelvin}.test; dmarc=pass (unclosed`, `${bank}; dmarc=pass header.from=example.org`], bank, from).check).toBe('verified')
		// Nor is a domain with one the From's domain (or one above it).
		const verdict = (results: string, address = from) => checkSender([`${ours}; ${results}`], ours, address).check
		expect(verdict(`dmarc=pass header.from=${'example.org'.replace('e', '\u0435')}`)).toBe('not_verified')
		expect(verdict('dkim=pass header.d=key.example.org', `nora@${kelvin}ey.example.org`)).toBe('not_verified')
		expect(verdict(`dkim=pass header.d=${kelvin}ey.example.org`, 'nora@key.example.org')).toBe('not_verified')
	})

	test('the topmost field of ours decides: a copy further down (a sender’s, left by a server that does not delete them) does not', () => {
		const real = `${ours}; dmarc=fail header.from=example.org`
		const copy = `${ours}; dmarc=pass header.from=example.org`
		expect(checkSender([real, copy], ours, from).check).toBe('not_verified')
		expect(checkSender(['other.example; dmarc=pass', copy, real], ours, from).check).toBe('verified')
		// Ours, unreadable, is still ours: what is below it does not count.
		expect(checkSender([`${ours}; dmarc=pass (unclosed`, copy], ours, from)).toEqual({
			check: 'not_verified',
			reason: 'The receiving server’s results could not be read',
		})
	})

	test('without a DMARC verdict: DKIM or SPF passing for the From domain or one above it verifies; below it or elsewhere does not', () => {
		const verdict = (results: string, address = from) => checkSender([`${ours}; ${results}`], ours, address).check
		expect(verdict('dkim=pass header.d=example.org')).toBe('verified')
		expect(verdict('dkim=pass header.i=@example.org')).toBe('verified')
		expect(verdict('dmarc=none header.from=example.org; dkim=pass header.d=example.org')).toBe('verified')
		expect(verdict('dmarc=temperror; dkim=pass header.d=example.org')).toBe('verified')
		expect(verdict('dkim=pass header.d=example.org', 'nora@mail.example.org')).toBe('verified')
		expect(verdict('spf=pass smtp.mailfrom=bounce@example.org')).toBe('verified')
		expect(verdict('spf=pass smtp.mailfrom=example.org')).toBe('verified')
		expect(verdict('dkim=pass header.d=mail.example.org')).toBe('not_verified')
		expect(verdict('dkim=pass header.d=badexample.org')).toBe('not_verified')
		expect(verdict('dkim=pass header.d=attacker.example; spf=pass smtp.mailfrom=x@attacker.example')).toBe('not_verified')
		expect(verdict('dkim=fail header.d=example.org; spf=softfail smtp.mailfrom=example.org')).toBe('not_verified')
		expect(verdict('dkim=pass')).toBe('not_verified')
		expect(verdict('none')).toBe('not_verified')
		// A top-level domain alone is no domain anyone can pass for.
		expect(verdict('dkim=pass header.d=org')).toBe('not_verified')
	})

	test('SPF for an empty MAIL FROM (delivery reports) checked the HELO name: it verifies a From at that name, and only when there was no MAIL FROM', () => {
		const verdict = (results: string, address = 'MAILER-DAEMON@mx.example.org') => checkSender([`${ours}; ${results}`], ours, address).check
		expect(verdict('spf=pass smtp.helo=mx.example.org')).toBe('verified')
		expect(verdict('spf=pass smtp.mailfrom="" smtp.helo=mx.example.org')).toBe('verified')
		expect(verdict('spf=pass smtp.mailfrom=<> smtp.helo=mx.example.org')).toBe('verified')
		expect(verdict('spf=pass smtp.helo=mx.example.org', 'nora@example.org')).toBe('not_verified')
		expect(verdict('spf=pass smtp.helo=relay.elsewhere.example')).toBe('not_verified')
		// A MAIL FROM was checked: the HELO name counts for nothing.
		expect(verdict('spf=pass smtp.mailfrom=x@attacker.example smtp.helo=mx.example.org')).toBe('not_verified')
		expect(verdict('spf=fail smtp.helo=mx.example.org')).toBe('not_verified')
	})

	test('a From with an internationalised domain is checked in its ASCII form, written either way (a look-alike still is not: above)', () => {
		const verdict = (results: string, address: string) => checkSender([`${ours}; ${results}`], ours, address).check
		for (const address of ['nora@bücher.example', 'nora@Bücher.example.', 'nora@xn--bcher-kva.example', 'nora@XN--BCHER-KVA.example'])
			for (const results of [
				'dkim=pass header.d=xn--bcher-kva.example',
				'spf=pass smtp.mailfrom=bounce@bücher.example',
				'dmarc=pass header.from=bücher.example',
			])
				expect({ address, results, check: verdict(results, address) }).toEqual({ address, results, check: 'verified' })
		expect(verdict('dkim=pass header.d=mail.xn--bcher-kva.example', 'nora@bücher.example')).toBe('not_verified')
		expect(verdict('dkim=pass header.d=xn--bcher-kva.example', 'nora@xn--bcher-kva.example.evil.example')).toBe('not_verified')
		// A domain with no ASCII form has no domain to check.
		expect(verdict('dkim=pass header.d=xn--a.example', 'nora@xn--a.example')).toBe('not_verified')
	})

	test('a From without a domain to check is not verified', () => {
		expect(verdictOf({ authservId: ours, results: [{ method: 'dmarc', result: 'pass', props: {} }] }, 'root@localhost')).toEqual({
			check: 'not_verified',
			reason: 'The From address has no domain to check',
		})
	})
})

describe('INBOUND_MAIL_AUTHSERV_ID', () => {
	test('unset: senders are not checked; set: the token, as written', () => {
		expect(loadConfig({}, modules).settings.of(inboxSettings).inboundMailAuthservId).toBeUndefined()
		expect(loadConfig({ INBOUND_MAIL_AUTHSERV_ID: ' mx.example.com ' }, modules).settings.of(inboxSettings).inboundMailAuthservId).toBe('mx.example.com')
	})

	test('what is no authserv-id stops start-up, naming the variable', () => {
		for (const bad of ['mx.example.com; spf=pass', 'mx example.com', '"mx.example.com"', 'a'.repeat(256)]) {
			expect(() => loadConfig({ INBOUND_MAIL_AUTHSERV_ID: bad }, modules)).toThrow(ConfigError)
			expect(() => loadConfig({ INBOUND_MAIL_AUTHSERV_ID: bad }, modules)).toThrow('INBOUND_MAIL_AUTHSERV_ID must be')
		}
	})
})
