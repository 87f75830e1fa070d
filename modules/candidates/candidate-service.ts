/**
 * Candidates as people in the portal and assistant apps see them (row rules in `reach.ts`).
 * `list_candidates` is keyset-paged on (created_at, id), newest first; `query` keeps the candidates
 * the `search` tool finds for it (`candidateMatches`: every word in the search vector, or the name).
 *
 * Orders say `desc nulls last` to match the `(…, created_at desc, id desc)` indexes, which drizzle
 * creates as DESC NULLS LAST: a plain `desc` means NULLS FIRST, and the planner then sorts the whole
 * workspace instead of reading the index (200 ms instead of 0.2 ms at 100,000 candidates).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { searchTextProblem } from '../../core/text-search.ts'
import { keysetPage } from '../../core/paging.ts'
import { personAuthor, untrusted, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { isoInstant } from '../../core/time.ts'
import { personRef, userNames } from '../auth/index.ts'
import { jobLabels } from '../jobs/index.ts'
import { refreshChecks } from './recheck.ts'
import { candidateMatches } from './search.ts'
import { applicationReach, candidateReach, colleagueWords, noteReach, reachOf, redactContacts, seesContact, type Reach } from './reach.ts'
import { standsInItsStage } from './progress.ts'
import {
	APPLICATION_COLUMNS,
	applicationBrief,
	candidateColumns,
	candidateContact,
	candidateFacts,
	short,
	unique,
	type ApplicationRow,
	type CandidateRow,
} from './rows.ts'
import { stagesOf } from './stages.ts'
import { inList } from '../../core/sql-list.ts'
import { listConditions, type CandidateListFilters } from './list-query.ts'
import { saveSearch } from '../saved-searches/index.ts'

export const candidateNotFound = () => new AppError('NOT_FOUND', 'No candidate with this id')
export const jobNotFound = () => new AppError('NOT_FOUND', 'No job with this id')

/** Throws NOT_FOUND unless the job is in the workspace and within the actor's reach; its title. */
export async function requireJob(deps: AppDeps, reach: Reach, jobId: string): Promise<UntrustedText> {
	if (reach.jobIds !== 'all' && !reach.jobIds.includes(jobId)) throw jobNotFound()
	const titles = await jobLabels(deps, reach.actor, [jobId])
	const title = titles.get(jobId)
	if (title === undefined) throw jobNotFound()
	return title
}

export interface ListCandidatesInput extends CandidateListFilters {
	jobId?: string
	query?: string
	limit: number
	cursor?: string
}

export function contactOf(deps: AppDeps, actor: Actor, c: Pick<CandidateRow, 'email' | 'phone'>) {
	return seesContact(deps, actor) ? candidateContact(c) : {}
}

/** Where a candidate or an application came from: the careers form's `source` (a link's utm_source), or the name of an import. */
export const sourceOf = (source: string) => untrustedLine(source, 'outside', 80)

function profile(deps: AppDeps, actor: Actor, c: CandidateRow) {
	return {
		id: c.id,
		name: short(c.name, 120),
		headline: short(c.headline),
		location: short(c.location, 120),
		...candidateFacts(c),
		source: sourceOf(c.source),
		...contactOf(deps, actor, c),
	}
}

/** Reachable applications of some candidates, newest first. */
async function applicationsOf(deps: AppDeps, reach: Reach, candidateIds: string[], extra: SQL = sql``): Promise<ApplicationRow[]> {
	if (!candidateIds.length) return []
	return deps.database.rows<ApplicationRow>(
		sql`select ${APPLICATION_COLUMNS} from applications a where ${applicationReach(reach)} and a.candidate_id in ${inList(candidateIds)}${extra} order by a.created_at desc nulls last, a.id desc nulls last`,
	)
}

/**
 * Saves the candidates list's search under a name (the saved-searches service and its rules). Only a
 * search the list can run is saved: its filters are checked as the list checks them, so a refused filter
 * is said on its field and nothing is saved.
 */
export async function saveCandidateListSearch(
	deps: AppDeps,
	actor: Actor,
	list: Omit<ListCandidatesInput, 'limit' | 'cursor'>,
	search: { name: string; query: string; filters: Record<string, string> },
) {
	if (!deps.permissions.can(actor, 'saved-searches:use')) throw new AppError('FORBIDDEN', 'Your role keeps no saved searches')
	await listCandidates(deps, actor, { ...list, limit: 1 })
	return saveSearch(deps, actor, { list: 'candidates', ...search })
}

export async function listCandidates(deps: AppDeps, actor: Actor, input: ListCandidatesInput) {
	const reach = await reachOf(deps, actor)
	if (input.jobId) await requireJob(deps, reach, input.jobId)
	const query = input.query?.trim().toLowerCase() ?? ''
	const problem = searchTextProblem(query)
	if (problem) throw invalid([{ field: 'query', message: problem }])
	const listed = await listConditions(deps, reach, input, input.jobId)
	const scope = `list_candidates:${actor.userId}:${input.jobId ?? ''}:${query}${listed.scope ? `:${listed.scope}` : ''}`
	const conditions: SQL[] = [candidateReach(reach), ...listed.where]
	if (input.jobId) conditions.push(sql`exists (select 1 from applications ja where ja.candidate_id = c.id and ja.job_id = ${input.jobId})`)
	// Matched as the search matches (modules/candidates/search.ts): `search` offers this list to page through what it counted.
	if (query) conditions.push(candidateMatches(query, seesContact(deps, actor)))
	const { rows: page, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: listed.order,
		from: sql`select ${candidateColumns()} from candidates c`,
		where: conditions,
	})
	const apps = await applicationsOf(
		deps,
		reach,
		page.map((c) => c.id),
	)
	const [titles, stages] = await Promise.all([jobLabels(deps, actor, unique(apps.map((a) => a.jobId))), stagesOf(deps, actor.workspaceId)])
	return {
		candidates: page.map((c) => {
			const mine = apps.filter((a) => a.candidateId === c.id)
			// The application the filters are about: to the chosen job, in the chosen stage.
			const shown =
				input.jobId || input.stageKey
					? mine.find(
							(a) => (!input.jobId || a.jobId === input.jobId) && (!input.stageKey || (a.stageKey === input.stageKey && !a.archived && standsInItsStage(a))),
						)
					: mine[0]
			return {
				...profile(deps, actor, c),
				applicationCount: mine.length,
				application: shown ? applicationBrief(shown, titles, stages) : null,
				createdAt: isoInstant(c.createdAt),
			}
		}),
		nextCursor,
	}
}

interface NoteRow {
	id: string
	authorUserId: string
	visibility: string
	applicationId: string | null
	body: string
	createdAt: Date | string
}

/** Notes the actor may read on a candidate (optionally only those about one application or general ones), in words they may see (`colleagueWords`). */
export async function visibleNotes(deps: AppDeps, reach: Reach, candidateId: string, applicationId?: string) {
	const about = applicationId ? sql` and (n.application_id = ${applicationId} or n.application_id is null)` : sql``
	const rows = await deps.database.rows<NoteRow>(
		sql`select n.id, n.author_user_id as "authorUserId", n.visibility, n.application_id as "applicationId", n.body, n.created_at as "createdAt" from notes n where ${noteReach(reach)} and n.candidate_id = ${candidateId}${about} order by n.created_at desc, n.seq desc limit 200`,
	)
	const names = await userNames(
		deps.db,
		rows.map((n) => n.authorUserId),
		reach.actor,
	)
	const words = colleagueWords(deps, reach.actor)
	return rows.map((n) => ({
		id: n.id,
		author: personRef(names, n.authorUserId),
		visibility: n.visibility,
		applicationId: n.applicationId,
		body: untrusted(words(n.body, n.authorUserId), personAuthor(n.authorUserId, reach.actor), 4000),
		createdAt: isoInstant(n.createdAt),
	}))
}

const fileType = (mime: string | null) => (mime === 'application/pdf' ? 'pdf' : mime?.includes('wordprocessingml') ? 'docx' : mime)

export async function getCandidate(deps: AppDeps, actor: Actor, candidateId: string) {
	const reach = await reachOf(deps, actor)
	const [c] = await deps.database.rows<CandidateRow>(
		sql`select ${candidateColumns(true)} from candidates c where c.id = ${candidateId} and ${candidateReach(reach)}`,
	)
	if (!c) throw candidateNotFound()
	const first = await applicationsOf(deps, reach, [c.id])
	const apps = (await refreshChecks(deps, actor.workspaceId, { applicationIds: first.map((a) => a.id) })) ? await applicationsOf(deps, reach, [c.id]) : first
	const [titles, stages, notes, owner] = await Promise.all([
		jobLabels(deps, actor, unique(apps.map((a) => a.jobId))),
		stagesOf(deps, actor.workspaceId),
		visibleNotes(deps, reach, c.id),
		c.ownerUserId ? userNames(deps.db, [c.ownerUserId], actor) : Promise.resolve(new Map<string, UntrustedText>()),
	])
	const text = c.resumeText ? (seesContact(deps, actor) ? c.resumeText : redactContacts(c.resumeText)) : null
	return {
		...profile(deps, actor, c),
		owner: c.ownerUserId ? personRef(owner, c.ownerUserId) : null,
		resume:
			c.resumeFileName || text
				? { fileName: short(c.resumeFileName, 160), fileType: fileType(c.resumeMime), text: text ? untrusted(text, 'candidate', 20000) : null }
				: null,
		applications: apps.map((a) => applicationBrief(a, titles, stages)),
		notes,
		createdAt: isoInstant(c.createdAt),
		updatedAt: isoInstant(c.updatedAt),
	}
}
