/**
 * A person erased: searches whose criteria named them (a name or address typed) keep the search,
 * as 41 CFR 60-1.12 asks, with "Erased candidate" in place of what named them.
 */
import { sql } from 'drizzle-orm'
import { jsonWithoutMentions, mentionsAny } from '../../core/erased-text.ts'
import type { Db } from '../../db/client.ts'

export async function forgetSearchedFor(tx: Db, workspaceId: string, needles: readonly string[]): Promise<void> {
	if (!needles.length) return
	await tx.execute(
		sql`update audit_log set criteria = ${jsonWithoutMentions(sql`criteria`, needles)} where workspace_id = ${workspaceId} and criteria is not null and ${mentionsAny(sql`criteria::text`, needles)}`,
	)
}
