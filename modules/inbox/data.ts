/**
 * This module's part of a candidate's data: their conversations (every message both ways), and a
 * conversation filed under their address alone (before the address was known to be theirs) when
 * no other candidate has that address.
 */
import { sql } from 'drizzle-orm'
import { mentionsAny, withoutMentions } from '../../core/erased-text.ts'
import type { CandidateDataSource, CandidateSubject } from '../candidates/index.ts'

/**
 * Their threads: filed under them, or filed under no one with an address only they have (`needles`
 * leave out an address another candidate still holds). A thread filed under another candidate is
 * that candidate's, whatever its address.
 */
const threadsOf = (s: CandidateSubject) =>
	sql`select id from inbox_threads where workspace_id = ${s.workspaceId} and (candidate_id = ${s.candidateId}
		or (candidate_id is null and counterpart_type <> 'vendor' and lower(counterpart_address) = any(${sql.param(s.needles.map((n) => n.toLowerCase()))}::text[])))`

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
