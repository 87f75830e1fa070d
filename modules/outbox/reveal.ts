/**
 * Reveal link: an owner or admin may see a candidate's upload link held in the dev mailbox, so the
 * upload page can be tried without a mail catcher. On purpose and on the record:
 *
 * - only a value its sender marked revealable (an upload link; never a password reset link, which
 *   would let a workspace's admin take over a person's account, in other workspaces too);
 * - only while the mail is held in the dev mailbox (queued without SMTP_URL, not released): mail on
 *   its way to the recipient keeps its seal for everyone;
 * - one row at a time, by a person whose role holds `outbox:reveal`, each time written to the
 *   activity log in the same transaction.
 *
 * The value stays sealed in the row; the outbox page, the inbox copy and assistants still see the
 * marker (private.ts).
 */
import { and, eq } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import { sealedValue } from './private.ts'
import { outbox } from './table.ts'

export const REVEAL_PERMISSION = 'outbox:reveal'

/** Why a row's private value cannot be revealed, or null when it can. */
export function revealRefusal(row: {
	carriesPrivate: boolean
	privateErased: boolean
	privateRevealable: boolean
	held: boolean
	status: string
}): string | null {
	if (!row.carriesPrivate) return 'This entry carries no private link.'
	if (!row.privateRevealable) return 'This link is a credential for its recipient alone (a password reset link): it is never shown here.'
	if (row.privateErased) return 'This link was erased when the entry was sent or given up on.'
	if (!row.held || row.status !== 'pending') return 'Only a link held in the dev mailbox can be revealed; this entry is being sent to its recipient.'
	return null
}

/** The private link of a held entry of the actor's workspace, logged as revealed. */
export async function revealPrivateLink(deps: AppDeps, actor: Actor, id: string): Promise<string> {
	if (!deps.permissions.can(actor, REVEAL_PERMISSION)) throw new AppError('FORBIDDEN', 'Only owners and admins can reveal a link in the dev mailbox')
	return deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select({
				id: outbox.id,
				status: outbox.status,
				held: outbox.held,
				carriesPrivate: outbox.carriesPrivate,
				privateSealed: outbox.privateSealed,
				privateRevealable: outbox.privateRevealable,
				relatedType: outbox.relatedType,
				relatedId: outbox.relatedId,
			})
			.from(outbox)
			.where(and(eq(outbox.workspaceId, actor.workspaceId), eq(outbox.id, id)))
			.for('update')
		if (!row) throw new AppError('NOT_FOUND', 'No outbox entry with this id')
		const refusal = revealRefusal({ ...row, privateErased: row.carriesPrivate && row.privateSealed === null })
		if (refusal) throw new AppError('CONFLICT', refusal)
		const value = await sealedValue(deps.secret, { id: row.id, privateSealed: row.privateSealed! })
		await recordActivity(tx, actor, {
			action: 'outbox.link_revealed',
			targetType: 'outbox',
			targetId: row.id,
			detail: { relatedType: row.relatedType, relatedId: row.relatedId },
		})
		return value
	})
}
