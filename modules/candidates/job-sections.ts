/**
 * What the candidates module adds to a job's page (`/jobs/<id>`, page `job`): the pipeline, the
 * applicants and the leads ranked by the résumé check. On the main view each shows its first few;
 * on a list view (`?stage=<key>`, `?list=closed|archived|applicants|leads`) the one asked for shows
 * in full, paged. Shown to roles with the application tools' permission, through the same services
 * (`list_applications`, `get_job_applicants`), so hiring managers see only their jobs' applicants
 * and nobody sees contact details here.
 */
import type { AppDeps } from '../../core/deps.ts'
import { html, pageSections, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { PageQuery, PageSection } from '../../core/module.ts'
import { csrfField, dataTable, daysSince, pager, plural, tag, when, type Column } from '../../core/ui.ts'
import { getJobApplicants } from './application-service.ts'
import { jobPipeline, jobPipelineList, type PipelineCard } from './pipeline.ts'
import type { ApplicationState } from './progress.ts'
import { REJECT_REASONS } from './bulk.ts'
import { MOVE_PERMISSION } from './stage-move.ts'
import { stagesOf } from './stages.ts'
import { ownEntry } from '../../core/own-entry.ts'

/** Cards per stage column on the job's main view. */
const CARDS_PER_STAGE = 5
/** Ranked applicants or leads on the main view. */
const RANKED_ON_JOB = 10
const PER_PAGE = 25

/** Main view: no list asked for. */
const mainView = (q: PageQuery) => q.stage === undefined && q.list === undefined

interface VendorSubmissionView {
	delivery: 'sent' | 'queued' | 'failed'
	submittedAt: string
	vendor: { name: string }
}
const submissionOf = (a: { vendorSubmission?: unknown }) => (a.vendorSubmission ?? null) as VendorSubmissionView | null

/** The vendor-submission status in words: a tag, and to whom and when. */
function submissionStatus(a: { vendorSubmission?: unknown }, compact = false): SafeHtml | string {
	const s = submissionOf(a)
	if (!s) return compact ? '' : 'Not submitted'
	const state =
		s.delivery === 'sent' ? tag('Submitted', 'good') : s.delivery === 'queued' ? tag('Submission sending', 'info') : tag('Submission not delivered', 'bad')
	if (compact) return html`${state} <span class="meta">to ${s.vendor.name}</span>`
	return html`${state} <span class="meta">to ${s.vendor.name}, ${when(s.submittedAt, { time: false })}</span>`
}

const SHORTLIST: Record<string, [string, 'good' | 'bad']> = { shortlisted: ['Shortlisted', 'good'], declined: ['Declined', 'bad'] }
const shortlistTag = (shortlist: string, empty = '') => (SHORTLIST[shortlist] ? tag(SHORTLIST[shortlist]![0], SHORTLIST[shortlist]![1]) : empty)

const score = (value: number | null) => (value === null ? 'Not checked yet' : `${value}`)
const inStage = (a: PipelineCard) => {
	const days = daysSince(a.stageChangedAt)
	return days === 'today' ? 'entered today' : `${days} in stage`
}

const OUTCOME: Record<string, [string, 'good' | 'bad' | 'neutral']> = {
	hired: ['Hired', 'good'],
	rejected: ['Rejected', 'bad'],
	withdrawn: ['Withdrawn', 'neutral'],
}
function statusTags(a: PipelineCard): SafeHtml {
	const outcome = a.outcome ? (OUTCOME[a.outcome] ?? [a.outcome, 'neutral' as const]) : (['In progress', 'info'] as const)
	return html`<span class="tags">${tag(outcome[0], outcome[1])}${a.archived ? html` ${tag('Archived')}` : ''}${a.kind === 'lead' ? html` ${tag('Lead', 'info')}` : ''}</span>`
}

const candidateLink = (applicationId: string, name: unknown) => html`<a href="/applications/${applicationId}">${name}</a>`

/**
 * A card's Move menu: the workspace's stages in a select and a button, inside a <details> so the
 * board stays compact. Without script it posts the application page's Move to stage form and comes
 * back to the board (Post/Redirect/Get); with script (app.js, `data-quick-move`) it asks for JSON,
 * moves the card between columns and says what happened in the board's live region. On a desktop
 * the script also lets the card be dragged to another column, which posts this same form (the
 * hint `data-drag-hint` is shown only there); the menu stays the keyboard and touch way.
 */
function moveMenu(session: PageSession, a: PipelineCard, jobId: string, stages: readonly { key: string; label: string }[]): SafeHtml {
	const id = `move-${a.id}`
	return html`<details class="move"><summary>Move<span class="visually-hidden"> ${a.candidate.name}</span></summary>
<form method="post" action="/applications/${a.id}/stage" data-quick-move>${csrfField(session)}<input type="hidden" name="back" value="/jobs/${jobId}">
<label for="${id}">Stage for ${a.candidate.name}</label>
<select id="${id}" name="stageKey">${stages.map((s) => html`<option value="${s.key}"${s.key === a.stageKey ? ' selected' : ''}>${s.label}</option>`)}</select>
<button type="submit" class="secondary">Move<span class="visually-hidden"> ${a.candidate.name}</span></button></form></details>`
}

function card(a: PipelineCard, move: SafeHtml | ''): SafeHtml {
	const tags = [a.kind === 'lead' ? tag('Lead', 'info') : '', shortlistTag(a.shortlist), submissionStatus(a, true)].filter(Boolean)
	return html`<li data-application="${a.id}">${candidateLink(a.id, a.candidate.name)}
<span class="meta block">Résumé check: ${score(a.resumeScore)} · <span data-in-stage>${inStage(a)}</span></span>${tags.length ? html`<span class="tags">${tags}</span>` : ''}${move}</li>`
}

async function pipelineBoard(deps: AppDeps, session: PageSession, jobId: string, notice?: SafeHtml): Promise<SafeHtml> {
	const p = await jobPipeline(deps, session.actor, jobId, CARDS_PER_STAGE)
	const inRunning = p.stages.reduce((n, s) => n + s.count, 0)
	const stageLink = (key: string) => `/jobs/${jobId}?stage=${encodeURIComponent(key)}`
	const mayMove = deps.permissions.can(session.actor, MOVE_PERMISSION)
	const cardOf = (a: PipelineCard) => card(a, mayMove ? moveMenu(session, a, jobId, p.stages) : '')
	const columns = p.stages.map(
		(
			s,
		) => html`<section class="stage" aria-labelledby="stage-${s.key}" data-stage="${s.key}"><h3 id="stage-${s.key}"><a href="${stageLink(s.key)}"><span>${s.label}</span> <span class="count" data-count>${s.count.toLocaleString('en-US')}</span></a></h3>
<ol>${s.applications.map(cardOf)}</ol><p class="empty"${s.applications.length ? ' hidden' : ''}>Nobody at this stage.</p>
${s.count > s.applications.length ? html`<p class="see-all"><a href="${stageLink(s.key)}">See all ${s.count.toLocaleString('en-US')}<span class="visually-hidden"> at ${s.label}</span></a></p>` : ''}</section>`,
	)
	const apart = [
		p.closed
			? html`<a href="/jobs/${jobId}?list=closed">${plural(p.closed, 'rejected or withdrawn application', 'rejected or withdrawn applications')}</a>`
			: '',
		p.archived ? html`<a href="/jobs/${jobId}?list=archived">${plural(p.archived, 'archived application')}</a>` : '',
	].filter(Boolean)
	return html`<section class="card" id="pipeline" aria-labelledby="pipeline-h"><h2 id="pipeline-h">Pipeline</h2>${notice ?? ''}
<p class="meta">${inRunning ? `${plural(inRunning, 'application')} in the running, newest first in each stage.` : 'No applications in the running yet.'}${apart.length ? html` Not in the columns: ${apart.map((a, i) => html`${i ? ' · ' : ''}${a}`)}.` : ''}</p>
${mayMove && inRunning ? html`<p class="meta" data-drag-hint hidden>Drag a card to another column to move it, or use its Move menu.</p>` : ''}
<p class="meta" role="status" id="pipeline-status" data-pipeline-status></p>
<div class="pipeline">${columns}</div></section>`
}

const LIST_STATE: Record<string, ApplicationState> = { closed: 'closed', archived: 'archived' }
const LIST_HEADING: Record<ApplicationState, string> = { active: '', closed: 'Rejected or withdrawn', archived: 'Archived applications' }

async function pipelineList(deps: AppDeps, session: PageSession, jobId: string, q: PageQuery): Promise<SafeHtml> {
	const state: ApplicationState = q.stage !== undefined ? 'active' : ownEntry(LIST_STATE, q.list!)!
	const list = await jobPipelineList(deps, session.actor, { jobId, stageKey: q.stage, state, limit: PER_PAGE, cursor: q.cursor })
	const heading = list.stage ? list.stage.label : LIST_HEADING[state]
	const base = list.stage ? `/jobs/${jobId}?stage=${encodeURIComponent(list.stage.key)}` : `/jobs/${jobId}?list=${q.list}`
	const columns: Column<PipelineCard>[] = [
		{
			label: 'Candidate',
			cell: (a) => html`${candidateLink(a.id, a.candidate.name)}${a.candidate.headline ? html`<span class="meta block">${a.candidate.headline}</span>` : ''}`,
		},
		...(list.stage ? [] : [{ label: 'Stage', cell: (a: PipelineCard) => a.stageLabel }]),
		{ label: 'Résumé check', numeric: true, cell: (a) => score(a.resumeScore) },
		{ label: 'In stage', cell: (a) => daysSince(a.stageChangedAt) },
		{ label: 'Shortlist', cell: (a) => shortlistTag(a.shortlist, '—') },
		{ label: 'Vendor submission', cell: (a) => submissionStatus(a) },
		{ label: 'Applied', cell: (a) => when(a.createdAt, { time: false }) },
		{ label: 'Status', cell: statusTags },
	]
	const what = state === 'active' ? 'in the running at this stage' : state === 'closed' ? 'rejected or withdrawn' : 'archived'
	// A stage's list offers bulk actions to people who may move applications (issue 31).
	const bulk = list.stage !== null && list.applications.length > 0 && deps.permissions.can(session.actor, MOVE_PERMISSION)
	if (bulk)
		columns.unshift({
			label: 'Select',
			cell: (a) =>
				html`<span class="pick"><input type="checkbox" name="application" value="${a.id}" id="pick-${a.id}"><label for="pick-${a.id}" class="visually-hidden">Select ${a.candidate.name}</label></span>`,
		})
	const table = dataTable({
		caption: `${heading}: newest first`,
		hideCaption: true,
		columns,
		rows: list.applications,
		empty: q.cursor ? 'No more applications.' : `No applications ${what}.`,
	})
	return html`<section class="card" id="list" aria-labelledby="list-h"><h2 id="list-h">${heading} <span class="meta">· ${plural(list.total, 'application')}</span></h2>
<p><a href="/jobs/${jobId}#pipeline">Back to the pipeline</a></p>
${bulk ? await bulkForm(deps, session, table, `${base}${q.cursor ? `&cursor=${encodeURIComponent(q.cursor)}` : ''}`) : table}
${pager({ base, next: list.nextCursor, first: !q.cursor })}</section>`
}

/**
 * The stage list as a bulk form: a checkbox per row, Select all on this page (with script), then
 * Move to stage and Reject (with a reason) for the ticked ones; one POST, then the report.
 */
async function bulkForm(deps: AppDeps, session: PageSession, table: SafeHtml, back: string): Promise<SafeHtml> {
	const stages = await stagesOf(deps, session.actor.workspaceId)
	return html`<form method="post" action="/applications/bulk" class="bulk" data-bulk>${csrfField(session)}<input type="hidden" name="back" value="${back}">
<p hidden data-needs-script><label class="check"><input type="checkbox" data-select-all="application"> Select all on this page</label></p>
${table}
<fieldset class="bulk-actions"><legend>With the selected applications</legend>
<div class="bulk-row"><label for="bulk-stage">Stage</label><select id="bulk-stage" name="stageKey">${stages.map((s) => html`<option value="${s.key}">${s.label}</option>`)}</select><button type="submit" name="action" value="move">Move to stage</button></div>
<div class="bulk-row"><label for="bulk-reason">Reason</label><select id="bulk-reason" name="reason">${Object.entries(REJECT_REASONS).map(([k, v]) => html`<option value="${k}">${v}</option>`)}</select><button type="submit" name="action" value="reject" class="danger">Reject</button></div>
${await pageSections(deps, 'job-stage-bulk', session, '')}
</fieldset></form>`
}

type Ranked = Awaited<ReturnType<typeof getJobApplicants>>['applicants'][number]

async function rankedSection(deps: AppDeps, session: PageSession, jobId: string, list: 'applicants' | 'leads', q: PageQuery): Promise<SafeHtml> {
	const full = q.list === list
	const ranked = await getJobApplicants(deps, session.actor, { jobId, list, limit: full ? PER_PAGE : RANKED_ON_JOB, cursor: full ? q.cursor : undefined })
	const heading = list === 'applicants' ? 'Applicants ranked by résumé check' : 'Leads ranked by résumé check'
	const columns: Column<Ranked>[] = [
		{
			label: list === 'applicants' ? 'Applicant' : 'Lead',
			cell: (a) =>
				html`${candidateLink(a.applicationId, a.candidate.name)}${a.candidate.headline ? html`<span class="meta block">${a.candidate.headline}</span>` : ''}`,
		},
		{ label: 'Rank', numeric: true, cell: (a) => a.rank },
		{
			label: 'Résumé check',
			cell: (a) =>
				a.resumeScore === null
					? 'Not checked yet'
					: html`<strong>${a.resumeScore}</strong> <span class="meta">· ${a.mustHavesMet} of ${a.mustHavesTotal} must-haves</span>`,
		},
		{ label: 'Missing', cell: (a) => (a.missing.length ? a.missing.join('; ') : '—') },
		{ label: 'Stage', cell: (a) => a.stageLabel },
		{ label: 'Shortlist', cell: (a) => shortlistTag(a.shortlist, '—') },
		{ label: 'Vendor submission', cell: (a) => submissionStatus(a) },
	]
	const empty =
		full && q.cursor
			? 'No more.'
			: list === 'applicants'
				? 'Nobody has applied yet (archived applications are not ranked).'
				: 'No leads sourced for this job yet.'
	const more = full
		? pager({ base: `/jobs/${jobId}?list=${list}`, next: ranked.nextCursor, first: !q.cursor })
		: ranked.nextCursor
			? html`<p class="see-all"><a href="/jobs/${jobId}?list=${list}">See all ${list === 'applicants' ? 'ranked applicants' : 'ranked leads'}</a></p>`
			: ''
	return html`<section class="card" id="${full ? 'list' : list}" aria-labelledby="${list}-h"><h2 id="${list}-h">${heading}</h2>
${full ? html`<p><a href="/jobs/${jobId}#${list}">Back to the job</a></p>` : ''}
<p class="meta">Best match first: the share of the job’s must-haves each résumé meets. Archived applications are left out.</p>
${dataTable({ caption: heading, hideCaption: true, columns, rows: ranked.applicants, empty })}
${more}</section>`
}

export const jobPageSections: readonly PageSection[] = [
	{
		page: 'job',
		order: 10,
		permission: 'candidates:read',
		notices: {
			moved: 'The application was moved: its stage change is in the activity log.',
			'not-moved': 'The application was already in that stage; nothing changed.',
		},
		render: async (deps, session, jobId, { query: q = {}, notice } = {}) => {
			if (mainView(q)) return pipelineBoard(deps, session, jobId, notice)
			if (q.stage !== undefined || (q.list !== undefined && ownEntry(LIST_STATE, q.list))) return pipelineList(deps, session, jobId, q)
			return null
		},
	},
	{
		page: 'job',
		order: 20,
		permission: 'candidates:read',
		render: async (deps, session, jobId, { query: q = {} } = {}) =>
			mainView(q) || q.list === 'applicants' ? rankedSection(deps, session, jobId, 'applicants', q) : null,
	},
	{
		page: 'job',
		order: 30,
		permission: 'candidates:read',
		render: async (deps, session, jobId, { query: q = {} } = {}) =>
			mainView(q) || q.list === 'leads' ? rankedSection(deps, session, jobId, 'leads', q) : null,
	},
]
