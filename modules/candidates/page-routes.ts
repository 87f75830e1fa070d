/**
 * The candidate pages: the list, a candidate's profile, Add note, and the résumé file. Thin
 * adapters over the services the MCP tools call (`list_candidates`, `get_candidate`), so the role
 * rules are the tools' own.
 */
import { pageSections } from '../../core/html.ts'
import { Elysia, t } from 'elysia'
import { textOf } from '../../core/untrusted.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { fileResponse } from '../../core/http/file-response.ts'
import { recordSearch, viewed } from '../audit/index.ts'
import { formBody, formText, isRefusal, refusedForm, seeOther } from '../../core/http/form.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { listSavedSearches } from '../saved-searches/index.ts'
import { allListFilters, listFiltersFor } from './list-query.ts'
import { stagesOf } from './stages.ts'
import type { HttpKit } from '../../core/module.ts'
import type { FieldError } from '../../core/ui.ts'
import { jobLabels, listJobs, reachableJobIds } from '../jobs/index.ts'
import { listCandidates, saveCandidateListSearch } from './candidate-service.ts'
import { candidatePage } from './candidate-page.ts'
import { candidateListAddress, candidateListPage, type CandidateListParams, type CandidateListView } from './list-page.ts'
import { addNote } from './notes.ts'
import { resumeDownload } from './resume-download.ts'

const PAGE_SIZE = 25
/** Jobs offered by the job filter: the newest open ones (a hiring manager: all of theirs). */
const JOBS_OFFERED = 100

const listQuery = t.Object(
	{
		// Longer than the search allows, so an over-long search is answered on the page, with its words kept.
		q: t.Optional(t.String({ maxLength: 2000 })),
		jobId: t.Optional(t.String({ maxLength: 160 })),
		stage: t.Optional(t.String({ maxLength: 100 })),
		workAuthorization: t.Optional(t.String({ maxLength: 100 })),
		sort: t.Optional(t.String({ maxLength: 40 })),
		cursor: t.Optional(t.String({ maxLength: 200 })),
		done: t.Optional(t.String({ maxLength: 40 })),
	},
	// Filters other modules add (availability) come as their own parameters.
	{ additionalProperties: true },
)

/** What refused filters are called on the page (the service names the field). */
const FILTER_LABELS: Record<string, string> = { query: 'Search', stage: 'Stage', workAuthorization: 'Work authorization', sort: 'Sort' }
const SAVED_NOTICE = 'The search was saved: its name is a link under Saved searches.'

/** What the list's service is asked for these filters and order. */
const listInput = (p: CandidateListParams) => ({
	query: p.q || undefined,
	jobId: p.jobId || undefined,
	stageKey: p.stage || undefined,
	workAuthorization: p.workAuthorization ? p.workAuthorization.split(',').map((a) => a.trim().toUpperCase()) : undefined,
	more: p.more,
	sort: p.sort || undefined,
})

/**
 * The list's filters and order from a query or a posted form (only the parameters the list knows):
 * a contributed filter the person's role may not use is read too, so that the list refuses it on
 * the page rather than silently showing everyone.
 */
function listParams(deps: AppDeps, source: Record<string, unknown>): CandidateListParams {
	const text = (k: string) => (typeof source[k] === 'string' ? (source[k] as string).trim().slice(0, 2000) : '')
	const more = Object.fromEntries(allListFilters(deps).map((f) => [f.key, text(f.key).slice(0, 100)]))
	return { q: text('q'), jobId: text('jobId'), stage: text('stage'), workAuthorization: text('workAuthorization'), more, sort: text('sort') }
}

/** The candidates list for these filters: a search too long, a filter refused, a job out of reach or a changed address is said on the page. */
async function showList(
	deps: AppDeps,
	session: PageSession,
	p: CandidateListParams,
	o: { cursor?: string; request?: Request; save?: CandidateListView['save'] } = {},
): Promise<Response> {
	const actor = session.actor
	const reach = await reachableJobIds(deps, actor)
	const [offered, stages, saved] = await Promise.all([
		listJobs(deps, actor, { status: reach === 'all' ? 'Open' : undefined, limit: JOBS_OFFERED }),
		stagesOf(deps, actor.workspaceId),
		deps.permissions.can(actor, 'saved-searches:use') ? listSavedSearches(deps, actor, 'candidates') : Promise.resolve(null),
	])
	const jobs: [string, string][] = offered.jobs.map((j) => [
		j.id,
		`${j.title}${j.location ? ` — ${j.location}` : ''}${j.status === 'Open' ? '' : ` (${j.status})`}`,
	])
	const view: CandidateListView = {
		...p,
		jobs,
		stages: stages.map((s) => [s.key, s.label] as const),
		moreFilters: listFiltersFor(deps, actor),
		saved,
		save: o.save,
		rows: [],
		next: null,
		paged: Boolean(o.cursor),
		limitedToTeam: reach !== 'all',
		onNoTeam: reach !== 'all' && reach.length === 0,
	}
	const errors: FieldError[] = []
	try {
		const page = await listCandidates(deps, actor, { ...listInput(p), limit: PAGE_SIZE, cursor: o.cursor || undefined })
		// The chosen job is within reach (listCandidates checked): keep it in the menu even when it is not among the newest.
		if (p.jobId && !jobs.some(([id]) => id === p.jobId))
			jobs.unshift([p.jobId, textOf((await jobLabels(deps, actor, [p.jobId])).get(p.jobId)) || 'The chosen job'])
		if (p.q && o.request) recordSearch(deps, o.request, actor, { criteria: { query: p.q }, jobId: p.jobId || undefined }, page.candidates)
		return candidateListPage(deps, session, {
			...view,
			rows: page.candidates,
			next: page.nextCursor,
			bulkActions: await pageSections(deps, 'candidates-list', session, ''),
		})
	} catch (error) {
		if (!(error instanceof AppError)) throw error
		const outOfDate = { field: 'q', message: 'This page’s address was changed or belongs to another search: search again, or start from the first page' }
		if (error.code === 'NOT_FOUND' && p.jobId)
			errors.push({ field: 'jobId', message: 'There is no job with this id that you can see: choose a job from the list' })
		else if (error.code === 'VALIDATION' && error.fields?.some((f) => f.field !== 'cursor'))
			for (const f of error.fields.filter((f) => f.field !== 'cursor')) {
				const label = FILTER_LABELS[f.field] ?? allListFilters(deps).find((m) => m.key === f.field)?.label ?? f.field
				const known = f.field !== 'query' && (f.field in FILTER_LABELS || view.moreFilters.some((m) => m.key === f.field))
				errors.push({ field: known ? f.field : 'q', message: `${label} ${f.message}` })
			}
		else if (error.code === 'VALIDATION' && o.cursor) errors.push(outOfDate)
		else throw error
		return candidateListPage(deps, session, { ...view, errors })
	}
}

/** Save this search: the list's current filters under a name (the saved-searches service and its rules), then back to the same list with the confirmation beside the button. */
async function saveCandidateSearch(deps: AppDeps, session: PageSession, body: unknown): Promise<Response> {
	const p = listParams(deps, body as Record<string, unknown>)
	const name = formText(body, 'name')
	const filters = Object.fromEntries(
		Object.entries({ jobId: p.jobId, stage: p.stage, workAuthorization: p.workAuthorization, ...p.more, sort: p.sort }).filter(([, v]) => v),
	)
	try {
		await saveCandidateListSearch(deps, session.actor, listInput(p), { name, query: p.q, filters })
		return seeOther(candidateListAddress(p), 'search-saved', 'done')
	} catch (error) {
		if (error instanceof AppError && error.code === 'NOT_FOUND') return showList(deps, session, p, { save: { name } })
		if (!isRefusal(error)) throw error
		// A search or filter the list refuses: the list says which, on its field (nothing saved).
		if (error.code === 'VALIDATION' && error.fields?.some((f) => f.field !== 'name')) return showList(deps, session, p, { save: { name } })
		const message =
			error.code === 'VALIDATION'
				? (error.fields ?? []).map((f) => `${f.field === 'name' ? 'The name' : 'The search'} ${f.message}`).join('; ') || error.message
				: error.message
		return showList(deps, session, p, { save: { name, errors: [{ field: 'save-name', message }] } })
	}
}

/** A note added from the candidate's page; a refused one shows the page again with the form's problems. */
async function addNoteFromPage(deps: AppDeps, session: PageSession, candidateId: string, body: unknown): Promise<Response> {
	const values = { text: formText(body, 'text'), visibility: formText(body, 'visibility'), applicationId: formText(body, 'applicationId') }
	try {
		if (!['shared', 'private'].includes(values.visibility))
			throw new AppError('VALIDATION', 'Choose who can read the note', {
				fields: [{ field: 'visibility', message: 'must be everyone who can see this candidate, or only you' }],
			})
		await addNote(deps, session.actor, {
			candidateId,
			text: values.text,
			private: values.visibility === 'private',
			applicationId: values.applicationId || undefined,
		})
		return seeOther(`/candidates/${encodeURIComponent(candidateId)}`, 'note-added', 'done')
	} catch (error) {
		if (!isRefusal(error)) throw error
		const refused = refusedForm('note', values, error, {
			text: ['note-text', 'Note'],
			visibility: ['note-visibility', 'Who can read it'],
			applicationId: ['note-application', 'About'],
		})
		return candidatePage(deps, session, candidateId, { refused, status: error.status })
	}
}

export function candidatePageRoutes(deps: AppDeps, { auth }: HttpKit) {
	return (
		new Elysia({ name: 'candidates.pages' })
			.use(auth)
			.get(
				'/candidates',
				({ session, query, request }) =>
					showList(deps, session, listParams(deps, query), {
						cursor: query.cursor,
						request,
						save: query.done === 'search-saved' ? { done: SAVED_NOTICE } : undefined,
					}),
				{ session: { permission: 'candidates:read' }, query: listQuery },
			)
			.post('/candidates/saved-searches', ({ session, body }) => saveCandidateSearch(deps, session, body), {
				session: { permission: 'candidates:read' },
				body: formBody,
			})
			.get(
				'/candidates/:id',
				({ session, params, query, request }) =>
					viewed(deps, request, session.actor, 'candidate', params.id, () => candidatePage(deps, session, params.id, { done: query.done })),
				{
					session: { permission: 'candidates:read' },
					query: t.Object({ done: t.Optional(t.String({ maxLength: 60 })) }),
				},
			)
			.post('/candidates/:id/notes', ({ session, params, body }) => addNoteFromPage(deps, session, params.id, body), {
				session: { permission: 'candidates:note' },
				body: formBody,
			})
			// Signed in is enough to ask: who may have the file is the service's decision, and everyone
			// else (hiring managers, viewers) gets the same 404 as for a file that does not exist.
			.get(
				'/candidates/:id/resume/:ref',
				async ({ session, params, request }) =>
					fileResponse(await viewed(deps, request, session.actor, 'document', params.id, () => resumeDownload(deps, session.actor, params.id, params.ref))),
				{ session: 'signed-in' },
			)
	)
}
