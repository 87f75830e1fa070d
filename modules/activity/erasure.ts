/**
 * A person erased: lines of the log whose details name them (a to-do's title) keep "Erased candidate"
 * instead, and so do the lines the person wrote themself (through the careers apply form or a
 * document upload link, whose actor is the name they typed or have on file).
 */
import { type SQL, sql } from 'drizzle-orm'
import { ERASED, jsonMentionsAny, jsonWithoutMentions, mentionsAny, withoutMentions } from '../../core/erased-text.ts'
import type { CredentialKind } from '../../core/actor.ts'
import type { Db } from '../../db/client.ts'

/** The credentials a candidate acts through themself: a line written through one names them as its actor. */
const THEIR_OWN: readonly CredentialKind[] = ['careers_form', 'upload_link']

/** True (SQL) for a line whose actor is a candidate (no member of the workspace, no vendor). */
const byACandidate = sql`actor_user_id is null and actor_vendor_id is null and credential_kind = any(${sql.param([...THEIR_OWN])}::text[])`

/**
 * `needles` are replaced in every line of the workspace (details, and the actor's name of a line a
 * candidate wrote); `own.needles` (the name too) in the lines about the person's own records
 * (`own.targetIds`: the candidate and their applications), whose candidate actor is the person:
 * that actor becomes "Erased candidate" whatever name they typed on the form.
 */
export async function forgetMentions(
	tx: Db,
	workspaceId: string,
	needles: readonly string[],
	own?: { targetIds: readonly string[]; needles: readonly string[] },
): Promise<void> {
	const forget = (words: readonly string[], where: SQL, actorName: SQL, actorNamed: SQL) =>
		tx.execute(
			sql`update activity set detail = ${words.length ? jsonWithoutMentions(sql`detail`, words) : sql`detail`}, actor_name = case when ${byACandidate} then ${actorName} else actor_name end
			where workspace_id = ${workspaceId} and ${where} and (${jsonMentionsAny(sql`detail`, words)} or (${byACandidate} and ${actorNamed}))`,
		)
	if (own) await forget(own.needles, sql`target_id = any(${sql.param([...own.targetIds])}::text[])`, sql`${ERASED}`, sql`actor_name <> ${ERASED}`)
	if (needles.length) await forget(needles, sql`true`, withoutMentions(sql`actor_name`, needles), mentionsAny(sql`actor_name`, needles))
}
