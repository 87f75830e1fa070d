/**
 * `/candidates`: search (name, role, location, skills) first, then the filters (job, stage, work
 * authorization, those other modules add) and the order, the person's saved searches with Save this
 * search, the list (the name links to the profile, the stage as a tag; the main columns' headers
 * sort it) and previous/next paging. The rows are what `list_candidates`' service answers the person.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { actionNotice, html, portalPage, textOf, type SafeHtml } from '../../core/html.ts'
import { csrfField, dataTable, errorSummary, pageHeader, pager, selectField, tag, textField, when, type Column, type FieldError } from '../../core/ui.ts'
import type { SavedSearch } from '../saved-searches/index.ts'
import type { listCandidates } from './candidate-service.ts'
import {
	CANDIDATE_SORT_LABELS,
	CANDIDATE_SORTS,
	WORK_AUTHORIZATION_LABELS,
	WORK_AUTHORIZATIONS,
	type CandidateListFilter,
	type CandidateSort,
} from './list-query.ts'
import { stageTag } from './page-parts.ts'

type Row = Awaited<ReturnType<typeof listCandidates>>['candidates'][number]

/** The list's filters and order as the address holds them (`''`: not set). */
export interface CandidateListParams {
	q: string
	jobId: string
	stage: string
	/** One work authorization, or several joined by commas (`USC,GC`). */
	workAuthorization: string
	/** Contributed filters by key (e.g. `availability`). */
	more: Record<string, string>
	sort: string
}

/** The address of the list with these filters and order (the default order left out). */
export function candidateListAddress(p: CandidateListParams, extra: Record<string, string> = {}): string {
	const query = new URLSearchParams()
	if (p.q) query.set('q', p.q)
	for (const key of ['jobId', 'stage', 'workAuthorization'] as const) if (p[key]) query.set(key, p[key])
	for (const [key, value] of Object.entries(p.more)) if (value) query.set(key, value)
	if (p.sort && p.sort !== 'newest') query.set('sort', p.sort)
	for (const [key, value] of Object.entries(extra)) query.set(key, value)
	const s = query.toString()
	return s ? `/candidates?${s}` : '/candidates'
}

/** Work authorization choices: any, the common "citizen or green card", then each one. */
const WORK_AUTH_OPTIONS: [string, string][] = [
	['', 'Any'],
	['USC,GC', 'USC or GC'],
	...WORK_AUTHORIZATIONS.map((a) => [a, WORK_AUTHORIZATION_LABELS[a]] as [string, string]),
]

export interface CandidateListView extends CandidateListParams {
	/** Jobs to filter by: [id, label]. */
	jobs: readonly (readonly [string, string])[]
	/** The workspace's stages: [key, label]. */
	stages: readonly (readonly [string, string])[]
	/** Filters other modules add that the person may use. */
	moreFilters: readonly CandidateListFilter[]
	/** The person's saved searches of this list (null: their role keeps none). */
	saved: readonly SavedSearch[] | null
	/** Save this search: the name typed when it was refused, its problem, or that it was just saved. */
	save?: { name?: string; errors?: FieldError[]; done?: string }
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

/** A saved search's address on this list: its words and the filters this list knows. */
export function savedSearchAddress(s: Pick<SavedSearch, 'query' | 'filters'>, moreKeys: readonly string[]): string {
	const f = s.filters
	const more = Object.fromEntries(moreKeys.filter((k) => f[k]).map((k) => [k, f[k]!]))
	return candidateListAddress({
		q: s.query,
		jobId: f.jobId ?? '',
		stage: f.stage ?? '',
		workAuthorization: f.workAuthorization ?? '',
		more,
		sort: f.sort ?? '',
	})
}

/** The header of a sortable column: a link to the list in that column's order (the second press reverses it where it can). */
function sortBy(v: CandidateListView, column: 'name' | 'location' | 'added'): Column<Row>['sort'] {
	const sort = (v.sort || 'newest') as CandidateSort
	const to = (s: CandidateSort) => candidateListAddress({ ...v, sort: s })
	if (column === 'name')
		return { href: to(sort === 'name' ? 'name-desc' : 'name'), current: sort === 'name' ? 'ascending' : sort === 'name-desc' ? 'descending' : undefined }
	if (column === 'location') return { href: to('location'), current: sort === 'location' ? 'ascending' : undefined }
	return { href: to(sort === 'newest' ? 'oldest' : 'newest'), current: sort === 'newest' ? 'descending' : sort === 'oldest' ? 'ascending' : undefined }
}

function savedSearches(session: PageSession, v: CandidateListView, filtered: boolean): SafeHtml | '' {
	if (!v.saved) return ''
	const notice = v.save?.done ? actionNotice(v.save.done) : ''
	const keys = v.moreFilters.map((f) => f.key)
	const hidden = Object.entries({ q: v.q, jobId: v.jobId, stage: v.stage, workAuthorization: v.workAuthorization, ...v.more, sort: v.sort }).filter(
		([, value]) => value,
	)
	return html`<section class="card saved-searches" aria-labelledby="saved-h"><h2 id="saved-h">Saved searches</h2>
${v.saved.length ? html`<ul class="links">${v.saved.map((s) => html`<li><a href="${savedSearchAddress(s, keys)}">${s.name}</a></li>`)}</ul>` : html`<p class="empty">None yet: search or filter the list, then save it here to run it again with one click.</p>`}
${
	filtered || v.save?.errors?.length || notice
		? html`<form method="post" action="/candidates/saved-searches" class="filters" id="save-search">${csrfField(session)}${hidden.map(([k, value]) => html`<input type="hidden" name="${k}" value="${value}">`)}
${textField({ id: 'save-name', name: 'name', label: 'Name of this search', value: v.save?.name ?? '', errors: v.save?.errors, maxlength: 80 })}
<button type="submit">Save this search</button>${notice}</form>`
		: ''
}
<p class="meta"><a href="/saved-searches">Rename or delete saved searches</a></p></section>`
}

export function candidateListPage(deps: AppDeps, session: PageSession, v: CandidateListView): Response {
	const filtered = Boolean(v.q || v.jobId || v.stage || v.workAuthorization || Object.values(v.more).some(Boolean))
	const base = candidateListAddress(v)
	const errors = [...(v.errors ?? []), ...(v.save?.errors ?? [])]
	const empty = filtered
		? 'No candidates match this search. Try fewer or shorter words, other filters, or clear the search.'
		: v.onNoTeam
			? 'You are on no job’s hiring team yet: the applicants of the jobs whose team you join are listed here.'
			: v.limitedToTeam
				? 'No candidates yet: nobody has applied to the jobs on whose hiring team you are.'
				: 'No candidates yet. People who apply on the careers site, or whom a recruiter adds, are listed here.'
	const sort = (v.sort || 'newest') as CandidateSort
	return portalPage(
		deps,
		session,
		{ title: v.paged ? 'Candidates (more)' : 'Candidates', current: '/candidates', hasErrors: errors.length > 0, status: errors.length ? 422 : 200 },
		html`${errorSummary(errors)}
${pageHeader({ title: 'Candidates', meta: `${v.limitedToTeam ? 'The applicants of the jobs on whose hiring team you are. ' : ''}${CANDIDATE_SORT_LABELS[sort] ?? ''}.` })}
<form method="get" action="/candidates" class="filters card" role="search" aria-label="Candidates">
${textField({ id: 'q', label: 'Search', hint: 'Name, role, location or skills', value: v.q, errors: v.errors, maxlength: 120, type: 'search' })}
${selectField({ id: 'jobId', label: 'Job', value: v.jobId, options: [['', 'All jobs'], ...v.jobs], errors: v.errors })}
${selectField({ id: 'stage', label: 'Stage', value: v.stage, options: [['', 'Any stage'], ...v.stages], errors: v.errors })}
${selectField({ id: 'workAuthorization', label: 'Work authorization', value: v.workAuthorization, options: WORK_AUTH_OPTIONS, errors: v.errors })}
${v.moreFilters.map((f) => selectField({ id: f.key, label: f.label, value: v.more[f.key] ?? '', options: [['', 'Any'], ...f.options], errors: v.errors }))}
${selectField({ id: 'sort', label: 'Sort', value: sort, options: CANDIDATE_SORTS.map((s) => [s, CANDIDATE_SORT_LABELS[s]] as const), errors: v.errors })}
<button type="submit">Search</button>${filtered || sort !== 'newest' ? html` <a href="/candidates">Clear the search</a>` : ''}
</form>
${savedSearches(session, v, filtered || sort !== 'newest')}
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
						sort: sortBy(v, 'name'),
						cell: (c) => html`<a href="/candidates/${c.id}">${c.name}</a>${c.headline ? html`<br><span class="meta">${c.headline}</span>` : ''}`,
					},
					{ label: 'Location', sort: sortBy(v, 'location'), cell: (c) => c.location ?? '—' },
					{
						label: 'Skills',
						cell: (c) =>
							c.skills.length
								? `${c.skills.slice(0, SKILLS_SHOWN).map(textOf).join(', ')}${c.skills.length > SKILLS_SHOWN ? ` and ${c.skills.length - SKILLS_SHOWN} more` : ''}`
								: '—',
					},
					{ label: v.jobId || v.stage ? 'Job' : 'Latest job', cell: (c) => (c.application ? c.application.job.title : '—') },
					{ label: 'Applications', numeric: true, cell: (c) => c.applicationCount },
					{ label: 'Stage', cell: (c) => (c.application ? stageTag(c.application) : tag('No application')) },
					{ label: 'Added', sort: sortBy(v, 'added'), cell: (c) => when(c.createdAt, { time: false }) },
				],
			})}
${bulkOn(v) ? html`<fieldset class="bulk-actions"><legend>With the selected candidates</legend>${v.bulkActions}</fieldset>` : ''}
${pager({ base, next: v.next, first: !v.paged })}</section>`
}`,
	)
}
