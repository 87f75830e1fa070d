/**
 * Which jobs (`j`) match what was typed, in one place: the `search` tool counts these matches and
 * offers `list_jobs` with the same `query` to page through them, the careers site's search and the
 * jobs list filter by them. A job matches when every word is in its stored `search_vector` (the last
 * word as a prefix), or its title is what was typed or similar to it. Both sides are folded
 * (`core/text-search.ts`): "Jàva", "ＪＡＶＡ" and "java" match the same jobs.
 */
import { type SQL, sql } from 'drizzle-orm'
import { folded, foldedSimilarityText, prefixTsQuery, sameText, wordsTsQuery } from '../../core/text-search.ts'

/** Each way a job matches `q`, each one an index can answer (null: `q` has no word for it). */
export function jobMatchWays(q: string) {
	const whole = wordsTsQuery(q)
	const prefix = prefixTsQuery(q)
	const text = foldedSimilarityText(q)
	const title = folded(sql`j.title`)
	return {
		/** Every word whole: implies `prefix`, asked first so that whole words fill a capped list first. */
		whole: whole ? sql`j.search_vector @@ to_tsquery('english', ${whole})` : null,
		prefix: prefix ? sql`j.search_vector @@ to_tsquery('english', ${prefix})` : null,
		sameTitle: sameText(title, text),
		similarTitle: sql`${text} <% ${title}`,
	}
}

/** Whether a job matches `q` in any of `jobMatchWays` (`whole` is within `prefix`). */
export function jobMatches(q: string): SQL {
	const ways = jobMatchWays(q)
	return sql`(${sql.join(
		[ways.prefix, ways.sameTitle, ways.similarTitle].filter((w): w is SQL => w !== null),
		sql` or `,
	)})`
}
