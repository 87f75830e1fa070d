/**
 * The bench: candidates the firm markets by role family, possibly for one job.
 *
 * Rules:
 * - Owners, admins and recruiters see and change the bench (hiring managers and viewers do not:
 *   bench people are not applicants of their jobs).
 * - A candidate is on a family's bench at most once: adding again changes nothing and says so.
 * - Adding records who added whom, for which family and job, in the activity log.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { keysetPage, newestFirst } from '../../core/paging.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { personRef, userNames } from '../auth/index.ts'
import { candidateCards, requireCandidate } from '../candidates/index.ts'
import { jobLabels, reachableJobIds } from '../jobs/index.ts'
import { ROLE_FAMILIES, type RoleFamily } from './family.ts'
import { isoInstant } from '../../core/time.ts'

export interface BenchRow {
	id: string
	candidateId: string
	/** Only listed families are stored (`addToBench` refuses others). */
	roleFamily: RoleFamily
	jobId: string | null
	addedByUserId: string | null
	availableFrom: string | null
	hourlyRate: number | null
	addedAt: Date | string
}

export const BENCH_COLUMNS = sql.raw(
	`b.id, b.candidate_id as "candidateId", b.role_family as "roleFamily", b.job_id as "jobId", b.added_by_user_id as "addedByUserId", b.available_from::text as "availableFrom", b.hourly_rate as "hourlyRate", b.added_at as "addedAt"`,
)

/** Bench rows as tool results, with the candidates' profiles, job titles and who added them. */
export async function benchViews(deps: AppDeps, actor: Actor, rows: BenchRow[]) {
	const [cards, titles, names] = await Promise.all([
		candidateCards(
			deps,
			actor,
			rows.map((r) => r.candidateId),
		),
		jobLabels(deps, actor, [...new Set(rows.map((r) => r.jobId).filter((x): x is string => Boolean(x)))]),
		userNames(
			deps.db,
			rows.map((r) => r.addedByUserId).filter((x): x is string => Boolean(x)),
			actor,
		),
	])
	return rows.map((r) => {
		const card = cards.get(r.candidateId)
		return {
			id: r.id,
			candidate: { id: r.candidateId, name: card?.name ?? untrustedLine('', 'candidate'), headline: card?.headline ?? null, location: card?.location ?? null },
			roleFamily: r.roleFamily,
			skills: card?.skills ?? [],
			job: r.jobId ? { id: r.jobId, title: titles.get(r.jobId) ?? untrustedLine('', 'colleague') } : null,
			addedAt: isoInstant(r.addedAt),
			addedBy: r.addedByUserId ? personRef(names, r.addedByUserId) : null,
			availableFrom: r.availableFrom,
			hourlyRate: r.hourlyRate,
		}
	})
}

/** Bench entries newest first, keyset-paged on (added_at, id); of one role family when asked (the bench page's filter). */
export async function listBench(deps: AppDeps, actor: Actor, input: { limit: number; cursor?: string; roleFamily?: RoleFamily }) {
	const scope = `list_bench:${actor.userId}${input.roleFamily ? `:${input.roleFamily}` : ''}`
	const where = [sql`b.workspace_id = ${actor.workspaceId}`, ...(input.roleFamily ? [sql`b.role_family = ${input.roleFamily}`] : [])]
	const { rows, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: newestFirst<BenchRow>(sql`b.added_at`, sql`b.id`, (r) => r.addedAt),
		from: sql`select ${BENCH_COLUMNS} from bench_entries b`,
		where,
	})
	return { bench: await benchViews(deps, actor, rows), nextCursor }
}

export async function addToBench(deps: AppDeps, actor: Actor, input: { candidateId: string; roleFamily: RoleFamily; jobId?: string }) {
	await requireCandidate(deps, actor, input.candidateId)
	// The MCP door checks the family against its schema; every door gets the same answer here.
	if (!(ROLE_FAMILIES as readonly string[]).includes(input.roleFamily))
		throw invalid([{ field: 'roleFamily', message: `must be one of ${ROLE_FAMILIES.join(', ')}` }])
	if (input.jobId) {
		const reach = await reachableJobIds(deps, actor, [input.jobId])
		const titles = await jobLabels(deps, actor, [input.jobId])
		if ((reach !== 'all' && !reach.includes(input.jobId)) || !titles.has(input.jobId)) throw new AppError('NOT_FOUND', 'No job with this id')
	}
	const created = await deps.db.transaction(async (tx) => {
		const inserted = await deps.database.rows<{ id: string }>(
			sql`insert into bench_entries (id, workspace_id, candidate_id, role_family, job_id, added_by_user_id) values (${newId('bench')}, ${actor.workspaceId}, ${input.candidateId}, ${input.roleFamily}, ${input.jobId ?? null}, ${actor.userId})
			on conflict (workspace_id, candidate_id, role_family) do nothing returning id`,
			tx,
		)
		if (!inserted.length) return false
		await recordActivity(tx, actor, {
			action: 'bench.added',
			targetType: 'candidate',
			targetId: input.candidateId,
			detail: { benchEntryId: inserted[0]!.id, roleFamily: input.roleFamily, jobId: input.jobId ?? null },
		})
		return true
	})
	const rows = await deps.database.rows<BenchRow>(
		sql`select ${BENCH_COLUMNS} from bench_entries b where b.workspace_id = ${actor.workspaceId} and b.candidate_id = ${input.candidateId} and b.role_family = ${input.roleFamily}`,
	)
	const [entry] = await benchViews(deps, actor, rows)
	return {
		entry: entry!,
		created,
		message: created ? 'Added to the bench.' : `Already on the ${input.roleFamily} bench (added ${entry!.addedAt.slice(0, 10)}); nothing changed.`,
	}
}
