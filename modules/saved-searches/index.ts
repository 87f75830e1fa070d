import { defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { savedSearchRoutes } from './routes.ts'
import { seedSavedSearches } from './seed.ts'
import { savedSearchTools } from './tools.ts'
import * as tables from './table.ts'

export { listSavedSearches, saveSearch, SEARCH_LISTS, type SavedSearch, type SearchList } from './service.ts'
export { forgetSavedSearchMentions } from './erasure.ts'

export default defineModule({
	name: 'saved-searches',
	description: 'A person’s named searches on each of the portal’s lists.',
	requires: ['auth', 'activity'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	// The permissions of the lists a search is saved on (service.ts, LIST_PERMISSION).
	checks: ['candidates:read', 'bench:read', 'jobs:read', 'interviews:read', 'inbox:read', 'vendors:read', 'privacy:requests', 'auth:manage_people'],
	permissions: [
		{ key: 'saved-searches:use', description: 'Keep your own saved searches', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] },
	],
	tools: savedSearchTools,
	routes: savedSearchRoutes,
	paths: ['/saved-searches'],
	seed: seedSavedSearches,
	nav: [{ href: '/saved-searches', label: 'Saved searches', permission: 'saved-searches:use' }],
	activityLabels: {
		'saved_search.created': 'saved the search',
		'saved_search.renamed': 'renamed the saved search',
		'saved_search.deleted': 'deleted the saved search',
	},
	recordNames: [recordNamesFrom('saved_search', 'saved_searches', 'r.name')],
})
