/**
 * Mail held in the dev mailbox: e-mail queued while `SMTP_URL` was unset (service.ts marks it at
 * enqueueing). Setting SMTP_URL later does not send it — trying things out on a copy of real data
 * must never mail real people by surprise — only an operator's release does (`outbox release`).
 * Released mail is queued like new mail: sent as soon as the server has SMTP_URL, retried as usual.
 */
import { and, eq } from 'drizzle-orm'
import { operatorActor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import { workspaceDirectory } from './port.ts'
import { outbox } from './table.ts'

export type ReleaseSelection = { id: string } | { all: true; workspaceId?: string }

export interface Released {
	id: string
	workspaceId: string
}

/** Releases one held e-mail or all of them (of one workspace, or everywhere); each release is logged in its workspace. */
export async function releaseHeld(deps: AppDeps, selection: ReleaseSelection): Promise<Released[]> {
	return deps.db.transaction(async (tx) => {
		const which = 'id' in selection ? eq(outbox.id, selection.id) : selection.workspaceId ? eq(outbox.workspaceId, selection.workspaceId) : undefined
		const released = await tx
			.update(outbox)
			.set({ held: false, nextAttemptAt: deps.now() })
			.where(and(eq(outbox.held, true), eq(outbox.status, 'pending'), which))
			.returning({ id: outbox.id, workspaceId: outbox.workspaceId })
		if ('id' in selection && !released.length) {
			const [row] = await tx.select({ status: outbox.status }).from(outbox).where(eq(outbox.id, selection.id))
			if (!row) throw new AppError('NOT_FOUND', `No outbox entry with the id "${selection.id}"`)
			throw new AppError(
				'CONFLICT',
				`${selection.id} is not held in the dev mailbox (it is ${row.status === 'pending' ? 'queued to be sent' : row.status.replace('_', ' ')})`,
			)
		}
		const found = await workspaceDirectory(deps.registry).byIds(
			tx,
			released.map((r) => r.workspaceId),
		)
		for (const r of released)
			await recordActivity(tx, operatorActor({ id: r.workspaceId, slug: found.get(r.workspaceId)!.slug }), {
				action: 'outbox.released',
				targetType: 'outbox',
				targetId: r.id,
			})
		return released
	})
}
