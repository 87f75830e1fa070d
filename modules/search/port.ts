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
	/** On the shared scale of `core/text-search.ts` (1: the name or title is what was typed). */
	readonly score: number
	/** Ties of score are broken by these, never by type: a current record (not a closed job) first, then the latest change. */
	readonly current: boolean
	/** When the record last changed (ISO 8601). */
	readonly changedAt: string
}

/** What one provider found: its best hits, and how many records of its type match. */
export interface SearchFound {
	readonly hits: SearchHit[]
	/** Records of this type that match, as far as they were counted. */
	readonly count: number
	/** True when counting stopped early: there are at least `count`. */
	readonly countIsAtLeast: boolean
}

/**
 * The list tool that shows every record of a type a query finds, for the model to page through:
 * its `query` must match exactly the records the provider counts (the same matching, shared), so
 * that the count `search` reports is what the list pages through.
 */
export interface SearchListTool {
	/** A list tool whose `query` parameter takes the search's text. */
	readonly tool: string
	/** How that tool matches, e.g. `name, role, location or skills contain every word`. */
	readonly matches: string
}

/** Where the portal shows a type's records: the header search's results link there (`/search`). */
export interface SearchPages {
	/** The type's name in the portal, plural ("Jobs", "Conversations"). */
	readonly plural: string
	/** The page of one record. */
	record(id: string): string
	/** The list that shows every match of `query` (or the nearest list), for "See all". */
	seeAll(query: string): string
	/** Whether `seeAll` filters by the query (the inbox list does not: its link says so). */
	readonly seeAllFilters: boolean
}

/** Results of one type, limited to what `actor` may see, best first, at most `limit`; null when the actor may not see this type at all. */
export interface SearchProvider {
	readonly type: string
	readonly list?: SearchListTool
	readonly pages?: SearchPages
	search(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchFound | null>
}

export const searchProviders = definePort<SearchProvider>('search:provider', 'Typed results of the search tool (jobs, candidates, inbox threads)')
