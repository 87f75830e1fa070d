/** A person erased: lines of the log whose details name them (a to-do's title) keep "Erased candidate" instead. */
import { type SQL, sql } from 'drizzle-orm'
import { jsonWithoutMentions, mentionsAny } from '../../core/erased-text.ts'
import type { Db } from '../../db/client.ts'

/**
 * `needles` are replaced in every line of the workspace; `own.needles` (the name too) in the lines
 * about the person's own records (`own.targetIds`: the candidate and their applications).
 */
export async function forgetMentions(
	tx: Db,
	workspaceId: string,
	needles: readonly string[],
	own?: { targetIds: readonly string[]; needles: readonly string[] },
): Promise<void> {
	const forget = (words: readonly string[], where: SQL) =>
		words.length
			? tx.execute(
					sql`update activity set detail = ${jsonWithoutMentions(sql`detail`, words)} where workspace_id = ${workspaceId} and ${where} and ${mentionsAny(sql`detail::text`, words)}`,
				)
			: undefined
	if (own) await forget(own.needles, sql`target_id = any(${sql.param([...own.targetIds])}::text[])`)
	await forget(needles, sql`true`)
}
