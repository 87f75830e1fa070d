/**
 * The candidate pages: the list, a candidate's profile, Add note, and the résumé file. Thin
 * adapters over the services the MCP tools call (`list_candidates`, `get_candidate`), so the role
 * rules are the tools' own.
 */
import { pageSections } from '../../core/html.ts'
import { Elysia, t, type Static } from 'elysia'
import { textOf } from '../../core/untrusted.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { fileResponse } from '../../core/http/file-response.ts'
import { recordSearch, viewed } from '../audit/index.ts'
import { formBody, formText, isRefusal, refusedForm, seeOther } from '../../core/http/form.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import type { FieldError } from '../../core/ui.ts'
import { jobLabels, listJobs, reachableJobIds } from '../jobs/index.ts'
import { listCandidates } from './candidate-service.ts'
import { candidatePage } from './candidate-page.ts'
import { candidateListPage } from './list-page.ts'
import { addNote } from './notes.ts'
import { resumeDownload } from './resume-download.ts'

const MAX_QUERY = 120
const PAGE_SIZE = 25
/** Jobs offered by the job filter: the newest open ones (a hiring manager: all of theirs). */
const JOBS_OFFERED = 100

const listQuery = t.Object({
	// Longer than the search allows, so an over-long search is answered on the page, with its words kept.
	q: t.Optional(t.String({ maxLength: 2000 })),
	jobId: t.Optional(t.String({ maxLength: 160 })),
	cursor: t.Optional(t.String({ maxLength: 200 })),
})

/** The candidates list: search and job filter within reach; a search too long, a job out of reach or a changed address is said on the page. */
async function showCandidateList(deps: AppDeps, session: PageSession, query: Static<typeof listQuery>, request: Request) {
	const actor = session.actor
	const q = query.q?.trim() ?? ''
	const jobId = query.jobId?.trim() ?? ''
	const reach = await reachableJobIds(deps, actor)
	const offered = await listJobs(deps, actor, { status: reach === 'all' ? 'Open' : undefined, limit: JOBS_OFFERED })
	const jobs: [string, string][] = offered.jobs.map((j) => [
		j.id,
		`${j.title}${j.location ? ` — ${j.location}` : ''}${j.status === 'Open' ? '' : ` (${j.status})`}`,
	])
	const view = {
		q,
		jobId,
		jobs,
		rows: [],
		next: null,
		paged: Boolean(query.cursor),
		limitedToTeam: reach !== 'all',
		onNoTeam: reach !== 'all' && reach.length === 0,
	}
	const errors: FieldError[] = []
	if ([...q].length > MAX_QUERY) errors.push({ field: 'q', message: `Search must be ${MAX_QUERY} characters or fewer` })
	if (errors.length) return candidateListPage(deps, session, { ...view, errors })
	try {
		const page = await listCandidates(deps, actor, {
			query: q || undefined,
			jobId: jobId || undefined,
			limit: PAGE_SIZE,
			cursor: query.cursor || undefined,
		})
		// The chosen job is within reach (listCandidates checked): keep it in the menu even when it is not among the newest.
		if (jobId && !jobs.some(([id]) => id === jobId))
			jobs.unshift([jobId, textOf((await jobLabels(deps, actor.workspaceId, [jobId])).get(jobId)) || 'The chosen job'])
		if (q) recordSearch(deps, request, actor, { criteria: { query: q }, jobId: jobId || undefined }, page.candidates)
		return candidateListPage(deps, session, {
			...view,
			rows: page.candidates,
			next: page.nextCursor,
			bulkActions: await pageSections(deps, 'candidates-list', session, ''),
		})
	} catch (error) {
		if (!(error instanceof AppError)) throw error
		if (error.code === 'NOT_FOUND' && jobId)
			errors.push({ field: 'jobId', message: 'There is no job with this id that you can see: choose a job from the list' })
		else if (error.code === 'VALIDATION' && query.cursor)
			errors.push({ field: 'q', message: 'This page’s address was changed or belongs to another search: search again, or start from the first page' })
		else throw error
		return candidateListPage(deps, session, { ...view, errors })
	}
}

/** A note added from the candidate's page; a refused one shows the page again with the form's problems. */
async function addNoteFromPage(deps: AppDeps, session: PageSession, candidateId: string, body: unknown) {
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
			.get('/candidates', ({ session, query, request }) => showCandidateList(deps, session, query, request), {
				session: { permission: 'candidates:read' },
				query: listQuery,
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
