import { defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { lookupCommands } from './commands.ts'
import { lookupRoutes } from './routes.ts'
import { seedLookups } from './seed.ts'
import { lookupTools } from './tools.ts'
import * as tables from './table.ts'

export { addLookup, listLookups, removeLookup, LOOKUP_KINDS, type LookupKind, type LookupValue } from './service.ts'

export default defineModule({
	name: 'lookups',
	description: 'Staffing lookups: the workspace’s vendors, implementation partners and clients.',
	requires: ['auth', 'activity', 'vendors'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'lookups:read', description: 'See the staffing lookup lists', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'] },
		{ key: 'lookups:manage', description: 'Add and remove staffing lookup values', grantedTo: ['owner', 'admin'] },
	],
	tools: lookupTools,
	routes: lookupRoutes,
	paths: ['/lookups'],
	commands: lookupCommands,
	seed: seedLookups,
	nav: [{ href: '/lookups', label: 'Lookups', permission: 'lookups:manage' }],
	activityLabels: { 'lookup.added': 'added the lookup value', 'lookup.removed': 'removed the lookup value' },
	recordNames: [recordNamesFrom('staffing_lookup', 'staffing_lookups', 'r.name')],
})
