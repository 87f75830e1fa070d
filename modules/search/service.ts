/**
 * The `search` tool: asks every search provider the modules contribute (jobs, candidates, the
 * inbox when it exists) and merges their typed hits into one list ranked by score (0–1, on the
 * shared scale of `core/text-search.ts`, so a whole-word match of one provider outranks a
 * similar-sounding name of another). Each
 * provider limits its hits to what the actor may see; a provider that fails is logged and skipped
 * so one module cannot take search down.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { contributionsTo } from '../../core/registry.ts'
import { searchProviders, type SearchHit } from './port.ts'

/** Hits asked of each provider, and returned in all. */
export const PER_PROVIDER = 10
export const MAX_RESULTS = 20

export async function search(deps: AppDeps, actor: Actor, q: string): Promise<{ query: string; results: SearchHit[] }> {
	const query = q.replace(/\s+/g, ' ').trim()
	if ([...query].length < 2)
		throw new AppError('VALIDATION', 'q must have at least 2 characters besides spaces', {
			fields: [{ field: 'q', message: 'must have at least 2 characters besides spaces' }],
		})
	const providers = contributionsTo(deps.registry, searchProviders)
	const lists = await Promise.all(
		providers.map((p) =>
			p.search(deps, actor, query, PER_PROVIDER).catch((error) => {
				deps.log.error('search provider failed', { type: p.type, error })
				return [] as SearchHit[]
			}),
		),
	)
	const results = lists.flat().sort((a, b) => b.score - a.score || a.type.localeCompare(b.type) || a.id.localeCompare(b.id))
	return { query, results: results.slice(0, MAX_RESULTS) }
}
