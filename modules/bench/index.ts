import { defineModule } from '../../core/module.ts'
import { benchJobSection } from './job-section.ts'
import { candidateBenchRoutes } from './candidate-routes.ts'
import { benchSection } from './candidate-section.ts'
import { seedBench } from './seed.ts'
import { benchTools } from './tools.ts'

export { jobFamily, ROLE_FAMILIES, type RoleFamily } from './family.ts'

export default defineModule({
	name: 'bench',
	description: 'The bench: candidates marketed by role family, ranked against jobs.',
	requires: ['auth', 'activity', 'jobs', 'candidates'],
	permissions: [
		{ key: 'bench:read', description: 'See the bench and rank it against jobs', grantedTo: ['owner', 'admin', 'recruiter'] },
		{ key: 'bench:write', description: 'Add candidates to the bench', grantedTo: ['owner', 'admin', 'recruiter'] },
	],
	tools: benchTools,
	routes: candidateBenchRoutes,
	pageSections: [benchJobSection, benchSection],
	seed: seedBench,
	activityLabels: { 'bench.added': 'added to the bench' },
})
