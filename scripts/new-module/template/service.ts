/**
 * Sample module: the business rules live here, and only here. Routes, pages and tools are thin
 * adapters that call these functions with the actor (who is asking, in which workspace).
 *
 * Rules:
 * - Everyone who may read sample module sees every entry of their workspace, and no other's.
 * - A title is 1 to 200 characters on one line (control characters removed).
 * - Every change is written to the activity log, in the same transaction as the change.
 */
import { and, eq } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import { newId } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { invalid } from '../../../core/errors.ts'
import { keysetPage, newestFirst } from '../../../core/paging.ts'
import { cleanLine } from '../../../core/untrusted.ts'
import { recordActivity } from '../../../modules/activity/index.ts'
import { sampleModule } from './table.ts'

export type SampleModuleEntry = typeof sampleModule.$inferSelect

export interface SampleModulePage {
	entries: SampleModuleEntry[]
	/** Pass it back to get the next page; null on the last page. */
	nextCursor: string | null
}

// Newest first. The columns are never null, so no `nulls last`: the list then reads the index of
// table.ts backwards instead of sorting.
const NEWEST = newestFirst<SampleModuleEntry>(sampleModule.createdAt, sampleModule.id, (e) => e.createdAt, {})

/** The workspace's entries, newest first, keyset-paged (a cursor is signed and bound to the person). */
export async function listSampleModule(deps: AppDeps, actor: Actor, input: { limit: number; cursor?: string }): Promise<SampleModulePage> {
	const { rows, nextCursor } = await keysetPage(deps, {
		scope: `list_sample_module:${actor.workspaceId}:${actor.userId}`,
		cursor: input.cursor,
		limit: input.limit,
		order: NEWEST,
		// `after` is the cursor's position (none on the first page); `size` is one more than the page, to know if another follows.
		read: (after, order, size) =>
			deps.db
				.select()
				.from(sampleModule)
				.where(and(eq(sampleModule.workspaceId, actor.workspaceId), after))
				.orderBy(order)
				.limit(size),
	})
	return { entries: rows, nextCursor }
}

/** Adds an entry for the person acting, and logs it. */
export async function addSampleModuleEntry(deps: AppDeps, actor: Actor, input: { title: string }): Promise<SampleModuleEntry> {
	const title = cleanLine(input.title, Number.MAX_SAFE_INTEGER)
	if (!title || [...title].length > 200) throw invalid([{ field: 'title', message: 'must be 1 to 200 characters' }])
	return deps.db.transaction(async (tx) => {
		const [entry] = await tx
			.insert(sampleModule)
			.values({ id: newId('sample_module'), workspaceId: actor.workspaceId, title, createdByUserId: actor.userId })
			.returning()
		// The words people read for this action are in `activityLabels` of index.ts.
		await recordActivity(tx, actor, { action: 'sample_module.added', targetType: 'sample_module', targetId: entry!.id, detail: { title } })
		return entry!
	})
}
