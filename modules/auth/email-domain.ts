/**
 * The one spelling of an e-mail domain, for everything that stores, compares or looks up a domain or
 * an address: single sign-on domain claims and their verification (and the DNS name of their TXT
 * record), the domain of a signing-in address, SCIM's addresses, accounts and invitations.
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
 */
import { domainToASCII, domainToUnicode } from 'node:url'

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
 * The address as stored and compared: trimmed, lower case, its domain in its normal form. An address
 * whose domain has no ASCII form is returned trimmed and lower-cased (it matches no stored address;
 * `emailProblem` refuses it where an address is stored).
 */
export function normalEmail(raw: string): string {
	const email = raw.trim().toLowerCase()
	const at = email.lastIndexOf('@')
	if (at < 0) return email
	const domain = normalDomain(email.slice(at + 1))
	return domain === null ? email : `${email.slice(0, at + 1)}${domain}`
}

/** The domain of an address in its normal form, or '' when there is none (no @, or no ASCII form). */
export function domainOf(email: string): string {
	const at = email.lastIndexOf('@')
	return at < 0 ? '' : (normalDomain(email.slice(at + 1)) ?? '')
}

/** Why an address cannot be stored because of its domain (null: it can). */
export function emailProblem(email: string): string | null {
	const at = email.lastIndexOf('@')
	return at < 0 ? null : domainProblem(email.slice(at + 1))
}

/** The domain's Unicode form (for a form field people edit: saved again, it is the same domain). */
export const unicodeDomain = (domain: string): string => domainToUnicode(domain) || domain

/** The domain as people read it: its Unicode form, with the ASCII form in brackets when they differ. */
export function readableDomain(domain: string): string {
	const unicode = domainToUnicode(domain)
	return unicode && unicode !== domain ? `${unicode} (${domain})` : domain
}
