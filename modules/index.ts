/** The module list, explicit: adding a domain is a folder, its migration and one line here. */
import activity from './activity/index.ts'
import analytics from './analytics/index.ts'
import audit from './audit/index.ts'
import auth from './auth/index.ts'
import bench from './bench/index.ts'
import candidates from './candidates/index.ts'
import careers from './careers/index.ts'
import documents from './documents/index.ts'
import eeo from './eeo/index.ts'
import events from './events/index.ts'
import jobs from './jobs/index.ts'
import lookups from './lookups/index.ts'
import outbox from './outbox/index.ts'
import privacy from './privacy/index.ts'
import savedSearches from './saved-searches/index.ts'
import search from './search/index.ts'
import vendors from './vendors/index.ts'
import calendar from './calendar/index.ts'
import inbox from './inbox/index.ts'
import interviews from './interviews/index.ts'
import review from './review/index.ts'
import todos from './todos/index.ts'
import templates from './templates/index.ts'
import notifications from './notifications/index.ts'
import webhooks from './webhooks/index.ts'
import indexing from './indexing/index.ts'
import scorecards from './scorecards/index.ts'
import scheduling from './scheduling/index.ts'

export const modules = [
	activity,
	events,
	auth,
	audit,
	outbox,
	notifications,
	vendors,
	lookups,
	jobs,
	candidates,
	bench,
	documents,
	analytics,
	eeo,
	careers,
	savedSearches,
	search,
	todos,
	interviews,
	inbox,
	calendar,
	review,
	templates,
	webhooks,
	indexing,
	scorecards,
	scheduling,
	privacy,
] as const
