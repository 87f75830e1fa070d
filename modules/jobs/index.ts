import { Elysia } from 'elysia'
import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { membershipPort } from '../auth/index.ts'
import { eventTypes } from '../events/index.ts'
import { searchProviders } from '../search/index.ts'
import { vendorFacts } from '../vendors/index.ts'
import { apiOperations, jobFacts } from './port.ts'
import { JOB_EVENTS } from './events.ts'
import { jobPageRoutes } from './page-routes.ts'
import { jobsRestRoutes } from './rest-routes.ts'
import { jobSearchProvider } from './search.ts'
export { jobRanking } from './search.ts'
import { seedJobs } from './seed.ts'
import { jobLabelSql } from './label.ts'
import { jobTools } from './tools.ts'
import { leaveTeamsWithMembership, teamChangeWords } from './team.ts'
import { vendorJobFacts, vendorJobsSection } from './vendor-section.ts'
import * as tables from './table.ts'

export { listOpenJobs, findJobById, findJobBySlug, findOpenJobs, type OpenJobQuery, type PublicJob } from './public-service.ts'
export { jobAddress, jobUrl, toDate, type JobRow } from './rows.ts'
export {
	allOpenJobPages,
	countAllOpenJobs,
	openJobChunks,
	openJobPages,
	openJobsSitemapVersion,
	openJobsVersion,
	type OpenJobsVersion,
	type SitemapJob,
} from './public-feed.ts'
export { parseLocation, placeParts, isUnitedStates, REMOTE_LOCATION_WORDS, US_STATES, type ParsedLocation } from './location.ts'
export { missingPayRange, PAY_TRANSPARENCY_STATES, payRangeRule } from './pay-transparency.ts'
export { payBounds, payText, payUnit, type PayUnit } from './salary.ts'
export { jobLabelSql } from './label.ts'
export { jobAuthor, jobReach, jobLabelOf, jobLabels, jobRefs, listJobs, reachableJobIds, type JobRef } from './service.ts'
export { jobTeamIds, teamJobIds, teammateIds } from './team.ts'
export { contractTypeFrom } from './vendor-service.ts'
export { withoutHiddenFormatting } from './rest-text.ts'
export { apiOperations, jobFacts, type ApiOperations, type JobFacts, type JobFactsSource } from './port.ts'
export { jobPublished, jobReopened, jobClosed, jobChanged, JOB_EVENTS } from './events.ts'
export { ROLE_TEMPLATES, type RoleTemplate } from './seed.ts'
export {
	jobQuestionsOf,
	jobRequirements,
	jobsChangedSince,
	type ChangedJobsCursor,
	recentOpenRequirements,
	workspaceJobs,
	type JobQuestion,
	type JobRequirements,
} from './requirements.ts'

export default defineModule({
	name: 'jobs',
	description: 'Jobs: the vendor Job Publish REST API, the job tools and the jobs pages.',
	requires: ['auth', 'vendors', 'activity', 'search', 'events'],
	checks: ['jobs:read', 'jobs:create', 'jobs:set_status', 'jobs:actively_hiring', 'candidates:read', 'auth:manage_people'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'jobs:read',
			description: 'See jobs (hiring managers: the jobs on whose team they are)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'],
		},
		{ key: 'jobs:create', description: 'Create jobs as Draft', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'] },
		{ key: 'jobs:set_status', description: 'Publish, close or draft jobs, and change their hiring teams', grantedTo: ['owner', 'admin'] },
		{ key: 'jobs:actively_hiring', description: 'Turn the actively-hiring flag on or off', grantedTo: ['owner', 'admin'], grantable: true },
	],
	tools: jobTools,
	pageSections: [vendorJobsSection],
	routes: (deps, kit) => new Elysia({ name: 'jobs.routes' }).use(jobsRestRoutes(deps, kit)).use(jobPageRoutes(deps, kit)),
	paths: ['/api/v1', '/jobs'],
	nav: [{ href: '/jobs', label: 'Jobs', section: 'work', order: 10, permission: 'jobs:read' }],
	seed: seedJobs,
	ports: [jobFacts, apiOperations],
	contributes: [
		contribute(searchProviders, jobSearchProvider),
		contribute(vendorFacts, vendorJobFacts),
		contribute(membershipPort, { changed: leaveTeamsWithMembership }),
		...JOB_EVENTS.map((e) => contribute(eventTypes, e)),
	],
	activityLabels: {
		'job.created': 'created the job',
		'job.published': 'published the job',
		'job.republished': 'published the job again',
		'job.changed': 'changed the job',
		'job.closed': 'closed the job',
		'job.opened': 'opened the job',
		'job.status_set': 'set the status of the job',
		'job.actively_hiring_on': 'marked as actively hiring the job',
		'job.actively_hiring_off': 'marked as no longer actively hiring the job',
		'job.team_member_added': 'changed the hiring team of the job',
		'job.team_member_removed': 'changed the hiring team of the job',
	},
	activityChanges: teamChangeWords,
	recordNames: [recordNamesFrom('job', 'jobs', jobLabelSql('r'), (id) => `/jobs/${id}`)],
})
