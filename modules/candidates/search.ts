/**
 * Candidates in the `search` tool: full-text search over name, headline, skills and location
 * (weighted in that order, the generated `search_vector`), trigram word similarity of the name for
 * partial or misspelt names, and — for people who may see contact details — an exact e-mail address.
 * Hiring managers find only the applicants of their jobs; viewers find no candidates.
 *
 * Each way of matching is its own index-driven branch with a cap, and only the rows they return are
 * ranked: ranking every match of a common word ("java" matches a fifth of a staffing firm's
 * candidates) costs hundreds of milliseconds at 100,000 candidates. For such words the list is the
 * best of the first FTS_CAP matches, which all match equally well in substance.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { SearchHit, SearchProvider } from '../../core/module.ts'
import { prefixTsQuery, similarityText } from '../../core/text-search.ts'
import { cleanLine } from '../../core/untrusted.ts'
import { candidateReach, reachOf, seesContact } from './reach.ts'

const FTS_CAP = 300
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
	const text = similarityText(q)
	const byEmail = seesContact(deps, actor) && text.includes('@')
	const byName = !byEmail && /^[\p{L}' .-]+$/u.test(text) && text.split(' ').length <= 4
	const branches: SQL[] = []
	if (tsq) branches.push(sql`(select c.id from candidates c where ${reach} and c.search_vector @@ to_tsquery('english', ${tsq}) limit ${FTS_CAP})`)
	if (byName) branches.push(sql`(select c.id from candidates c where ${reach} and ${text} <% c.name limit ${NAME_CAP})`)
	if (byEmail) branches.push(sql`(select c.id from candidates c where ${reach} and c.email = ${text})`)
	if (!branches.length) return []
	const rank = tsq ? sql`ts_rank(c.search_vector, to_tsquery('english', ${tsq}))` : sql`0`
	const rows = await deps.database.rows<Row>(sql`select c.id, c.name, c.headline, c.location, c.skills,
		least(1, greatest(${rank}, word_similarity(${text}, c.name), case when c.email = ${byEmail ? text : null} then 1 else 0 end))::float8 as score
		from candidates c where c.id = any(array(select h.id from (${sql.join(branches, sql` union all `)}) h))
		order by score desc, c.id limit ${limit}`)
	return rows.map((r) => ({
		type: 'candidate',
		id: r.id,
		title: cleanLine(r.name, 120),
		snippet: cleanLine([r.headline, r.location, (r.skills ?? []).slice(0, 6).join(', ')].filter(Boolean).join(' · '), 240),
		score: Math.round(Number(r.score) * 1000) / 1000,
	}))
}

export const candidateSearchProvider: SearchProvider = { type: 'candidate', search: searchCandidates }
