/**
 * Conversations: one thread per counterpart (a candidate, a vendor, or an address we know nothing
 * else about). A message the portal sends lands in the thread of the person it was for (the
 * outbox row names them); a reply lands in the thread of the message it answers (see `inbound.ts`).
 * An address alone files a message only when it is exactly one person's: two candidates may share
 * a phone number or a mailbox, and their conversations must never merge, so a message from such
 * an address stays unassigned, in a thread labelled as such, rather than be given to one of them.
 * Nor does a From that was not verified, or mail no person wrote (`unattributedCounterpart`): neither
 * is ever the counterpart's reply (`appendMessage` counts an automatic message as no reply).
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { normalEmail } from '../../core/email.ts'
import type { AddressColumn } from '../../core/stored-addresses.ts'
import { newId } from '../../core/credentials.ts'
import { cleanLine, type TextAuthor } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { operatorActor } from '../auth/index.ts'
import { candidatePartiesById, candidatesByAddress } from '../candidates/index.ts'
import { deliveryStates, type Recipient } from '../outbox/index.ts'
import { getVendor, listVendors } from '../vendors/index.ts'
import type { SenderCheck } from './authentication-results.ts'
import type { AutomaticKind } from './automatic.ts'
import { inboxMessages, inboxThreads } from './table.ts'

export interface Counterpart {
	key: string
	type: 'candidate' | 'vendor' | 'other'
	candidateId: string | null
	vendorId: string | null
	name: string
	address: string
}

/**
 * An e-mail address in its normal form (core/email.ts: `ann@Bücher.example` and
 * `ann@xn--bcher-kva.example` are one counterpart), a phone number trimmed.
 */
export const normalizeAddress = (address: string) => (address.includes('@') ? normalEmail(address) : address.trim())

/** A counterpart key (`address:<address>`, `unverified:<address>`…) with its address in normal form. */
const normalKey = (key: string) => {
	const colon = key.indexOf(':')
	return `${key.slice(0, colon + 1)}${normalizeAddress(key.slice(colon + 1))}`
}

/**
 * Threads' addresses and the keys made of them: stored before addresses had a normal form, they are
 * rewritten in it at start (core/stored-addresses.ts), so mail in either spelling finds the thread.
 * A key another thread of the workspace already has in normal form is left, and logged.
 */
export const threadAddresses: readonly AddressColumn[] = [
	{ table: inboxThreads, id: inboxThreads.id, address: inboxThreads.counterpartAddress, normal: normalizeAddress },
	{ table: inboxThreads, id: inboxThreads.id, address: inboxThreads.counterpartKey, normal: normalKey },
]

/** The vendors at each address of the workspace's vendors (contact and submission e-mail), for one pass of threading. */
export type VendorBook = Map<string, { id: string; name: string }[]>

export async function vendorBook(deps: AppDeps, workspaceId: string): Promise<VendorBook> {
	const actor = operatorActor({ id: workspaceId, slug: '' })
	const book: VendorBook = new Map()
	let cursor: string | undefined
	do {
		const page = await listVendors(deps, actor, { limit: 100, cursor })
		for (const v of page.vendors) {
			const detail = await getVendor(deps, actor, v.id)
			for (const email of new Set([detail.contact.email, detail.submission.email].filter((e): e is string => Boolean(e)).map(normalizeAddress)))
				book.set(email, [...(book.get(email) ?? []), { id: v.id, name: v.name }])
		}
		cursor = page.nextCursor ?? undefined
	} while (cursor)
	return book
}

const candidateCounterpart = (c: { id: string; name: string }, address: string): Counterpart => ({
	key: `candidate:${c.id}`,
	type: 'candidate',
	candidateId: c.id,
	vendorId: null,
	name: c.name,
	address,
})
const vendorCounterpart = (v: { id: string; name: string }, address: string): Counterpart => ({
	key: `vendor:${v.id}`,
	type: 'vendor',
	candidateId: null,
	vendorId: v.id,
	name: v.name,
	address,
})

/**
 * Whom a message sent to `address` is for: the recipient its sender named (a candidate or vendor of
 * the workspace), else whoever the address belongs to (see `counterpartAt`).
 */
export async function counterpartFor(
	deps: AppDeps,
	workspaceId: string,
	address: string,
	recipient: Partial<Recipient> | null,
	vendors: () => Promise<VendorBook>,
): Promise<Counterpart> {
	const normalized = normalizeAddress(address)
	if (recipient?.type === 'candidate' && recipient.id) {
		const candidate = (await candidatePartiesById(deps, workspaceId, [recipient.id])).get(recipient.id)
		if (candidate) return candidateCounterpart(candidate, normalized)
	}
	if (recipient?.type === 'vendor' && recipient.id) {
		const vendor = await getVendor(deps, operatorActor({ id: workspaceId, slug: '' }), recipient.id).catch(() => null)
		if (vendor) return vendorCounterpart(vendor, normalized)
	}
	return counterpartAt(deps, workspaceId, address, null, vendors)
}

/**
 * Who is at this address: the one candidate or vendor of the workspace it belongs to, or nobody
 * we know. When it belongs to several, nobody is picked: the conversation is unassigned, and its
 * name says so (with the people who share the address) so that a person can sort it out.
 */
export async function counterpartAt(
	deps: AppDeps,
	workspaceId: string,
	address: string,
	displayName: string | null,
	vendors: () => Promise<VendorBook>,
): Promise<Counterpart> {
	const normalized = normalizeAddress(address)
	const candidates = (await candidatesByAddress(deps, workspaceId, [normalized])).get(normalized) ?? []
	const vendorsThere = normalized.includes('@') ? ((await vendors()).get(normalized) ?? []) : []
	const people = [...candidates.map((c) => ({ kind: 'candidate' as const, ...c })), ...vendorsThere.map((v) => ({ kind: 'vendor' as const, ...v }))]
	const only = people.length === 1 ? people[0]! : null
	if (only) return only.kind === 'candidate' ? candidateCounterpart(only, normalized) : vendorCounterpart(only, normalized)
	// Named in alphabetical order: a label a person reads, the same whichever of them came first
	// (people added in the same millisecond have no first).
	const sharers = `${normalized} is shared by ${people
		.map((p) => p.name)
		.sort((a, b) => a.localeCompare(b, 'en'))
		.slice(0, 3)
		.join(', ')}${people.length > 3 ? ` and ${people.length - 3} more` : ''}`
	const label = !people.length ? displayName || normalized : displayName ? `${displayName} (unassigned: ${sharers})` : `Unassigned: ${sharers}`
	return { key: `address:${normalized}`, type: 'other', candidateId: null, vendorId: null, name: cleanLine(label, 120), address: normalized }
}

/**
 * The conversation for a message that names no one by its From: its sender is not verified, or no
 * person wrote it (an auto-reply, a delivery report). It is kept apart from the conversation with
 * whoever has that address (`unverified:` / `automatic:` keys), and its name says why.
 */
export function unattributedCounterpart(address: string, displayName: string | null, why: 'unverified' | 'automatic'): Counterpart {
	const normalized = normalizeAddress(address)
	const label = `${displayName || normalized} (${why === 'unverified' ? 'sender not verified' : 'automatic mail'})`
	return { key: `${why}:${normalized}`, type: 'other', candidateId: null, vendorId: null, name: cleanLine(label, 120), address: normalized }
}

/** The label of a thread's counterpart as an author: candidate, vendor, or outside (an address we know nothing about). */
export const counterpartAuthor = (type: string): TextAuthor => (type === 'vendor' ? 'vendor' : type === 'candidate' ? 'candidate' : 'outside')

/** Who sent a received message: its author label, and whether it is the thread's counterpart (else someone else wrote in the thread). */
export interface Sender {
	writtenBy: TextAuthor
	counterpart: boolean
}

/**
 * Who wrote a message that came in to a thread, by its own From: the thread's candidate or vendor
 * only when `address` (normalised as everywhere here) is that person's own address (the candidate's
 * e-mail or phone; the vendor's contact or submission e-mail), otherwise someone outside. A reply
 * that answers our mail is filed in the thread it answers whoever sent it (a colleague of theirs,
 * a forwarded mail): it is never credited to the person for that.
 */
export async function senderOf(
	deps: AppDeps,
	thread: { workspaceId: string; counterpartType: string; candidateId: string | null; vendorId: string | null; counterpartAddress: string },
	address: string,
): Promise<Sender> {
	const normalized = normalizeAddress(address)
	if (thread.counterpartType === 'candidate' && thread.candidateId) {
		const candidates = (await candidatesByAddress(deps, thread.workspaceId, [normalized])).get(normalized) ?? []
		return candidates.some((c) => c.id === thread.candidateId) ? { writtenBy: 'candidate', counterpart: true } : { writtenBy: 'outside', counterpart: false }
	}
	if (thread.counterpartType === 'vendor' && thread.vendorId) {
		const vendor = await getVendor(deps, operatorActor({ id: thread.workspaceId, slug: '' }), thread.vendorId).catch(() => null)
		const own = [vendor?.contact.email, vendor?.submission.email].filter((e): e is string => Boolean(e)).map(normalizeAddress)
		return own.includes(normalized) ? { writtenBy: 'vendor', counterpart: true } : { writtenBy: 'outside', counterpart: false }
	}
	// A conversation with an address we know nothing else about: its own address is the counterpart.
	return { writtenBy: 'outside', counterpart: normalized === normalizeAddress(thread.counterpartAddress) }
}

/** The thread with this counterpart, created when there is none (concurrent callers get the same one). */
export async function threadFor(db: Db, workspaceId: string, counterpart: Counterpart, subject: string, at: Date): Promise<string> {
	const id = newId('thr')
	await db
		.insert(inboxThreads)
		.values({
			id,
			workspaceId,
			counterpartKey: counterpart.key,
			counterpartType: counterpart.type,
			candidateId: counterpart.candidateId,
			vendorId: counterpart.vendorId,
			counterpartName: counterpart.name,
			counterpartAddress: counterpart.address,
			subject: cleanLine(subject || '(no subject)', 200),
			lastMessageAt: at,
			createdAt: at,
		})
		.onConflictDoNothing()
	const [row] = await db
		.select({ id: inboxThreads.id })
		.from(inboxThreads)
		.where(and(eq(inboxThreads.workspaceId, workspaceId), eq(inboxThreads.counterpartKey, counterpart.key)))
	return row!.id
}

/**
 * The time a thread's messages are stamped with: the database's, in both directions. What we send is
 * stamped by the outbox with the database's clock, so what we receive is too: the app's clock may
 * run apart from it (another machine), and a reply would then sort before the message it answers.
 */
export async function threadClock(deps: AppDeps, tx: Db): Promise<Date> {
	const [row] = await deps.database.rows<{ at: Date | string }>(sql`select now() as at`, tx)
	return new Date(row!.at)
}

export interface NewInboxMessage {
	workspaceId: string
	threadId: string
	direction: 'in' | 'out'
	channel: 'email' | 'message'
	from: string
	to: string
	subject: string | null
	text: string
	messageId: string | null
	inReplyTo?: string | null
	/** Who sent a received message (`senderOf`); none: someone outside. What we send is a colleague's. */
	sender?: Sender
	/** A received message's sender check (`authentication-results.ts`); none: not checked. */
	senderCheck?: { check: SenderCheck; reason: string } | null
	/** A received message no person wrote (`automatic.ts`): never the counterpart's reply, whoever its From names. */
	automatic?: AutomaticKind | null
	outboxId?: string | null
	related?: { type: string | null; id: string | null }
	sentByUserId?: string | null
	at: Date
}

/**
 * Adds a message to its thread and updates the thread's counters, once: a message already there
 * (same outbox row, or same Message-ID in the workspace) is not added again. Returns its id, or
 * null for such a repeat.
 */
export async function appendMessage(db: Db, m: NewInboxMessage): Promise<string | null> {
	const id = newId('msg')
	const by: TextAuthor = m.direction === 'in' ? (m.sender?.writtenBy ?? 'outside') : 'colleague'
	// The counterpart's own reply ("wrote back"): from their address, and written by a person.
	const theirReply = m.direction === 'in' && Boolean(m.sender?.counterpart) && !m.automatic
	const inserted = await db
		.insert(inboxMessages)
		.values({
			id,
			workspaceId: m.workspaceId,
			threadId: m.threadId,
			direction: m.direction,
			channel: m.channel,
			fromAddress: m.from,
			writtenBy: m.direction === 'in' ? by : null,
			toAddress: m.to,
			subject: m.subject,
			text: m.text,
			messageId: m.messageId,
			inReplyTo: m.inReplyTo ?? null,
			outboxId: m.outboxId ?? null,
			relatedType: m.related?.type ?? null,
			relatedId: m.related?.id ?? null,
			sentByUserId: m.sentByUserId ?? null,
			senderCheck: m.direction === 'in' ? (m.senderCheck?.check ?? null) : null,
			senderCheckReason: m.direction === 'in' ? (m.senderCheck?.reason ?? null) : null,
			automatic: m.direction === 'in' ? (m.automatic ?? null) : null,
			// A received message reached us after everything its thread holds, whatever the clocks say (ours
			// stamps it, the database's stamped what we sent): it never goes before them (`seq` breaks the tie).
			at:
				m.direction === 'in'
					? sql`greatest(${m.at.toISOString()}::timestamptz, (select max(p.at) from ${inboxMessages} p where p.thread_id = ${m.threadId}))`
					: m.at,
		})
		.onConflictDoNothing()
		.returning({ id: inboxMessages.id, at: inboxMessages.at })
	if (!inserted.length) return null
	const at = inserted[0]!.at.toISOString()
	const latest = sql`${at}::timestamptz >= ${inboxThreads.lastMessageAt}`
	const later = (column: typeof inboxThreads.lastInboundAt, time: string) => sql`greatest(coalesce(${column}, ${time}::timestamptz), ${time}::timestamptz)`
	// A conversation that began with a text message gets the person's e-mail address as soon as one
	// is known, so that it can be answered by e-mail.
	const theirs = normalizeAddress(m.direction === 'out' ? m.to : m.from)
	await db
		.update(inboxThreads)
		.set({
			counterpartAddress:
				m.channel === 'email' && (m.direction === 'out' || theirReply)
					? sql`case when position('@' in ${inboxThreads.counterpartAddress}) = 0 then ${theirs} else ${inboxThreads.counterpartAddress} end`
					: undefined,
			messageCount: sql`${inboxThreads.messageCount} + 1`,
			// The snippet and its author change together: both are the latest message's.
			snippet: sql`case when ${latest} then ${cleanLine(m.text, 160)} else ${inboxThreads.snippet} end`,
			lastMessageDirection: sql`case when ${latest} then ${m.direction} else ${inboxThreads.lastMessageDirection} end`,
			lastMessageAt: sql`greatest(${inboxThreads.lastMessageAt}, ${at}::timestamptz)`,
			snippetBy: sql`case when ${latest} then ${by} else ${inboxThreads.snippetBy} end`,
			// "Wrote back" (the review queue) is the counterpart's own message only; anyone else's makes the thread unread too.
			lastInboundAt: theirReply ? later(inboxThreads.lastInboundAt, at) : undefined,
			lastOutsideAt: m.direction === 'in' && !theirReply ? later(inboxThreads.lastOutsideAt, at) : undefined,
		})
		.where(eq(inboxThreads.id, m.threadId))
	return id
}

/**
 * Records that what we sent in a thread could not be delivered (a delivery report said so): our
 * messages there with one of these Message-IDs whose e-mail went out (the outbox sent it). A report
 * about mail that never left (held, waiting, failed) marks nothing: the outbox keeps its own state,
 * and both agree. Returns the outbox rows the marked messages were copied from (the outbox records it
 * on them too: `recordBounce`).
 */
export async function markBounced(db: Db, threadId: string, messageIds: readonly string[], at: Date): Promise<string[]> {
	if (!messageIds.length) return []
	const ours = await db
		.select({ id: inboxMessages.id, outboxId: inboxMessages.outboxId })
		.from(inboxMessages)
		.where(and(eq(inboxMessages.threadId, threadId), eq(inboxMessages.direction, 'out'), inArray(inboxMessages.messageId, [...messageIds])))
	const states = await deliveryStates(
		db,
		ours.flatMap((m) => m.outboxId ?? []),
	)
	const wentOut = ours.filter((m) => m.outboxId && ['sent', 'bounced'].includes(states.get(m.outboxId)?.status ?? ''))
	if (!wentOut.length) return []
	await db
		.update(inboxMessages)
		.set({ bouncedAt: sql`coalesce(${inboxMessages.bouncedAt}, ${at.toISOString()}::timestamptz)` })
		.where(
			inArray(
				inboxMessages.id,
				wentOut.map((m) => m.id),
			),
		)
	return wentOut.map((m) => m.outboxId!)
}
