/**
 * The search-provider port: modules contribute typed results to the `search` tool with
 * `contribute(searchProviders, …)`, requiring this module.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'
import type { UntrustedText } from '../../core/untrusted.ts'

export interface SearchHit {
	readonly type: string
	readonly id: string
	/** What the record is called (a job's title, a person's name): written by others, so labelled. */
	readonly title: UntrustedText
	readonly snippet: UntrustedText
	readonly score: number
}

/** Results of one type, limited to what `actor` may see, best first, at most `limit`. */
export interface SearchProvider {
	readonly type: string
	search(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchHit[]>
}

export const searchProviders = definePort<SearchProvider>('search:provider', 'Typed results of the search tool (jobs, candidates, inbox threads)')
