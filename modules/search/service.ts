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
import { contributionsTo } from '../../core/registry.ts'
import { searchProviders, type SearchFound, type SearchHit, type SearchProvider } from './port.ts'

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

export async function search(deps: AppDeps, actor: Actor, q: string) {
	const query = q.replace(/\s+/g, ' ').trim()
	if ([...query].length < 2)
		throw new AppError('VALIDATION', 'q must have at least 2 characters besides spaces', {
			fields: [{ field: 'q', message: 'must have at least 2 characters besides spaces' }],
		})
	const providers = contributionsTo(deps.registry, searchProviders)
	const found = await Promise.all(
		providers.map((p) =>
			p.search(deps, actor, query, MAX_RESULTS).catch((error) => {
				deps.log.error('search provider failed', { type: p.type, error })
				return null
			}),
		),
	)
	const best = found
		.flatMap((f) => f?.hits ?? [])
		.sort(byRelevance)
		.slice(0, MAX_RESULTS)
	const types = providers.flatMap((p, i) => {
		const f = found[i]
		return f ? [typeCount(p, f, best.filter((h) => h.type === p.type).length, query)] : []
	})
	return {
		query,
		results: best.map(({ type, id, title, snippet, score }) => ({ type, id, title, snippet, score })),
		types,
	}
}
