/**
 * Demo data for sample module: runs once when a demo workspace is created, after the modules this
 * one requires have seeded theirs. Deterministic (seeded ids), so a re-run adds nothing.
 */
import type { AppDeps } from '../../../core/deps.ts'
import type { WorkspaceRef } from '../../../core/module.ts'
import { daysAgo, seededId } from '../../../core/seed-random.ts'
import { listPeople } from '../../../modules/auth/index.ts'
import { sampleModule } from './table.ts'

/**
 * Eight entries: enough that a list read two at a time has more than two pages, which the registry-wide
 * paging test asks of every paged tool (tests/mcp/paging.test.ts).
 */
export const SEED_ENTRIES = 8
const TITLES = Array.from({ length: SEED_ENTRIES }, (_, i) => `Entry ${i + 1} of sample module`)

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
