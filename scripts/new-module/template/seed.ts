/**
 * Demo data for sample module: runs once when a demo workspace is created, after the modules this
 * one requires have seeded theirs. Deterministic (seeded ids), so a re-run adds nothing.
 */
import type { AppDeps } from '../../../core/deps.ts'
import type { WorkspaceRef } from '../../../core/module.ts'
import { daysAgo, seededId } from '../../../core/seed-random.ts'
import { listPeople } from '../../../modules/auth/index.ts'
import { sampleModule } from './table.ts'

const TITLES = ['First entry of sample module', 'Second entry of sample module', 'Third entry of sample module']

export async function seedSampleModule(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	// Another module's data is read through its index.ts, never its tables.
	const [author] = await listPeople(deps.db, ws.id)
	const rows = TITLES.map((title, i) => ({
		id: seededId('sample_module', ws.id, String(i)),
		workspaceId: ws.id,
		title,
		createdByUserId: author?.userId ?? null,
		createdAt: daysAgo(TITLES.length - i),
	}))
	await deps.db.insert(sampleModule).values(rows).onConflictDoNothing()
}
