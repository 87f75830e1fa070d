/** The module list, explicit: adding a domain is a folder, its migration and one line here. */
import activity from './activity/index.ts'
import analytics from './analytics/index.ts'
import auth from './auth/index.ts'
import bench from './bench/index.ts'
import candidates from './candidates/index.ts'
import careers from './careers/index.ts'
import documents from './documents/index.ts'
import jobs from './jobs/index.ts'
import lookups from './lookups/index.ts'
import outbox from './outbox/index.ts'
import savedSearches from './saved-searches/index.ts'
import search from './search/index.ts'
import vendors from './vendors/index.ts'
import calendar from './calendar/index.ts'
import inbox from './inbox/index.ts'
import interviews from './interviews/index.ts'
import review from './review/index.ts'
import todos from './todos/index.ts'

export const modules = [
	activity,
	auth,
	outbox,
	vendors,
	lookups,
	jobs,
	candidates,
	bench,
	documents,
	analytics,
	careers,
	savedSearches,
	search,
	todos,
	interviews,
	inbox,
	calendar,
	review,
] as const
