/**
 * What the candidate list can be filtered and sorted by (the `/candidates` page, its saved
 * searches): the orders and the filters of this module; other modules add filters through the
 * `candidates:list-filter` port (the bench's availability).
 *
 * Rules: a filter value or an order that is not one of those listed is refused (VALIDATION, naming
 * the field), as is a contributed filter the person's role may not use; every condition is scoped
 * by the person's reach (a hiring manager filters only the applicants of their jobs).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { invalid } from '../../core/errors.ts'
import type { FieldError } from '../../core/errors.ts'
import { definePort } from '../../core/module.ts'
import { idKey, newestFirst, timeKey, type Order } from '../../core/paging.ts'
import { contributionsTo } from '../../core/registry.ts'
import { inState } from './progress.ts'
import { applicationReach, type Reach } from './reach.ts'
import type { CandidateRow } from './rows.ts'
import { stagesOf } from './stages.ts'

/** The orders of the list; the first is the default (and `list_candidates`' only one). */
export const CANDIDATE_SORTS = ['newest', 'oldest', 'name', 'name-desc', 'location'] as const
export type CandidateSort = (typeof CANDIDATE_SORTS)[number]
export const CANDIDATE_SORT_LABELS: Record<CandidateSort, string> = {
	newest: 'Newest first',
	oldest: 'Oldest first',
	name: 'Name, A to Z',
	'name-desc': 'Name, Z to A',
	location: 'Location, A to Z',
}

/** Work authorizations the list filters by (the values the apply form and the imports store). */
export const WORK_AUTHORIZATIONS = ['USC', 'GC', 'H1B', 'OPT', 'EAD', 'TN', 'L2'] as const
export const WORK_AUTHORIZATION_LABELS: Record<(typeof WORK_AUTHORIZATIONS)[number], string> = {
	USC: 'US citizen (USC)',
	GC: 'Green card (GC)',
	H1B: 'H-1B',
	OPT: 'OPT',
	EAD: 'EAD',
	TN: 'TN',
	L2: 'L-2',
}

/** A filter another module adds to the candidate list (e.g. the bench's availability). */
export interface CandidateListFilter {
	/** Its query parameter and saved-search key, e.g. `availability`. */
	readonly key: string
	/** The field's label on the page. */
	readonly label: string
	/** Offered and accepted only for people it says may use it (the contributing module's permission). */
	usable(deps: AppDeps, actor: Actor): boolean
	/** The values it takes, with their labels. */
	readonly options: readonly (readonly [string, string])[]
	/** The condition over candidates (aliased `c`) for one of `options`' values. */
	where(deps: AppDeps, actor: Actor, value: string): SQL
}

export const candidateListFilters = definePort<CandidateListFilter>(
	'candidates:list-filter',
	'A filter of the candidate list (a select of values, each a condition over candidates)',
)

/** Every contributed filter, whoever may use it. */
export const allListFilters = (deps: AppDeps) => contributionsTo(deps.registry, candidateListFilters)

/** The contributed filters the person may use. */
export const listFiltersFor = (deps: AppDeps, actor: Actor) => allListFilters(deps).filter((f) => f.usable(deps, actor))

export interface CandidateListFilters {
	/** A stage key of the workspace: candidates with an application in it (still in the running). */
	stageKey?: string
	/** Candidates with one of these work authorizations. */
	workAuthorization?: readonly string[]
	/** Contributed filters by key, e.g. `{ availability: 'now' }`. */
	more?: Readonly<Record<string, string>>
	sort?: string
}

/**
 * The conditions of the filters (over candidates aliased `c`) and the order; throws VALIDATION
 * naming every refused field (`stage`, `workAuthorization`, `sort` or the contributed filter's key).
 */
export async function listConditions(
	deps: AppDeps,
	reach: Reach,
	f: CandidateListFilters,
	jobId: string | undefined,
): Promise<{ where: SQL[]; order: Order<CandidateRow>; sort: CandidateSort; scope: string }> {
	const errors: FieldError[] = []
	const where: SQL[] = []
	if (f.stageKey) {
		const stages = await stagesOf(deps, reach.actor.workspaceId)
		if (!stages.some((s) => s.key === f.stageKey)) errors.push({ field: 'stage', message: `must be one of: ${stages.map((s) => s.key).join(', ')}` })
		else
			where.push(
				sql`exists (select 1 from applications a where a.candidate_id = c.id and a.stage_key = ${f.stageKey} and ${applicationReach(reach)} and ${inState('active')}${jobId ? sql` and a.job_id = ${jobId}` : sql``})`,
			)
	}
	const auth = [...new Set(f.workAuthorization ?? [])]
	if (auth.length) {
		const unknown = auth.filter((a) => !(WORK_AUTHORIZATIONS as readonly string[]).includes(a))
		if (unknown.length) errors.push({ field: 'workAuthorization', message: `must be among: ${WORK_AUTHORIZATIONS.join(', ')}` })
		else
			where.push(
				sql`upper(trim(c.work_authorization)) in (${sql.join(
					auth.map((a) => sql`${a}`),
					sql`, `,
				)})`,
			)
	}
	const usable = listFiltersFor(deps, reach.actor)
	for (const [key, value] of Object.entries(f.more ?? {})) {
		if (!value) continue
		const filter = usable.find((u) => u.key === key)
		if (!filter) errors.push({ field: key, message: 'is not a filter your role can use' })
		else if (!filter.options.some(([v]) => v === value)) errors.push({ field: key, message: `must be one of: ${filter.options.map(([v]) => v).join(', ')}` })
		else where.push(filter.where(deps, reach.actor, value))
	}
	const sort = (f.sort || 'newest') as CandidateSort
	if (!CANDIDATE_SORTS.includes(sort)) errors.push({ field: 'sort', message: `must be one of: ${CANDIDATE_SORTS.join(', ')}` })
	if (errors.length) throw invalid(errors)
	const more = Object.entries(f.more ?? {})
		.filter(([, v]) => v)
		.sort(([a], [b]) => a.localeCompare(b))
	// '' for the default list (no filter of these, newest first): the tool's cursors keep their scope.
	const scope = where.length || sort !== 'newest' ? `${f.stageKey ?? ''}:${auth.sort().join(',')}:${more.map(([k, v]) => `${k}=${v}`).join('&')}:${sort}` : ''
	return { where, order: ORDERS[sort], sort, scope }
}

/**
 * An order whose keys are not cursor-safe text (names): the cursor holds the last row's id, whose
 * values are read back with it. `columns` are SQL over candidates aliased `c`, all in one direction.
 */
const byLookup = (columns: readonly string[], desc = false): Order<CandidateRow> => ({
	keys: columns.map((c) => ({ expr: sql.raw(c), desc })),
	lookup: (id: string) => sql`select ${sql.raw(columns.map((c) => c.replace(/\bc\./g, 'x.')).join(', '))} from candidates x where x.id = ${id}`,
})

const ORDERS: Record<CandidateSort, Order<CandidateRow>> = {
	newest: newestFirst<CandidateRow>(sql`c.created_at`, sql`c.id`, (c) => c.createdAt),
	oldest: { keys: [timeKey<CandidateRow>(sql`c.created_at`, (c) => c.createdAt), idKey<CandidateRow>(sql`c.id`)] },
	name: byLookup(['lower(c.name)', 'c.id']),
	'name-desc': byLookup(['lower(c.name)', 'c.id'], true),
	// Candidates without a location come after those with one.
	location: byLookup(['(c.location is null)', "lower(coalesce(c.location, ''))", 'c.id']),
}
