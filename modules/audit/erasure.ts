/**
 * A person erased: searches whose criteria named them (a name or address typed) keep the search,
 * as 41 CFR 60-1.12 asks, with "Erased candidate" in place of what named them.
 *
 * Lines are written behind the work (writer.ts): the erasure first writes this instance's buffer
 * (`flushAudit`), then scrubs in its transaction. Another instance may still hold a line made
 * before the erasure in its buffer (at most `DELAY_MS` in the normal case), so the erasure scrubs
 * once more `SCRUB_AGAIN_MS` later (`forgetSearchedForLater`), as work left behind that a stopping
 * server and a CLI command wait for before closing (`closeDeps`). Not covered: a line an instance
 * could not write for longer than that (the database away, its 5 s retries), or the erasing
 * process killed within that second: nothing stored tells a later write what was erased.
 */
import { sql } from 'drizzle-orm'
import { jsonMentionsAny, jsonWithoutMentions } from '../../core/erased-text.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'

/** Past every instance's write-behind delay (200 ms) with room for a slow insert. */
export const SCRUB_AGAIN_MS = 1_000

export async function forgetSearchedFor(tx: Db, workspaceId: string, needles: readonly string[]): Promise<void> {
	if (!needles.length) return
	await tx.execute(
		sql`update audit_log set criteria = ${jsonWithoutMentions(sql`criteria`, needles)} where workspace_id = ${workspaceId} and criteria is not null and ${jsonMentionsAny(sql`criteria`, needles)}`,
	)
}

/** The same scrub once more, `SCRUB_AGAIN_MS` after an erasure committed, for lines other instances were still holding. */
export function forgetSearchedForLater(deps: Pick<AppDeps, 'db' | 'log' | 'lifecycle'>, workspaceId: string, needles: readonly string[]): Promise<void> {
	if (!needles.length) return Promise.resolve()
	// Work left behind (core/work-left.ts): a CLI erasure or a stopping server waits for it before closing.
	return deps.lifecycle.later(SCRUB_AGAIN_MS, () =>
		forgetSearchedFor(deps.db, workspaceId, needles).catch((error) => deps.log.warn('the audit trail could not be scrubbed again after an erasure', { error })),
	)
}
