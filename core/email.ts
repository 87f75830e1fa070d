/**
 * The one spelling of an e-mail address and of its domain, and the one check of an address, for
 * everything that stores, compares or looks up either: accounts, invitations and single sign-on
 * (domain claims, their verification and the DNS name of their TXT record, SCIM), candidates and
 * their applications, job alerts, privacy requests, inbox conversations, vendors' contacts.
 *
 * A domain may arrive in Unicode (`Bücher.example.`), in any case, with the trailing dot of a fully
 * qualified name, or in its ASCII form (`xn--bcher-kva.example`): all are one domain. The form kept
 * is the ASCII one (WHATWG `domainToASCII`, the URL standard's IDNA processing: what DNS and mail
 * servers use), lower case, without the trailing dot. Text it cannot convert (a space, a broken
 * `xn--` label) is refused with a message saying so, never stored as typed.
 *
 * People read a domain in its Unicode form (`readableDomain`) with the ASCII form beside it when they
 * differ: the ASCII form is what their DNS provider and the record need, and it shows look-alike
 * letters from another script for what they are.
 *
 * The address's letters have one form too: Unicode NFKC, composed and with compatibility characters
 * folded, so `josé` typed with a combining accent is the `josé` on file, and `ｏｗｎｅｒ@` in full-width
 * letters (or with a ligature, `ﬁ`, or a full-width `＠`) is the plain `owner@`, not a second account
 * that looks like the first. What draws nothing (zero-width spaces and
 * joiners, direction controls, other format characters) and control characters are refused
 * (`emailProblem`), never kept: `jane.doe\u200b@firm.example` looks like `jane.doe@firm.example`, and a
 * right-to-left override shows an address backwards.
 *
 * Rows stored before addresses had this one form are rewritten in it at start-up (`stored-addresses.ts`).
 */
import { domainToASCII, domainToUnicode } from 'node:url'

/** A run of what an address may hold between dots: no space, control character, dot, `@` or `<>()",;:`. */
const ATOM = '[^\\s@<>()",;:.\\u0000-\\u001f\\u007f]+'
/**
 * Atoms joined by single dots (RFC 5322's dot-atom): no dot first or last, no two in a row. Mail
 * servers refuse `a..b@` and `.a@`, so such an address kept would be an account or a candidate no
 * message reaches.
 */
const DOT_ATOM = `${ATOM}(?:\\.${ATOM})*`
/**
 * An address as it is kept: a dot-atom before one `@`, a dot-atom of at least two labels after it.
 * Checked on the normal form (`normalEmail`), so the domain is ASCII.
 */
const EMAIL = new RegExp(`^${DOT_ATOM}@${ATOM}(?:\\.${ATOM})+$`)
/**
 * An address as one may be on file: `EMAIL`, except that the part before the `@` may have a dot first,
 * last or two in a row (`.ann@`, `ann.@`, `ann..lee@`). Accounts kept from before the dot-atom rule
 * have such addresses; they are never stored anew (`emailProblem` refuses them), but a look-up of an
 * account by its address (a password reset) must still find them.
 */
const EMAIL_ON_FILE = new RegExp(`^[^\\s@<>()",;:\\u0000-\\u001f\\u007f]+@${ATOM}(?:\\.${ATOM})+$`)
/** The start of an address whose domain is all that may be wrong. */
const LOCAL = new RegExp(`^${DOT_ATOM}@`)
/** The longest address SMTP carries (RFC 5321's 256-character path, less its angle brackets). */
const EMAIL_MAX = 254
/**
 * Control characters (C0, C1), format characters (direction controls, zero-width, soft hyphen, tags),
 * half characters (lone surrogates) and noncharacters (U+FFFE, U+FFFF…: no text, and no mail server's).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}]/u
const INVISIBLE_PROBLEM = 'has invisible or control characters in it (such as a zero-width space or a direction mark): type it again without them'
const BROKEN_PROBLEM = 'holds a broken character (a lone surrogate)'

/** The domain's ASCII form, lower case, without a trailing dot; null when it has none. */
export function normalDomain(raw: string): string | null {
	const typed = raw.trim()
	if (!typed || typed.includes('@')) return null
	const ascii = domainToASCII(typed)
	if (!ascii) return null
	const domain = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii
	return domain && !domain.endsWith('.') ? domain : null
}

/** Why `raw` is not a domain name that can be kept (null: it can), for the person who typed it. */
export const domainProblem = (raw: string): string | null =>
	normalDomain(raw) === null ? `“${raw.trim().slice(0, 100)}” is not a domain name: it has no ASCII (IDNA) form` : null

/**
 * The address as stored and compared: trimmed, lower case, in NFKC, its domain in its normal form.
 * NFKC comes first too: a compatibility letter may fold to a capital (`ℌ` is `H`), lower-cased after.
 * An address whose domain has no ASCII form is returned trimmed, lower-cased and in NFKC (it
 * matches no stored address; `emailProblem` refuses it where an address is stored), and so is one
 * with invisible or control characters (kept, so `emailProblem` can say so).
 */
export function normalEmail(raw: string): string {
	const email = raw.normalize('NFKC').trim().toLowerCase().normalize('NFKC')
	const at = email.lastIndexOf('@')
	if (at < 0) return email
	const domain = normalDomain(email.slice(at + 1))
	return domain === null ? email : `${email.slice(0, at + 1)}${domain}`
}

/**
 * Whether the text, in its normal form (`normalEmail`), is an e-mail address (see `EMAIL`), of at
 * most 254 characters, with no invisible or control character.
 */
export const isEmailAddress = (email: string): boolean => email.length <= EMAIL_MAX && EMAIL.test(email) && !INVISIBLE.test(email)

/**
 * Whether the text, in its normal form, may be the address of an account on file, to look it up by:
 * an e-mail address (`isEmailAddress`), or one kept from before the dot-atom rule (`EMAIL_ON_FILE`).
 * Never a check of an address to store: that is `emailProblem`.
 */
export const mayBeEmailOnFile = (email: string): boolean => email.length <= EMAIL_MAX && EMAIL_ON_FILE.test(email) && !INVISIBLE.test(email)

/**
 * Why an address someone typed cannot be stored (null: it can), checked on its normal form: an
 * invisible or control character is said to be the problem (an address that looks like another, or
 * shows backwards), then a domain with no ASCII form (`a@exa mple.com`, `a@xn--a.example`); anything
 * else that is no address gets `notAddress`, in the words of the form that asked.
 */
export function emailProblem(email: string, notAddress = 'must be an e-mail address'): string | null {
	if (INVISIBLE.test(email)) return /\p{Cs}/u.test(email) ? BROKEN_PROBLEM : INVISIBLE_PROBLEM
	const at = email.lastIndexOf('@')
	const domainWrong = LOCAL.test(email) && at < email.length - 1 ? domainProblem(email.slice(at + 1)) : null
	return domainWrong ?? (isEmailAddress(email) ? null : notAddress)
}

/** The domain of an address in its normal form, or '' when there is none (no @, or no ASCII form). */
export function domainOf(email: string): string {
	const at = email.lastIndexOf('@')
	return at < 0 ? '' : (normalDomain(email.slice(at + 1)) ?? '')
}

/**
 * The spellings of an address to search text kept as it came for (sent mail, whose `to` and words are
 * never rewritten): as given, in normal form, and with its domain in Unicode. What is stored to be
 * looked up is in normal form only (stored-addresses.ts); anything without an `@` is itself alone.
 */
export function emailSpellings(text: string): string[] {
	if (!text.includes('@')) return [text]
	const email = normalEmail(text)
	return [...new Set([text, email, readableEmail(email)])]
}

/** The domain's Unicode form (for a form field people edit: saved again, it is the same domain). */
export const unicodeDomain = (domain: string): string => domainToUnicode(domain) || domain

/** An address as its owner reads it (`ann@bücher.example`): its domain in Unicode, for a notice that repeats it back. */
export function readableEmail(email: string): string {
	const at = email.lastIndexOf('@')
	return at < 0 ? email : `${email.slice(0, at + 1)}${unicodeDomain(email.slice(at + 1))}`
}

/** The domain as people read it: its Unicode form, with the ASCII form in brackets when they differ. */
export function readableDomain(domain: string): string {
	const unicode = domainToUnicode(domain)
	return unicode && unicode !== domain ? `${unicode} (${domain})` : domain
}
