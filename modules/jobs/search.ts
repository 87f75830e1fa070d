/**
 * Jobs in the `search` tool and the careers site's search: full-text search over title, skills,
 * location, department and pitch, then the description (weighted in that order: the stored
 * `jobs.search_vector`, modules/jobs/migrations/0003_search_description.sql),
 * plus trigram similarity of the title for misspelt or partial titles, ranked in the tiers of
 * `core/text-search.ts` (the title exactly as typed, then whole words, then prefixes, then similar
 * titles); ties go to open jobs, then to the latest change. Ranking reads the stored vector:
 * recomputing it for each matched row took 15–22 ms for 350 jobs (bench/README.md "Scale").
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
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
	withFoundMatches,
	wordsTsQuery,
} from '../../core/text-search.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { jobLabelSql } from './label.ts'
import { jobMatches, jobMatchWays } from './matching.ts'
import { jobAuthor, jobReach } from './service.ts'

interface Row {
	id: string
	label: string
	vendorId: string | null
	createdByUserId: string | null
	vendorName: string | null
	vendorJobId: string | null
	status: string
	location: string | null
	department: string
	mustHave: string[] | null
	updatedAt: Date | string
	score: number
	found: number
	capped: boolean
}

/**
 * Matches ranked per query at most; see the candidates provider for why the ways are capped.
 * The ids are collected into an array first, so the ranked rows are fetched by primary key: with
 * `in (subquery)` the planner estimated the union high and hashed a scan of every job instead.
 */
const FTS_CAP = 100
const TITLE_CAP = 50

/**
 * How a job (`j`) ranks for what was typed, shared by the `search` tool and the careers site's
 * search (modules/careers/search.ts), so both order jobs alike: `score` on the scale of
 * `core/text-search.ts`, reading `m`, the `lateral` join to add after `from jobs j`; `matches`
 * is true for a job that matches at all (`jobMatches`, modules/jobs/matching.ts).
 */
export function jobRanking(q: string): { score: SQL; lateral: SQL; matches: SQL } {
	const tsq = prefixTsQuery(q)
	const whole = wordsTsQuery(q)
	const text = foldedSimilarityText(q)
	const title = folded(sql`j.title`)
	const score = relevance({
		exact: whole ? sql`m.exact` : null,
		prefix: tsq ? sql`m.prefix` : null,
		similar: sql`word_similarity(${text}, ${title})`,
		certain: sameText(title, text),
	})
	const lateral = sql`cross join lateral (select ${whole ? rankWhenMatched(sql`j.search_vector`, whole) : sql`null::real`} as exact, ${tsq ? rankWhenMatched(sql`j.search_vector`, tsq) : sql`null::real`} as prefix) m`
	return { score, lateral, matches: jobMatches(q) }
}

async function searchJobs(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchFound | null> {
	if (!deps.permissions.can(actor, 'jobs:read')) return null
	const match = jobMatchWays(q)
	const capped = (where: SQL, cap: number): MatchWay => ({ ids: sql`select j.id from jobs j where ${jobReach(actor)} and ${where} limit ${cap}`, cap })
	// Whole-word matches first, so that they fill the cap before prefix-only ones ("java" before "JavaScript");
	// then the title that is exactly what was typed, however many other jobs have its words, and similar titles.
	const ways = [match.whole, match.prefix].flatMap((where) => (where ? [capped(where, FTS_CAP)] : []))
	ways.push(capped(match.sameTitle, TITLE_CAP), capped(match.similarTitle, TITLE_CAP))
	const { score, lateral } = jobRanking(q)
	const rows = await deps.database.rows<Row>(sql`${withFoundMatches(ways)}
		select j.id, ${sql.raw(jobLabelSql('j'))} as label, j.vendor_id as "vendorId", j.created_by_user_id as "createdByUserId", v.name as "vendorName", j.vendor_job_id as "vendorJobId", j.status, j.location, j.department, j.must_have as "mustHave",
			j.updated_at as "updatedAt", ${score} as score, ${FOUND_COUNT} as found, ${FOUND_CAPPED} as capped
		from jobs j left join vendors v on v.id = j.vendor_id
		${lateral}
		where j.id = any(${FOUND_IDS})
		order by score desc, j.status = 'Open' desc, j.updated_at desc, j.id limit ${limit}`)
	const hits = rows.map((r) => ({
		type: 'job',
		id: r.id,
		// Written by the job's vendor or a colleague: labelled lines (no Markdown, HTML or hidden characters).
		// Its label: a title other jobs share comes with what tells them apart (modules/jobs/label.ts).
		title: untrustedLine(r.label, jobAuthor(r, actor), 300),
		// What tells jobs of one title apart comes first: where, for which vendor, under which reference.
		snippet: untrustedLine(
			[r.status, r.location, r.vendorName, r.vendorJobId && `ref ${r.vendorJobId}`, r.department, (r.mustHave ?? []).slice(0, 4).join(', ')]
				.filter(Boolean)
				.join(' · '),
			jobAuthor(r, actor),
			240,
		),
		score: Math.round(Number(r.score) * 1000) / 1000,
		current: r.status === 'Open',
		changedAt: new Date(r.updatedAt).toISOString(),
	}))
	return { hits, count: Number(rows[0]?.found ?? 0), countIsAtLeast: Boolean(rows[0]?.capped) }
}

export const jobSearchProvider: SearchProvider = {
	type: 'job',
	list: {
		tool: 'list_jobs',
		matches: 'title, skills, location, department or description have every word (the last as a prefix), or whose title is what was typed or similar',
	},
	pages: { plural: 'Jobs', record: (id) => `/jobs/${encodeURIComponent(id)}`, seeAll: (q) => `/jobs?q=${encodeURIComponent(q)}`, seeAllFilters: true },
	search: searchJobs,
}
