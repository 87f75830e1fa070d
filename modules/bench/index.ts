import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
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
import { candidateData, candidateListFilters, type CandidateDataSource } from '../candidates/index.ts'
import { availabilityFilter } from './list-filter.ts'

export { FAMILY_LABELS, familyLabel, jobFamily, ROLE_FAMILIES, type RoleFamily } from './family.ts'

/** For the retention rule: put on the bench since `since`. */
const benchActiveSince: CandidateDataSource['activeSince'] = async (deps: AppDeps, workspaceId, ids, since) => {
	const rows = await deps.database.rows<{ id: string }>(
		sql`select distinct candidate_id as id from bench_entries where workspace_id = ${workspaceId} and candidate_id = any(${sql.param([...ids])}::text[])
			and added_at >= ${since.toISOString()}::timestamptz`,
	)
	return new Set(rows.map((r) => r.id))
}

export default defineModule({
	name: 'bench',
	description: 'The bench: candidates marketed by role family, ranked against jobs.',
	requires: ['auth', 'activity', 'jobs', 'candidates'],
	checks: ['bench:write', 'bench:read'],
	contributes: [contribute(candidateData, { ...benchData, activeSince: benchActiveSince }), contribute(candidateListFilters, availabilityFilter)],
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
