import { defineModule } from '../../core/module.ts'
import { vendorCommands } from './commands.ts'
import { seedVendors } from './seed.ts'
import { verifyVendorKey } from './service.ts'

export { createVendor, createKey, revokeKey, setApiAccess, vendorNames, verifyVendorKey } from './service.ts'
export { demoVendorIds } from './seed.ts'

export default defineModule({
	name: 'vendors',
	description: 'Vendors (partners who publish jobs and receive submissions) and their API keys.',
	requires: ['auth', 'activity'],
	permissions: [{ key: 'vendors:read', description: 'See vendors and their counts', grantedTo: ['owner', 'admin', 'recruiter'] }],
	credentials: [{ prefix: 'bl_vk_', door: 'rest', verify: verifyVendorKey }],
	commands: vendorCommands,
	seed: seedVendors,
})
