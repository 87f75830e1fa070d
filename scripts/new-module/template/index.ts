/**
 * Sample module, as the registry sees it: what it declares (permissions, tools, routes, seed, …).
 * `modules/index.ts` lists it; the registry checks it at start-up. Named exports below are this
 * module's public API: the only things other modules may import from it.
 */
import { defineModule } from '../../../core/module.ts'
import { recordNamesFrom } from '../../../modules/activity/index.ts'
import { sampleModuleRoutes } from './routes.ts'
import * as tables from './table.ts'
import { seedSampleModule } from './seed.ts'
import { sampleModuleTools } from './tools.ts'

export { addSampleModuleEntry, listSampleModule, type SampleModuleEntry } from './service.ts'

export default defineModule({
	name: 'sample-module',
	description: 'Sample module: entries of a workspace (a generated module, ready to grow).',
	// Modules whose index.ts this one imports: checked at start-up (present, no cycles); they seed first.
	requires: ['auth', 'activity'],
	// Its tables, and the folder `npm run db:generate` writes their migrations to (applied at start-up).
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	// Keys start with the module's name; `grantedTo` lists the roles that hold one by default.
	permissions: [{ key: 'sample-module:read', description: 'See the entries of sample module', grantedTo: ['owner', 'admin', 'recruiter'] }],
	tools: sampleModuleTools,
	routes: sampleModuleRoutes,
	// Where its routes live: a route outside these stops the app at start-up.
	paths: ['/sample-module'],
	seed: seedSampleModule,
	// Shown only to people who hold the permission, in the Settings menu (`section: 'work', order: …` for the main bar).
	nav: [{ href: '/sample-module', label: 'Sample module', permission: 'sample-module:read' }],
	// How the activity page words this module's actions, and names its records.
	activityLabels: { 'sample_module.added': 'added to sample module' },
	recordNames: [recordNamesFrom('sample_module', 'sample_module', 'r.title', () => '/sample-module')],
})
