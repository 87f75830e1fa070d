/**
 * Whether a received message's From address is genuine, by what the receiving mail server found
 * (RFC 8601 `Authentication-Results`). The portal does no SPF, DKIM or DMARC check itself (no DNS
 * look-ups on the webhook's path): it reads the results its own receiving server wrote.
 *
 * Rules:
 * - Only a field whose authserv-id is the configured one (`INBOUND_MAIL_AUTHSERV_ID`, case aside)
 *   counts: anyone can write `Authentication-Results` into the mail they send. Of those, only the
 *   topmost counts: a receiving server adds its field above everything the message arrived with
 *   (RFC 8601 §5 also has it delete copies naming it further down; one that does not would leave a
 *   sender's forged copy below its own).
 * - Verified: `dmarc=pass` (for the From's domain, when the result names it: `header.from`); without
 *   a DMARC result (or `none`, `temperror`, `permerror`: no policy to go by), a `dkim=pass` whose signing
 *   domain (`header.d`, else the domain of `header.i`) is the From's domain or one it is under, or an
 *   `spf=pass` whose `smtp.mailfrom` domain is (for an empty MAIL FROM, as delivery reports have, the
 *   `smtp.helo` name). Alignment here is that strict form: the From's domain
 *   at or under the authenticated one (passing DKIM or SPF for a domain needs its DNS, which rules its
 *   subdomains). The relaxed DMARC form (a sibling under one organisational domain) would need the
 *   public suffix list; the receiving server's `dmarc` result already applies it.
 * - Anything else (no field from our server, one that does not parse, `dmarc=fail`, passes for other
 *   domains only) is not verified.
 *
 * The parser follows RFC 8601's grammar (§2.2): comments (nested, with quoted pairs) and folding
 * anywhere between tokens, quoted-string values, `method/version`, `reason=`, `ptype.property=value`
 * with values that may be addresses (`smtp.mailfrom=SRS0=x=y@example.com`). A field it cannot read to
 * the end gives no result at all rather than a partial one. mailauth (on the registry) reads these
 * fields only through an internal file that does not handle nested comments or quoted pairs, and
 * keeps one result per method; hence this small parser.
 */
import { normalDomain, unicodeDomain } from '../../core/email.ts'

export interface AuthResult {
	/** The method, lower-cased (`dmarc`, `dkim`, `spf`, …), its version dropped. */
	method: string
	/** The result, lower-cased (`pass`, `fail`, `none`, …). */
	result: string
	/** `ptype.property` (lower-cased) → value, as written; the first of each kept. */
	props: Record<string, string>
}

export interface AuthResultsField {
	authservId: string
	results: AuthResult[]
}

/** A field's value is at most this long (a header line is at most 998; folded fields are longer but not by this much). */
const MAX_FIELD = 16_000
const MAX_RESULTS = 100
const KEYWORD = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/

/**
 * Lower case for ASCII letters only, as RFC 8601 (§2.5) and DNS compare names: `toLowerCase` also
 * folds look-alikes into ASCII (the Kelvin sign U+212A becomes `k`), so a name a server would never
 * call its own, or a domain no DNS holds, would compare equal to one it does.
 */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase())

class Reader {
	i = 0
	constructor(readonly s: string) {}
	get done() {
		return this.i >= this.s.length
	}
	peek() {
		return this.s[this.i]
	}
	/** Skips folding white space and comments (nested, `\` quoting one character); false on an unclosed comment. */
	cfws(): boolean {
		for (;;) {
			while (!this.done && /\s/.test(this.peek()!)) this.i++
			if (this.peek() !== '(') return true
			let depth = 0
			do {
				const c = this.s[this.i++]
				if (c === undefined) return false
				if (c === '\\') this.i++
				else if (c === '(') depth++
				else if (c === ')') depth--
			} while (depth > 0)
		}
	}
	/** A run of characters up to white space, a comment, `;`, `"` or one of `stops`. */
	token(stops = ''): string {
		const start = this.i
		while (!this.done && !/[\s();"]/.test(this.peek()!) && !stops.includes(this.peek()!)) this.i++
		return this.s.slice(start, this.i)
	}
	/** A quoted string (its quoted pairs undone), or null when it is not closed. */
	quoted(): string | null {
		let out = ''
		this.i++
		for (;;) {
			const c = this.s[this.i++]
			if (c === undefined) return null
			if (c === '"') return out
			out += c === '\\' ? (this.s[this.i++] ?? '') : c
		}
	}
	/** A token or a quoted string; null when neither is there. */
	value(stops = ''): string | null {
		if (this.peek() === '"') return this.quoted()
		const t = this.token(stops)
		return t || null
	}
	eat(c: string): boolean {
		if (this.peek() !== c) return false
		this.i++
		return true
	}
}

/** One `resinfo` after its `;`: `method[/version]=result [reason=…] [ptype.property=value …]`; null when malformed. */
function resinfo(r: Reader): AuthResult | null {
	if (!r.cfws()) return null
	const method = asciiLower(r.token('=/'))
	if (!KEYWORD.test(method) || !r.cfws()) return null
	if (r.eat('/')) {
		if (!r.cfws() || !/^\d+$/.test(r.token('=')) || !r.cfws()) return null
	}
	if (!r.eat('=') || !r.cfws()) return null
	const result = asciiLower(r.token())
	if (!KEYWORD.test(result)) return null
	const props: Record<string, string> = {}
	for (;;) {
		if (!r.cfws()) return null
		if (r.done || r.peek() === ';') return { method, result, props }
		const key = asciiLower(r.token('='))
		if (!(key === 'reason' || /^[a-z0-9-]+\.[a-z0-9-]+$/.test(key)) || !r.cfws() || !r.eat('=') || !r.cfws()) return null
		const value = r.value()
		if (value === null) return null
		// `Object.hasOwn` rather than `in`: a property named like one of Object's own is data here.
		if (!Object.hasOwn(props, key)) props[key] = value
	}
}

/** The authserv-id and results of one `Authentication-Results` field's value; null when it does not parse to the end. */
export function parseAuthResults(value: string): AuthResultsField | null {
	if (value.length > MAX_FIELD) return null
	const r = new Reader(value)
	if (!r.cfws()) return null
	const authservId = r.value()
	if (!authservId || !r.cfws()) return null
	// An optional version (a number) before the first `;`.
	if (/\d/.test(r.peek() ?? '')) {
		if (!/^\d+$/.test(r.token()) || !r.cfws()) return null
	}
	const results: AuthResult[] = []
	while (!r.done) {
		if (!r.eat(';') || results.length >= MAX_RESULTS) return null
		const save = r.i
		// `; none`: no method was applied.
		if (r.cfws() && asciiLower(r.token()) === 'none' && r.cfws() && r.done) break
		r.i = save
		const one = resinfo(r)
		if (!one) return null
		results.push(one)
	}
	return { authservId, results }
}

export type SenderCheck = 'verified' | 'not_verified'

export interface SenderVerdict {
	check: SenderCheck
	/** Why, in our words (no text of the message): shown to people beside the label. */
	reason: string
}

/**
 * The domain of an address (or a domain name) in its normal form (core/email.ts, as the inbox files the
 * From under: `nora@Bücher.example.` is `xn--bcher-kva.example`, and a server names it so), when it is
 * written in that form or in the Unicode one IDNA gives back for it, case aside for ASCII letters. A
 * look-alike IDNA only maps onto a name (the Kelvin sign for `k`) is no spelling of it: null, as for
 * text with no ASCII form or a single label.
 */
const domainOf = (address: string | undefined) => {
	const at = address?.lastIndexOf('@') ?? -1
	const written = asciiLower((at >= 0 ? address!.slice(at + 1) : (address ?? '')).trim())
		.replace(/\.$/, '')
		.normalize('NFC')
	const domain = normalDomain(written)
	if (!domain || (written !== domain && written !== unicodeDomain(domain))) return null
	return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : null
}

/**
 * The domain SPF checked: the MAIL FROM's, or, when the MAIL FROM was empty (delivery reports are
 * sent so), the HELO name's (RFC 7208 §2.4, which RFC 7489 §4.1 takes for DMARC).
 */
const spfIdentity = (x: AuthResult) => domainOf(x.props['smtp.mailfrom']) ?? (x.props['smtp.mailfrom']?.includes('@') ? null : domainOf(x.props['smtp.helo']))

/** The From's domain is the authenticated one or under it (see the rules above). */
const aligned = (authenticated: string | null, from: string) => authenticated !== null && (from === authenticated || from.endsWith(`.${authenticated}`))

/** What the results of our server's field say about a From address (see the rules above). */
export function verdictOf(field: AuthResultsField, fromAddress: string): SenderVerdict {
	const from = domainOf(fromAddress)
	if (!from) return { check: 'not_verified', reason: 'The From address has no domain to check' }
	const dmarc = field.results.filter((x) => x.method === 'dmarc' && (!x.props['header.from'] || domainOf(x.props['header.from']) === from))
	if (dmarc.some((x) => x.result === 'pass')) return { check: 'verified', reason: 'DMARC passed' }
	if (dmarc.some((x) => x.result === 'fail')) return { check: 'not_verified', reason: 'DMARC failed for the From domain' }
	const pass = (method: string, domain: (x: AuthResult) => string | null) =>
		field.results.some((x) => x.method === method && x.result === 'pass' && aligned(domain(x), from))
	if (pass('dkim', (x) => domainOf(x.props['header.d'] ?? x.props['header.i']))) return { check: 'verified', reason: 'DKIM passed for the From domain' }
	if (pass('spf', spfIdentity)) return { check: 'verified', reason: 'SPF passed for the From domain' }
	return { check: 'not_verified', reason: 'No DMARC, DKIM or SPF pass for the From domain' }
}

/** The authserv-id a field starts with, even when the rest of it does not parse. */
function authservIdOf(value: string): string | null {
	const r = new Reader(value)
	return r.cfws() ? r.value() : null
}

/**
 * The verdict on a message's From by the topmost `Authentication-Results` field (values in order,
 * top first) of the server named `authservId`.
 */
export function checkSender(fields: readonly string[], authservId: string, fromAddress: string): SenderVerdict {
	const wanted = asciiLower(authservId)
	for (const value of fields) {
		const parsed = parseAuthResults(value)
		if (parsed && asciiLower(parsed.authservId) === wanted) return verdictOf(parsed, fromAddress)
		// One naming our server that we cannot read is still the topmost of ours: nothing below it counts.
		const id = parsed ? null : authservIdOf(value)
		if (id && asciiLower(id) === wanted) return { check: 'not_verified', reason: 'The receiving server’s results could not be read' }
	}
	return { check: 'not_verified', reason: 'The receiving server recorded no results for this message' }
}
