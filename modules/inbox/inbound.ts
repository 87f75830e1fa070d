/**
 * Replies coming in: the mail provider posts each received message raw (RFC 822), signed like
 * the interview callback (`X-Inbound-Timestamp`, `X-Inbound-Signature`).
 *
 * Rules:
 * - The message goes into the thread of the message it answers (`In-Reply-To`, then
 *   `References`, newest first). A message that answers nothing we sent is placed by its
 *   recipient (`anything+<workspace>@…`) and its sender (the one candidate or vendor of that
 *   workspace at that address, or a new conversation); with neither, it is refused (422) rather
 *   than guessed. A sender's address shared by several candidates or vendors names nobody: the
 *   message goes to an unassigned conversation that says who shares the address.
 * - The same message twice (same Message-ID, or the same bytes when it has none) is stored once.
 * - Only the new part of a reply is kept as its text: quoted history below "On … wrote:" or
 *   "-----Original Message-----", and ">"-quoted lines, are dropped.
 * - Who wrote it is what its own From says: the conversation's candidate or vendor only when it
 *   comes from that person's own address; anyone else (a colleague of theirs answering our mail, a
 *   forwarded mail) is someone outside, even in their conversation, and is no reply of theirs in
 *   the review queue. The From is not authenticated (SPF, DKIM and DMARC are not looked at).
 * - A body that is not an RFC 822 message (no header fields, no From address) is a 400; so is a
 *   message whose sender is ambiguous: more than one From field, a From with more than one
 *   mailbox (or a group), or anything but one address in it (`<a@x>@y`), as RFC 5322 allows only
 *   one. Refused rather than filed under one of them: the sender is what says who wrote it.
 * - Lists from the message are bounded before any lookup: the newest 50 message ids of
 *   `In-Reply-To` and `References` (each at most 998 characters; longer ones and anything not
 *   `<left@right>` are ignored), the first 50 recipients.
 */
import { createHash } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import PostalMime, { type Address, type Email } from 'postal-mime'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { signedWebhook } from '../../core/http/signed-webhook.ts'
import { htmlToText } from '../../core/sanitize.ts'
import { cutText } from '../../core/untrusted.ts'
import { findWorkspace } from '../auth/index.ts'
import { inboxSettings } from './settings.ts'
import { syncOutbox } from './sync.ts'
import {
	appendMessage,
	counterpartAt,
	counterpartAuthor,
	normalizeAddress,
	senderOf,
	threadClock,
	threadFor,
	vendorBook,
	type Counterpart,
	type Sender,
} from './threads.ts'
import { inboxMessages, inboxThreads } from './table.ts'

export const MAX_INBOUND_BYTES = 10 * 1024 * 1024
const MAX_TEXT = 100_000
const HEADER_LINE = /^[!-9;-~]+:/

const malformed = (message: string) => new AppError('INVALID_BODY', message)

/** The reply without the quoted history under it. */
export function replyPart(text: string): string {
	const lines = text.replace(/\r\n?/g, '\n').split('\n')
	const out: string[] = []
	for (const line of lines) {
		if (/^\s*On .{4,200}wrote:\s*$/.test(line) || /^-{2,}\s*Original Message\s*-{2,}/i.test(line) || /^_{10,}$/.test(line)) break
		if (/^\s*>/.test(line)) continue
		out.push(line)
	}
	return out.join('\n').trim()
}

/** A message id is at most a line long (RFC 5322: 998 characters); a reply is looked up by its newest 50. */
const MAX_ID = 998
const MAX_ANSWERED = 50
const MAX_RECIPIENTS = 50
const MESSAGE_ID = new RegExp(`<[^<>\\s@]{1,${MAX_ID - 3}}@[^<>\\s@]{1,${MAX_ID - 3}}>`, 'g')
/** The well-formed message ids in a header (`<left@right>`, at most 998 characters), in order. */
const ids = (value: string | undefined) => ((value ?? '').match(MESSAGE_ID) ?? []).filter((id) => id.length <= MAX_ID)

/** The messages a reply answers, newest first: its In-Reply-To, then its References from the last, at most 50. */
function answeredIds(email: Email): string[] {
	const inReplyTo = ids(email.inReplyTo).slice(0, 1)
	const references = ids(email.references).slice(-MAX_ANSWERED).reverse()
	return [...new Set([...inReplyTo, ...references])].slice(0, MAX_ANSWERED)
}

/** The raw header fields (unfolded) named `name`, case aside. */
function headerFields(raw: string, name: string): string[] {
	const end = raw.search(/\r?\n\r?\n/)
	const head = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]/g, ' ')
	const field = new RegExp(`^${name}[ \\t]*:(.*)$`, 'i')
	return head.split(/\r?\n/).flatMap((line) => field.exec(line)?.[1] ?? [])
}

/**
 * Whether a From field names exactly one mailbox: `addr@domain` or `Display Name <addr@domain>`,
 * comments and quoted names aside, nothing after the address, no second mailbox, no group.
 */
function oneMailbox(value: string): boolean {
	let rest = value.replace(/"(?:[^"\\]|\\.)*"/g, '"q"')
	for (let i = 0; i < 10 && /\([^()]*\)/.test(rest); i++) rest = rest.replace(/\([^()]*\)/g, ' ')
	rest = rest.trim()
	if (/[(),;:]/.test(rest.replace(/"q"/g, ''))) return false
	return /^[^<>@]*<[^<>\s@]+@[^<>\s@]+>$/.test(rest) || /^[^<>\s@]+@[^<>\s@"]+$/.test(rest)
}

/** The message's one sender, or a 400 when it has none or is ambiguous (see the rules above). */
function senderOfMessage(raw: string, email: Email): Address & { address: string } {
	const fields = headerFields(raw, 'from')
	if (fields.length > 1) throw malformed('The message has more than one From field: RFC 5322 allows one, with one mailbox')
	if (fields.length === 1 && !oneMailbox(fields[0]!))
		throw malformed('The From field must name exactly one mailbox (one address, no list, group or text after it): RFC 5322')
	const from = email.from && 'address' in email.from && email.from.address ? email.from : null
	if (!fields.length || !from?.address?.includes('@')) throw malformed('The message has no From address')
	return from as Address & { address: string }
}

export interface InboundResult {
	status: 'accepted' | 'duplicate'
	threadId: string
	messageId: string
}

export const receiveInbound = signedWebhook<InboundResult>(
	{
		prefix: 'x-inbound',
		secretName: 'INBOUND_MAIL_SECRET',
		maxBytes: MAX_INBOUND_BYTES,
		secret: (deps) => deps.config.settings.of(inboxSettings).inboundMailSecret,
	},
	(deps, raw) => fileInbound(deps, raw),
)

/** The conversation of the message a reply answers (newest first), with who sent the reply as that conversation sees it. */
async function placeOfAnswer(deps: AppDeps, answered: string[], from: string): Promise<Place | null> {
	const lookup = async () => {
		const hits = await deps.db
			.select({
				messageId: inboxMessages.messageId,
				workspaceId: inboxMessages.workspaceId,
				threadId: inboxMessages.threadId,
				counterpartType: inboxThreads.counterpartType,
				candidateId: inboxThreads.candidateId,
				vendorId: inboxThreads.vendorId,
				counterpartAddress: inboxThreads.counterpartAddress,
			})
			.from(inboxMessages)
			.innerJoin(inboxThreads, eq(inboxThreads.id, inboxMessages.threadId))
			.where(inArray(inboxMessages.messageId, answered))
		return answered.map((a) => hits.find((h) => h.messageId === a)).find(Boolean) ?? null
	}
	// A quick reply may answer a mail the inbox has not copied from the outbox yet: copy, then look again.
	const thread = (await lookup()) ?? ((await syncOutbox(deps)) > 0 ? await lookup() : null)
	return thread && { workspaceId: thread.workspaceId, threadId: thread.threadId, sender: await senderOf(deps, thread, from) }
}

interface Place {
	workspaceId: string
	threadId: string
	sender: Sender
}

/** Files a received message (raw RFC 822) in its conversation. */
async function fileInbound(deps: AppDeps, raw: string): Promise<InboundResult> {
	if (!raw.trim()) throw malformed('The body is empty; send the raw message (RFC 822)')
	if (!HEADER_LINE.test(raw)) throw malformed('The body is not an RFC 822 message: it must start with header fields such as "From: …"')
	let email: Email
	try {
		email = await PostalMime.parse(raw)
	} catch (error) {
		throw malformed(`The message could not be parsed: ${(error as Error).message}`.slice(0, 300))
	}
	const from = senderOfMessage(raw, email)
	const messageId = ids(email.messageId)[0] ?? `<${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@inbound.benchline>`
	const inReplyTo = ids(email.inReplyTo)[0] ?? null
	const text = cutText(replyPart(email.text ?? (email.html ? htmlToText(email.html) : '')), MAX_TEXT) || cutText((email.text ?? '').trim(), MAX_TEXT)

	// 1. The thread of the message it answers.
	const answered = answeredIds(email)
	let place: Place | null = answered.length ? await placeOfAnswer(deps, answered, from.address) : null
	const recipients = [
		email.deliveredTo,
		...(email.to ?? []).flatMap((a: Address) => ('address' in a && a.address ? [a.address] : (a.group ?? []).map((g: { address: string }) => g.address))),
	]
		.filter((x): x is string => Boolean(x))
		.slice(0, MAX_RECIPIENTS)
	// 2. Otherwise a new conversation, placed by the workspace named in the recipient address.
	let fresh: { workspaceId: string; counterpart: Counterpart } | null = null
	if (!place) {
		const slug = recipients.map((r) => /^[^@+]+\+([a-z0-9-]{1,40})@/i.exec(r)?.[1]?.toLowerCase()).find(Boolean)
		const ws = slug ? await findWorkspace(deps.db, slug) : null
		if (!ws)
			throw new AppError(
				'VALIDATION',
				'This message answers no message we sent (In-Reply-To, References) and its recipient names no workspace (reply+<workspace>@…): it cannot be placed',
				{ fields: [{ field: 'In-Reply-To', message: 'does not name a message we sent' }] },
			)
		fresh = { workspaceId: ws.id, counterpart: await counterpartAt(deps, ws.id, from.address, from.name || null, () => vendorBook(deps, ws.id)) }
	}
	return deps.db.transaction(async (tx) => {
		// Ordered (and unread) by when it reached us, not by its Date header, which the sender's clock wrote.
		const receivedAt = await threadClock(deps, tx)
		// A new conversation is with whoever sent the message: it is theirs.
		if (!place)
			place = {
				workspaceId: fresh!.workspaceId,
				threadId: await threadFor(tx, fresh!.workspaceId, fresh!.counterpart, email.subject ?? '', receivedAt),
				sender: { writtenBy: counterpartAuthor(fresh!.counterpart.type), counterpart: true },
			}
		const id = await appendMessage(tx, {
			workspaceId: place.workspaceId,
			threadId: place.threadId,
			direction: 'in',
			channel: 'email',
			from: normalizeAddress(from.address),
			to: recipients[0] ?? '',
			subject: email.subject ?? null,
			text,
			messageId,
			inReplyTo,
			sender: place.sender,
			at: receivedAt,
		})
		if (id === null) return { status: 'duplicate' as const, threadId: place.threadId, messageId }
		return { status: 'accepted' as const, threadId: place.threadId, messageId }
	})
}
