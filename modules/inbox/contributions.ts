/** What the inbox contributes elsewhere: `search` hits, review-queue entries, `get_application` messages. */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { normalEmail } from '../../core/email.ts'
import type { ReviewSource } from '../review/index.ts'
import type { SearchProvider } from '../search/index.ts'
import { afterPosition } from '../../core/source-merge.ts'
import {
	FOUND_CAPPED,
	FOUND_COUNT,
	FOUND_IDS,
	type MatchWay,
	prefixTsQuery,
	rankWhenMatched,
	relevance,
	sameText,
	foldedSimilarityText,
	withFoundMatches,
	wordsTsQuery,
} from '../../core/text-search.ts'
import { untrusted, untrustedLine } from '../../core/untrusted.ts'
import { applicationParties, type ApplicationMessage } from '../candidates/index.ts'
import { unseenSince } from '../review/index.ts'
import type { AutomaticKind } from './automatic.ts'
import { authorOf, LAST_SENDER, senderCheckOf, snippetAuthor, writerOf } from './service.ts'
import { inboxMessages, inboxStates, inboxThreads } from './table.ts'
import { inList } from '../../core/sql-list.ts'

const canRead = (deps: AppDeps, actor: Actor) => Boolean(actor.userId) && deps.permissions.can(actor, 'inbox:read')

/** Each way of matching keeps at most this many conversations; only those are ranked. */
const CAP = 50

interface ThreadHitRow {
	id: string
	type: string
	name: string
	subject: string
	snippet: string
	direction: string | null
	snippetBy: string | null
	lastSentBy: string | null
	at: Date | string
	score: number
	found: number
	capped: boolean
}

/** A conversation found by `search`, its snippet labelled with whoever wrote the latest message as `reader` reads it. */
function threadHit(r: ThreadHitRow, reader: Actor) {
	const by = writerOf(r.snippetBy, r.direction, r.type, { by: r.lastSentBy, reader })
	return {
		type: 'inbox_thread',
		id: r.id,
		title: untrustedLine(`${r.name}: ${r.subject}`, authorOf(r.type), 120),
		snippet: untrustedLine(r.snippet && `${snippetAuthor(by, r.type, r.name)}: ${r.snippet}`, by, 240),
		score: Math.round(Number(r.score) * 1000) / 1000,
		current: true,
		changedAt: new Date(r.at).toISOString(),
	}
}

/**
 * Conversations by counterpart name, address or subject (trigram similarity) and by what was
 * written (full text), ranked in the tiers of `core/text-search.ts`: the words found whole in the
 * name, subject or a message first, then as a prefix, then names and subjects that only look alike.
 *
 * Each way of matching is its own capped branch on its own index (`inbox_threads_search` on the
 * stored name-and-subject vector, `inbox_messages_search`, the trigram indexes of migration 0006),
 * and only the conversations they return are ranked, fetched by primary key, as the candidates
 * provider does. One `where` joining the ways with `or` (an `exists` over messages among them)
 * could use no index: at 100,000 conversations it read every one and built each one's text vector
 * to rank it (0.9–3.2 s a search; bench/README.md). Subjects that only look alike are looked for
 * only when the query has no word to search for ("C#"): subjects repeat job titles, so a title's
 * trigrams are in tens of thousands of them, each then compared (0.6 s for "python developer" at
 * 100,000 conversations, finding none) for hits of the lowest tier. Names always are.
 */
export const inboxSearchProvider: SearchProvider = {
	type: 'inbox_thread',
	// The inbox list has no text filter: "See all" opens the inbox itself.
	pages: { plural: 'Conversations', record: (id) => `/inbox/${encodeURIComponent(id)}`, seeAll: () => '/inbox', seeAllFilters: false },
	async search(deps, actor, q, limit) {
		if (!canRead(deps, actor)) return null
		const tsq = prefixTsQuery(q)
		const whole = wordsTsQuery(q)
		// Names and subjects are compared folded (accents, width), as the vectors are (`bl_fold`).
		const text = foldedSimilarityText(q)
		const ws = actor.workspaceId
		// An address is compared in its normal form (core/email.ts), as conversations store it.
		const address = normalEmail(q)
		// The limit is a subquery so the planner plans for the matches, not for CAP rows (see candidates/search.ts).
		const cap = sql`(select ${CAP}::int)`
		// Full-text matches come from the GIN indexes: planned as a capped sequential scan, a word in
		// few or no conversations read all of them (the planner expects matches early). A materialized
		// CTE is planned for all its rows, so the index; the cap then stops reading the matches.
		const matching = (from: SQL): MatchWay => ({ ids: sql`with x as materialized (${from}) select x.id from x limit ${CAP}`, cap: CAP })
		const capped = (ids: SQL): MatchWay => ({ ids: sql`${ids} limit ${cap}`, cap: CAP })
		const words = tsq
			? [
					matching(sql`select t.id from ${inboxThreads} t where t.workspace_id = ${ws} and t.search_vector @@ to_tsquery('english', ${tsq})`),
					matching(sql`select m.thread_id as id from ${inboxMessages} m where m.workspace_id = ${ws} and m.search @@ to_tsquery('english', ${tsq})`),
				]
			: [capped(sql`select t.id from ${inboxThreads} t where t.workspace_id = ${ws} and ${text} <% lower(bl_fold(t.subject))`)]
		const sameNameOrSubject = sql`(${sameText(sql`lower(bl_fold(t.counterpart_name))`, text)} or ${sameText(sql`lower(bl_fold(t.subject))`, text)})`
		const ways = [
			...words,
			// A name or subject that is exactly what was typed, however many others share its words.
			capped(sql`select t.id from ${inboxThreads} t where t.workspace_id = ${ws} and ${sameNameOrSubject}`),
			capped(sql`select t.id from ${inboxThreads} t where t.workspace_id = ${ws} and ${text} <% lower(bl_fold(t.counterpart_name))`),
			capped(sql`select t.id from ${inboxThreads} t where t.workspace_id = ${ws} and lower(t.counterpart_address) = ${address}`),
		]
		// The name and subject weigh like a person's name and headline; messages like the rest of a profile.
		const header = sql`t.search_vector`
		const rankOf = (query: string | null) =>
			query
				? sql`greatest(${rankWhenMatched(header, query)}, (select max(ts_rank(m.search, to_tsquery('english', ${query}))) from ${inboxMessages} m where m.thread_id = t.id and m.search @@ to_tsquery('english', ${query})))`
				: sql`null::real`
		const score = relevance({
			exact: whole ? sql`r.exact` : null,
			prefix: tsq ? sql`r.prefix` : null,
			similar: sql`greatest(word_similarity(${text}, lower(bl_fold(t.counterpart_name))), word_similarity(${text}, lower(bl_fold(t.subject))))`,
			// A subject typed exactly is this conversation; a name or address typed exactly is the
			// person it is with, whose own record (a candidate, a contact) comes first.
			certain: sameText(sql`lower(bl_fold(t.subject))`, text),
			about: sql`(lower(t.counterpart_address) = ${address} or ${sameText(sql`lower(bl_fold(t.counterpart_name))`, text)})`,
		})
		const rows = await deps.database.rows<ThreadHitRow>(
			sql`${withFoundMatches(ways)}
select t.id, t.counterpart_type as type, t.counterpart_name as name, t.subject, t.snippet, t.last_message_direction as direction, t.snippet_by as "snippetBy", t.last_message_at as at,
	${LAST_SENDER} as "lastSentBy", ${score} as score, ${FOUND_COUNT} as found, ${FOUND_CAPPED} as capped
from ${inboxThreads} t cross join lateral (select ${rankOf(whole)} as exact, ${rankOf(tsq)} as prefix) r
where t.id = any(${FOUND_IDS}) and t.workspace_id = ${ws}
order by score desc, t.last_message_at desc, t.id limit ${limit}`,
		)
		const hits = rows.map((r) => threadHit(r, actor))
		return { hits, count: Number(rows[0]?.found ?? 0), countIsAtLeast: Boolean(rows[0]?.capped) }
	},
}

/**
 * Candidates who wrote back in the review window (`modules/review/window.ts`) and whose conversation
 * the person has not read since: oldest reply first, read by `inbox_threads_inbound`.
 */
export const repliesWaitingSource: ReviewSource = {
	type: 'reply_waiting',
	async items(deps, actor, options) {
		if (!canRead(deps, actor)) return []
		const rows = await deps.database.rows<{ id: string; at: Date | string; candidateId: string }>(
			sql`select t.id, t.last_inbound_at as at, t.candidate_id as "candidateId"
from ${inboxThreads} t left join ${inboxStates} s on s.thread_id = t.id and s.user_id = ${actor.userId}
where t.workspace_id = ${actor.workspaceId} and t.candidate_id is not null and t.last_inbound_at >= ${unseenSince(deps.now()).toISOString()}::timestamptz
and (s.read_at is null or s.read_at < t.last_inbound_at)
and ${afterPosition(sql`t.last_inbound_at`, sql`t.id`, options.after)}
order by t.last_inbound_at, t.id collate "C" limit ${options.limit}`,
		)
		return rows.map((r) => ({
			type: 'reply_waiting',
			id: r.id,
			at: new Date(r.at),
			candidateId: r.candidateId,
			jobId: null,
			applicationId: null,
			reason: 'Wrote back, and you have not read the reply yet.',
		}))
	},
}

/**
 * Messages exchanged with the application's candidate (latest 20), for people who may read the
 * inbox. Only for one application at a time (`get_application`): lists of applicants stay lean.
 */
export async function messagesOfApplications(deps: AppDeps, actor: Actor, applicationIds: string[]): Promise<Map<string, { messages: ApplicationMessage[] }>> {
	const out = new Map<string, { messages: ApplicationMessage[] }>()
	if (applicationIds.length !== 1) return out
	if (!canRead(deps, actor)) {
		for (const id of applicationIds) out.set(id, { messages: [] })
		return out
	}
	const parties = await applicationParties(deps, actor.workspaceId, applicationIds)
	const candidateIds = [...new Set([...parties.values()].map((p) => p.candidateId))]
	const rows = candidateIds.length
		? await deps.database.rows<{
				id: string
				threadId: string
				candidateId: string
				direction: 'in' | 'out'
				writtenBy: string | null
				sentBy: string | null
				channel: string
				subject: string | null
				text: string
				relatedType: string | null
				relatedId: string | null
				senderCheck: string | null
				automatic: AutomaticKind | null
				bouncedAt: Date | string | null
				at: Date | string
				n: number
			}>(
				sql`select * from (select m.id, m.thread_id as "threadId", t.candidate_id as "candidateId", m.direction, m.written_by as "writtenBy", m.sent_by_user_id as "sentBy", m.channel, m.subject, m.text, m.related_type as "relatedType", m.related_id as "relatedId",
m.sender_check as "senderCheck", m.automatic, m.bounced_at as "bouncedAt", m.at, m.seq,
row_number() over (partition by t.candidate_id order by m.at desc, m.seq desc) as n
from ${inboxMessages} m join ${inboxThreads} t on t.id = m.thread_id
where t.workspace_id = ${actor.workspaceId} and t.candidate_id in ${inList(candidateIds)}) x where n <= 20 order by at, seq`,
			)
		: []
	for (const id of applicationIds) {
		const candidateId = parties.get(id)?.candidateId
		out.set(id, {
			messages: rows
				.filter((r) => r.candidateId === candidateId)
				.map((r) => {
					// A received message is the candidate's only when it came from their own address.
					const by = writerOf(r.writtenBy, r.direction, 'candidate', { by: r.sentBy, reader: actor })
					return {
						id: r.id,
						threadId: r.threadId,
						direction: r.direction,
						channel: r.channel,
						subject: untrustedLine(r.subject, by, 200),
						text: untrusted(r.text, by, 4000),
						at: new Date(r.at).toISOString(),
						aboutThisApplication: r.relatedType === 'application' && r.relatedId === id,
						// The same labels as get_inbox_thread gives the message.
						senderCheck: r.direction === 'in' ? senderCheckOf(r.senderCheck) : null,
						automatic: r.direction === 'in' ? r.automatic : null,
						bounced: r.direction === 'out' && r.bouncedAt !== null,
					}
				}),
		})
	}
	return out
}
