/**
 * The workspace's pipeline: stage keys with labels it can rename and stages it can add. A workspace
 * without its own rows uses the default pipeline; the first write that needs a stage stores it.
 */
import { asc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { pipelineStages } from './table.ts'

export interface Stage {
	key: string
	label: string
	position: number
}

export const DEFAULT_STAGES: readonly Stage[] = [
	{ key: 'applied', label: 'Applied', position: 1 },
	{ key: 'screening', label: 'Screening', position: 2 },
	{ key: 'submitted', label: 'Submitted to client', position: 3 },
	{ key: 'client_interview', label: 'Client interview', position: 4 },
	{ key: 'offer', label: 'Offer', position: 5 },
	{ key: 'hired', label: 'Hired', position: 6 },
]

/** The workspace's stages in pipeline order. */
export async function stagesOf(deps: Pick<AppDeps, 'db'>, workspaceId: string): Promise<Stage[]> {
	const rows = await deps.db
		.select({ key: pipelineStages.key, label: pipelineStages.label, position: pipelineStages.position })
		.from(pipelineStages)
		.where(eq(pipelineStages.workspaceId, workspaceId))
		.orderBy(asc(pipelineStages.position))
	return rows.length ? rows : [...DEFAULT_STAGES]
}

/** Stores the default pipeline for a workspace that has none yet (inside the caller's transaction). */
export async function ensureStages(db: Db, workspaceId: string): Promise<void> {
	const [existing] = await db.select({ key: pipelineStages.key }).from(pipelineStages).where(eq(pipelineStages.workspaceId, workspaceId)).limit(1)
	if (!existing)
		await db
			.insert(pipelineStages)
			.values(DEFAULT_STAGES.map((s) => ({ workspaceId, ...s })))
			.onConflictDoNothing()
}

export const stageLabel = (stages: Stage[], key: string) => stages.find((s) => s.key === key)?.label ?? key
