/**
 * Upload links queued before the outbox sealed them (migration 0011) are in plain text in rows still
 * waiting to go. The worker seals them like new ones once when it starts; rows already sent or given
 * up on lost theirs in migration 0012. Idempotent: several instances starting at once seal each row once.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { sealPrivate } from './private.ts'
import { outbox } from './table.ts'

/** An upload link as the documents module writes it: `<BASE_URL>/upload/bl_ul_…`. */
const UPLOAD_LINK = /https?:\/\/[^\s<>"'()]*?\/upload\/bl_ul_[0-9A-Za-z]{36}(?![0-9A-Za-z])/g

/** Seals the plain upload links of waiting rows (of one workspace when given); returns how many rows. */
export async function sealWaitingLinks(deps: AppDeps, workspaceId?: string): Promise<number> {
	const workspace = workspaceId ? sql` and workspace_id = ${workspaceId}` : sql``
	const rows = await deps.database.rows<{ id: string; text: string }>(
		sql`select id, text from ${outbox} where status in ('pending', 'sending') and not carries_private and text ~ 'bl_ul_[0-9A-Za-z]{36}'${workspace}`,
	)
	let sealed = 0
	for (const row of rows) {
		const links = [...new Set(row.text.match(UPLOAD_LINK) ?? [])]
		if (links.length !== 1) {
			deps.log.warn('outbox row with an unsealed credential left as it is', { id: row.id, links: links.length })
			continue
		}
		const kept = await sealPrivate(row.id, row.text, { value: links[0]!, serverSecret: deps.secret })
		// Only a row still waiting with the same text: another instance may have sealed it, or sent it, meanwhile.
		const updated = await deps.database.rows(
			sql`update ${outbox} set text = ${kept.text}, carries_private = true, private_sealed = ${kept.sealed}, private_revealable = true where id = ${row.id} and text = ${row.text} and not carries_private and status in ('pending', 'sending') returning id`,
		)
		sealed += updated.length
	}
	return sealed
}
