/**
 * Bulk actions on applications (a job's stage list): Move to stage and Reject, each record through
 * the same service as one at a time.
 *
 * Rules:
 * - At most `BULK_LIMIT` applications per action, at least one; the same id twice counts once.
 * - The stage (for a move) must be one of the workspace's stages, and the reason (for a reject) one
 *   of `REJECT_REASONS`: asked once for the whole action (a `VALIDATION` error), not per record.
 * - Each application is then moved (`moveToStage`) or rejected (`rejectApplication`) on its own, in
 *   its own transaction, with its own activity line (and, for a move, its event and webhook): one
 *   entry per record. A refusal of one record — out of reach (answered as absent), the role, a
 *   rule (already rejected) — is reported for that record and the others go on; so is an
 *   unexpected failure, logged (`runBulk`, core/bulk.ts).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { bulkIds, runBulk, type BulkLine } from '../../core/bulk.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, forbidden, invalid } from '../../core/errors.ts'
import { textOf } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { applicationReach, anyId, reachOf } from './reach.ts'
import { moveToStage, MOVE_PERMISSION } from './stage-move.ts'
import { stagesOf } from './stages.ts'

/** Why an application is rejected: a fixed list (no free text, which a later erasure could miss). */
export const REJECT_REASONS = {
	qualifications: 'Does not meet the must-haves',
	experience: 'Not enough experience',
	work_authorization: 'Work authorization does not fit',
	rate: 'Rate or salary does not fit',
	location: 'Location does not fit',
	filled: 'The position was filled',
	other: 'Another reason',
} as const
export type RejectReason = keyof typeof REJECT_REASONS

/**
 * Rejects one application (outcome `rejected`, with the reason in its activity line).
 * Rules: needs `candidates:move` (a hiring manager on the job's team only; out of reach is absent);
 * an application that already has an outcome (rejected, withdrawn, hired) is a `CONFLICT`.
 */
export async function rejectApplication(deps: AppDeps, actor: Actor, input: { applicationId: string; reason: RejectReason }): Promise<void> {
	if (!deps.permissions.can(actor, MOVE_PERMISSION)) throw forbidden('Your role does not allow rejecting applications')
	if (!Object.hasOwn(REJECT_REASONS, input.reason)) throw invalid([{ field: 'reason', message: `must be one of: ${Object.keys(REJECT_REASONS).join(', ')}` }])
	const reach = await reachOf(deps, actor)
	await deps.db.transaction(async (tx) => {
		const [row] = await deps.database.rows<{ id: string; jobId: string; candidateId: string; outcome: string | null }>(
			sql`select a.id, a.job_id as "jobId", a.candidate_id as "candidateId", a.outcome from applications a where a.id = ${input.applicationId} and ${applicationReach(reach)} for update`,
			tx,
		)
		if (!row) throw new AppError('NOT_FOUND', 'No application with this id')
		if (row.outcome) throw new AppError('CONFLICT', `It is already ${row.outcome}`)
		const at = deps.now().toISOString()
		await tx.execute(sql`update applications set outcome = 'rejected', updated_at = ${at}::timestamptz where id = ${row.id}`)
		await recordActivity(tx, actor, {
			action: 'application.rejected',
			targetType: 'application',
			targetId: row.id,
			detail: { jobId: row.jobId, candidateId: row.candidateId, reason: input.reason },
		})
	})
}

export type BulkApplicationsInput =
	| { action: 'move'; applicationIds: readonly string[]; stageKey: string }
	| { action: 'reject'; applicationIds: readonly string[]; reason: string }

export async function bulkApplications(deps: AppDeps, actor: Actor, input: BulkApplicationsInput): Promise<{ action: string; lines: BulkLine[] }> {
	const ids = bulkIds(input.applicationIds, 'application', 'applications').filter((id) => id.length <= 160)
	if (!ids.length) throw invalid([{ field: 'application', message: 'must be chosen: tick at least one application' }], 'Choose the applications first')
	let action: string
	if (input.action === 'move') {
		const to = (await stagesOf(deps, actor.workspaceId)).find((s) => s.key === input.stageKey)
		if (!to) throw invalid([{ field: 'stageKey', message: 'must be one of the stages listed' }], 'Choose the stage to move them to')
		action = `Move to ${to.label}`
	} else {
		if (!Object.hasOwn(REJECT_REASONS, input.reason))
			throw invalid([{ field: 'reason', message: 'must be one of the reasons listed' }], 'Choose why they are rejected')
		action = `Reject: ${REJECT_REASONS[input.reason as RejectReason]}`
	}
	// Names for the report, of what the person can reach (the rest is reported as not found).
	const reach = await reachOf(deps, actor)
	const named = await deps.database.rows<{ id: string; name: string }>(
		sql`select a.id, c.name from applications a join candidates c on c.id = a.candidate_id where a.id = ${anyId(ids)} and ${applicationReach(reach)}`,
	)
	const names = new Map(named.map((r) => [r.id, textOf(r.name).slice(0, 80)]))
	const lines = await runBulk(deps, ids, {
		action: `candidates.bulk-${input.action}`,
		name: (id) => names.get(id) ?? 'An application',
		step: async (id): Promise<Omit<BulkLine, 'name'>> => {
			if (input.action === 'move') {
				const move = await moveToStage(deps, actor, { applicationId: id, stageKey: input.stageKey })
				return move.changed ? { result: 'done', note: `from ${move.from.label}` } : { result: 'unchanged', note: `Already at ${move.to.label}.` }
			}
			await rejectApplication(deps, actor, { applicationId: id, reason: input.reason as RejectReason })
			return { result: 'done' }
		},
	})
	return { action, lines }
}
