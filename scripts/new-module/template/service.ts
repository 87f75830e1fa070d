/**
 * Sample module: the business rules live here, and only here. Routes, pages and tools are thin
 * adapters that call these functions with the actor (who is asking, in which workspace).
 *
 * Rules:
 * - Everyone who may read sample module sees every entry of their workspace, and no other's.
 * - A title is 1 to 200 characters on one line (control characters removed).
 * - Every change is written to the activity log, in the same transaction as the change.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import { newId } from '../../../core/credentials.ts'
import { decodePosition, encodePosition } from '../../../core/cursor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { invalid } from '../../../core/errors.ts'
import { cleanLine } from '../../../core/untrusted.ts'
import { recordActivity } from '../../../modules/activity/index.ts'
import { sampleModule } from './table.ts'

export type SampleModuleEntry = typeof sampleModule.$inferSelect

export interface SampleModulePage {
	entries: SampleModuleEntry[]
	/** Pass it back to get the next page; null on the last page. */
	nextCursor: string | null
}

/** The workspace's entries, newest first, keyset-paged (a cursor is signed and bound to the person). */
export async function listSampleModule(deps: AppDeps, actor: Actor, input: { limit: number; cursor?: string }): Promise<SampleModulePage> {
	const scope = `list_sample_module:${actor.workspaceId}:${actor.userId}`
	const after = input.cursor ? decodePosition(deps.secret, scope, input.cursor) : null
	const rows = await deps.db
		.select()
		.from(sampleModule)
		.where(
			and(
				eq(sampleModule.workspaceId, actor.workspaceId),
				after ? sql`(${sampleModule.createdAt}, ${sampleModule.id}) < (${after.at.toISOString()}::timestamptz, ${after.id})` : undefined,
			),
		)
		.orderBy(desc(sampleModule.createdAt), desc(sampleModule.id))
		// One row more than asked tells whether there is a next page.
		.limit(input.limit + 1)
	const entries = rows.slice(0, input.limit)
	const last = entries.at(-1)
	return { entries, nextCursor: rows.length > input.limit && last ? encodePosition(deps.secret, scope, { at: last.createdAt, id: last.id }) : null }
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
