/**
 * This module's part of a candidate's data: their conversations (every message both ways), and a
 * conversation filed under their address alone (before the address was known to be theirs) when
 * no other candidate has that address; and the messages about them in conversations with others (a
 * vendor's: the submission of their application and what is said about them there), the messages
 * the erasure rewrites.
 */
import { sql } from 'drizzle-orm'
import { mentionsAny, withoutMentions } from '../../core/erased-text.ts'
import type { CandidateDataSource, CandidateSubject } from '../candidates/index.ts'
import type { Db } from '../../db/client.ts'
import type { AppDeps } from '../../core/deps.ts'

/**
 * Their threads: filed under them, or filed under no one with an address only they have (`needles`
 * leave out an address another candidate still holds). A thread filed under another candidate is
 * that candidate's, whatever its address.
 */
const threadsOf = (s: CandidateSubject) =>
	sql`select id from inbox_threads where workspace_id = ${s.workspaceId} and (candidate_id = ${s.candidateId}
		or (candidate_id is null and counterpart_type <> 'vendor' and lower(counterpart_address) = any(${sql.param(s.needles.map((n) => n.toLowerCase()))}::text[])))`

/**
 * Messages about them in conversations with others (vendors, other addresses): filed about one of their
 * applications or about them (a submission's mail), or naming them (`needles`, as the erasure finds
 * them). Each with its conversation's counterpart, so the person sees with whom it was.
 */
async function aboutThemElsewhere(deps: AppDeps, db: Db, s: CandidateSubject) {
	const text = sql`coalesce(m.subject, '') || ' ' || m.text || ' ' || m.from_address || ' ' || m.to_address`
	const rows = await deps.database.rows<{ threadId: string; counterpartType: string; counterpart: string; threadSubject: string }>(
		sql`select t.id as "threadId", t.counterpart_type as "counterpartType", t.counterpart_name as counterpart, t.subject as "threadSubject",
			m.id, m.direction, m.channel, m.from_address as "from", m.to_address as "to", m.subject, m.text, m.at
		from inbox_messages m join inbox_threads t on t.id = m.thread_id
		where m.workspace_id = ${s.workspaceId} and m.thread_id not in (${threadsOf(s)})
			and ((m.related_type = 'application' and m.related_id = any(${sql.param([...s.applicationIds])}::text[]))
				or (m.related_type = 'candidate' and m.related_id = ${s.candidateId}) or ${mentionsAny(text, s.needles)})
		order by t.created_at, t.id, m.at, m.seq`,
		db,
	)
	return [...Map.groupBy(rows, (r) => r.threadId)].map(([id, messages]) => ({
		id,
		counterpartType: messages[0]!.counterpartType,
		counterpart: messages[0]!.counterpart,
		subject: messages[0]!.threadSubject,
		messages: messages.map(({ threadId: _, counterpartType: _t, counterpart: _c, threadSubject: _s, ...m }) => m),
	}))
}

/** Their part in others' conversations (exported; the erasure of `inboxData` rewrites it to "Erased candidate"). */
export const inboxMentionsData: CandidateDataSource = {
	key: 'messagesAboutThem',
	tables: ['inbox_messages'],
	export: async (deps, db, s) => ({ data: await aboutThemElsewhere(deps, db, s) }),
	/** A message about one of their applications since `since` (the submission's mail, a vendor's answer filed with it): their process is alive. */
	async activeSince(deps, workspaceId, ids, since) {
		const rows = await deps.database.rows<{ id: string }>(
			sql`select distinct a.candidate_id as id from inbox_messages m join applications a on a.id = m.related_id
			where m.workspace_id = ${workspaceId} and m.related_type = 'application' and a.candidate_id = any(${sql.param([...ids])}::text[]) and m.at >= ${since.toISOString()}::timestamptz`,
		)
		return new Set(rows.map((r) => r.id))
	},
	erase: async () => undefined,
}

export const inboxData: CandidateDataSource = {
	key: 'messages',
	tables: ['inbox_threads', 'inbox_messages', 'inbox_states'],
	freeText: ['inbox_messages.subject', 'inbox_messages.text', 'inbox_threads.subject', 'inbox_threads.snippet', 'inbox_threads.counterpart_name'],
	async export(deps, db, s) {
		const threads = await deps.database.rows<{ id: string }>(
			sql`select id, subject, counterpart_address as address, created_at as "createdAt", last_message_at as "lastMessageAt" from inbox_threads where id in (${threadsOf(s)}) order by created_at, id`,
			db,
		)
		const messages = await deps.database.rows<{ threadId: string }>(
			sql`select thread_id as "threadId", id, direction, channel, from_address as "from", to_address as "to", subject, text, at from inbox_messages
			where thread_id in (${threadsOf(s)}) order by at, seq`,
			db,
		)
		return { data: threads.map((t) => ({ ...t, messages: messages.filter((m) => m.threadId === t.id).map(({ threadId: _, ...m }) => m) })) }
	},
	/**
	 * A message in their conversation since `since`: one we sent them, or one they wrote themselves:
	 * `written_by` is theirs (from their own address, and only with a sender that was verified, or not
	 * checked when it came: inbound.ts files an unverified From as from outside), and a person wrote it
	 * (no auto-reply or delivery report). Anyone can send mail claiming their address, and a mailbox
	 * answers on its own: neither is the person still being there.
	 */
	async activeSince(deps, workspaceId, ids, since) {
		const rows = await deps.database.rows<{ id: string }>(
			sql`select distinct t.candidate_id as id from inbox_threads t join inbox_messages m on m.thread_id = t.id
			where t.workspace_id = ${workspaceId} and t.candidate_id = any(${sql.param([...ids])}::text[]) and m.at >= ${since.toISOString()}::timestamptz
				and (m.direction = 'out' or (m.written_by = 'candidate' and m.automatic is null))`,
		)
		return new Set(rows.map((r) => r.id))
	},
	async erase(deps, tx, s) {
		const ids = (await deps.database.rows<{ id: string }>(threadsOf(s), tx)).map((t) => t.id)
		const list = sql`any(${sql.param(ids)}::text[])`
		await deps.database.rows(sql`delete from inbox_states where thread_id = ${list}`, tx)
		await deps.database.rows(sql`delete from inbox_messages where thread_id = ${list}`, tx)
		await deps.database.rows(sql`delete from inbox_threads where id = ${list}`, tx)
		// Conversations with others that name them (a vendor's about a submission) keep "Erased candidate" in their place.
		const { needles } = s
		await deps.database.rows(
			sql`update inbox_messages set subject = ${withoutMentions(sql`subject`, needles)}, text = ${withoutMentions(sql`text`, needles)},
				from_address = ${withoutMentions(sql`from_address`, needles)}, to_address = ${withoutMentions(sql`to_address`, needles)}
			where workspace_id = ${s.workspaceId} and ${mentionsAny(sql`coalesce(subject, '') || ' ' || text || ' ' || from_address || ' ' || to_address`, needles)}`,
			tx,
		)
		await deps.database.rows(
			sql`update inbox_threads set subject = ${withoutMentions(sql`subject`, needles)}, snippet = ${withoutMentions(sql`snippet`, needles)},
				counterpart_name = ${withoutMentions(sql`counterpart_name`, needles)}, counterpart_address = ${withoutMentions(sql`counterpart_address`, needles)}
			where workspace_id = ${s.workspaceId} and ${mentionsAny(sql`subject || ' ' || snippet || ' ' || counterpart_name || ' ' || counterpart_address`, needles)}`,
			tx,
		)
		return undefined
	},
}
