/**
 * Moving an application to another stage of the workspace's pipeline.
 *
 * Rules:
 * - Needs `candidates:move` (owners, admins, recruiters; hiring managers too, on the jobs of their
 *   hiring teams only: an application out of reach is answered like an absent one, before the
 *   stage is looked at).
 * - The stage must be one of the workspace's stages (`stagesOf`); anything else is a `VALIDATION`
 *   error naming the stages there are.
 * - Moving to the stage it is in changes nothing and logs nothing.
 * - A move sets `stage_changed_at` (days in stage count from it) and is logged with the stage it
 *   left and the one it entered, in the same transaction.
 * - Entering the `hired` stage records the outcome `hired`; leaving it clears that outcome (the
 *   demo data and the job facts read "hired" from both). Rejected and withdrawn stay as they are,
 *   through any move, into and out of Hired too: a move changes where the application is, not a
 *   decision recorded about it.
 * - Two people moving the same application at once: the row is locked while it is read and
 *   written, so the moves happen one after the other (the last one wins) and each logs the stage
 *   it really left.
 *
 * What else reads stages, and why nothing more is needed here: the review queue's "new
 * application" entries are applications still in the first stage (they leave it by themselves);
 * the job facts count applications per stage live; careers analytics counts page views and
 * applications only (no stage funnel), so no analytics event is written. The activity line carries
 * `from` and `to`, which is what a "stages reached" report would read.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, forbidden, invalid } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { applicationStageChanged } from './events.ts'
import { HIRED_STAGE } from './progress.ts'
import { applicationReach, reachOf } from './reach.ts'
import { ensureStages, stagesOf, type Stage } from './stages.ts'

export const MOVE_PERMISSION = 'candidates:move' as const

export interface MoveToStageInput {
	applicationId: string
	stageKey: string
}

export interface StageMove {
	applicationId: string
	from: Stage
	to: Stage
	/** False when the application was already in that stage (nothing written). */
	changed: boolean
	stageChangedAt: string
}

export async function moveToStage(deps: AppDeps, actor: Actor, input: MoveToStageInput): Promise<StageMove> {
	if (!deps.permissions.can(actor, MOVE_PERMISSION)) throw forbidden('Your role does not allow moving applications between stages')
	const [reach, stages] = await Promise.all([reachOf(deps, actor), stagesOf(deps, actor.workspaceId)])
	const stageOf = (key: string): Stage => stages.find((s) => s.key === key) ?? { key, label: key, position: 0 }
	return deps.db.transaction(async (tx) => {
		const [row] = await deps.database.rows<{ id: string; jobId: string; candidateId: string; stageKey: string; stageChangedAt: Date | string }>(
			sql`select a.id, a.job_id as "jobId", a.candidate_id as "candidateId", a.stage_key as "stageKey", a.stage_changed_at as "stageChangedAt" from applications a where a.id = ${input.applicationId} and ${applicationReach(reach)} for update`,
			tx,
		)
		if (!row) throw new AppError('NOT_FOUND', 'No application with this id')
		const to = stages.find((s) => s.key === input.stageKey)
		if (!to)
			throw invalid(
				[{ field: 'stageKey', message: `is not a stage of this workspace; use one of: ${stages.map((s) => s.key).join(', ')}` }],
				'Choose one of the workspace’s stages',
			)
		const from = stageOf(row.stageKey)
		if (row.stageKey === to.key) return { applicationId: row.id, from, to, changed: false, stageChangedAt: new Date(row.stageChangedAt).toISOString() }
		// A workspace still on the default pipeline stores it now, so the stage it uses is on record.
		await ensureStages(tx, actor.workspaceId)
		const at = deps.now()
		await tx.execute(sql`update applications set stage_key = ${to.key}, stage_changed_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz,
			outcome = case when ${to.key} = ${HIRED_STAGE} then coalesce(outcome, 'hired') when outcome = 'hired' then null else outcome end
			where id = ${row.id}`)
		await recordActivity(tx, actor, {
			action: 'application.stage_changed',
			targetType: 'application',
			targetId: row.id,
			detail: { jobId: row.jobId, candidateId: row.candidateId, from: from.key, to: to.key },
		})
		await recordEvent(tx, applicationStageChanged, actor, { applicationId: row.id, candidateId: row.candidateId, jobId: row.jobId, from: from.key, to: to.key })
		return { applicationId: row.id, from, to, changed: true, stageChangedAt: at.toISOString() }
	})
}
