/** Demo vendors: staffing partners a US IT staffing firm really works with (names invented). */
import { seededId } from '../../core/seed-random.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { vendors, type DocumentRules } from './table.ts'

interface DemoVendor {
	key: string
	name: string
	apiAccess: boolean
	contact: [name: string, email: string, phone: string]
	submissionEmail?: string
	portalUrl?: string
	rules: DocumentRules
}

const VISA_HOLDERS = { H1B: ['visa', 'i94'], L1: ['visa', 'i94'], L2: ['visa', 'i94'], TN: ['visa', 'i94'] }

export const DEMO_VENDORS: readonly DemoVendor[] = [
	{
		key: 'apex',
		name: 'Apex Tech Partners',
		apiAccess: true,
		contact: ['Priya Raman', 'priya.raman@apextech.example', '+1 512 555 0142'],
		submissionEmail: 'submissions@apextech.example',
		rules: { always: ['dl', 'workAuth'], byWorkAuthorization: VISA_HOLDERS },
	},
	{
		key: 'northwind',
		name: 'Northwind Consulting Group',
		apiAccess: true,
		contact: ['Tom Becker', 'tom.becker@northwind.example', '+1 312 555 0178'],
		submissionEmail: 'resumes@northwind.example',
		rules: { always: ['workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'], TN: ['i94'] } },
	},
	{
		key: 'bluepeak',
		name: 'BluePeak Solutions',
		apiAccess: true,
		contact: ['Alicia Gomez', 'alicia@bluepeak.example', '+1 704 555 0110'],
		submissionEmail: 'vms@bluepeak.example',
		rules: { always: ['dl'], byWorkAuthorization: { H1B: ['visa', 'i94', 'workAuth'], GC: ['workAuth'], EAD: ['workAuth'], OPT: ['workAuth'] } },
	},
	{
		key: 'meridian',
		name: 'Meridian IT Services',
		apiAccess: true,
		contact: ['Kevin Osei', 'kevin.osei@meridianit.example', '+1 469 555 0199'],
		portalUrl: 'https://portal.meridianit.example/submit',
		rules: { always: ['dl', 'workAuth'], byWorkAuthorization: VISA_HOLDERS },
	},
	{
		key: 'cedar',
		name: 'Cedar Lane Systems',
		apiAccess: true,
		contact: ['Megan Liu', 'megan.liu@cedarlane.example', '+1 206 555 0123'],
		submissionEmail: 'talent@cedarlane.example',
		rules: { always: [], byWorkAuthorization: {} },
	},
	{
		key: 'orbit',
		name: 'Orbit Staffing (paused)',
		apiAccess: false,
		contact: ['Sam Patel', 'sam@orbitstaffing.example', '+1 614 555 0155'],
		submissionEmail: 'jobs@orbitstaffing.example',
		rules: { always: ['dl', 'workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'] } },
	},
]

export async function seedVendors(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	await deps.db
		.insert(vendors)
		.values(
			DEMO_VENDORS.map((v, i) => ({
				id: seededId('ven', ws.id, v.key),
				workspaceId: ws.id,
				name: v.name,
				apiAccess: v.apiAccess,
				contactName: v.contact[0],
				contactEmail: v.contact[1],
				contactPhone: v.contact[2],
				submissionEmail: v.submissionEmail ?? null,
				submissionPortalUrl: v.portalUrl ?? null,
				documentRules: v.rules,
				createdAt: new Date(Date.now() - (90 - i) * 86_400_000),
			})),
		)
		.onConflictDoNothing()
}

/** Ids of the seeded vendors, in a fixed order (other modules' demo data refers to them). */
export const demoVendorIds = (ws: WorkspaceRef) => DEMO_VENDORS.map((v) => seededId('ven', ws.id, v.key))
