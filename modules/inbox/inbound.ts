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
 * - A body that is not an RFC 822 message (no header fields, no From address) is a 400.
 */
import { createHash } from 'node:crypto'
import { inArray } from 'drizzle-orm'
import PostalMime, { type Address, type Email } from 'postal-mime'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { signedWebhook } from '../../core/http/signed-webhook.ts'
import { htmlToText } from '../../core/sanitize.ts'
import { cutText } from '../../core/untrusted.ts'
import { findWorkspace } from '../auth/index.ts'
import { inboxSettings } from './settings.ts'
import { syncOutbox } from './sync.ts'
import { appendMessage, counterpartAt, normalizeAddress, threadClock, threadFor, vendorBook, type Counterpart } from './threads.ts'
import { inboxMessages } from './table.ts'

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

const ids = (value: string | undefined) => (value ?? '').match(/<[^<>\s]+>/g) ?? []

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
	const from = email.from && 'address' in email.from && email.from.address ? email.from : null
	if (!from?.address?.includes('@')) throw malformed('The message has no From address')
	const messageId = ids(email.messageId)[0] ?? `<${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@inbound.benchline>`
	const inReplyTo = ids(email.inReplyTo)[0] ?? null
	const text = cutText(replyPart(email.text ?? (email.html ? htmlToText(email.html) : '')), MAX_TEXT) || cutText((email.text ?? '').trim(), MAX_TEXT)

	// 1. The thread of the message it answers.
	const answered = [...new Set([inReplyTo, ...ids(email.references).reverse()].filter((x): x is string => Boolean(x)))]
	let place: { workspaceId: string; threadId: string } | null = null
	const lookup = async () => {
		const hits = await deps.db
			.select({ messageId: inboxMessages.messageId, workspaceId: inboxMessages.workspaceId, threadId: inboxMessages.threadId })
			.from(inboxMessages)
			.where(inArray(inboxMessages.messageId, answered))
		const first = answered.map((a) => hits.find((h) => h.messageId === a)).find(Boolean)
		return first ? { workspaceId: first.workspaceId, threadId: first.threadId } : null
	}
	// A quick reply may answer a mail the inbox has not copied from the outbox yet: copy, then look again.
	if (answered.length) place = (await lookup()) ?? ((await syncOutbox(deps)) > 0 ? await lookup() : null)
	const recipients = [
		email.deliveredTo,
		...(email.to ?? []).flatMap((a: Address) => ('address' in a && a.address ? [a.address] : (a.group ?? []).map((g: { address: string }) => g.address))),
	].filter((x): x is string => Boolean(x))
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
		if (!place)
			place = { workspaceId: fresh!.workspaceId, threadId: await threadFor(tx, fresh!.workspaceId, fresh!.counterpart, email.subject ?? '', receivedAt) }
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
			at: receivedAt,
		})
		if (id === null) return { status: 'duplicate' as const, threadId: place.threadId, messageId }
		return { status: 'accepted' as const, threadId: place.threadId, messageId }
	})
}
