/** Demo lookup values: the vendors, implementation partners and clients of a US IT staffing desk (names invented). */
import { seededId } from '../../core/seed-random.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { DEMO_VENDORS } from '../vendors/index.ts'
import type { LookupKind } from './service.ts'
import { staffingLookups } from './table.ts'

const DEMO: Record<LookupKind, readonly string[]> = {
	// The seeded vendors, plus partners the desk works with outside the API.
	vendor: [...DEMO_VENDORS.map((v) => v.name), 'Keystone Talent Group', 'Summit Bridge Staffing', 'Lakeshore IT Resources'],
	implementation_partner: [
		'Infosys',
		'Cognizant',
		'Tata Consultancy Services',
		'Wipro',
		'Accenture',
		'Capgemini',
		'HCLTech',
		'Deloitte',
		'LTIMindtree',
		'Tech Mahindra',
	],
	client: [
		'Bank of the Prairie',
		'Lone Star Health Network',
		'Harbor Mutual Insurance',
		'Great Lakes Utilities',
		'Evergreen Retail Group',
		'State DOT of Ohio',
		'Pinnacle Payments',
		'Cascade Telecom',
		'Riverside University System',
		'Atlas Logistics',
	],
}

export async function seedLookups(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const base = Date.now() - 120 * 86_400_000
	const rows = Object.entries(DEMO).flatMap(([kind, names]) =>
		names.map((name, i) => ({ id: seededId('lk', ws.id, `${kind}:${name}`), workspaceId: ws.id, kind, name, createdAt: new Date(base + i * 3_600_000) })),
	)
	await deps.db.insert(staffingLookups).values(rows).onConflictDoNothing()
}
