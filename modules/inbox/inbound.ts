/**
 * Replies coming in: the mail provider posts each received message raw (RFC 822), signed like
 * the interview callback (`X-Inbound-Timestamp`, `X-Inbound-Signature`).
 *
 * Rules:
 * - The message goes into the thread of the message it answers (`In-Reply-To`, then
 *   `References`, newest first; for a delivery report, also the message whose headers it quotes).
 *   When the inbox does not hold that message yet, only a Message-ID of ours (`<out_…@host>`, an
 *   outbox row) makes it copy what was sent, and only in that row's workspace: ids nobody sent cost
 *   one look-up and no copying. An id of ours names only our copy of what we sent: a received
 *   message that gave itself one (its recipient knows it) is filed under an id made of it
 *   (`ownId`), and draws no answer to our mail anywhere.
 * - Each workspace its recipients (envelope, To, Cc) name (`anything+<workspace>@…`) gets its own
 *   copy too, in a new conversation there unless the message answers one there: the sender (the
 *   one candidate or vendor of that workspace at that address, or a new conversation) is looked
 *   up in that workspace only. At most 10 workspaces, the first named; all copies are filed
 *   together or none. With no conversation answered and no workspace named, it is refused (422)
 *   rather than guessed. A sender's address shared by several candidates or vendors names nobody:
 *   the message goes to an unassigned conversation that says who shares the address.
 * - The same message twice (same Message-ID, or the same bytes when it has none) is stored once
 *   in each workspace.
 * - The sender is checked when `INBOUND_MAIL_AUTHSERV_ID` is set (`authentication-results.ts`): a
 *   From that the receiving server's results do not verify names no one. The message still goes into
 *   the conversation it answers, labelled `outside` and "sender not verified", never a reply of the
 *   candidate's or vendor's; a new one goes to a conversation of its own (`… (sender not
 *   verified)`), never to the person at that address. Unset: From is taken as it says, and every
 *   message says "sender not checked".
 * - Mail no person wrote (`automatic.ts`: auto-replies, list and bulk mail, delivery reports) is
 *   filed and labelled, but is never the counterpart's reply ("wrote back"), and starts no
 *   conversation with the person at its From. A delivery report that says delivery failed marks the
 *   message of ours it reports on as bounced ("Not delivered", in the conversation and on the outbox
 *   page with the report's reason), but only when its sender is verified (or senders are not
 *   checked): anyone can write a report, and one from a sender that is not verified is filed and
 *   labelled like any other and changes nothing.
 * - Only the new part of a reply is kept as its text: quoted history below "On … wrote:" or
 *   "-----Original Message-----", and ">"-quoted lines, are dropped.
 * - A message in HTML only is read as text in a child process (`html-text.ts`): its first 1 MB (of
 *   up to 10), within FILE_PARSE_TIMEOUT; past that, its markup is taken out in one pass.
 * - Who wrote it is what its own From says (when verified or not checked): the conversation's
 *   candidate or vendor only when it comes from that person's own address; anyone else (a colleague
 *   of theirs answering our mail, a forwarded mail) is someone outside, even in their conversation,
 *   and is no reply of theirs in the review queue.
 * - A body that is not an RFC 822 message (no header fields, no From address) is a 400; so is a
 *   message whose sender is ambiguous: more than one From field, a From with more than one
 *   mailbox (or a group), or anything but one address in it (`<a@x>@y`), as RFC 5322 allows only
 *   one. Refused rather than filed under one of them: the sender is what says who wrote it.
 * - Lists from the message are bounded before any lookup: the newest 50 message ids of
 *   `In-Reply-To` and `References` (each at most 998 characters; longer ones and anything not
 *   `<left@right>` are ignored, as are ids with a control character), the first 50 recipients.
 * - Control characters (a NUL the database cannot store) are taken out of the subject and the text,
 *   however they came (raw, base64, quoted-printable, an encoded word): the message is filed.
 */
import { createHash } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import PostalMime, { type Address, type Email } from 'postal-mime'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { signedWebhook } from '../../core/http/signed-webhook.ts'
import { cleanLine, cleanText, cutText } from '../../core/untrusted.ts'
import { findWorkspace } from '../auth/index.ts'
import { inboundHtmlText } from './html-text.ts'
import { inboxSettings } from './settings.ts'
import { syncOutbox } from './sync.ts'
import type { Db } from '../../db/client.ts'
import { outboxWorkspaces, recordBounce } from '../outbox/index.ts'
import { checkSender, type SenderVerdict } from './authentication-results.ts'
import { automaticKind, failureReason, reportedMessageIds, reportsFailure, type AutomaticKind } from './automatic.ts'
import {
	appendMessage,
	counterpartAt,
	counterpartAuthor,
	markBounced,
	normalizeAddress,
	senderOf,
	threadClock,
	threadFor,
	unattributedCounterpart,
	vendorBook,
	type Counterpart,
	type Sender,
} from './threads.ts'
import { inboxMessages, inboxThreads } from './table.ts'

export const MAX_INBOUND_BYTES = 10 * 1024 * 1024
const MAX_TEXT = 100_000
const MAX_SUBJECT = 1000
/** A header field's first line: its name, then the colon (RFC 5322's obsolete syntax, which readers must accept, allows spaces before it). */
const HEADER_LINE = /^[!-9;-~]+[ \t]*:/

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
/** A part of a message id: no brackets, spaces, `@` or control characters (a NUL cannot even be looked up). */
const ID_PART = `[^<>\\s@\\u0000-\\u001f\\u007f]{1,${MAX_ID - 3}}`
const MESSAGE_ID = new RegExp(`<${ID_PART}@${ID_PART}>`, 'g')
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

export interface InboundCopy {
	status: 'accepted' | 'duplicate'
	threadId: string
}

export interface InboundResult {
	/** accepted when at least one copy was filed now; duplicate when every copy was there already. */
	status: 'accepted' | 'duplicate'
	/** The first copy's conversation (the conversation it answers, else the first workspace it names). */
	threadId: string
	messageId: string
	/** One per workspace the message was filed in (see the rules above), the first being `threadId`'s. */
	copies: InboundCopy[]
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

/** The Message-IDs the outbox gives what we send: `<outbox row id@host>`. */
const OUR_ID = /^<(out_[A-Za-z0-9]{1,40})@[^<>@\s]+>$/
/**
 * The id a received message is filed under: its Message-ID, or one made of its bytes when it has
 * none. One of our own ids (`OUR_ID`: its recipient knows it) gets one made of it instead: filed
 * under ours, it took our copy's place (the workspace's ids are unique, and the outbox sync then
 * copied nothing), and every genuine answer to our mail was refused as answering nothing.
 */
function ownId(messageId: string | undefined, raw: string): string {
	const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40)
	if (!messageId) return `<${hash(raw)}@inbound.benchline>`
	return OUR_ID.test(messageId) ? `<received.${hash(messageId)}@inbound.benchline>` : messageId
}

/** One message is filed in at most this many workspaces (the ones its recipients name first). */
export const MAX_WORKSPACES = 10

interface Answered {
	workspaceId: string
	threadId: string
	counterpartType: string
	candidateId: string | null
	vendorId: string | null
	counterpartAddress: string
}

/**
 * The conversations of the message a reply answers: the newest of `answered` that the inbox holds,
 * in each workspace holding it (one we sent is in one workspace; a message that came in to several
 * is in each). One of our own ids (`OUR_ID`) is only ever our copy of what we sent, in the workspace
 * that sent it: a received message carrying it (its recipient knows it, and can give their own
 * mail that Message-ID, to a workspace of theirs) is passed over, or every later answer to our
 * mail would be copied there too, or only there while ours is not in the inbox yet.
 */
async function answeredThreads(deps: AppDeps, answered: string[]): Promise<Answered[]> {
	const lookup = async () => {
		const rows = await deps.db
			.select({
				messageId: inboxMessages.messageId,
				direction: inboxMessages.direction,
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
		const hits = rows.filter((h) => h.direction === 'out' || !OUR_ID.test(h.messageId ?? ''))
		const newest = answered.find((a) => hits.some((h) => h.messageId === a))
		return hits.filter((h) => h.messageId === newest).slice(0, MAX_WORKSPACES)
	}
	const found = await lookup()
	if (found.length) return found
	// A quick reply may answer a mail the inbox has not copied from the outbox yet. Only our own ids
	// can be such a mail, and each names its outbox row: copy that row's workspace, then look again.
	// Ids of no row of ours (a stranger's made-up References) cost one look-up by primary key, nothing more.
	const rows = answered.flatMap((a) => OUR_ID.exec(a)?.[1] ?? [])
	const workspaces = [...new Set((await outboxWorkspaces(deps.db, rows)).values())]
	let added = 0
	for (const ws of workspaces) added += await syncOutbox(deps, ws)
	return added > 0 ? lookup() : []
}

/** The workspaces the recipients name (`anything+<workspace>@…`), in order, each once, at most `MAX_WORKSPACES`. */
async function namedWorkspaces(deps: AppDeps, recipients: string[]): Promise<{ id: string }[]> {
	const slugs = [...new Set(recipients.flatMap((r) => /^[^@+]+\+([a-z0-9-]{1,40})@/i.exec(r)?.[1]?.toLowerCase() ?? []))].slice(0, MAX_WORKSPACES)
	const found: { id: string }[] = []
	for (const slug of slugs) {
		const ws = await findWorkspace(deps.db, slug)
		if (ws) found.push(ws)
	}
	return found
}

/** Where one copy goes: an existing conversation, or a new one with `counterpart`. */
interface Place {
	workspaceId: string
	threadId?: string
	counterpart?: Counterpart
	sender: Sender
}

/** What the message is, as every copy of it is filed. */
interface Incoming {
	from: Address & { address: string }
	messageId: string
	inReplyTo: string | null
	subject: string
	text: string
	to: string
	/** The sender check; null when senders are not checked (`INBOUND_MAIL_AUTHSERV_ID` unset). */
	verdict: SenderVerdict | null
	automatic: AutomaticKind | null
	/** Our messages a delivery report says could not be delivered (by Message-ID); none when it is not to be believed. */
	bounced: string[]
	/** What that report gave as the reason (text from outside, one line). */
	bounceReason: string | null
}

/** The receiving server's verdict on the From, or null when senders are not checked. */
function senderVerdict(deps: AppDeps, raw: string, from: string): SenderVerdict | null {
	const authservId = deps.config.settings.of(inboxSettings).inboundMailAuthservId
	return authservId ? checkSender(headerFields(raw, 'authentication-results').slice(0, 100), authservId, from) : null
}

/** Who sent a message into a conversation it answers: by its From only when that From is verified (or not checked). */
async function senderIn(deps: AppDeps, thread: Answered, m: Incoming): Promise<Sender> {
	if (m.verdict?.check === 'not_verified') return { writtenBy: 'outside', counterpart: false }
	return senderOf(deps, thread, m.from.address)
}

/**
 * Who a new conversation is with: the one candidate or vendor at the From's address (`counterpartAt`),
 * scoped to that workspace; never anyone by a From that is not verified, or for mail no person wrote.
 */
async function newConversation(deps: AppDeps, workspaceId: string, m: Incoming): Promise<Place> {
	const why = m.verdict?.check === 'not_verified' ? 'unverified' : m.automatic ? 'automatic' : null
	const counterpart = why
		? unattributedCounterpart(m.from.address, m.from.name || null, why)
		: await counterpartAt(deps, workspaceId, m.from.address, m.from.name || null, () => vendorBook(deps, workspaceId))
	// A new conversation is with whoever sent the message: it is theirs.
	return { workspaceId, counterpart, sender: { writtenBy: counterpartAuthor(counterpart.type), counterpart: true } }
}

/** The message with its fields' names straight before their colons (`From : …` as `From: …`): postal-mime reads no field written so. */
function withoutSpaceBeforeColon(raw: string): string {
	const end = raw.search(/\r?\n\r?\n/)
	const head = end < 0 ? raw : raw.slice(0, end)
	const straight = head.replace(/^([!-9;-~]+)[ \t]+:/gm, '$1:')
	return straight === head ? raw : straight + raw.slice(head.length)
}

/** Reads the raw message: 400 when it is not one. */
async function parsed(raw: string): Promise<Email> {
	if (!raw.trim()) throw malformed('The body is empty; send the raw message (RFC 822)')
	if (!HEADER_LINE.test(raw)) throw malformed('The body is not an RFC 822 message: it must start with header fields such as "From: …"')
	try {
		return await PostalMime.parse(withoutSpaceBeforeColon(raw))
	} catch (error) {
		throw malformed(`The message could not be parsed: ${(error as Error).message}`.slice(0, 300))
	}
}

/** Its recipients (the envelope's, then To and Cc), at most 50. */
const recipientsOf = (email: Email) =>
	[
		email.deliveredTo,
		...[...(email.to ?? []), ...(email.cc ?? [])].flatMap((a: Address) =>
			'address' in a && a.address ? [a.address] : (a.group ?? []).map((g: { address: string }) => g.address),
		),
	]
		.filter((x): x is string => Boolean(x))
		.slice(0, MAX_RECIPIENTS)

/**
 * Files a received message (raw RFC 822): in the conversation it answers, and in a new conversation
 * in each other workspace its recipients name; 422 when it can be placed nowhere.
 */
async function fileInbound(deps: AppDeps, raw: string): Promise<InboundResult> {
	const email = await parsed(raw)
	const from = senderOfMessage(raw, email)
	const automatic = automaticKind(email, from.address)
	const reported = automatic === 'delivery_report' ? reportedMessageIds(email) : []
	const inReplyTo = ids(email.inReplyTo)[0] ?? null
	const recipients = recipientsOf(email)
	const verdict = senderVerdict(deps, raw, from.address)
	// A report of failure counts from a verified sender, or any when senders are not checked (see the rules above).
	const failed = automatic === 'delivery_report' && verdict?.check !== 'not_verified' && reportsFailure(email)
	// Control characters out (a NUL cannot be stored: the mail was refused, and lost), as in all text we keep from outside.
	const body = cleanText(email.text ?? (email.html ? await inboundHtmlText(deps, email.html) : ''))
	const m: Incoming = {
		from,
		messageId: ownId(ids(email.messageId)[0], raw),
		inReplyTo,
		subject: cleanLine(email.subject ?? '', MAX_SUBJECT),
		text: cutText(replyPart(body), MAX_TEXT) || cutText(body.trim(), MAX_TEXT),
		to: recipients[0] ?? '',
		verdict,
		automatic,
		bounced: failed ? [...reported, ...(inReplyTo ? [inReplyTo] : [])] : [],
		bounceReason: failed ? failureReason(email) : null,
	}
	// 1. The conversation of the message it answers (a delivery report: also the one it reports on).
	const answered = [...new Set([...answeredIds(email), ...reported])].slice(0, MAX_ANSWERED)
	const places: Place[] = []
	for (const thread of answered.length ? await answeredThreads(deps, answered) : [])
		places.push({ workspaceId: thread.workspaceId, threadId: thread.threadId, sender: await senderIn(deps, thread, m) })
	// 2. A new conversation in each workspace its recipients name that it does not answer a message of.
	for (const ws of await namedWorkspaces(deps, recipients))
		if (places.length < MAX_WORKSPACES && !places.some((p) => p.workspaceId === ws.id)) places.push(await newConversation(deps, ws.id, m))
	if (!places.length)
		throw new AppError(
			'VALIDATION',
			'This message answers no message we sent (In-Reply-To, References) and its recipient names no workspace (reply+<workspace>@…): it cannot be placed',
			{ fields: [{ field: 'In-Reply-To', message: 'does not name a message we sent' }] },
		)
	// Every copy or none: the provider's retry then files them all.
	const copies = await deps.db.transaction(async (tx) => {
		// Ordered (and unread) by when it reached us, not by its Date header, which the sender's clock wrote.
		const receivedAt = await threadClock(deps, tx)
		const out: InboundCopy[] = []
		for (const place of places) out.push(await fileCopy(tx, place, m, receivedAt))
		return out
	})
	return { status: copies.some((c) => c.status === 'accepted') ? 'accepted' : 'duplicate', threadId: copies[0]!.threadId, messageId: m.messageId, copies }
}

/** One workspace's copy, in its conversation; a delivery failure is recorded on the message it reports on. */
async function fileCopy(tx: Db, place: Place, m: Incoming, receivedAt: Date): Promise<InboundCopy> {
	const threadId = place.threadId ?? (await threadFor(tx, place.workspaceId, place.counterpart!, m.subject, receivedAt))
	const id = await appendMessage(tx, {
		workspaceId: place.workspaceId,
		threadId,
		direction: 'in',
		channel: 'email',
		from: normalizeAddress(m.from.address),
		to: m.to,
		subject: m.subject || null,
		text: m.text,
		messageId: m.messageId,
		inReplyTo: m.inReplyTo,
		sender: place.sender,
		senderCheck: m.verdict,
		automatic: m.automatic,
		at: receivedAt,
	})
	if (id === null) return { status: 'duplicate', threadId }
	const outboxIds = await markBounced(tx, threadId, m.bounced, receivedAt)
	await recordBounce(tx, { workspaceId: place.workspaceId, ids: outboxIds, reason: m.bounceReason, at: receivedAt })
	return { status: 'accepted', threadId }
}
