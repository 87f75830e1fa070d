/**
 * A person's saved searches on the portal's lists.
 *
 * Rules: a saved search belongs to one person and is seen only by them; its name is 1 to 80
 * characters and unique (ignoring case) among that person's searches on the same list; its search
 * text is none, or 2 to 120 characters as every list's search takes it; a person keeps at most 50
 * searches per list; a search is saved, listed and opened only while the person may read its list
 * (the permission the list's own page asks for). Every change is in the activity log.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import type { PermissionKey } from '../../core/module.ts'
import { FORBIDDEN_CONTROL } from '../../core/schema-check.ts'
import { searchTextProblem } from '../../core/text-search.ts'
import { typedLine } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { savedSearches } from './table.ts'

export const SEARCH_LISTS = ['candidates', 'bench', 'jobs', 'applications', 'pipeline', 'assessments', 'inbox', 'vendors', 'privacy', 'accounts'] as const
export type SearchList = (typeof SEARCH_LISTS)[number]

export const LIST_LABELS: Record<SearchList, string> = {
	candidates: 'Candidates',
	bench: 'Bench',
	jobs: 'Jobs',
	applications: 'Applications',
	pipeline: 'Pipeline',
	assessments: 'Assessments',
	inbox: 'Inbox',
	vendors: 'Vendors',
	privacy: 'Privacy requests',
	accounts: 'Accounts',
}

export const MAX_PER_LIST = 50

/**
 * The permission each list's own page (or tool) asks for. A saved search is that list's search, so it
 * asks the same: a viewer, who reads jobs only, has no candidates search to keep, and a search saved
 * before a demotion is neither listed nor opened while its list is out of reach (it comes back with
 * the role).
 */
const LIST_PERMISSION = {
	candidates: 'candidates:read',
	bench: 'bench:read',
	jobs: 'jobs:read',
	applications: 'candidates:read',
	pipeline: 'candidates:read',
	assessments: 'interviews:read',
	inbox: 'inbox:read',
	vendors: 'vendors:read',
	privacy: 'privacy:requests',
	accounts: 'auth:manage_people',
} as const satisfies Record<SearchList, PermissionKey>

/** Whether the person may read the list, and so keep and see searches on it. */
export const mayReadList = (deps: AppDeps, actor: Actor, list: SearchList): boolean => deps.permissions.can(actor, LIST_PERMISSION[list])

/** The lists the person may read, in the page's order (the save form offers only these). */
export const readableLists = (deps: AppDeps, actor: Actor): SearchList[] => SEARCH_LISTS.filter((l) => mayReadList(deps, actor, l))

export interface SavedSearch {
	id: string
	list: SearchList
	name: string
	query: string
	filters: Record<string, string>
	createdAt: string
	updatedAt: string
}

const isList = (v: string): v is SearchList => (SEARCH_LISTS as readonly string[]).includes(v)
const person = (actor: Actor) => {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'Saved searches belong to a person')
	return actor.userId
}
const notFound = () => new AppError('NOT_FOUND', 'No saved search with this id')

function toView(r: typeof savedSearches.$inferSelect): SavedSearch {
	return {
		id: r.id,
		list: r.list as SearchList,
		name: r.name,
		query: r.query,
		filters: r.filters,
		createdAt: r.createdAt.toISOString(),
		updatedAt: r.updatedAt.toISOString(),
	}
}

/** The person's searches on one list, by name; none on a list they may not read. */
export async function listSavedSearches(deps: AppDeps, actor: Actor, list: string): Promise<SavedSearch[]> {
	if (!isList(list)) throw invalid([{ field: 'list', message: `must be one of: ${SEARCH_LISTS.join(', ')}` }])
	if (!mayReadList(deps, actor, list)) return []
	const rows = await deps.db
		.select()
		.from(savedSearches)
		.where(and(eq(savedSearches.workspaceId, actor.workspaceId), eq(savedSearches.userId, person(actor)), eq(savedSearches.list, list)))
		.orderBy(asc(sql`lower(${savedSearches.name})`), asc(savedSearches.id))
	return rows.map(toView)
}

/** Every list the person may read with their searches on it (the saved-searches page). */
export async function allSavedSearches(deps: AppDeps, actor: Actor): Promise<Map<SearchList, SavedSearch[]>> {
	const lists = readableLists(deps, actor)
	if (!lists.length) return new Map()
	const rows = await deps.db
		.select()
		.from(savedSearches)
		.where(and(eq(savedSearches.workspaceId, actor.workspaceId), eq(savedSearches.userId, person(actor)), inArray(savedSearches.list, lists)))
		.orderBy(asc(sql`lower(${savedSearches.name})`), asc(savedSearches.id))
	const byList = new Map<SearchList, SavedSearch[]>(lists.map((l) => [l, []]))
	for (const r of rows) byList.get(r.list as SearchList)?.push(toView(r))
	return byList
}

function cleanName(name: string): string {
	const { line, problem } = typedLine(name, 80)
	if (problem) throw invalid([{ field: 'name', message: problem }])
	return line
}

/**
 * The search text as the lists take it (`searchTextProblem`, the rule every list's search and
 * `search` apply): a saved search is one its list runs, never one it then refuses.
 */
function cleanQuery(query: string): string {
	const trimmed = query.trim()
	if (FORBIDDEN_CONTROL.test(trimmed)) throw invalid([{ field: 'query', message: 'must be text without control characters' }])
	const problem = searchTextProblem(trimmed)
	if (problem) throw invalid([{ field: 'query', message: problem }])
	return trimmed
}

const duplicate = (name: string) =>
	new AppError('CONFLICT', `You already have a saved search named “${name}” on this list`, {
		fields: [{ field: 'name', message: 'is already used on this list' }],
	})

const isUniqueViolation = (e: unknown): boolean => {
	const x = e as { code?: string; cause?: unknown } | undefined
	return x?.code === '23505' || (x?.cause !== undefined && isUniqueViolation(x.cause))
}

export interface NewSavedSearch {
	list: string
	name: string
	query?: string
	filters?: Record<string, string>
}

export async function saveSearch(deps: AppDeps, actor: Actor, input: NewSavedSearch): Promise<SavedSearch> {
	const userId = person(actor)
	if (!isList(input.list)) throw invalid([{ field: 'list', message: `must be one of: ${SEARCH_LISTS.join(', ')}` }])
	if (!mayReadList(deps, actor, input.list))
		throw new AppError('FORBIDDEN', `Your role cannot read the ${LIST_LABELS[input.list]} list, so a search on it cannot be saved`)
	const name = cleanName(input.name)
	const query = cleanQuery(input.query ?? '')
	const id = newId('ss')
	try {
		await deps.db.transaction(async (tx) => {
			const [n] = await tx
				.select({ n: count() })
				.from(savedSearches)
				.where(and(eq(savedSearches.workspaceId, actor.workspaceId), eq(savedSearches.userId, userId), eq(savedSearches.list, input.list)))
			if ((n?.n ?? 0) >= MAX_PER_LIST) throw new AppError('CONFLICT', `You can keep at most ${MAX_PER_LIST} saved searches on one list; delete one first`)
			await tx.insert(savedSearches).values({ id, workspaceId: actor.workspaceId, userId, list: input.list, name, query, filters: input.filters ?? {} })
			await recordActivity(tx, actor, { action: 'saved_search.created', targetType: 'saved_search', targetId: id, detail: { list: input.list, name } })
		})
	} catch (e) {
		if (isUniqueViolation(e)) throw duplicate(name)
		throw e
	}
	return (await loadOwn(deps, actor, id))!
}

/** One of the person's searches, as absent when its list is out of their reach. */
async function loadOwn(deps: AppDeps, actor: Actor, id: string): Promise<SavedSearch | null> {
	const [row] = await deps.db
		.select()
		.from(savedSearches)
		.where(and(eq(savedSearches.id, id), eq(savedSearches.workspaceId, actor.workspaceId), eq(savedSearches.userId, person(actor))))
	return row && mayReadList(deps, actor, row.list as SearchList) ? toView(row) : null
}

export async function renameSearch(deps: AppDeps, actor: Actor, id: string, newName: string): Promise<SavedSearch> {
	const current = await loadOwn(deps, actor, id)
	if (!current) throw notFound()
	const name = cleanName(newName)
	try {
		await deps.db.transaction(async (tx) => {
			await tx.update(savedSearches).set({ name, updatedAt: deps.now() }).where(eq(savedSearches.id, id))
			await recordActivity(tx, actor, { action: 'saved_search.renamed', targetType: 'saved_search', targetId: id, detail: { from: current.name, to: name } })
		})
	} catch (e) {
		if (isUniqueViolation(e)) throw duplicate(name)
		throw e
	}
	return (await loadOwn(deps, actor, id))!
}

export async function deleteSearch(deps: AppDeps, actor: Actor, id: string): Promise<void> {
	const current = await loadOwn(deps, actor, id)
	if (!current) throw notFound()
	await deps.db.transaction(async (tx) => {
		await tx.delete(savedSearches).where(eq(savedSearches.id, id))
		await recordActivity(tx, actor, {
			action: 'saved_search.deleted',
			targetType: 'saved_search',
			targetId: id,
			detail: { list: current.list, name: current.name },
		})
	})
}
