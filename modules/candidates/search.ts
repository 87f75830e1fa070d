/**
 * Candidates in the `search` tool: full-text search over name, headline, skills and location
 * (weighted in that order, the generated `search_vector`), trigram word similarity of the name for
 * partial or misspelt names, and — for people who may see contact details — an exact e-mail address.
 * Hiring managers find only the applicants of their jobs; viewers find no candidates.
 *
 * Each way of matching is its own branch with a cap, and only the rows they return are ranked:
 * ranking every match of a common word ("java" matches a fifth of a staffing firm's candidates)
 * costs hundreds of milliseconds at 100,000 candidates. For such words the list is the best of the
 * first FTS_CAP matches, which all match equally well in substance.
 *
 * The words are looked for first in the workspace's first SCAN_FIRST candidates (in table order,
 * as the index returns its matches too), one by one: a word in at least one profile in
 * SCAN_FIRST / FTS_CAP (40) fills the cap there in a few milliseconds and the GIN index is not asked.
 * The index cannot stop early: it collects every match before returning the first (43,000 for
 * "oracle dba" at 1,000,000 candidates, 50–100 ms; bench/README.md "Scale"), and the planner,
 * which multiplies the words' frequencies, expects a few hundred. Rarer words (a full name) are
 * then found through the index. The name branch always runs: among many word matches ("Austin" is
 * also a city), the people with that name must still reach the ranking.
 *
 * Whole-word matches are collected before prefix ones and rank above them, and both above names
 * that are only similar (the tiers of `core/text-search.ts`): "java" lists Java developers before
 * JavaScript ones and before "Ava Jackson".
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { SearchHit, SearchProvider } from '../search/index.ts'
import { prefixTsQuery, rankWhenMatched, relevance, similarityText, wordsTsQuery } from '../../core/text-search.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { candidateReach, reachOf, seesContact } from './reach.ts'

const FTS_CAP = 50
const SCAN_FIRST = 2000
const NAME_CAP = 50

interface Row {
	id: string
	name: string
	headline: string | null
	location: string | null
	skills: string[] | null
	score: number
}

async function searchCandidates(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchHit[]> {
	if (!deps.permissions.can(actor, 'candidates:read')) return []
	const reach = candidateReach(await reachOf(deps, actor))
	const tsq = prefixTsQuery(q)
	const whole = wordsTsQuery(q)
	const text = similarityText(q)
	const byEmail = seesContact(deps, actor) && text.includes('@')
	const byName = !byEmail && /^[\p{L}' .-]+$/u.test(text) && text.split(' ').length <= 4
	const branches: SQL[] = []
	if (tsq && whole) {
		const first = sql`select c.id, c.search_vector from candidates c where ${reach} limit ${SCAN_FIRST}`
		// Whole-word matches are collected first, so that "java" fills the cap with Java developers
		// before any "JavaScript" one; each query is first looked for in the first rows, then
		// through the index. An Append stops pulling once the outer limit is reached: later
		// branches run only when the earlier ones fell short.
		const ways = [...new Set([whole, tsq])].flatMap((query) => {
			const words = sql`to_tsquery('english', ${query})`
			return [
				sql`(select r.id from (${first}) r where r.search_vector @@ ${words} limit ${FTS_CAP})`,
				sql`(select c.id from candidates c where ${reach} and c.search_vector @@ ${words} limit ${FTS_CAP})`,
			]
		})
		branches.push(sql`(select f.id from (${sql.join(ways, sql` union all `)}) f limit ${FTS_CAP})`)
	}
	// The limit is a subquery, so the planner plans for a tenth of the matches, not for 50 rows: told
	// "50", it sometimes expected a sequential scan to find them within a few thousand rows, and read
	// 48,000 for "Meera Muller" at 1,000,000 candidates (190 ms; the trigram index took 14 ms).
	if (byName) branches.push(sql`(select c.id from candidates c where ${reach} and ${text} <% c.name limit (select ${NAME_CAP}::int))`)
	if (byEmail) branches.push(sql`(select c.id from candidates c where ${reach} and c.email = ${text})`)
	if (!branches.length) return []
	const score = relevance({
		exact: whole ? sql`m.exact` : null,
		prefix: tsq ? sql`m.prefix` : null,
		similar: sql`word_similarity(${text}, c.name)`,
		certain: byEmail ? sql`c.email = ${text}` : undefined,
	})
	const rows = await deps.database.rows<Row>(sql`select c.id, c.name, c.headline, c.location, c.skills, ${score} as score
		from candidates c cross join lateral (select ${whole ? rankWhenMatched(sql`c.search_vector`, whole) : sql`null::real`} as exact, ${tsq ? rankWhenMatched(sql`c.search_vector`, tsq) : sql`null::real`} as prefix) m
		where c.id = any(array(select h.id from (${sql.join(branches, sql` union all `)}) h))
		order by score desc, c.id limit ${limit}`)
	return rows.map((r) => ({
		type: 'candidate',
		id: r.id,
		// Candidate-written: labelled lines (no Markdown, HTML or hidden characters).
		title: untrustedLine(r.name, 'candidate', 120),
		snippet: untrustedLine([r.headline, r.location, (r.skills ?? []).slice(0, 6).join(', ')].filter(Boolean).join(' · '), 'candidate', 240),
		score: Math.round(Number(r.score) * 1000) / 1000,
	}))
}

export const candidateSearchProvider: SearchProvider = { type: 'candidate', search: searchCandidates }
