import { defineModule } from '../../core/module.ts'
import { keyRevocation, vendorFacts } from './port.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { vendorCommands } from './commands.ts'
import { vendorRoutes } from './routes.ts'
import { seedVendors } from './seed.ts'
import { verifyVendorKey } from './service.ts'
import { vendorTools } from './tools.ts'
import * as tables from './table.ts'

export {
	apiAccessOff,
	createVendor,
	createKey,
	KEYS_PERMISSION,
	keysByIds,
	noteKeyUse,
	revokeKey,
	revokeVendorKey,
	setApiAccess,
	vendorKeyActorSql,
	vendorKeys,
	vendorKeySql,
	vendorNames,
	vendorsCutOff,
	vendorsWithKeys,
	verifyVendorKey,
	holdLiveKey,
	type Revoked,
	type SwitchedOff,
	type VendorKeyView,
	type VendorWithKeys,
} from './service.ts'
export {
	getVendor,
	listVendors,
	parseRules,
	requiredDocuments,
	submissionTarget,
	updateVendorProfile,
	type SubmissionTarget,
	type VendorDetail,
	type VendorSummary,
} from './directory.ts'
export { keyRevocation, vendorFacts, type KeyRevocationListener, type RevokedKey, type VendorFacts, type VendorFactsSource } from './port.ts'
export { DOCUMENT_KINDS, DOCUMENT_LABELS, DocumentKindSchema, isDocumentKind, type DocumentKind } from './model.ts'
export { DEMO_VENDORS, demoVendorIds } from './seed.ts'
export type { DocumentRules } from './table.ts'

export default defineModule({
	name: 'vendors',
	description: 'Vendors (partners who publish jobs and receive submissions): contact, submission method, document rules, API keys.',
	requires: ['auth', 'activity'],
	checks: ['vendors:keys'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'vendors:read', description: 'See vendors and their counts', grantedTo: ['owner', 'admin', 'recruiter'] },
		{ key: 'vendors:keys', description: 'See vendors’ API keys, create and revoke them, switch their API access off and on', grantedTo: ['owner', 'admin'] },
	],
	credentials: [{ prefix: 'bl_vk_', door: 'rest', verify: verifyVendorKey }],
	commands: vendorCommands,
	tools: vendorTools,
	routes: vendorRoutes,
	paths: ['/vendors'],
	nav: [{ href: '/vendors', label: 'Vendors', permission: 'vendors:read', section: 'work', order: 80 }],
	seed: seedVendors,
	ports: [vendorFacts, keyRevocation],
	activityLabels: {
		'vendor.created': 'added the vendor',
		'vendor.profile_updated': 'changed the contact and submission rules of the vendor',
		'vendor.key_created': 'created an API key for the vendor',
		'vendor.key_revoked': 'revoked an API key of the vendor',
		'vendor.api_access_on': 'switched API access on for the vendor',
		'vendor.api_access_off': 'switched API access off for the vendor',
	},
	recordNames: [recordNamesFrom('vendor', 'vendors', 'r.name')],
})
