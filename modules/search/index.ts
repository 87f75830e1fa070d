import { Type as t } from '@sinclair/typebox'
import { nullable, params, searchText } from '../../core/mcp/params.ts'
import { UntrustedLine } from '../../core/untrusted.ts'
import { defineModule, defineTool } from '../../core/module.ts'
import { searchProviders } from './port.ts'
import { searchRoutes } from './routes.ts'
import { search } from './service.ts'

export { searchProviders, type SearchFound, type SearchHit, type SearchPages, type SearchProvider } from './port.ts'
export { MAX_RESULTS, PER_TYPE, search, searchByType, type SearchGroup } from './service.ts'

const Hit = t.Object({
	type: t.String({ description: 'job, candidate or inbox_thread' }),
	id: t.String({ description: 'Pass it to the matching get_ tool' }),
	title: UntrustedLine,
	snippet: UntrustedLine,
	score: t.Number({
		description:
			'Relevance, 0 to 1: 1, the name or title is exactly the text searched for; 0.7 to 0.99, every word found whole; 0.45 to 0.7, the last word found as a prefix; below 0.45, only a similar name or title',
	}),
})

const TypeCount = t.Object({
	type: t.String({ description: 'job, candidate or inbox_thread' }),
	found: t.Integer({ description: 'Records of this type that match' }),
	foundAtLeast: t.Boolean({ description: 'True when counting stopped early: at least `found` match' }),
	shown: t.Integer({ description: 'How many of them are in results' }),
	seeAll: nullable(
		t.Object({ tool: t.String(), arguments: t.Object({ query: t.String() }) }),
		'The list tool and arguments that page through the records of this type, when results do not show every match',
	),
	note: t.String({ description: 'How many are shown, and how to see the rest or narrow the search' }),
})

export default defineModule({
	name: 'search',
	description: 'One search over every module that contributes a search provider.',
	requires: ['auth', 'audit'],
	ports: [searchProviders],
	routes: searchRoutes,
	paths: ['/search'],
	// The header's search box (core/html.ts), on every portal page.
	nav: [{ href: '/search', label: 'Search', section: 'search', permission: 'search:use' }],
	permissions: [
		{
			key: 'search:use',
			description: 'Search (each result type limited to what the role may see)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'],
		},
	],
	tools: [
		defineTool({
			name: 'search',
			title: 'Search',
			description:
				'Searches jobs, candidates and inbox threads by text: words match titles, names, roles, skills and locations (prefixes count, so "kube" finds Kubernetes), and names also match when misspelt. Returns the 20 best results of all types together, best first: a name or title that is exactly the text comes first, then records with every word found whole, then those found by a prefix, then names or titles that are only similar; open one with get_job, get_candidate or get_inbox_thread. `types` says how many records of each type match and, when not all are shown, which list tool pages through them (seeAll) or how to narrow the search. You only find what your role lets you see.',
			params: params({ q: searchText('Text to search for, 2 to 120 characters', { required: true }) }),
			output: t.Object({ query: t.String(), results: t.Array(Hit), types: t.Array(TypeCount) }),
			readOnly: true,
			permission: 'search:use',
			spec: 'R q*(string minLength=2 maxLength=120)',
			// The question is the person's own words, echoed plain: it holds no text others wrote.
			testCalls: (r) => [{ q: r.word }, { q: 'Java' }],
			run: ({ deps, actor }, a) => search(deps, actor, a.q),
			// It searches the candidate database among the rest (41 CFR 60-1.12).
			searchOf: (a) => ({ criteria: { query: a.q } }),
		}),
	],
})
