/**
 * `/candidates`: search (name, role, location, skills) first, then the job filter, the list (the
 * name links to the profile, the stage as a tag at the row's end) and previous/next paging. The
 * rows are exactly what `list_candidates` answers the person.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage, textOf, type SafeHtml } from '../../core/html.ts'
import { dataTable, errorSummary, pageHeader, pager, selectField, tag, textField, type FieldError } from '../../core/ui.ts'
import type { listCandidates } from './candidate-service.ts'
import { stageTag } from './page-parts.ts'

type Row = Awaited<ReturnType<typeof listCandidates>>['candidates'][number]

export interface CandidateListView {
	q: string
	jobId: string
	/** Jobs to filter by: [id, label]. */
	jobs: readonly (readonly [string, string])[]
	rows: Row[]
	next: string | null
	/** True when this is not the first page. */
	paged: boolean
	/** Hiring managers see only their jobs' applicants: the page says so (and when they are on no job's team). */
	limitedToTeam: boolean
	onNoTeam?: boolean
	errors?: FieldError[]
	/**
	 * Bulk actions other modules contribute to this list (page sections of page `candidates-list`,
	 * e.g. the bench's Add to bench): each renders its controls with a `formaction` of its own.
	 */
	bulkActions?: readonly SafeHtml[]
}

const SKILLS_SHOWN = 6

const bulkOn = (v: CandidateListView) => Boolean(v.bulkActions?.length && v.rows.length)
/**
 * The bulk form (its fields sit in the table and the actions below it, joined by `form=`): one POST
 * to the chosen action's address, then that action's report.
 */
const bulkOpen = (session: PageSession, v: CandidateListView, back: string) =>
	bulkOn(v)
		? html`<form method="post" id="bulk-candidates" action="/candidates" data-bulk><input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="back" value="${back}"><p hidden data-needs-script><label class="check"><input type="checkbox" data-select-all="candidate" data-select-form="bulk-candidates"> Select all on this page</label></p></form>`
		: ''

export function candidateListPage(deps: AppDeps, session: PageSession, v: CandidateListView): Response {
	const filtered = Boolean(v.q || v.jobId)
	const base = `/candidates${filtered ? `?${new URLSearchParams({ ...(v.q ? { q: v.q } : {}), ...(v.jobId ? { jobId: v.jobId } : {}) })}` : ''}`
	const empty = filtered
		? 'No candidates match this search. Try fewer or shorter words, another job, or clear the search.'
		: v.onNoTeam
			? 'You are on no job’s hiring team yet: the applicants of the jobs whose team you join are listed here.'
			: v.limitedToTeam
				? 'No candidates yet: nobody has applied to the jobs on whose hiring team you are.'
				: 'No candidates yet. People who apply on the careers site, or whom a recruiter adds, are listed here.'
	return portalPage(
		deps,
		session,
		{ title: v.paged ? 'Candidates (more)' : 'Candidates', current: '/candidates', hasErrors: Boolean(v.errors?.length), status: v.errors?.length ? 422 : 200 },
		html`${errorSummary(v.errors)}
${pageHeader({ title: 'Candidates', meta: v.limitedToTeam ? 'The applicants of the jobs on whose hiring team you are.' : 'Newest first.' })}
<form method="get" action="/candidates" class="filters card" role="search" aria-label="Candidates">
${textField({ id: 'q', label: 'Search', hint: 'Name, role, location or skills', value: v.q, errors: v.errors, maxlength: 120, type: 'search' })}
${selectField({ id: 'jobId', label: 'Job', value: v.jobId, options: [['', 'All jobs'], ...v.jobs], errors: v.errors })}
<button type="submit">Search</button>${filtered ? html` <a href="/candidates">Clear the search</a>` : ''}
</form>
${
	v.errors?.length
		? ''
		: html`<section class="card results">${bulkOpen(session, v, base)}${dataTable<Row>({
				caption: filtered ? 'Candidates matching the search' : 'Candidates',
				hideCaption: true,
				rows: v.rows,
				empty,
				columns: [
					...(bulkOn(v)
						? [
								{
									label: 'Select',
									cell: (c: Row) =>
										html`<span class="pick"><input type="checkbox" name="candidate" value="${c.id}" id="pick-${c.id}" form="bulk-candidates"><label for="pick-${c.id}" class="visually-hidden">Select ${c.name}</label></span>`,
								},
							]
						: []),
					{
						label: 'Candidate',
						cell: (c) => html`<a href="/candidates/${c.id}">${c.name}</a>${c.headline ? html`<br><span class="meta">${c.headline}</span>` : ''}`,
					},
					{ label: 'Location', cell: (c) => c.location ?? '—' },
					{
						label: 'Skills',
						cell: (c) =>
							c.skills.length
								? `${c.skills.slice(0, SKILLS_SHOWN).map(textOf).join(', ')}${c.skills.length > SKILLS_SHOWN ? ` and ${c.skills.length - SKILLS_SHOWN} more` : ''}`
								: '—',
					},
					{ label: v.jobId ? 'Job' : 'Latest job', cell: (c) => (c.application ? c.application.job.title : '—') },
					{ label: 'Applications', numeric: true, cell: (c) => c.applicationCount },
					{ label: 'Stage', cell: (c) => (c.application ? stageTag(c.application) : tag('No application')) },
				],
			})}
${bulkOn(v) ? html`<fieldset class="bulk-actions"><legend>With the selected candidates</legend>${v.bulkActions}</fieldset>` : ''}
${pager({ base, next: v.next, first: !v.paged })}</section>`
}`,
	)
}
