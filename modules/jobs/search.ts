/**
 * Jobs in the `search` tool: full-text search over title, skills, location, department and pitch
 * (weighted in that order: the stored `jobs.search_vector`, modules/jobs/migrations/0000_baseline.sql),
 * plus trigram similarity of the title for misspelt or partial titles, ranked in the tiers of
 * `core/text-search.ts` (whole words, then prefixes, then similar titles). Ranking reads the stored
 * vector: recomputing it for each matched row took 15–22 ms for 350 jobs (bench/README.md "Scale").
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { SearchHit, SearchProvider } from '../search/index.ts'
import { prefixTsQuery, rankWhenMatched, relevance, similarityText, wordsTsQuery } from '../../core/text-search.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { jobAuthor, jobReach } from './service.ts'

interface Row {
	id: string
	title: string
	vendorId: string | null
	status: string
	location: string | null
	department: string
	mustHave: string[] | null
	score: number
}

/**
 * Matches ranked per query at most; see the candidates provider for why the branches are capped.
 * The ids are collected into an array first, so the ranked rows are fetched by primary key: with
 * `in (subquery)` the planner estimated the union high and hashed a scan of every job instead.
 */
const FTS_CAP = 100
const TITLE_CAP = 50

async function searchJobs(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchHit[]> {
	if (!deps.permissions.can(actor, 'jobs:read')) return []
	const tsq = prefixTsQuery(q)
	const whole = wordsTsQuery(q)
	const text = similarityText(q)
	const branches: SQL[] = [sql`(select j.id from jobs j where ${jobReach(actor)} and ${text} <% j.title limit ${TITLE_CAP})`]
	// Whole-word matches first, so that they fill the cap before prefix-only ones ("java" before "JavaScript").
	if (tsq) branches.unshift(sql`(select j.id from jobs j where ${jobReach(actor)} and j.search_vector @@ to_tsquery('english', ${tsq}) limit ${FTS_CAP})`)
	if (whole) branches.unshift(sql`(select j.id from jobs j where ${jobReach(actor)} and j.search_vector @@ to_tsquery('english', ${whole}) limit ${FTS_CAP})`)
	const score = relevance({ exact: whole ? sql`m.exact` : null, prefix: tsq ? sql`m.prefix` : null, similar: sql`word_similarity(${text}, j.title)` })
	const rows =
		await deps.database.rows<Row>(sql`select j.id, j.title, j.vendor_id as "vendorId", j.status, j.location, j.department, j.must_have as "mustHave", ${score} as score
		from jobs j cross join lateral (select ${whole ? rankWhenMatched(sql`j.search_vector`, whole) : sql`null::real`} as exact, ${tsq ? rankWhenMatched(sql`j.search_vector`, tsq) : sql`null::real`} as prefix) m
		where j.id = any(array(select h.id from (${sql.join(branches, sql` union all `)}) h))
		order by score desc, j.id limit ${limit}`)
	return rows.map((r) => ({
		type: 'job',
		id: r.id,
		// Written by the job's vendor or a colleague: labelled lines (no Markdown, HTML or hidden characters).
		title: untrustedLine(r.title, jobAuthor(r), 200),
		snippet: untrustedLine([r.status, r.location, r.department, (r.mustHave ?? []).slice(0, 4).join(', ')].filter(Boolean).join(' · '), jobAuthor(r), 240),
		score: Math.round(Number(r.score) * 1000) / 1000,
	}))
}

export const jobSearchProvider: SearchProvider = { type: 'job', search: searchJobs }
