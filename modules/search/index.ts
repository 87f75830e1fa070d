import { Type as t } from '@sinclair/typebox'
import { params } from '../../core/mcp/params.ts'
import { UntrustedLine } from '../../core/untrusted.ts'
import { defineModule, defineTool } from '../../core/module.ts'
import { searchProviders } from './port.ts'
import { search } from './service.ts'

export { searchProviders, type SearchHit, type SearchProvider } from './port.ts'

const Hit = t.Object({
	type: t.String({ description: 'job, candidate or inbox_thread' }),
	id: t.String({ description: 'Pass it to the matching get_ tool' }),
	title: UntrustedLine,
	snippet: UntrustedLine,
	score: t.Number({
		description:
			'Relevance, 0 to 1: 0.7 and up, every word found whole; 0.45 to 0.7, the last word found as a prefix; below 0.45, only a similar name or title',
	}),
})

export default defineModule({
	name: 'search',
	description: 'One search over every module that contributes a search provider.',
	ports: [searchProviders],
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
				'Searches jobs, candidates and inbox threads by text: words match titles, names, roles, skills and locations (prefixes count, so "kube" finds Kubernetes), and names also match when misspelt. Returns up to 20 typed results, best first: records with every word found whole rank above those found by a prefix, and both above names or titles that are only similar; open one with get_job, get_candidate or get_inbox_thread. You only find what your role lets you see.',
			params: params({ q: t.String({ minLength: 2, maxLength: 120, description: 'Text to search for, 2 to 120 characters' }) }),
			output: t.Object({ query: t.String(), results: t.Array(Hit) }),
			readOnly: true,
			permission: 'search:use',
			run: ({ deps, actor }, a) => search(deps, actor, a.q),
		}),
	],
})
