/**
 * Portal pages of the jobs module: the jobs list, the New job form and a job's page. They show
 * what the job services return (`list_jobs`, `get_job`); the pipeline, applicants, leads and bench
 * ranking are sections other modules add to the job's page (`pageSections`, page `job`).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { FieldError } from '../../core/errors.ts'
import { actionNotice, html, portalPage, textOf, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import {
	actionButton,
	csrfField,
	dataTable,
	errorSummary,
	facts,
	pageHeader,
	pager,
	plural,
	selectField,
	tag,
	textField,
	when,
	type Column,
	type Tone,
} from '../../core/ui.ts'
import { jobForm, type JobFormValues } from './job-form.ts'
import { payRangeLaw } from './pay-transparency.ts'
import { JOB_STATUSES, type JobStatus } from './model.ts'
import { ACTIVELY_HIRING, JOB_SORT_LABELS, JOB_SORTS, type JobDetail, type JobSort, type JobSummary } from './service.ts'
import type { UntrustedText } from '../../core/untrusted.ts'

const STATUS_TONE: Record<JobStatus, Tone> = { Open: 'good', Draft: 'info', Closed: 'neutral' }
export const statusTag = (status: JobStatus) => tag(status, STATUS_TONE[status])
const hiringTag = (job: Pick<JobSummary, 'activelyHiring'>) => (job.activelyHiring ? tag('Actively hiring', 'warn') : '')

/** The people who see applicants (the candidate tools' permission): counts link to them. */
const seesApplicants = (deps: AppDeps, session: PageSession) => deps.permissions.can(session.actor, 'candidates:read')

export interface JobsListView {
	jobs: JobSummary[]
	nextCursor: string | null
	/** The filters and the order as typed. */
	filters: { q: string; status: string; vendor: string; location: string; sort: string }
	/** The vendors of the person's jobs, for the vendor filter. */
	vendors: { id: string; name: UntrustedText }[]
	/** True on a later page (the pager then offers the first one). */
	paged: boolean
	errors: FieldError[]
}

const listAddress = (f: JobsListView['filters']) => {
	const query = new URLSearchParams()
	if (f.q.trim()) query.set('q', f.q.trim())
	if (f.status) query.set('status', f.status)
	if (f.vendor) query.set('vendor', f.vendor)
	if (f.location.trim()) query.set('location', f.location.trim())
	if (f.sort && f.sort !== 'newest') query.set('sort', f.sort)
	const s = query.toString()
	return s ? `/jobs?${s}` : '/jobs'
}

/** A sortable column's header: a link to the list in its order (pressed again, reversed where it can be), and the order it is in. */
function sortBy(f: JobsListView['filters'], column: 'title' | 'location' | 'created'): Column<JobSummary>['sort'] {
	const sort = (f.sort || 'newest') as JobSort
	const to = (s: JobSort) => listAddress({ ...f, sort: s })
	if (column === 'title')
		return { href: to(sort === 'title' ? 'title-desc' : 'title'), current: sort === 'title' ? 'ascending' : sort === 'title-desc' ? 'descending' : undefined }
	if (column === 'location') return { href: to('location'), current: sort === 'location' ? 'ascending' : undefined }
	return { href: to(sort === 'newest' ? 'oldest' : 'newest'), current: sort === 'newest' ? 'descending' : sort === 'oldest' ? 'ascending' : undefined }
}

function listCaption(f: JobsListView['filters']): string {
	const which = JOB_STATUSES.includes(f.status as JobStatus) ? `${f.status} jobs` : 'Jobs'
	return f.q.trim() ? `${which} with “${f.q.trim()}” in the title` : which
}

export function jobsListPage(deps: AppDeps, session: PageSession, view: JobsListView): Response {
	const { filters } = view
	const mayCreate = deps.permissions.can(session.actor, 'jobs:create')
	const filtered = Boolean(filters.q.trim() || filters.status || filters.vendor || filters.location.trim())
	const sort = (JOB_SORTS as readonly string[]).includes(filters.sort) ? (filters.sort as JobSort) : 'newest'
	const applicantsLinked = seesApplicants(deps, session)
	const empty = filtered
		? 'No jobs match these filters. Change the filters or clear them.'
		: session.actor.role === 'hiring_manager'
			? 'You are on no job’s hiring team yet. Jobs you create, or whose team you join, are listed here.'
			: mayCreate
				? 'There are no jobs yet. Create one with New job, or let a vendor publish one.'
				: 'There are no jobs yet.'
	const table = dataTable<JobSummary>({
		caption: listCaption(filters),
		rows: view.jobs,
		empty,
		columns: [
			{
				label: 'Job',
				sort: sortBy(filters, 'title'),
				cell: (j) =>
					html`<a href="/jobs/${j.id}">${j.title}</a><span class="meta block">${[textOf(j.department), j.vendor?.name].filter(Boolean).join(' · ')}</span>`,
			},
			{ label: 'Location', sort: sortBy(filters, 'location'), cell: (j) => j.location ?? '—' },
			{
				label: 'Applicants',
				numeric: true,
				cell: (j) =>
					applicantsLinked && j.applicantCount
						? html`<a href="/jobs/${j.id}#applicants">${j.applicantCount.toLocaleString('en-US')}</a>`
						: j.applicantCount.toLocaleString('en-US'),
			},
			{ label: 'Created', sort: sortBy(filters, 'created'), cell: (j) => when(j.createdAt, { time: false }) },
			{ label: 'Status', cell: (j) => html`<span class="tags">${statusTag(j.status)} ${hiringTag(j)}</span>` },
		],
	})
	return portalPage(
		deps,
		session,
		{ title: 'Jobs', current: '/jobs', hasErrors: view.errors.length > 0, status: view.errors.length ? 422 : 200 },
		html`${errorSummary(view.errors)}
${pageHeader({ title: 'Jobs', meta: `${JOB_SORT_LABELS[sort]}.`, actions: mayCreate ? html`<a class="button" href="/jobs/new">New job</a>` : '' })}
<form method="get" action="/jobs" class="filters card" role="search" aria-label="Filter jobs">
${textField({ id: 'q', label: 'Title contains', value: filters.q, errors: view.errors, maxlength: 120, type: 'search' })}
${selectField({ id: 'status', label: 'Status', value: filters.status, errors: view.errors, options: [['', 'Any status'], ...JOB_STATUSES.map((s) => [s, s] as const)] })}
${selectField({ id: 'vendor', label: 'Vendor', value: filters.vendor, errors: view.errors, options: [['', 'Any vendor'], ...view.vendors.map((v) => [v.id, textOf(v.name)] as const)] })}
${textField({ id: 'location', label: 'Location contains', value: filters.location, errors: view.errors, maxlength: 200 })}
${selectField({ id: 'sort', label: 'Sort', value: sort, errors: view.errors, options: JOB_SORTS.map((s) => [s, JOB_SORT_LABELS[s]] as const) })}
<button type="submit">Show jobs</button>${filtered || sort !== 'newest' ? html` <a href="/jobs">Clear filters</a>` : ''}
</form>
<section class="card" id="results" aria-label="Results">
${table}
${pager({ base: listAddress(filters), next: view.nextCursor, first: !view.paged })}
</section>`,
	)
}

export function newJobPage(deps: AppDeps, session: PageSession, values: JobFormValues, errors: FieldError[]): Response {
	return portalPage(
		deps,
		session,
		{ title: 'New job', current: '/jobs', hasErrors: errors.length > 0, status: errors.length ? 422 : 200 },
		html`${errorSummary(errors)}
${pageHeader({ crumbs: [['/jobs', 'Jobs']], title: 'New job' })}
<section class="card">${jobForm(deps, session, values, errors)}</section>`,
	)
}

/** The status changes offered for a job in a status, with their button names (the issue's contract). */
const STATUS_ACTIONS: Record<JobStatus, readonly (readonly [JobStatus, string])[]> = {
	Draft: [
		['Open', 'Publish'],
		['Closed', 'Close'],
	],
	Open: [
		['Closed', 'Close'],
		['Draft', 'Move to draft'],
	],
	Closed: [
		['Open', 'Publish'],
		['Draft', 'Move to draft'],
	],
}

function jobActions(deps: AppDeps, session: PageSession, job: JobDetail): SafeHtml[] {
	const out: SafeHtml[] = []
	if (deps.permissions.can(session.actor, 'jobs:set_status'))
		for (const [status, label] of STATUS_ACTIONS[job.status])
			out.push(actionButton({ session, action: `/jobs/${job.id}/status`, label, style: status === 'Open' ? 'primary' : 'secondary', fields: { status } }))
	if (deps.permissions.can(session.actor, ACTIVELY_HIRING))
		out.push(
			// A toggle button: its name stays "Actively hiring", its pressed state says on or off.
			html`<form method="post" action="/jobs/${job.id}/actively-hiring" class="inline">${csrfField(session)}<input type="hidden" name="activelyHiring" value="${job.activelyHiring ? 'off' : 'on'}"><button type="submit" class="secondary toggle" aria-pressed="${job.activelyHiring ? 'true' : 'false'}">Actively hiring</button></form>`,
		)
	return out
}

const money = (n: number) => n.toLocaleString('en-US')
function salary(job: JobDetail): string | null {
	if (job.salaryMin !== null && job.salaryMax !== null) return `${money(job.salaryMin)} – ${money(job.salaryMax)}`
	if (job.salaryMin !== null) return `from ${money(job.salaryMin)}`
	if (job.salaryMax !== null) return `up to ${money(job.salaryMax)}`
	return null
}

/** A job that must show a pay range by law and has none is flagged where its salary would be. */
function payRangeFlag(job: JobDetail): SafeHtml | null {
	const law = payRangeLaw({ ...job, location: job.location === null ? null : textOf(job.location) })
	return law ? html`${tag('No pay range', 'warn')} <span class="meta">${law}</span>` : null
}

function jobFacts(deps: AppDeps, session: PageSession, job: JobDetail): SafeHtml {
	const applicants = seesApplicants(deps, session)
		? html`<a href="#applicants">${job.applicantCount.toLocaleString('en-US')}</a>`
		: job.applicantCount.toLocaleString('en-US')
	return facts(
		[
			['Actively hiring', job.activelyHiring ? 'Yes' : 'No'],
			['Applicants', applicants],
			['Department', job.department],
			['Location', job.location],
			['Schedule', job.schedule],
			['Contract type', job.contractType],
			['Engagement', job.employment],
			['Salary', salary(job) ?? payRangeFlag(job)],
			['Minimum experience', job.minYears === null ? null : plural(job.minYears, 'year')],
			['Work authorization', job.visa],
			['Interview', job.interview],
			['Vendor', job.vendor ? html`${job.vendor.name}${job.vendorJobId ? html` <span class="meta">(${job.vendorJobId})</span>` : ''}` : null],
			['Created', when(job.createdAt)],
			['Published', job.publishedAt ? when(job.publishedAt) : null],
			...(job.closedAt ? ([['Closed', when(job.closedAt)]] as const) : []),
			['Careers page', job.url ? html`<a href="${job.url}">View on the careers site</a>` : 'Not public (only Open jobs are)'],
		],
		{ skipEmpty: true },
	)
}

const bullets = (items: readonly unknown[], empty: string) =>
	items.length ? html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>` : html`<p class="empty">${empty}</p>`
const TEAM_ROLE: Record<string, string> = { recruiter: 'Recruiter', hiring_manager: 'Hiring manager' }
const QUESTION_KIND: Record<string, string> = { yes_no: 'yes or no', text: 'written answer' }

/** What the hiring team section shows someone who may change the team (`CHANGE_TEAM`). */
export interface TeamChanges {
	/** The workspace's hiring managers not on the team: the choices of Add to the team. */
	offTeam: { userId: string; name: string }[]
	/** The confirmation of a change just made (`?done=team-…`). */
	notice?: string
	/** A refused Add to the team, on its field (`team-add`). */
	errors?: FieldError[]
}

/** Add a hiring manager (a choice among those off the team), or why there is nobody to add. */
function addToTeam(deps: AppDeps, session: PageSession, job: JobDetail, team: TeamChanges): SafeHtml {
	if (!team.offTeam.length && !team.errors?.length) {
		const people = deps.permissions.can(session.actor, 'auth:manage_people') ? html`<a href="/people">People</a>` : 'People'
		return html`<p class="meta">No other hiring manager in this workspace to add: a person is given that role on ${people}.</p>`
	}
	return html`<form method="post" action="/jobs/${job.id}/team" class="team-add" novalidate>${csrfField(session)}
${selectField({ id: 'team-add', name: 'userId', label: 'Add a hiring manager', hint: 'A hiring manager sees only the jobs on whose team they are, and those jobs’ applicants.', value: '', errors: team.errors, options: [['', 'Choose a hiring manager'], ...team.offTeam.map((p) => [p.userId, p.name] as const)] })}
<button type="submit" class="secondary">Add to the team</button></form>`
}

/** The hiring team; with `team`, a Take off button on each person and the form that adds a hiring manager. */
function teamSection(deps: AppDeps, session: PageSession, job: JobDetail, team?: TeamChanges): SafeHtml {
	const takeOff = (m: JobDetail['hiringTeam'][number]) =>
		html` <form method="post" action="/jobs/${job.id}/team/${m.userId}/remove" class="inline" data-confirm="Take ${textOf(m.name)} off the hiring team? A hiring manager then no longer sees this job or its applicants.">${csrfField(session)}<button type="submit" class="secondary" aria-label="Take off the team: ${textOf(m.name)}">Take off the team</button></form>`
	return html`<section class="card" id="team" aria-labelledby="team-h"><h2 id="team-h">Hiring team</h2>
${team?.notice ? actionNotice(team.notice) : ''}
${
	job.hiringTeam.length
		? html`<ul class="team">${job.hiringTeam.map((m) => html`<li><span>${m.name} <span class="meta">· ${TEAM_ROLE[m.teamRole] ?? m.teamRole}</span></span>${team ? takeOff(m) : ''}</li>`)}</ul>`
		: html`<p class="empty">Nobody is on the hiring team yet.</p>`
}
${team ? addToTeam(deps, session, job, team) : ''}`
}

function jobDetails(deps: AppDeps, session: PageSession, job: JobDetail, team?: TeamChanges): SafeHtml {
	return html`<section class="card" aria-labelledby="description-h"><h2 id="description-h">Description</h2>
${job.summary ? html`<p class="summary lines">${job.summary}</p>` : ''}
${job.description ? html`<div class="prose">${job.description}</div>` : html`<p class="empty">No description yet.</p>`}
</section>
<div class="grid-2">
<section class="card" aria-labelledby="requirements-h"><h2 id="requirements-h">Requirements</h2>
<h3>Must-haves</h3>${bullets(job.requirements, 'None listed: the résumé check has nothing to check applicants against.')}
<h3>Nice-to-haves</h3>${bullets(job.niceToHave, 'None listed.')}
</section>
${teamSection(deps, session, job, team)}
<h3>Screening questions</h3>
${job.screeningQuestions.length ? html`<ol>${job.screeningQuestions.map((q) => html`<li>${q.prompt} <span class="meta">(${QUESTION_KIND[q.kind] ?? q.kind}${q.required ? ', required' : ''})</span></li>`)}</ol>` : html`<p class="empty">No screening questions: applicants only send their résumé.</p>`}
</section>
</div>`
}

export interface JobPageView {
	job: JobDetail
	/** What the sections of other modules rendered (pipeline, applicants, leads, bench). */
	sections: SafeHtml[]
	notice?: string
	/** On a list view (`?stage=`, `?list=`): the list's name, and what went wrong with its address. */
	list?: { label: string; problem?: string; link?: { href: string; text: string } }
	/** For those who may change the hiring team: its choices, confirmation and refusal. */
	team?: TeamChanges
}

export function jobPage(deps: AppDeps, session: PageSession, view: JobPageView): Response {
	const { job, list } = view
	const header = pageHeader({
		crumbs: list
			? [
					['/jobs', 'Jobs'],
					[`/jobs/${job.id}`, textOf(job.title)],
				]
			: [['/jobs', 'Jobs']],
		title: job.title,
		meta: html`<span class="tags">${statusTag(job.status)} ${hiringTag(job)}</span> ${[textOf(job.department), job.location, job.vendor?.name].filter(Boolean).join(' · ')}`,
		actions: list ? '' : jobActions(deps, session, job),
	})
	if (list) {
		const problem = list.problem
			? html`<div class="error-summary" role="alert" tabindex="-1" data-autofocus><h2>There is a problem</h2><p>${list.problem}</p>${list.link ? html`<p><a href="${list.link.href}">${list.link.text}</a></p>` : ''}</div>`
			: ''
		return portalPage(
			deps,
			session,
			{ title: `${list.label} · ${textOf(job.title)}`, current: '/jobs', hasErrors: Boolean(list.problem), status: list.problem ? 422 : 200 },
			html`${problem}${header}${view.sections}`,
		)
	}
	const hidden = seesApplicants(deps, session) ? '' : html`<p class="meta">Applicants and the pipeline are not shown for your role.</p>`
	const errors = view.team?.errors ?? []
	return portalPage(
		deps,
		session,
		{ title: textOf(job.title), current: '/jobs', hasErrors: errors.length > 0, status: errors.length ? 422 : 200 },
		html`${errorSummary(errors)}${header}${view.notice ? actionNotice(view.notice) : ''}
<section class="card job-facts" aria-label="Facts">${jobFacts(deps, session, job)}${hidden}</section>
${jobDetails(deps, session, job, view.team)}
${view.sections}`,
	)
}
