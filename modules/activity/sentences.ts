/**
 * The activity log as people read it: "Dana Lee published the job Senior Java Developer", not
 * `job.published job job_rc…`. Modules contribute the words for their actions (`activityLabels`) and
 * the names of their records (`recordNames`); an action nobody labelled is spelt out from its code.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { RecordNames } from '../../core/module.ts'
import type { ActivityRow } from './service.ts'
import { inList } from '../../core/sql-list.ts'

/** Names of one table's records by id, within the workspace: `name` is an SQL expression over the row `r`. */
export function recordNamesFrom(
	type: string,
	table: string,
	name: string,
	href?: (id: string) => string,
	/** A column naming the one person a record belongs to (null: everyone's): linked only for that person. */
	personal?: string,
): RecordNames {
	return {
		type,
		async names(deps, reader, ids) {
			if (!ids.length) return new Map()
			const rows = await deps.database.rows<{ id: string; name: string; own: string | null }>(
				sql`select r.id, ${sql.raw(name)} as name, ${sql.raw(personal ? `r.${personal}` : 'null')} as own from ${sql.raw(table)} r where r.workspace_id = ${reader.workspaceId} and r.id in ${inList(ids)}`,
			)
			return new Map(rows.map((r) => [r.id, { name: r.name, href: r.own === null || r.own === reader.userId ? href?.(r.id) : undefined }]))
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
	/** What the line's detail adds after the record ("from Applied to Screening"), when its module says. */
	change: string | null
}

export async function activitySentences(deps: AppDeps, reader: Actor, rows: ActivityRow[]): Promise<ActivitySentence[]> {
	const labels: Record<string, string> = Object.assign({}, ...deps.registry.modules.map((m) => m.activityLabels ?? {}))
	const namers = new Map(deps.registry.modules.flatMap((m) => m.recordNames ?? []).map((n) => [n.type, n]))
	const byType = new Map<string, string[]>()
	for (const r of rows) byType.set(r.targetType, [...(byType.get(r.targetType) ?? []), r.targetId])
	const names = new Map<string, { name: string; href?: string }>()
	await Promise.all(
		[...byType].map(async ([type, ids]) => {
			const namer = namers.get(type)
			if (!namer) return
			for (const [id, name] of await namer.names(deps, reader, [...new Set(ids)])) names.set(`${type}:${id}`, name)
		}),
	)
	const changes = await changeWords(deps, reader.workspaceId, rows)
	return rows.map((row, i) => ({
		row,
		did: labels[row.action] ?? spelledOut(row.action),
		target: names.get(`${row.targetType}:${row.targetId}`) ?? null,
		change: changes[i] ?? null,
	}))
}

/** Each line's change words, asked of the module that logs its action (one call per action on the page). */
async function changeWords(deps: AppDeps, workspaceId: string, rows: ActivityRow[]): Promise<(string | null)[]> {
	const out: (string | null)[] = rows.map(() => null)
	const byAction = new Map(deps.registry.modules.flatMap((m) => m.activityChanges ?? []).map((c) => [c.action, c]))
	await Promise.all(
		[...byAction].map(async ([action, change]) => {
			const at = rows.flatMap((r, i) => (r.action === action ? [i] : []))
			if (!at.length) return
			const words = await change.words(
				deps,
				workspaceId,
				at.map((i) => rows[i]!.detail),
			)
			for (const [k, i] of at.entries()) out[i] = words[k] ?? null
		}),
	)
	return out
}
