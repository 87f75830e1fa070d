/**
 * Conversations: one thread per counterpart (a candidate, a vendor, or an address we know nothing
 * else about). Messages land in the thread of whoever is on the other side; a reply lands in the
 * thread of the message it answers (see `inbound.ts`).
 */
import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newId } from '../../core/credentials.ts'
import { cleanLine } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { operatorActor } from '../auth/index.ts'
import { candidatesByAddress } from '../candidates/index.ts'
import { getVendor, listVendors } from '../vendors/index.ts'
import { inboxMessages, inboxThreads } from './table.ts'

export interface Counterpart {
	key: string
	type: 'candidate' | 'vendor' | 'other'
	candidateId: string | null
	vendorId: string | null
	name: string
	address: string
}

export const normalizeAddress = (address: string) => (address.includes('@') ? address.trim().toLowerCase() : address.trim())

/** Addresses of the workspace's vendors (contact and submission e-mail), for one pass of threading. */
export type VendorBook = Map<string, { id: string; name: string }>

export async function vendorBook(deps: AppDeps, workspaceId: string): Promise<VendorBook> {
	const actor = operatorActor({ id: workspaceId, slug: '' })
	const book: VendorBook = new Map()
	let cursor: string | undefined
	do {
		const page = await listVendors(deps, actor, { limit: 100, cursor })
		for (const v of page.vendors) {
			const detail = await getVendor(deps, actor, v.id)
			for (const email of [detail.contact.email, detail.submission.email]) if (email) book.set(normalizeAddress(email), { id: v.id, name: v.name })
		}
		cursor = page.nextCursor ?? undefined
	} while (cursor)
	return book
}

/** Who is at this address: a candidate of the workspace, one of its vendors, or nobody we know. */
export async function counterpartOf(deps: AppDeps, workspaceId: string, address: string, displayName: string | null, vendors: () => Promise<VendorBook>): Promise<Counterpart> {
	const normalized = normalizeAddress(address)
	const candidate = (await candidatesByAddress(deps, workspaceId, [normalized])).get(normalized)
	if (candidate) return { key: `candidate:${candidate.id}`, type: 'candidate', candidateId: candidate.id, vendorId: null, name: candidate.name, address: normalized }
	if (normalized.includes('@')) {
		const vendor = (await vendors()).get(normalized)
		if (vendor) return { key: `vendor:${vendor.id}`, type: 'vendor', candidateId: null, vendorId: vendor.id, name: vendor.name, address: normalized }
	}
	return { key: `address:${normalized}`, type: 'other', candidateId: null, vendorId: null, name: cleanLine(displayName || normalized, 120), address: normalized }
}

/** The thread with this counterpart, created when there is none (concurrent callers get the same one). */
export async function threadFor(db: Db, workspaceId: string, counterpart: Counterpart, subject: string, at: Date): Promise<string> {
	const id = newId('thr')
	await db
		.insert(inboxThreads)
		.values({ id, workspaceId, counterpartKey: counterpart.key, counterpartType: counterpart.type, candidateId: counterpart.candidateId, vendorId: counterpart.vendorId, counterpartName: counterpart.name, counterpartAddress: counterpart.address, subject: cleanLine(subject || '(no subject)', 200), lastMessageAt: at, createdAt: at })
		.onConflictDoNothing()
	const [row] = await db.select({ id: inboxThreads.id }).from(inboxThreads).where(and(eq(inboxThreads.workspaceId, workspaceId), eq(inboxThreads.counterpartKey, counterpart.key)))
	return row!.id
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
	const inserted = await db
		.insert(inboxMessages)
		.values({ id, workspaceId: m.workspaceId, threadId: m.threadId, direction: m.direction, channel: m.channel, fromAddress: m.from, toAddress: m.to, subject: m.subject, text: m.text, messageId: m.messageId, inReplyTo: m.inReplyTo ?? null, outboxId: m.outboxId ?? null, relatedType: m.related?.type ?? null, relatedId: m.related?.id ?? null, sentByUserId: m.sentByUserId ?? null, at: m.at })
		.onConflictDoNothing()
		.returning({ id: inboxMessages.id })
	if (!inserted.length) return null
	const at = m.at.toISOString()
	const latest = sql`${at}::timestamptz >= ${inboxThreads.lastMessageAt}`
	// A conversation that began with a text message gets the person's e-mail address as soon as one
	// is known, so that it can be answered by e-mail.
	const theirs = normalizeAddress(m.direction === 'out' ? m.to : m.from)
	await db
		.update(inboxThreads)
		.set({
			counterpartAddress: m.channel === 'email' ? sql`case when position('@' in ${inboxThreads.counterpartAddress}) = 0 then ${theirs} else ${inboxThreads.counterpartAddress} end` : undefined,
			messageCount: sql`${inboxThreads.messageCount} + 1`,
			// The snippet and its author change together: both are the latest message's.
			snippet: sql`case when ${latest} then ${cleanLine(m.text, 160)} else ${inboxThreads.snippet} end`,
			lastMessageDirection: sql`case when ${latest} then ${m.direction} else ${inboxThreads.lastMessageDirection} end`,
			lastMessageAt: sql`greatest(${inboxThreads.lastMessageAt}, ${at}::timestamptz)`,
			lastInboundAt: m.direction === 'in' ? sql`greatest(coalesce(${inboxThreads.lastInboundAt}, ${at}::timestamptz), ${at}::timestamptz)` : undefined,
		})
		.where(eq(inboxThreads.id, m.threadId))
	return id
}
