/**
 * Mail that no person wrote: auto-replies (out of office, auto-responders, list and bulk mail) and
 * delivery reports (bounces). It is filed in the conversation, labelled, but is never a reply of the
 * candidate's or vendor's (no "wrote back" in the review queue, no person matched by its From).
 *
 * Rules:
 * - A delivery report: a `multipart/report` with `report-type=delivery-status`, a
 *   `message/delivery-status` body or a part of a `multipart/report` (RFC 3464;
 *   `message/global-delivery-status`, RFC 6533), or a sender whose mailbox is `MAILER-DAEMON` or
 *   `postmaster`. Only the message's own structure counts: a person's mail carrying a bounce they
 *   forward (a `message/rfc822` part, which postal-mime unpacks into the same list of attachments)
 *   is still theirs, and what it quotes marks nothing.
 * - Automatic: `Auto-Submitted` with any value but `no` (RFC 3834), `Precedence` `bulk`, `junk`,
 *   `list` or `auto_reply`, an `X-Autoreply` or `X-Autorespond` field, a null `Return-Path: <>` (RFC
 *   3834 §3.3 has automatic responses sent so), or any other `multipart/report` (a read receipt).
 * - A delivery report says a message failed when one of its recipients' `Action` is `failed`
 *   (delayed, relayed, delivered and expanded are not failures). The message it is about is named
 *   by its `In-Reply-To`/`References` when it has them, and by the Message-ID of the original
 *   headers it quotes (`text/rfc822-headers`, `message/rfc822`). Its reason is the first failed
 *   recipient's `Diagnostic-Code` (its type, `smtp;`, dropped), else its `Status`: text from outside,
 *   kept as one line of at most 300 characters, shown escaped and never as our words.
 *
 * Each of these only lowers what a message counts for: forging one (an attacker writing
 * `Auto-Submitted`) makes their own mail count for less, never more.
 */
import type { Email } from 'postal-mime'
import { cleanLine } from '../../core/untrusted.ts'

export type AutomaticKind = 'automatic' | 'delivery_report'

const DSN_TYPES = ['message/delivery-status', 'message/global-delivery-status']
const QUOTED_HEADERS = ['text/rfc822-headers', 'message/rfc822-headers', 'message/rfc822', 'message/global', 'message/global-headers']
const MAX_REPORTED = 10

/** The first value of each field named `name` among the message's own header fields (postal-mime keeps their order). */
const fieldValues = (email: Email, name: string) => email.headers.filter((h) => h.key === name).map((h) => h.value.trim())
/** A structured field's first word (before parameters and comments), lower-cased. */
const firstWord = (value: string) =>
	value
		.replace(/\([^()]*\)/g, ' ')
		.split(';')[0]!
		.trim()
		.toLowerCase()

const attachmentText = (content: ArrayBuffer | Uint8Array | string) => (typeof content === 'string' ? content : new TextDecoder().decode(content))

/** What kind of automatic mail this is, or null for mail a person wrote (see the rules above). */
export function automaticKind(email: Email, fromAddress: string): AutomaticKind | null {
	const type = fieldValues(email, 'content-type')[0] ?? ''
	const report = /^\s*multipart\/report\b/i.test(type)
	const mailbox = fromAddress.slice(0, fromAddress.lastIndexOf('@')).toLowerCase()
	if (
		(report && /report-type\s*=\s*"?delivery-status"?/i.test(type)) ||
		DSN_TYPES.includes(firstWord(type)) ||
		// A status part counts in a report only: one inside a forwarded message (unpacked beside the
		// mail's own parts) is what the person forwards, not what this message is.
		(report && email.attachments.some((a) => DSN_TYPES.includes(a.mimeType.toLowerCase()))) ||
		mailbox === 'mailer-daemon' ||
		mailbox === 'postmaster'
	)
		return 'delivery_report'
	if (
		report ||
		fieldValues(email, 'auto-submitted').some((v) => firstWord(v) !== 'no') ||
		fieldValues(email, 'precedence').some((v) => ['bulk', 'junk', 'list', 'auto_reply'].includes(firstWord(v))) ||
		fieldValues(email, 'x-autoreply').length > 0 ||
		fieldValues(email, 'x-autorespond').length > 0 ||
		fieldValues(email, 'return-path').some((v) => /^<\s*>$/.test(firstWord(v)))
	)
		return 'automatic'
	return null
}

/** The status fields of a delivery report (the `message/delivery-status` part, or the body when that is the whole message). */
function statusText(email: Email): string {
	const parts = email.attachments.filter((a) => DSN_TYPES.includes(a.mimeType.toLowerCase())).map((a) => attachmentText(a.content))
	if (parts.length) return parts.join('\n')
	return DSN_TYPES.includes(firstWord(fieldValues(email, 'content-type')[0] ?? '')) ? (email.text ?? '') : ''
}

/** Whether a delivery report says delivery failed for one of its recipients (`Action: failed`). */
export function reportsFailure(email: Email): boolean {
	return /^action[ \t]*:[ \t]*failed\b/im.test(statusText(email).slice(0, 100_000))
}

/** Why a delivery report says delivery failed (see the rules above); null when it says nothing or reports no failure. */
export function failureReason(email: Email): string | null {
	// Folded fields unfolded; one block of fields per recipient, after the message's own block.
	const text = statusText(email)
		.slice(0, 100_000)
		.replace(/\r\n?/g, '\n')
		.replace(/\n[ \t]+/g, ' ')
	for (const block of text.split(/\n[ \t]*\n/)) {
		const field = (name: string) => new RegExp(`^${name}[ \\t]*:[ \\t]*(.*)$`, 'im').exec(block)?.[1]?.trim() ?? ''
		if (!/^failed\b/i.test(field('action'))) continue
		const reason = field('diagnostic-code').replace(/^[a-z0-9-]+[ \t]*;[ \t]*/i, '') || field('status')
		return reason ? cleanLine(reason, 300) || null : null
	}
	return null
}

/** The Message-IDs of the original message a delivery report quotes the headers of (at most 10, in order). */
export function reportedMessageIds(email: Email): string[] {
	const quoted = email.attachments.filter((a) => QUOTED_HEADERS.includes(a.mimeType.toLowerCase())).map((a) => attachmentText(a.content))
	// A quoted message that postal-mime read inline ends up in the text.
	const texts = [...quoted, email.text ?? ''].map((t) => t.slice(0, 100_000))
	// No control characters in an id (as inbound.ts's MESSAGE_ID): a NUL cannot even be looked up.
	const ids = texts.flatMap((t) => [...t.matchAll(/^message-id[ \t]*:[ \t]*(<[^<>\s\u0000-\u001f\u007f]{1,995}>)/gim)].map((m) => m[1]!))
	return [...new Set(ids)].slice(0, MAX_REPORTED)
}
