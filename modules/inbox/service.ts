/**
 * The inbox: conversations with candidates and vendors, newest first, with each person's own
 * unread and starred state.
 *
 * Rules:
 * - Owners, admins and recruiters read the workspace's conversations (hiring managers see no
 *   contact details, so no inbox; viewers read jobs only).
 * - A thread is unread for a person when its counterpart wrote after that person last read it;
 *   reading it (`get_inbox_thread` or its page) marks it read for that person only.
 * - Stars are per person. Replies from the inbox go out through the outbox, in the thread.
 * - What people outside write (and what colleagues wrote) reaches a model as labelled data.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { keysetPage, newestFirst } from '../../core/paging.ts'
import { cleanLine, cleanText, isBlank, personAuthor, TEXT_AUTHORS, untrusted, untrustedLine, type TextAuthor } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { deliveryStates, enqueueMail } from '../outbox/index.ts'
import { repeatedSend } from './repeated-send.ts'
import { syncOutbox } from './sync.ts'
import type { AutomaticKind } from './automatic.ts'
import { appendMessage, counterpartAuthor, threadClock } from './threads.ts'
import { inboxMessages, inboxStates, inboxThreads } from './table.ts'
import { navCount } from '../../core/nav-count.ts'
import { isoInstant } from '../../core/time.ts'

export const FILTERS = ['all', 'unread', 'starred'] as const
export type InboxFilter = (typeof FILTERS)[number]
export const MAX_MESSAGES = 200

const notFound = () => new AppError('NOT_FOUND', 'No conversation with this id')
const person = (actor: Actor) => {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'The inbox belongs to people')
	return actor.userId
}

interface ThreadRow {
	id: string
	subject: string
	counterpartType: 'candidate' | 'vendor' | 'other'
	candidateId: string | null
	vendorId: string | null
	counterpartName: string
	counterpartAddress: string
	messageCount: number
	lastMessageAt: Date | string
	lastInboundAt: Date | string | null
	lastOutsideAt: Date | string | null
	snippet: string
	snippetBy: string | null
	lastMessageDirection: 'in' | 'out' | null
	/** Who sent the latest message, when we sent it (the snippet's author). */
	lastSentBy: string | null
	/** The first message, whose subject the conversation's is: who wrote it. */
	firstDirection: 'in' | 'out' | null
	firstWrittenBy: string | null
	firstSentBy: string | null
	readAt: Date | string | null
	starred: boolean | null
}

/** Who sent a thread's (aliased `t`) latest message when we sent it: the person its snippet is by. */
export const LAST_SENDER = sql`(select m.sent_by_user_id from ${inboxMessages} m where m.thread_id = t.id order by m.at desc, m.seq desc limit 1)`

const THREAD = (
	userId: string,
) => sql`t.id, t.subject, t.counterpart_type as "counterpartType", t.candidate_id as "candidateId", t.vendor_id as "vendorId", t.counterpart_name as "counterpartName", t.counterpart_address as "counterpartAddress", t.message_count as "messageCount", t.last_message_at as "lastMessageAt", t.last_inbound_at as "lastInboundAt", t.last_outside_at as "lastOutsideAt", t.snippet, t.snippet_by as "snippetBy", t.last_message_direction as "lastMessageDirection", s.read_at as "readAt", s.starred,
${LAST_SENDER} as "lastSentBy",
f.direction as "firstDirection", f.written_by as "firstWrittenBy", f.sent_by_user_id as "firstSentBy"
from ${inboxThreads} t left join ${inboxStates} s on s.thread_id = t.id and s.user_id = ${userId}
left join lateral (select m.direction, m.written_by, m.sent_by_user_id from ${inboxMessages} m where m.thread_id = t.id order by m.at, m.seq limit 1) f on true`

// Anything received makes a thread unread: the counterpart's own messages and anyone else's in it.
const RECEIVED = sql`greatest(t.last_inbound_at, t.last_outside_at)`
const UNREAD = sql`(${RECEIVED} is not null and (s.read_at is null or s.read_at < ${RECEIVED}))`
/** Who the counterpart is as an author: a candidate, a vendor, or someone outside (an address we know nothing about). */
export const authorOf = counterpartAuthor

/**
 * Who wrote a stored message or snippet, as `sent.reader` reads it: what we sent is the reader's own
 * (`self`) when they sent it, else a colleague's; a received one carries the label stored with it,
 * else (older rows) the counterpart's. Every reader of messages says who sent them (`sent.by`, the
 * message's `sent_by_user_id`), so that none labels the reader's own words as a colleague's.
 */
export const writerOf = (
	writtenBy: string | null,
	direction: string | null,
	counterpartType: string,
	sent: { by: string | null; reader: { userId?: string | null } },
): TextAuthor =>
	direction === 'out'
		? personAuthor(sent.by, sent.reader)
		: (TEXT_AUTHORS as readonly string[]).includes(writtenBy ?? '')
			? (writtenBy as TextAuthor)
			: authorOf(counterpartType)

/** Text written by us (the reader or a colleague): our own sending address is plain, not labelled. */
const isOurs = (by: TextAuthor) => by === 'colleague' || by === 'self'

/** Whether something was received since the person last read the conversation. */
function isUnread(r: Pick<ThreadRow, 'lastInboundAt' | 'lastOutsideAt' | 'readAt'>): boolean {
	const received = [r.lastInboundAt, r.lastOutsideAt].filter((x) => x !== null).map((x) => new Date(x).getTime())
	return received.length > 0 && (r.readAt === null || new Date(r.readAt).getTime() < Math.max(...received))
}

function summary(r: ThreadRow, reader: { userId: string }) {
	const unread = isUnread(r)
	const theirs = authorOf(r.counterpartType)
	return {
		id: r.id,
		// The subject the conversation began with is its first message's, labelled with whoever wrote
		// that (the counterpart, someone else, a colleague or the reader); the counterpart's name (a
		// mail's display name, or what the candidate or the vendor is called) and address are theirs.
		subject: untrustedLine(
			r.subject,
			r.firstDirection ? writerOf(r.firstWrittenBy, r.firstDirection, r.counterpartType, { by: r.firstSentBy, reader }) : theirs,
			200,
		),
		counterpart: {
			type: r.counterpartType,
			id: r.candidateId ?? r.vendorId,
			name: untrustedLine(r.counterpartName, theirs, 120),
			address: untrustedLine(r.counterpartAddress, theirs, 320),
		},
		messageCount: r.messageCount,
		lastMessageAt: isoInstant(r.lastMessageAt),
		// The latest message's start, labelled with whoever wrote it: ours (a colleague), the counterpart's, or someone else's.
		snippet: untrusted(r.snippet, writerOf(r.snippetBy, r.lastMessageDirection, r.counterpartType, { by: r.lastSentBy, reader }), 200),
		unread,
		starred: r.starred ?? false,
	}
}

export type ThreadSummary = ReturnType<typeof summary>

/** Who wrote a thread's snippet, for a line that carries no `writtenBy` label (a page, a search hit). */
export const snippetAuthor = (writtenBy: TextAuthor, counterpartType: string, counterpartName: string) =>
	writtenBy === 'self'
		? 'You wrote'
		: writtenBy === 'colleague'
			? 'We wrote'
			: writtenBy === authorOf(counterpartType)
				? `${counterpartName} wrote`
				: 'Someone else wrote'

/**
 * Whether a received message's From was verified (`authentication-results.ts`): `not_checked` when the
 * portal does not check senders (`INBOUND_MAIL_AUTHSERV_ID` unset) or did not when it came in.
 */
export type SenderCheckLabel = 'verified' | 'not_verified' | 'not_checked'
export const senderCheckOf = (stored: string | null): SenderCheckLabel => (stored === 'verified' || stored === 'not_verified' ? stored : 'not_checked')
const NOT_CHECKED = 'Not checked: the portal was not told whose Authentication-Results to trust (INBOUND_MAIL_AUTHSERV_ID) when it came in'

/** Conversations newest first; the cursor is bound to the person and the filter. */
export async function listThreads(deps: AppDeps, actor: Actor, input: { filter?: InboxFilter; limit: number; cursor?: string }) {
	const userId = person(actor)
	await syncOutbox(deps, actor.workspaceId)
	const filter = input.filter ?? 'all'
	const scope = `list_inbox_threads:${userId}:${filter}`
	const conditions: SQL[] = [sql`t.workspace_id = ${actor.workspaceId}`]
	if (filter === 'unread') conditions.push(UNREAD)
	if (filter === 'starred') conditions.push(sql`s.starred`)
	const { rows, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: newestFirst<ThreadRow>(sql`t.last_message_at`, sql`t.id`, (r) => r.lastMessageAt),
		from: sql`select ${THREAD(userId)}`,
		where: conditions,
	})
	return { threads: rows.map((r) => summary(r, { userId })), nextCursor }
}

/** One conversation with its messages in order (the latest 200); marks it read for the person. */
export async function getThread(deps: AppDeps, actor: Actor, threadId: string) {
	const userId = person(actor)
	await syncOutbox(deps, actor.workspaceId)
	const [row] = await deps.database.rows<ThreadRow>(sql`select ${THREAD(userId)} where t.id = ${threadId} and t.workspace_id = ${actor.workspaceId}`)
	if (!row) throw notFound()
	const messages = (
		await deps.database.rows<{
			id: string
			direction: 'in' | 'out'
			channel: string
			fromAddress: string
			writtenBy: string | null
			toAddress: string
			subject: string | null
			text: string
			outboxId: string | null
			relatedType: string | null
			relatedId: string | null
			senderCheck: string | null
			senderCheckReason: string | null
			automatic: AutomaticKind | null
			bouncedAt: Date | string | null
			sentByUserId: string | null
			at: Date | string
		}>(
			sql`select id, direction, channel, from_address as "fromAddress", written_by as "writtenBy", to_address as "toAddress", subject, text, outbox_id as "outboxId", related_type as "relatedType", related_id as "relatedId",
				sender_check as "senderCheck", sender_check_reason as "senderCheckReason", automatic, bounced_at as "bouncedAt", sent_by_user_id as "sentByUserId", at
			from ${inboxMessages} where thread_id = ${threadId} order by at desc, seq desc limit ${MAX_MESSAGES}`,
		)
	).reverse()
	const delivery = await deliveryStates(
		deps.db,
		messages.map((m) => m.outboxId).filter((x): x is string => Boolean(x)),
	)
	// Read up to the newest message shown (not "until now": one arriving meanwhile was not seen), in
	// the thread's own clock (threadClock).
	const readAt = new Date(messages.at(-1)?.at ?? row.lastMessageAt)
	await deps.db
		.insert(inboxStates)
		.values({ threadId, userId, readAt })
		.onConflictDoUpdate({
			target: [inboxStates.threadId, inboxStates.userId],
			set: { readAt: sql`greatest(${inboxStates.readAt}, ${readAt.toISOString()}::timestamptz)` },
		})
	const theirs = authorOf(row.counterpartType)
	// Their address is labelled; ours (the portal's sending address) is plain. A received message's
	// addresses are labelled with its own sender (the counterpart only when it came from their own
	// address): its To header is the sender's text as much as its From.
	const address = (text: string, by: TextAuthor) => (isOurs(by) ? text : untrustedLine(text, by, 320))
	const writer = (m: { writtenBy: string | null; direction: string; sentByUserId: string | null }) =>
		writerOf(m.writtenBy, m.direction, row.counterpartType, { by: m.sentByUserId, reader: { userId } })
	return {
		...summary(row, { userId }),
		unread: false,
		olderMessagesOmitted: Math.max(0, row.messageCount - messages.length),
		messages: messages.map((m) => ({
			id: m.id,
			direction: m.direction,
			channel: m.channel,
			from: address(m.fromAddress, writer(m)),
			to: address(m.toAddress, m.direction === 'out' ? theirs : writer(m)),
			subject: untrustedLine(m.subject, writer(m), 200),
			text: untrusted(m.text, writer(m), 8000),
			at: isoInstant(m.at),
			// A delivery report said it did not arrive, whatever the outbox last heard from our mail server.
			delivery: m.direction === 'out' && m.bouncedAt ? ('bounced' as const) : m.outboxId ? (delivery.get(m.outboxId)?.status ?? null) : null,
			related: m.relatedType && m.relatedId ? { type: m.relatedType, id: m.relatedId } : null,
			senderCheck: m.direction === 'in' ? senderCheckOf(m.senderCheck) : null,
			senderCheckReason: m.direction === 'in' ? (m.senderCheckReason ?? (m.senderCheck ? null : NOT_CHECKED)) : null,
			automatic: m.direction === 'in' ? m.automatic : null,
		})),
	}
}

/**
 * Marks a conversation read for the person, up to its latest message (the inbox's bulk Mark as
 * read). Rules: the conversation must be of the person's workspace (else absent); one already read
 * is left as it is (`changed: false`, nothing logged); otherwise one activity line.
 */
export async function markThreadRead(deps: AppDeps, actor: Actor, threadId: string): Promise<{ changed: boolean; subject: string }> {
	const userId = person(actor)
	return deps.db.transaction(async (tx) => {
		// What deciding needs: not the labels of a listed conversation (`THREAD`'s subqueries of who wrote what).
		const [row] = await deps.database.rows<Pick<ThreadRow, 'subject' | 'lastMessageAt' | 'lastInboundAt' | 'lastOutsideAt' | 'readAt'>>(
			sql`select t.subject, t.last_message_at as "lastMessageAt", t.last_inbound_at as "lastInboundAt", t.last_outside_at as "lastOutsideAt", s.read_at as "readAt"
			from ${inboxThreads} t left join ${inboxStates} s on s.thread_id = t.id and s.user_id = ${userId} where t.id = ${threadId} and t.workspace_id = ${actor.workspaceId}`,
			tx,
		)
		if (!row) throw notFound()
		const subject = row.subject
		if (!isUnread(row)) return { changed: false, subject }
		await tx
			.insert(inboxStates)
			.values({ threadId, userId, readAt: new Date(row.lastMessageAt) })
			.onConflictDoUpdate({
				target: [inboxStates.threadId, inboxStates.userId],
				set: { readAt: sql`greatest(${inboxStates.readAt}, ${new Date(row.lastMessageAt).toISOString()}::timestamptz)` },
			})
		await recordActivity(tx, actor, { action: 'inbox.marked_read', targetType: 'inbox_thread', targetId: threadId, detail: {} })
		return { changed: true, subject }
	})
}

export async function setStarred(deps: AppDeps, actor: Actor, threadId: string, starred: boolean): Promise<void> {
	const userId = person(actor)
	const [thread] = await deps.db
		.select({ id: inboxThreads.id })
		.from(inboxThreads)
		.where(and(eq(inboxThreads.id, threadId), eq(inboxThreads.workspaceId, actor.workspaceId)))
	if (!thread) throw notFound()
	await deps.db
		.insert(inboxStates)
		.values({ threadId, userId, starred })
		.onConflictDoUpdate({ target: [inboxStates.threadId, inboxStates.userId], set: { starred } })
}

/**
 * Replies to the counterpart by e-mail (through the outbox); the reply is in the thread at once.
 * The text is cleaned as every message sent is (`cleanText`): the copy in the thread is what goes.
 * The same reply again moments later (the form sent twice) is the one already sent (`repeated-send.ts`).
 */
export async function replyToThread(deps: AppDeps, actor: Actor, threadId: string, text: string): Promise<{ id: string; repeated: boolean }> {
	const userId = person(actor)
	const body = cleanText(text).trim()
	if (isBlank(body) || [...body].length > 20000) throw invalid([{ field: 'text', message: 'must be 1 to 20,000 characters' }])
	const [thread] = await deps.db
		.select()
		.from(inboxThreads)
		.where(and(eq(inboxThreads.id, threadId), eq(inboxThreads.workspaceId, actor.workspaceId)))
	if (!thread) throw notFound()
	if (!thread.counterpartAddress.includes('@')) throw new AppError('CONFLICT', 'This conversation has no e-mail address to reply to')
	const subject = /^re:/i.test(thread.subject) ? thread.subject : `Re: ${thread.subject}`
	return deps.db.transaction(async (tx) => {
		// The outbox stamps the row with the database's time; the copy in the thread uses the same
		// (the outbox sync pages by it).
		const at = await threadClock(deps, tx)
		const sentText = `${body}\n\n${actor.name}`
		const repeated = await repeatedSend(deps, tx, {
			workspaceId: actor.workspaceId,
			counterpartKey: thread.counterpartKey,
			userId,
			channel: 'email',
			to: thread.counterpartAddress,
			subject: cleanLine(subject, 200),
			text: sentText,
			at,
		})
		if (repeated) return { id: repeated.messageId, repeated: true }
		const related = thread.candidateId ? { type: 'candidate', id: thread.candidateId } : thread.vendorId ? { type: 'vendor', id: thread.vendorId } : undefined
		const recipient = thread.candidateId
			? { type: 'candidate' as const, id: thread.candidateId }
			: thread.vendorId
				? { type: 'vendor' as const, id: thread.vendorId }
				: undefined
		const sent = await enqueueMail(
			tx,
			{ workspaceId: actor.workspaceId, to: thread.counterpartAddress, subject: cleanLine(subject, 200), text: sentText, related, recipient },
			deps,
		)
		const id = await appendMessage(tx, {
			workspaceId: actor.workspaceId,
			threadId,
			direction: 'out',
			channel: 'email',
			from: deps.config.mailFrom,
			to: thread.counterpartAddress,
			subject: cleanLine(subject, 200),
			text: sentText,
			messageId: sent.messageId,
			outboxId: sent.id,
			related: related ?? undefined,
			sentByUserId: userId,
			at,
		})
		const readAt = at
		await tx
			.insert(inboxStates)
			.values({ threadId, userId, readAt })
			.onConflictDoUpdate({ target: [inboxStates.threadId, inboxStates.userId], set: { readAt } })
		await recordActivity(tx, actor, { action: 'inbox.replied', targetType: 'inbox_thread', targetId: threadId, detail: { outboxId: sent.id } })
		return { id: id!, repeated: false }
	})
}

/** Conversations with something the person has not read (the count beside Inbox in the navigation). */
export async function unreadThreadCount(deps: AppDeps, actor: Actor): Promise<number> {
	if (!actor.userId) return 0
	return navCount(
		deps.database,
		sql`select 1 from ${inboxThreads} t left join ${inboxStates} s on s.thread_id = t.id and s.user_id = ${actor.userId} where t.workspace_id = ${actor.workspaceId} and ${UNREAD}`,
	)
}
