/**
 * A job's pipeline as its page shows it: one column per stage, in pipeline order, with the number
 * of applications still in the running and the newest few of them; rejected or withdrawn ones and
 * archived ones counted apart (`progress.ts`). Each column's full list is `listApplications` with
 * the same filter and order, so "see all" continues exactly where the column stops.
 *
 * Same reach as the application tools (`reach.ts`): hiring managers only on their jobs' team, a job
 * out of reach answered as absent. Cards carry what other modules add to applications
 * (`vendorSubmission` from the documents module), as `get_job_applicants` does.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { applicationSummary, contributions, listApplications, type Joined } from './application-service.ts'
import { requireJob } from './candidate-service.ts'
import { STATE_OF, inState, type ApplicationState } from './progress.ts'
import { applicationReach, reachOf } from './reach.ts'
import { APPLICATION_COLUMNS } from './rows.ts'
import { stagesOf } from './stages.ts'

export type PipelineCard = ReturnType<typeof applicationSummary> & { vendorSubmission?: unknown }

export interface PipelineColumn {
	key: string
	label: string
	/** Applications in the running at this stage. */
	count: number
	/** The newest of them (at most the number asked for). */
	applications: PipelineCard[]
}

export interface JobPipeline {
	stages: PipelineColumn[]
	/** Rejected or withdrawn, not archived. */
	closed: number
	archived: number
}

/** Counts of a job's reachable applications by stage and state. */
async function pipelineCounts(deps: AppDeps, jobId: string, reachSql: ReturnType<typeof applicationReach>) {
	return deps.database.rows<{ stageKey: string; state: ApplicationState; n: number }>(
		sql`select a.stage_key as "stageKey", ${STATE_OF} as state, count(*)::int as n from applications a where ${reachSql} and a.job_id = ${jobId} group by 1, 2`,
	)
}

export async function jobPipeline(deps: AppDeps, actor: Actor, jobId: string, perStage: number): Promise<JobPipeline> {
	const reach = await reachOf(deps, actor)
	const title = await requireJob(deps, reach, jobId)
	const reachSql = applicationReach(reach)
	const [stages, counts] = await Promise.all([stagesOf(deps, actor.workspaceId), pipelineCounts(deps, jobId, reachSql)])
	const active = new Map<string, number>()
	let closed = 0
	let archived = 0
	for (const c of counts) {
		if (c.state === 'active') active.set(c.stageKey, (active.get(c.stageKey) ?? 0) + c.n)
		else if (c.state === 'closed') closed += c.n
		else archived += c.n
	}
	// A stage the workspace no longer has still shows its applications, after the others.
	const columns = [
		...stages.map((s) => ({ key: s.key, label: s.label })),
		...[...active.keys()].filter((k) => !stages.some((s) => s.key === k)).map((k) => ({ key: k, label: k })),
	]
	const shown = columns.filter((c) => active.get(c.key))
	// The newest few of each stage in one statement: per stage, the same order as listApplications.
	const rows = shown.length
		? await deps.database.rows<Joined>(
				sql`select x.* from unnest(array[${sql.join(
					shown.map((c) => sql`${c.key}`),
					sql`, `,
				)}]::text[]) as s(key) cross join lateral (select ${APPLICATION_COLUMNS}, c.name, c.headline, c.location from applications a join candidates c on c.id = a.candidate_id
				where ${reachSql} and a.job_id = ${jobId} and a.stage_key = s.key and ${inState('active')} order by a.created_at desc nulls last, a.id desc nulls last limit ${perStage}) x`,
			)
		: []
	const extra = await contributions(
		deps,
		actor,
		rows.map((r) => r.id),
	)
	const titles = new Map([[jobId, title]])
	const cards = rows.map((r) => ({ ...applicationSummary(r, titles, stages), ...extra.get(r.id) }) as PipelineCard)
	return {
		stages: columns.map((c) => ({ ...c, count: active.get(c.key) ?? 0, applications: cards.filter((a) => a.stageKey === c.key) })),
		closed,
		archived,
	}
}

/**
 * One of the pipeline's lists in full, paged: a stage's applications in the running, or the closed
 * or archived ones; with how many there are in all and the stage's label.
 */
export async function jobPipelineList(
	deps: AppDeps,
	actor: Actor,
	input: { jobId: string; stageKey?: string; state: ApplicationState; limit: number; cursor?: string },
) {
	const list = await listApplications(deps, actor, {
		jobId: input.jobId,
		stageKey: input.stageKey,
		state: input.state,
		limit: input.limit,
		cursor: input.cursor,
	})
	const [extra, counts, stages] = await Promise.all([
		contributions(
			deps,
			actor,
			list.applications.map((a) => a.id),
		),
		pipelineCounts(deps, input.jobId, applicationReach(await reachOf(deps, actor))),
		stagesOf(deps, actor.workspaceId),
	])
	const total = counts.filter((c) => c.state === input.state && (input.stageKey === undefined || c.stageKey === input.stageKey)).reduce((n, c) => n + c.n, 0)
	return {
		stage: input.stageKey === undefined ? null : { key: input.stageKey, label: stages.find((s) => s.key === input.stageKey)?.label ?? input.stageKey },
		total,
		applications: list.applications.map((a) => ({ ...a, ...extra.get(a.id) }) as PipelineCard),
		nextCursor: list.nextCursor,
	}
}
