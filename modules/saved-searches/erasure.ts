/**
 * A person erased (a candidate's right to erasure): saved searches whose name, words or filters
 * named them keep "Erased candidate" in their place (and so does the name the activity log shows for
 * them, read from here). A name must stay unique among its owner's searches of the list: one made
 * alike by the erasure gets a number ("Erased candidate 2").
 */
import { sql } from 'drizzle-orm'
import { jsonMentionsAny, jsonWithoutMentions, mentionsAny, withoutMentions } from '../../core/erased-text.ts'
import { rowsOf, type Db } from '../../db/client.ts'

export async function forgetSavedSearchMentions(tx: Db, workspaceId: string, needles: readonly string[]): Promise<void> {
	if (!needles.length) return
	const named = await rowsOf<{ id: string; userId: string; list: string; name: string }>(
		await tx.execute(
			sql`select id, user_id as "userId", list, ${withoutMentions(sql`name`, needles)} as name from saved_searches
			where workspace_id = ${workspaceId} and (${mentionsAny(sql`name`, needles)} or ${mentionsAny(sql`query`, needles)} or ${jsonMentionsAny(sql`filters`, needles)})
			order by created_at, id`,
		),
	)
	for (const r of named) {
		const taken = async (name: string) =>
			(
				await rowsOf<{ n: number }>(
					await tx.execute(
						sql`select count(*)::int as n from saved_searches where workspace_id = ${workspaceId} and user_id = ${r.userId} and list = ${r.list}
						and lower(name) = lower(${name}) and id <> ${r.id}`,
					),
				)
			)[0]!.n > 0
		let name = r.name
		for (let n = 2; await taken(name); n++) name = `${r.name} ${n}`
		await tx.execute(
			sql`update saved_searches set name = ${name}, query = ${withoutMentions(sql`query`, needles)}, filters = ${jsonWithoutMentions(sql`filters`, needles)}
			where id = ${r.id}`,
		)
	}
}
