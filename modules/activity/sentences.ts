/**
 * The activity log as people read it: "Dana Lee published the job Senior Java Developer", not
 * `job.published job job_rc…`. Modules contribute the words for their actions (`activityLabels`) and
 * the names of their records (`recordNames`); an action nobody labelled is spelt out from its code.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { RecordNames } from '../../core/module.ts'
import type { ActivityRow } from './service.ts'

/** Names of one table's records by id, within the workspace: `name` is an SQL expression over the row `r`. */
export function recordNamesFrom(type: string, table: string, name: string, href?: (id: string) => string): RecordNames {
	return {
		type,
		async names(deps, workspaceId, ids) {
			if (!ids.length) return new Map()
			const rows = await deps.database.rows<{ id: string; name: string }>(
				sql`select r.id, ${sql.raw(name)} as name from ${sql.raw(table)} r where r.workspace_id = ${workspaceId} and r.id in (${sql.join(
					ids.map((id) => sql`${id}`),
					sql`, `,
				)})`,
			)
			return new Map(rows.map((r) => [r.id, { name: r.name, href: href?.(r.id) }]))
		},
	}
}

/** "job.actively_hiring_on" → "job: actively hiring on", for actions no module labelled. */
const spelledOut = (action: string) => action.replace('.', ': ').replace(/_/g, ' ')

export interface ActivitySentence {
	row: ActivityRow
	/** The words after the person's name. */
	did: string
	/** The record it was done to, by name when known. */
	target: { name: string; href?: string } | null
}

export async function activitySentences(deps: AppDeps, workspaceId: string, rows: ActivityRow[]): Promise<ActivitySentence[]> {
	const labels: Record<string, string> = Object.assign({}, ...deps.registry.modules.map((m) => m.activityLabels ?? {}))
	const namers = new Map(deps.registry.modules.flatMap((m) => m.recordNames ?? []).map((n) => [n.type, n]))
	const byType = new Map<string, string[]>()
	for (const r of rows) byType.set(r.targetType, [...(byType.get(r.targetType) ?? []), r.targetId])
	const names = new Map<string, { name: string; href?: string }>()
	await Promise.all(
		[...byType].map(async ([type, ids]) => {
			const namer = namers.get(type)
			if (!namer) return
			for (const [id, name] of await namer.names(deps, workspaceId, [...new Set(ids)])) names.set(`${type}:${id}`, name)
		}),
	)
	return rows.map((row) => ({ row, did: labels[row.action] ?? spelledOut(row.action), target: names.get(`${row.targetType}:${row.targetId}`) ?? null }))
}
