/** Demo vendors: staffing partners a US IT staffing firm really works with (names invented). */
import { seededId } from '../../core/seed-random.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { vendors } from './table.ts'

export const DEMO_VENDORS = [
	{ key: 'apex', name: 'Apex Tech Partners', apiAccess: true },
	{ key: 'northwind', name: 'Northwind Consulting Group', apiAccess: true },
	{ key: 'bluepeak', name: 'BluePeak Solutions', apiAccess: true },
	{ key: 'meridian', name: 'Meridian IT Services', apiAccess: true },
	{ key: 'cedar', name: 'Cedar Lane Systems', apiAccess: true },
	{ key: 'orbit', name: 'Orbit Staffing (paused)', apiAccess: false },
] as const

export async function seedVendors(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	await deps.db
		.insert(vendors)
		.values(DEMO_VENDORS.map((v, i) => ({ id: seededId('ven', ws.id, v.key), workspaceId: ws.id, name: v.name, apiAccess: v.apiAccess, createdAt: new Date(Date.now() - (90 - i) * 86_400_000) })))
		.onConflictDoNothing()
}

/** Ids of the seeded vendors, in a fixed order (other modules' demo data refers to them). */
export const demoVendorIds = (ws: WorkspaceRef) => DEMO_VENDORS.map((v) => seededId('ven', ws.id, v.key))
