import { defineModule } from '../../core/module.ts'
import { jobsRestRoutes } from './rest-routes.ts'
import { seedJobs } from './seed.ts'

export { listOpenJobs, findJobBySlug, type PublicJob } from './public-service.ts'
export { jobUrl, toDate } from './rows.ts'
export { contractTypeFrom } from './vendor-service.ts'
export { ROLE_TEMPLATES, type RoleTemplate } from './seed.ts'

export default defineModule({
	name: 'jobs',
	description: 'Jobs: the vendor Job Publish REST API and the job tools.',
	requires: ['auth', 'vendors', 'activity'],
	permissions: [
		{ key: 'jobs:publish', description: 'Publish and change the vendor’s own jobs through the REST API', grantedTo: ['vendor'] },
		{ key: 'jobs:read', description: 'See jobs', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] },
	],
	routes: jobsRestRoutes,
	seed: seedJobs,
})
