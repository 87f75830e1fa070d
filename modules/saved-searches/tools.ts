/** The saved-searches tool: a thin adapter over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { oneOf, params } from '../../core/mcp/params.ts'
import { listSavedSearches, SEARCH_LISTS } from './service.ts'

const SavedSearch = t.Object({
	id: t.String(),
	list: oneOf(SEARCH_LISTS),
	name: t.String(),
	query: t.String({ description: 'The search text of the list' }),
	filters: t.Record(t.String(), t.String(), { description: 'The list filters saved with it, e.g. { "status": "Open" }' }),
	createdAt: t.String({ format: 'date-time' }),
	updatedAt: t.String({ format: 'date-time' }),
})

export const savedSearchTools = [
	defineTool({
		name: 'list_saved_searches',
		title: 'List my saved searches',
		description:
			'Your own named searches on one list of the portal (candidates, bench, jobs, applications, pipeline, assessments, inbox, vendors, privacy, accounts), by name, with the search text and filters of each.',
		params: params({ list: oneOf(SEARCH_LISTS, 'The list whose saved searches to return') }),
		output: t.Object({ list: oneOf(SEARCH_LISTS), searches: t.Array(SavedSearch) }),
		readOnly: true,
		permission: 'saved-searches:use',
		spec: 'R list*(enum:candidates|bench|jobs|applications|pipeline|assessments|inbox|vendors|privacy|accounts)',
		testCalls: () => SEARCH_LISTS.map((list) => ({ list })),
		run: async ({ deps, actor }, a) => ({ list: a.list, searches: await listSavedSearches(deps, actor, a.list as string) }),
	}),
]
