/**
 * Turning what a person typed into PostgreSQL full-text queries, and the relevance scale every
 * search provider shares. All words must match; in the prefix query the last word is a prefix
 * ("kube" finds "Kubernetes", as while typing), the others whole words (a prefix of a short word
 * such as "com" expands to thousands of index keys). Only letters and digits reach `to_tsquery`,
 * so no input can break its syntax.
 *
 * Relevance (0–1) comes in tiers, so that hits of different providers compare when `search`
 * merges them, and a real match always outranks a near one:
 * - 1: the name or title is what was typed (`Senior Java Developer`, `Ava Jackson`; case and
 *   spaces aside), or an e-mail address is;
 * - 0.995: a record about someone who is exactly what was typed (a conversation with that name or
 *   address): right after the person, above every word match;
 * - 0.7 to 0.99: every word found whole (in a name, title, skill, headline, message…), ordered by
 *   where it was found (ts_rank over the record's weighted vector);
 * - 0.45 to 0.7: found only with the last word as a prefix ("java" in "JavaScript");
 * - below 0.45: only similar, as a misspelt or partial name or title is (trigram similarity).
 * So "java" puts Java developers above "Ava Jackson", and "Ava Jakson" still finds her when
 * nothing matches exactly.
 *
 * Accents, width, letters such as ß and Ł, and invisible characters are folded on both sides, by one
 * normaliser: `foldText` here for what is asked, the database's `bl_fold` (the same steps,
 * db/migrations/0004_fold_letters_invisible.sql) for what is indexed and compared, so "Tomas" finds
 * Tomás, "Müller" finds Muller, "ＪＡＶＡ" finds Java, "strasse" finds Straße and a word with a
 * zero-width space inside is one word.
 *
 * Technology names spelled with symbols are words on both sides too: `searchTerms` here, the
 * database's `bl_terms` over what is indexed (db/migrations/0003_search_terms.sql), spell "C#" as
 * csharp, "C++" as cplusplus, ".NET" as dotnet and "node.js" as nodedotjs, which the full-text parser
 * keeps (it dropped the symbols: "C#" was a one-letter "c" nobody could ask for).
 */
import { sql, type SQL } from 'drizzle-orm'

/**
 * Letters that compatibility decomposition keeps whole but people type as plain Latin letters:
 * "strasse" finds Straße, "Lukasz" Łukasz, "Soren" Søren, "Aeron" Æron. The database's `bl_fold`
 * spells the same letters the same way (db/migrations/0004_fold_letters_invisible.sql).
 */
export const FOLDED_LETTERS: Readonly<Record<string, string>> = {
	ß: 'ss',
	ẞ: 'SS',
	æ: 'ae',
	Æ: 'AE',
	œ: 'oe',
	Œ: 'OE',
	þ: 'th',
	Þ: 'TH',
	ø: 'o',
	Ø: 'O',
	ł: 'l',
	Ł: 'L',
	đ: 'd',
	Đ: 'D',
	ð: 'd',
	Ð: 'D',
	ħ: 'h',
	Ħ: 'H',
	ı: 'i',
	ŧ: 't',
	Ŧ: 'T',
}
const FOLDED_LETTER = new RegExp(`[${Object.keys(FOLDED_LETTERS).join('')}]`, 'g')

/**
 * What folding drops: accents (combining marks U+0300–U+036F, once NFKD has set them apart) and the
 * characters nobody sees (Unicode's default-ignorable code points: zero-width space and joiners, soft
 * hyphen, direction marks, variation selectors, tags…), which otherwise split a word in two. Written
 * as ranges, the database's `bl_fold` has the same class.
 */
const FOLDED_AWAY =
	// biome-ignore lint/suspicious/noMisleadingCharacterClass: characters dropped one by one, combining ones among them; none joins another.
	/[\u0300-\u036f\u00ad\u061c\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu

/**
 * `s` as search compares it: full-width letters plain (ＪＡＶＡ → JAVA), accents dropped (Tomás →
 * Tomas), letters NFKD keeps whole spelled plain (Straße → Strasse: `FOLDED_LETTERS`), invisible
 * characters dropped ("Jav\u200Ba" → Java). The database's `bl_fold` does exactly this to what it
 * indexes; the two must stay the same steps (tests/search-ranking.test.ts compares them).
 */
export const foldText = (s: string) =>
	s
		.normalize('NFKD')
		.replace(FOLDED_AWAY, '')
		.replace(FOLDED_LETTER, (c) => FOLDED_LETTERS[c]!)

/** The shortest search text that can match (the words searched have two characters or more), and what a shorter one is told. */
export const MIN_SEARCH_CHARS = 2
export const SEARCH_TEXT_TOO_SHORT = `must have at least ${MIN_SEARCH_CHARS} characters`

/** The longest search text of every list and search (the tools' `query` and `q`, the portal's boxes, a saved search). */
export const MAX_SEARCH_CHARS = 120

/**
 * What is wrong with a search text (trimmed by the caller), as a field's message, or null; an empty
 * one is no search. One rule for every list that searches and for `search`: one character matches
 * nothing (the words searched have two or more), so it is said rather than answered "none match".
 */
export function searchTextProblem(q: string): string | null {
	const length = [...q].length
	if (length === 0) return null
	if (length < MIN_SEARCH_CHARS) return SEARCH_TEXT_TOO_SHORT
	if (length > MAX_SEARCH_CHARS) return `must be ${MAX_SEARCH_CHARS} characters or fewer`
	return null
}

/**
 * `s` folded (`foldText`) with the symbols of technology names spelled as letters, as the database's
 * `bl_terms` spells what the search vectors index (the same steps, ASCII only; tests/search-ranking.test.ts
 * compares them): a slash is a space; "++" and "#" after a letter or digit are "plusplus" and "sharp"; a
 * dot between letters is "dot", and one before a letter with no letter or digit before it " dot".
 */
export const searchTerms = (s: string) =>
	foldText(s)
		.replace(/\//g, ' ')
		.replace(/([A-Za-z0-9])\+\+/g, '$1plusplus')
		.replace(/([A-Za-z0-9])#/g, '$1sharp')
		.replace(/(?<=[A-Za-z])\.(?=[A-Za-z])/g, 'dot')
		.replace(/(?<![A-Za-z0-9])\.(?=[A-Za-z])/g, ' dot')

/** `column` folded as `foldText` folds what is asked (the trigram indexes of names and titles are on this expression). */
export const folded = (column: SQL) => sql`bl_fold(${column})`

/** The words of `q` that a full-text query uses (letters and digits, lower case, folded, symbols spelled: `searchTerms`), or none for an e-mail address. */
function queryWords(q: string): string[] {
	if (q.includes('@')) return []
	return searchTerms(q)
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((w) => w.length >= 2)
		.slice(0, 8)
}

/** The `to_tsquery('english', …)` text for `q`, or null when no word of two or more characters is left; null for e-mail addresses. */
export function prefixTsQuery(q: string): string | null {
	const words = queryWords(q)
	return words.length ? words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ') : null
}

/** The same query with every word whole: what counts as an exact match. */
export function wordsTsQuery(q: string): string | null {
	const words = queryWords(q)
	return words.length ? words.join(' & ') : null
}

/** `q` trimmed and collapsed, for trigram similarity against names and titles. */
export const similarityText = (q: string) => q.replace(/\s+/g, ' ').trim().toLowerCase()

/** `similarityText` of the folded `q`, to compare with a `folded` name or title. */
export const foldedSimilarityText = (q: string) => similarityText(foldText(q))

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/** `s` taken literally in a regular expression, JavaScript's or PostgreSQL's (ASCII punctuation escaped). */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether `column` is exactly `text` (a `similarityText`), case aside: `ilike` without wildcards,
 * so a trigram index on the column finds the rows.
 */
export const sameText = (column: SQL, text: string) => sql`${column} ilike ${escapeLike(text)}`

export const EXACT_TIER = 0.7
export const PREFIX_TIER = 0.45
/** Above every word match (below 0.99), below the record that is what was typed (1). */
export const ABOUT_TIER = 0.995

/**
 * A hit's relevance on the shared scale. `exact` and `prefix` are ts_rank values of the record
 * for the whole-word and the prefix query, null when it does not match that query (see
 * `rankWhenMatched`); `similar` is the best trigram similarity of its name or title (0–1);
 * `certain` marks a match that is exact by other means (an e-mail address), scored 1; `about`
 * one whose subject is exactly what was typed (a conversation with that person), scored just below.
 */
export function relevance(o: { exact: SQL | null; prefix: SQL | null; similar: SQL; certain?: SQL; about?: SQL }): SQL {
	// ts_rank grows without bound with repeats and weights: r / (r + 0.2) keeps its order within the
	// tier, which stops just below 1 so that only what was typed exactly scores 1.
	const within = (rank: SQL) => sql`(${rank}) / ((${rank}) + 0.2)`
	// Constants, written into the statement: its text stays the same for every query.
	const [exactTier, prefixTier] = [sql.raw(String(EXACT_TIER)), sql.raw(String(PREFIX_TIER))]
	const tiers: SQL[] = []
	if (o.certain) tiers.push(sql`when ${o.certain} then 1`)
	if (o.about) tiers.push(sql`when ${o.about} then ${sql.raw(String(ABOUT_TIER))}`)
	if (o.exact) tiers.push(sql`when (${o.exact}) is not null then ${exactTier} + (0.99 - ${exactTier}) * ${within(o.exact)}`)
	if (o.prefix) tiers.push(sql`when (${o.prefix}) is not null then ${prefixTier} + (${exactTier} - ${prefixTier}) * ${within(o.prefix)}`)
	const similar = sql`${prefixTier} * least(1, greatest(0, ${o.similar}))`
	// A query without words (an e-mail address, one letter) has only the similarity tier.
	return tiers.length ? sql`(case ${sql.join(tiers, sql` `)} else ${similar} end)::float8` : sql`(${similar})::float8`
}

/** ts_rank of `vector` for the query, or null when the vector does not match it. */
export const rankWhenMatched = (vector: SQL, tsquery: string) =>
	sql`case when ${vector} @@ to_tsquery('english', ${tsquery}) then ts_rank(${vector}, to_tsquery('english', ${tsquery})) end`

/**
 * One way a provider finds matches, capped: `ids` selects one column, `id`, at most `cap` rows.
 * Only what the ways return is ranked, and counted.
 */
export interface MatchWay {
	readonly ids: SQL
	readonly cap: number
}

/**
 * The `with` clause of a provider's ranking statement: `found` is one row holding the distinct ids
 * the ways found (`ids`) and whether one of them stopped at its cap (`capped`: there may be more
 * matches than were counted). The statement ranks the rows `where <id> = any(FOUND_IDS)` and
 * selects `FOUND_COUNT` and `FOUND_CAPPED` with each.
 */
export function withFoundMatches(ways: readonly MatchWay[]): SQL {
	const tagged = ways.map((w, i) => sql`(select ${sql.raw(String(i))} as way, ${sql.raw(String(w.cap))} as cap, x.id from (${w.ids}) x)`)
	return sql`with h as (${sql.join(tagged, sql` union all `)}),
found as (select array(select distinct h.id from h) as ids, coalesce((select bool_or(c.n >= c.cap) from (select max(h.cap) as cap, count(*) as n from h group by h.way) c), false) as capped)`
}

export const FOUND_IDS = sql`(select f.ids from found f)::text[]`
export const FOUND_COUNT = sql`(select cardinality(f.ids) from found f)`
export const FOUND_CAPPED = sql`(select f.capped from found f)`
