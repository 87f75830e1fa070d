import { Elysia } from 'elysia'
import { contribute, defineModule } from '../../core/module.ts'
import { benchJobSection } from './job-section.ts'
import { bulkBenchRoutes, bulkBenchSection } from './bulk.ts'
import { candidateBenchRoutes } from './candidate-routes.ts'
import { benchSection } from './candidate-section.ts'
import { benchRoutes } from './routes.ts'
import { seedBench } from './seed.ts'
import { benchTools } from './tools.ts'
import * as tables from './table.ts'
import { benchData } from './data.ts'
import { candidateData, candidateListFilters } from '../candidates/index.ts'
import { availabilityFilter } from './list-filter.ts'

export { FAMILY_LABELS, familyLabel, jobFamily, ROLE_FAMILIES, type RoleFamily } from './family.ts'

export default defineModule({
	name: 'bench',
	description: 'The bench: candidates marketed by role family, ranked against jobs.',
	requires: ['auth', 'activity', 'jobs', 'candidates'],
	checks: ['bench:write', 'bench:read'],
	contributes: [contribute(candidateData, benchData), contribute(candidateListFilters, availabilityFilter)],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'bench:read', description: 'See the bench and rank it against jobs', grantedTo: ['owner', 'admin', 'recruiter'] },
		{ key: 'bench:write', description: 'Add candidates to the bench', grantedTo: ['owner', 'admin', 'recruiter'] },
	],
	tools: benchTools,
	routes: (deps, kit) => new Elysia({ name: 'bench.routes' }).use(candidateBenchRoutes(deps, kit)).use(bulkBenchRoutes(deps, kit)).use(benchRoutes(deps, kit)),
	paths: ['/bench', '/candidates'],
	pageSections: [benchJobSection, benchSection, bulkBenchSection],
	nav: [{ href: '/bench', label: 'Bench', permission: 'bench:read', section: 'work', order: 90 }],
	seed: seedBench,
	activityLabels: { 'bench.added': 'added to the bench' },
})
