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
import { normalEmail } from '../../core/email.ts'
import type { SearchFound, SearchProvider } from '../search/index.ts'
import {
	FOUND_CAPPED,
	FOUND_COUNT,
	FOUND_IDS,
	folded,
	foldedSimilarityText,
	type MatchWay,
	prefixTsQuery,
	rankWhenMatched,
	relevance,
	sameText,
	similarityText,
	withFoundMatches,
	wordsTsQuery,
} from '../../core/text-search.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { candidateReach, reachOf, seesContact } from './reach.ts'

const FTS_CAP = 50
const SCAN_FIRST = 2000
const NAME_CAP = 50
const EMAIL_CAP = 10

interface Row {
	id: string
	name: string
	headline: string | null
	location: string | null
	skills: string[] | null
	updatedAt: Date | string
	score: number
	found: number
	capped: boolean
}

/**
 * Each way a candidate (`c`) matches `q`, null when `q` has nothing for it: every word in the stored
 * `search_vector` (the last as a prefix; `whole`: every word whole, a subset), the name that is what
 * was typed or similar to it (when `q` reads as a name), the e-mail address (for people who see
 * contact details, when `q` is one). Names and words are compared folded (`core/text-search.ts`).
 * The search and `list_candidates`' query both match this way (`candidateMatches`).
 */
export function candidateMatchWays(q: string, contact: boolean) {
	const prefix = prefixTsQuery(q)
	const whole = wordsTsQuery(q)
	const text = foldedSimilarityText(q)
	const byEmail = contact && similarityText(q).includes('@')
	const byName = !byEmail && /^[\p{L}' .-]+$/u.test(text) && text.split(' ').length <= 4
	const name = folded(sql`c.name`)
	return {
		text,
		name,
		words: prefix && whole ? { prefix, whole } : null,
		sameName: byName ? sameText(name, text) : null,
		similarName: byName ? sql`${text} <% ${name}` : null,
		// An address is looked up in its normal form (core/email.ts), as it is stored.
		email: byEmail ? sql`c.email = ${normalEmail(q)}` : null,
	}
}

/** Whether a candidate matches `q` in any of `candidateMatchWays` (false when `q` has nothing to match). */
export function candidateMatches(q: string, contact: boolean): SQL {
	const m = candidateMatchWays(q, contact)
	const ways = [m.words && sql`c.search_vector @@ to_tsquery('english', ${m.words.prefix})`, m.sameName, m.similarName, m.email].filter((w): w is SQL =>
		Boolean(w),
	)
	return ways.length ? sql`(${sql.join(ways, sql` or `)})` : sql`false`
}

async function searchCandidates(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchFound | null> {
	if (!deps.permissions.can(actor, 'candidates:read')) return null
	const reach = candidateReach(await reachOf(deps, actor))
	const match = candidateMatchWays(q, seesContact(deps, actor))
	const ways: MatchWay[] = []
	if (match.words) {
		const { whole, prefix: tsq } = match.words
		const first = sql`select c.id, c.search_vector from candidates c where ${reach} limit ${SCAN_FIRST}`
		// Whole-word matches are collected first, so that "java" fills the cap with Java developers
		// before any "JavaScript" one (the prefix query then adds only what it alone finds); each is
		// first looked for in the first rows, then through the index, which is only asked when the
		// first rows are not all the candidates in reach (so that nothing is found twice, and the
		// count is exact up to the cap). An Append stops pulling once the outer limit is reached:
		// later branches run only when the earlier ones fell short.
		const beyondFirst = sql`exists (select 1 from candidates c where ${reach} offset ${SCAN_FIRST})`
		const matching = (v: SQL) =>
			whole === tsq
				? [sql`${v} @@ to_tsquery('english', ${whole})`]
				: [sql`${v} @@ to_tsquery('english', ${whole})`, sql`${v} @@ to_tsquery('english', ${tsq}) and not ${v} @@ to_tsquery('english', ${whole})`]
		const branches = [
			...matching(sql`r.search_vector`).map((m) => sql`(select r.id from (${first}) r where ${m} limit ${FTS_CAP})`),
			...matching(sql`c.search_vector`).map((m) => sql`(select c.id from candidates c where ${beyondFirst} and ${reach} and ${m} limit ${FTS_CAP})`),
		]
		ways.push({ ids: sql`select f.id from (${sql.join(branches, sql` union all `)}) f limit ${FTS_CAP}`, cap: FTS_CAP })
	}
	// The limit is a subquery, so the planner plans for a tenth of the matches, not for 50 rows: told
	// "50", it sometimes expected a sequential scan to find them within a few thousand rows, and read
	// 48,000 for "Meera Muller" at 1,000,000 candidates (190 ms; the trigram index took 14 ms).
	// The name that is exactly what was typed comes first, however many others share its words.
	for (const byName of [match.sameName, match.similarName])
		if (byName) ways.push({ ids: sql`select c.id from candidates c where ${reach} and ${byName} limit (select ${NAME_CAP}::int)`, cap: NAME_CAP })
	if (match.email) ways.push({ ids: sql`select c.id from candidates c where ${reach} and ${match.email} limit ${EMAIL_CAP}`, cap: EMAIL_CAP })
	if (!ways.length) return { hits: [], count: 0, countIsAtLeast: false }
	const { whole, prefix: tsq } = match.words ?? { whole: null, prefix: null }
	const score = relevance({
		exact: whole ? sql`m.exact` : null,
		prefix: tsq ? sql`m.prefix` : null,
		similar: sql`word_similarity(${match.text}, ${match.name})`,
		certain: match.email ?? sameText(match.name, match.text),
	})
	const rows = await deps.database.rows<Row>(sql`${withFoundMatches(ways)}
		select c.id, c.name, c.headline, c.location, c.skills, c.updated_at as "updatedAt", ${score} as score, ${FOUND_COUNT} as found, ${FOUND_CAPPED} as capped
		from candidates c cross join lateral (select ${whole ? rankWhenMatched(sql`c.search_vector`, whole) : sql`null::real`} as exact, ${tsq ? rankWhenMatched(sql`c.search_vector`, tsq) : sql`null::real`} as prefix) m
		where c.id = any(${FOUND_IDS})
		order by score desc, c.updated_at desc, c.id limit ${limit}`)
	const hits = rows.map((r) => ({
		type: 'candidate',
		id: r.id,
		// Candidate-written: labelled lines (no Markdown, HTML or hidden characters).
		title: untrustedLine(r.name, 'candidate', 120),
		snippet: untrustedLine([r.headline, r.location, (r.skills ?? []).slice(0, 6).join(', ')].filter(Boolean).join(' · '), 'candidate', 240),
		score: Math.round(Number(r.score) * 1000) / 1000,
		current: true,
		changedAt: new Date(r.updatedAt).toISOString(),
	}))
	return { hits, count: Number(rows[0]?.found ?? 0), countIsAtLeast: Boolean(rows[0]?.capped) }
}

export const candidateSearchProvider: SearchProvider = {
	type: 'candidate',
	list: {
		tool: 'list_candidates',
		matches: 'name, role, skills or location have every word (the last as a prefix), or whose name is what was typed or similar',
	},
	pages: {
		plural: 'Candidates',
		record: (id) => `/candidates/${encodeURIComponent(id)}`,
		seeAll: (q) => `/candidates?q=${encodeURIComponent(q)}`,
		seeAllFilters: true,
	},
	search: searchCandidates,
}
