/**
 * Expiry: an invited or started interview whose deadline has passed becomes `expired`. One
 * conditional UPDATE does it, so the sweep is safe on several instances at once: each row is
 * changed by exactly one of them (the other, after waiting for the row lock, finds the condition
 * no longer true and skips it), and only the rows it changed are logged, in the same transaction.
 */
import { and, inArray, lte } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { recordActivity } from '../activity/index.ts'
import { operatorActor } from '../auth/index.ts'
import { interviews } from './table.ts'
import { runEvery } from '../../core/every.ts'

export async function expireOverdueInterviews(deps: AppDeps): Promise<string[]> {
	const now = deps.now()
	return deps.db.transaction(async (tx) => {
		const expired = await tx
			.update(interviews)
			.set({ status: 'expired', expiredAt: now })
			.where(and(inArray(interviews.status, ['invited', 'started']), lte(interviews.deadlineAt, now)))
			.returning({ id: interviews.id, workspaceId: interviews.workspaceId, deadlineAt: interviews.deadlineAt })
		for (const e of expired) {
			const actor = {
				...operatorActor({ id: e.workspaceId, slug: '' }),
				name: 'Interview expiry',
				credential: { kind: 'cli' as const, id: '', name: 'expiry sweep' },
			}
			await recordActivity(tx, actor, {
				action: 'interview.expired',
				targetType: 'interview',
				targetId: e.id,
				detail: { deadlineAt: e.deadlineAt.toISOString() },
			})
		}
		return expired.map((e) => e.id)
	})
}

/** Runs the sweep every minute; returns the stop function. */
export function startExpirySweep(deps: AppDeps, everyMs = 60_000): () => Promise<void> {
	return runEvery(deps.log, { everyMs, failure: 'interview expiry sweep failed' }, () => expireOverdueInterviews(deps))
}
