/**
 * Scorecards on pages: the Scorecards section of the application page (a summary, then each
 * scorecard, with **Add scorecard**), the scorecard form (`/applications/<id>/scorecard`), the
 * Scorecard section of the job page and its attributes form (`/jobs/<id>/scorecard`).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage, textOf, type SafeHtml } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { csrfField, dataTable, errorSummary, facts, pageHeader, plural, selectField, tag, textArea, when, type FieldError, type Tone } from '../../core/ui.ts'
import { applicationCard, type ApplicationScorecard } from '../candidates/index.ts'
import {
	attributesOf,
	MAX_ATTRIBUTE,
	MAX_ATTRIBUTES,
	MAX_NOTES,
	RATING_LABELS,
	RECOMMENDATION_LABELS,
	scorecardsOf,
	summarize,
	WRITE,
	type JobAttributes,
	type Recommendation,
	type ScorecardForm,
} from './service.ts'

const TONES: Record<Recommendation, Tone> = { strong_no: 'bad', no: 'warn', yes: 'info', strong_yes: 'good' }
const recommendationTag = (r: Recommendation | null) => (r ? tag(RECOMMENDATION_LABELS[r], TONES[r]) : tag('No recommendation', 'neutral'))
const stars = (n: number | null) => (n === null ? 'Not scored' : `${n} of 5 (${RATING_LABELS[n - 1]})`)

function scorecardView(c: ApplicationScorecard, me: string | null, applicationId: string): SafeHtml {
	const mine = c.source === 'person' && c.by?.userId === me
	const who = c.source === 'ai_interview' ? 'AI video interview' : c.by?.name
	const changed = c.updatedAt !== c.createdAt ? html` · changed ${when(c.updatedAt)}` : ''
	return html`<article class="result" aria-labelledby="scorecard-${c.id}-h"><h3 id="scorecard-${c.id}-h">${who} ${recommendationTag(c.recommendation)}</h3>
<p class="meta">${c.source === 'ai_interview' ? html`Completed ${when(c.createdAt)} · overall score ${c.overallScore ?? '—'} of 100 · each question’s score in fifths · <a href="/interviews/${c.interviewId}">Open the interview</a>` : html`${when(c.createdAt)}${changed}`}${mine ? html` · <a href="/applications/${applicationId}/scorecard">Edit your scorecard</a>` : ''}</p>
${dataTable<ApplicationScorecard['ratings'][number]>({
	caption: `Ratings by ${textOf(who)}`,
	hideCaption: true,
	columns: [
		{ label: 'Attribute', cell: (r) => r.attribute },
		{ label: 'Rating', cell: (r) => stars(r.rating) },
	],
	rows: c.ratings,
	empty: 'No attributes rated.',
})}
${c.notes ? html`<p class="lines"><strong>Notes:</strong> ${c.notes}</p>` : ''}</article>`
}

function summaryView(cards: ApplicationScorecard[]): SafeHtml {
	const s = summarize(cards)
	return html`<div class="scorecard-summary"><p>${plural(s.count, 'scorecard')}: ${s.recommendations.length ? s.recommendations.map((r, i) => html`${i ? ', ' : ''}${r.count} ${recommendationTag(r.recommendation)}`) : 'no recommendation yet'}.</p>
${dataTable<ReturnType<typeof summarize>['attributes'][number]>({
	caption: 'Average rating of each attribute',
	columns: [
		{ label: 'Attribute', cell: (a) => a.attribute },
		{ label: 'Average (of 5)', numeric: true, cell: (a) => a.average.toFixed(1) },
		{ label: 'Ratings', numeric: true, cell: (a) => a.ratings },
	],
	rows: s.attributes,
	empty: 'No attribute has a rating yet.',
})}</div>`
}

export const applicationScorecardsSection: PageSection = {
	page: 'application',
	order: 5,
	permission: 'candidates:read',
	notices: { scorecard: 'Your scorecard was saved.' },
	async render(deps, session, applicationId, context) {
		const cards = (await scorecardsOf(deps, session.actor, [applicationId])).get(applicationId)?.scorecards ?? []
		const me = session.actor.userId ?? null
		const mine = cards.some((c) => c.source === 'person' && c.by?.userId === me)
		const action = deps.permissions.can(session.actor, WRITE)
			? html`<a class="button secondary" href="/applications/${applicationId}/scorecard">${mine ? 'Edit your scorecard' : 'Add scorecard'}</a>`
			: ''
		const body = cards.length
			? html`${summaryView(cards)}${cards.map((c) => scorecardView(c, me, applicationId))}`
			: html`<p class="empty">No scorecards yet: interviewers add theirs after meeting the candidate.</p>`
		return html`<section class="card" id="scorecards" aria-labelledby="scorecards-h"><div class="title-row"><h2 id="scorecards-h">Scorecards</h2>${action}</div>${context?.notice ?? ''}${body}</section>`
	},
}

/** What a refused form had: every value, and the problems by field id. */
export interface Kept {
	values: Record<string, string>
	errors: FieldError[]
}

export async function scorecardFormPage(deps: AppDeps, session: PageSession, form: ScorecardForm, o: { kept?: Kept; status?: number } = {}): Promise<Response> {
	const app = await applicationCard(deps, session.actor, form.application.id)
	const a = form.attributes
	const v = o.kept?.values
	const ratingValue = (attribute: string, i: number) => v?.[`rating-${i}`] ?? String(form.mine?.ratings.get(attribute.toLowerCase()) ?? '')
	const ratings = a.attributes.map((attribute, i) =>
		selectField({
			id: `rating-${i}`,
			name: `rating-${i}`,
			label: attribute,
			value: ratingValue(attribute, i),
			options: [['', 'Choose a rating'], ...RATING_LABELS.map((l, n) => [String(n + 1), `${n + 1}: ${l}`] as const)],
			errors: o.kept?.errors,
		}),
	)
	const title = form.mine ? 'Edit your scorecard' : 'Add scorecard'
	return portalPage(
		deps,
		session,
		{ title: `${title}: ${app.candidateName}, ${app.jobTitle}`, current: '/candidates', hasErrors: Boolean(o.kept?.errors.length), status: o.status },
		html`${errorSummary(o.kept?.errors)}
${pageHeader({
	crumbs: [
		['/candidates', 'Candidates'],
		[`/applications/${form.application.id}`, `${textOf(app.candidateName)}, ${textOf(app.jobTitle)}`],
	],
	title,
	meta: html`${app.candidateName} · ${app.jobTitle}`,
})}
<section class="card"><form method="post" action="/applications/${form.application.id}/scorecard" class="stack" novalidate>${csrfField(session)}
${a.attributes.map((attribute) => html`<input type="hidden" name="attribute" value="${attribute}">`)}
<fieldset class="choice"><legend>Rate each attribute</legend>
<p class="meta">${a.custom ? 'The job’s scorecard attributes' : 'The job’s must-haves'}, from 1 (poor) to 5 (excellent).${a.attributes.length ? '' : ' This job has none yet: give your recommendation and notes.'}</p>
${ratings}</fieldset>
${selectField({
	id: 'recommendation',
	label: 'Overall recommendation',
	value: v?.recommendation ?? form.mine?.recommendation ?? '',
	options: [['', 'Choose a recommendation'], ...(['strong_no', 'no', 'yes', 'strong_yes'] as const).map((r) => [r, RECOMMENDATION_LABELS[r]] as const)],
	errors: o.kept?.errors,
})}
${textArea({ id: 'notes', label: 'Notes', hint: `What you saw: strengths, concerns, what to ask next. Up to ${MAX_NOTES.toLocaleString('en-US')} characters; everyone who sees the application reads them.`, value: v?.notes ?? form.mine?.notes ?? '', rows: 6, maxlength: MAX_NOTES, errors: o.kept?.errors })}
<button type="submit">Save scorecard</button></form></section>`,
	)
}

/** The job page's Scorecard section: the attributes interviewers rate. */
export const jobScorecardSection: PageSection = {
	page: 'job',
	order: 35,
	permission: 'candidates:read',
	notices: { 'scorecard-attributes': 'The scorecard attributes were saved.' },
	async render(deps, session, jobId, context) {
		const q = context?.query ?? {}
		if (Object.entries(q).some(([k, v]) => v !== undefined && k !== 'done')) return null
		const a = await attributesOf(deps, session.actor, jobId).catch(() => null)
		if (!a) return null
		const edit = deps.permissions.can(session.actor, WRITE) ? html`<a class="button secondary" href="/jobs/${jobId}/scorecard">Edit scorecard</a>` : ''
		return html`<section class="card" id="scorecard" aria-labelledby="scorecard-h"><div class="title-row"><h2 id="scorecard-h">Scorecard</h2>${edit}</div>${context?.notice ?? ''}
<p class="meta">${a.custom ? 'Interviewers rate these attributes, set for this job,' : 'Interviewers rate the job’s must-haves'} from 1 to 5, and give an overall recommendation.</p>
${a.attributes.length ? html`<ul>${a.attributes.map((x) => html`<li>${x}</li>`)}</ul>` : html`<p class="empty">No attributes: the job has no must-haves yet.</p>`}</section>`
	},
}

export function attributesPage(deps: AppDeps, session: PageSession, a: JobAttributes, o: { kept?: Kept; status?: number } = {}): Response {
	const value = o.kept?.values.attributes ?? (a.custom ? a.attributes.join('\n') : '')
	return portalPage(
		deps,
		session,
		{ title: `Scorecard of ${a.jobTitle}`, current: '/jobs', hasErrors: Boolean(o.kept?.errors.length), status: o.status },
		html`${errorSummary(o.kept?.errors)}
${pageHeader({
	crumbs: [
		['/jobs', 'Jobs'],
		[`/jobs/${a.jobId}`, a.jobTitle],
	],
	title: 'Scorecard attributes',
	meta: a.jobTitle,
})}
<section class="card"><form method="post" action="/jobs/${a.jobId}/scorecard" class="stack" novalidate>${csrfField(session)}
${textArea({ id: 'attributes', label: 'Attributes (one per line)', hint: `Up to ${MAX_ATTRIBUTES}, each up to ${MAX_ATTRIBUTE} characters. Leave empty to rate the job’s must-haves${a.custom ? '' : ' (as now)'}. Scorecards already written keep what they rated.`, value, rows: 8, errors: o.kept?.errors })}
${a.custom ? '' : facts([['Must-haves rated now', a.attributes.length ? a.attributes.join('; ') : 'None']])}
<button type="submit">Save attributes</button></form></section>`,
	)
}
