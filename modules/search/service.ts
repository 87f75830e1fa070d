/**
 * The `search` tool: asks every search provider the modules contribute (jobs, candidates, the
 * inbox when it exists) for its best MAX_RESULTS hits, merges them into one list ranked by score
 * (0–1, on the shared scale of `core/text-search.ts`, so a whole-word match of one provider
 * outranks a similar-sounding name of another) and only then cuts it: a provider never fills the
 * list with weaker hits while better ones of another are left out. Ties of score go to the current
 * record (an open job before a closed one), then to the latest change, then to the id — never to
 * the type. Each type says how many records match and, when not all are shown, which list tool
 * shows them all or how to narrow the search.
 *
 * Each provider limits its hits to what the actor may see; a provider that fails is logged and
 * skipped so one module cannot take search down.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { searchTextProblem } from '../../core/text-search.ts'
import { contributionsTo } from '../../core/registry.ts'
import { searchProviders, type SearchFound, type SearchHit, type SearchPages, type SearchProvider } from './port.ts'

/** Hits asked of each provider, and returned in all. */
export const MAX_RESULTS = 20

const PLURAL: Record<string, string> = { job: 'jobs', candidate: 'candidates', inbox_thread: 'inbox threads' }

export interface TypeCount {
	type: string
	found: number
	foundAtLeast: boolean
	shown: number
	seeAll: { tool: string; arguments: { query: string } } | null
	note: string
}

/** Best first: score, then a current record, then the latest change, then the id. */
export function byRelevance(a: SearchHit, b: SearchHit): number {
	return b.score - a.score || Number(b.current) - Number(a.current) || b.changedAt.localeCompare(a.changedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

function typeCount(provider: SearchProvider, found: SearchFound, shown: number, query: string): TypeCount {
	const plural = PLURAL[provider.type] ?? provider.type
	const count = found.countIsAtLeast ? `at least ${found.count}` : String(found.count)
	const base = { type: provider.type, found: found.count, foundAtLeast: found.countIsAtLeast, shown }
	if (found.count === 0) return { ...base, seeAll: null, note: `No ${plural} match.` }
	if (shown >= found.count && !found.countIsAtLeast) return { ...base, seeAll: null, note: `All ${count} matching ${plural} are shown.` }
	const list = provider.list
	const narrow = 'add words to the search to narrow it'
	const note = list
		? `Showing ${shown} of ${count} matching ${plural}. ${list.tool} with query "${query}" lists the ${plural} whose ${list.matches}, a page at a time (pass nextCursor back as cursor); or ${narrow}.`
		: `Showing ${shown} of ${count} matching ${plural}: ${narrow}.`
	return { ...base, seeAll: list ? { tool: list.tool, arguments: { query } } : null, note }
}

/**
 * The query as searched (control characters and lone surrogates are spaces, spaces collapsed) and
 * what is wrong with it as the field's message (`searchTextProblem`, the lists' rule too), if
 * anything. The database refuses a NUL in text: one in what was typed failed every source that
 * matches in SQL. Every door reads a query with this, first: the tool (a VALIDATION error), the
 * portal's page and its dropdown's JSON (each in its own shape).
 */
export function readSearchQuery(q: string): { query: string; problem: string | null } {
	const query = q
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
		.toWellFormed()
		.replaceAll('\uFFFD', ' ')
		.replace(/\s+/g, ' ')
		.trim()
	return { query, problem: query ? searchTextProblem(query) : 'must have at least 2 characters' }
}

function normalised(q: string): string {
	const { query, problem } = readSearchQuery(q)
	if (problem) throw new AppError('VALIDATION', `q ${problem}`, { fields: [{ field: 'q', message: problem }] })
	return query
}

/** Every provider's best `limit` hits for the actor (null: the actor may not see that type; a failing provider too, logged). */
async function ask(deps: AppDeps, actor: Actor, query: string, limit: number) {
	const providers = contributionsTo(deps.registry, searchProviders)
	const found = await Promise.all(
		providers.map((p) =>
			p.search(deps, actor, query, limit).catch((error) => {
				deps.log.error('search provider failed', { type: p.type, error })
				return null
			}),
		),
	)
	return providers.map((provider, i) => ({ provider, found: found[i] ?? null }))
}

export async function search(deps: AppDeps, actor: Actor, q: string) {
	const query = normalised(q)
	const asked = await ask(deps, actor, query, MAX_RESULTS)
	const best = asked
		.flatMap((a) => a.found?.hits ?? [])
		.sort(byRelevance)
		.slice(0, MAX_RESULTS)
	const types = asked.flatMap(({ provider, found }) => (found ? [typeCount(provider, found, best.filter((h) => h.type === provider.type).length, query)] : []))
	return {
		query,
		results: best.map(({ type, id, title, snippet, score }) => ({ type, id, title, snippet, score })),
		types,
	}
}

/** Hits of each type the portal's header search shows. */
export const PER_TYPE = 5

export interface SearchGroup {
	type: string
	/** The type's records the actor may see that match, as far as counted (`foundAtLeast`: at least that many). */
	found: number
	foundAtLeast: boolean
	/** The best PER_TYPE of them, best first. */
	hits: SearchHit[]
	/** The provider's portal pages (where a hit and "See all" link), when it declares them. */
	pages: SearchPages | null
}

/**
 * The same search grouped by type, for people (the portal's header search and `/search`): the
 * same providers, ranking and role limits as the tool, but the best PER_TYPE of each type with its
 * count rather than the best 20 of all types together. Types the actor may not see are left out.
 */
export async function searchByType(deps: AppDeps, actor: Actor, q: string): Promise<{ query: string; groups: SearchGroup[] }> {
	const query = normalised(q)
	const asked = await ask(deps, actor, query, PER_TYPE)
	const groups = asked.flatMap(({ provider, found }) =>
		found
			? [
					{
						type: provider.type,
						found: found.count,
						foundAtLeast: found.countIsAtLeast,
						hits: [...found.hits].sort(byRelevance).slice(0, PER_TYPE),
						pages: provider.pages ?? null,
					},
				]
			: [],
	)
	return { query, groups }
}
