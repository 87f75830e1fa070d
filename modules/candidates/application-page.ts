/**
 * The application page (`/applications/<id>`): who applied for which job and where they stand,
 * with **Move to stage** beside the heading, then the résumé check, screening answers, ratings and
 * notes, then what other modules add (`pageSections` with page `application`: the AI interview
 * results, the vendor submission, the messages) — so this module imports none of them.
 *
 * Everything shown comes from `getApplication`, the service of the `get_application` tool, so a
 * role sees here exactly what its tool shows: hiring managers only their jobs' applicants and no
 * contact details; a record out of reach is the same 404 as an absent one.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { FieldError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { actionNotice, breakable, html, pageSections, portalPage, textOf, type SafeHtml } from '../../core/html.ts'
import type { SectionContext } from '../../core/module.ts'
import { csrfField, daysSince, errorSummary, facts, pageHeader, selectField, tag, when, type Tone } from '../../core/ui.ts'
import { answersSection, card, notesSection, ratingsSection, resumeCheckSection, type ApplicationView } from './application-parts.ts'
import { getApplication } from './application-service.ts'
import { applicationResumeAddress } from './resume-download.ts'
import { MOVE_PERMISSION } from './stage-move.ts'
import { stagesOf, type Stage } from './stages.ts'

/** The form name of Move to stage (`SectionContext.refused.form`) and the id of its field. */
export const MOVE_FORM = 'move-to-stage'
export const MOVE_FIELD = 'move-stage'

/** Notices after Post/Redirect/Get (`?done=<key>`). */
const NOTICES: Record<string, (a: ApplicationView) => string> = {
	stage: (a) => `Moved to ${a.stage.label}.`,
	'stage-unchanged': (a) => `The application was already in ${a.stage.label}; nothing changed.`,
}

export const noticeKeys = Object.keys(NOTICES)

export interface ApplicationPageOptions {
	status?: number
	/** Problems of a refused form, for the summary at the top (each links to its field). */
	errors?: readonly FieldError[]
	/** A notice key (`?done=`). */
	done?: string
	/** Handed to every section (the page's query, a refused form's values and problems). */
	context?: SectionContext
}

const OUTCOMES: Record<string, [string, Tone]> = { hired: ['Hired', 'good'], rejected: ['Rejected', 'bad'], withdrawn: ['Withdrawn', 'neutral'] }

function moveForm(session: PageSession, a: ApplicationView, stages: Stage[], context: SectionContext | undefined, notice: SafeHtml | ''): SafeHtml {
	const refused = context?.refused?.form === MOVE_FORM ? context.refused : undefined
	const entered = refused?.values.stageKey
	return html`<form method="post" action="/applications/${a.id}/stage" class="move-stage" novalidate>${csrfField(session)}
${selectField({ id: MOVE_FIELD, name: 'stageKey', label: 'Stage', value: typeof entered === 'string' && stages.some((s) => s.key === entered) ? entered : a.stage.key, options: stages.map((s) => [s.key, s.label] as const), errors: refused?.errors })}
<button type="submit">Move to stage</button>${notice}</form>`
}

function summaryFacts(a: ApplicationView): SafeHtml {
	const c = a.candidate as ApplicationView['candidate'] & { email?: string; phone?: string | null }
	const contactShown = 'email' in c
	const submission = a.vendorSubmission as { submittedAt: string; submittedBy: string; vendor: { name: string }; delivery: string } | null
	const [outcome, tone] = a.outcome ? (OUTCOMES[a.outcome] ?? [a.outcome, 'neutral' as Tone]) : ['In progress', 'info' as Tone]
	return facts([
		['Candidate', html`<a href="/candidates/${c.id}">${c.name}</a>${c.headline ? html`<br><span class="meta">${c.headline}</span>` : ''}`],
		['Job', html`<a href="/jobs/${a.job.id}">${a.job.title}</a>${a.job.status ? html` <span class="meta">(${a.job.status})</span>` : ''}`],
		['Stage', html`${tag(a.stage.label, 'info')} <span class="meta">since ${when(a.stageChangedAt, { time: false })}, ${daysSince(a.stageChangedAt)}</span>`],
		['Outcome', tag(outcome, tone)],
		['Applied', when(a.createdAt)],
		['Came from', a.kind === 'lead' ? `Sourced lead${a.source ? ` (${a.source})` : ''}` : a.source],
		['Location', c.location],
		['Work authorization', c.workAuthorization],
		['Experience', c.yearsExperience === null ? null : `${c.yearsExperience} years`],
		[
			'E-mail',
			contactShown ? (c.email ? html`<a href="mailto:${c.email}">${breakable(c.email)}</a>` : null) : html`<span class="meta">Hidden for your role</span>`,
		],
		['Phone', contactShown ? c.phone : html`<span class="meta">Hidden for your role</span>`],
		['Average rating', a.averageRating === null ? null : `${a.averageRating} of 5`],
		[
			'Vendor submission',
			submission
				? html`${tag(submission.delivery === 'failed' ? 'Not delivered' : 'Submitted', submission.delivery === 'failed' ? 'bad' : 'good')} <span class="meta">to ${submission.vendor.name}, ${when(submission.submittedAt, { time: false })}, by ${submission.submittedBy}</span>`
				: 'Not submitted',
		],
	])
}

/** The whole page for one application; throws NOT_FOUND (the 404 page) when it is absent or out of reach. */
export async function applicationPage(deps: AppDeps, session: PageSession, applicationId: string, o: ApplicationPageOptions = {}): Promise<Response> {
	const a = await getApplication(deps, session.actor, applicationId)
	// The confirmation of a change shows next to the button that made it: Move to stage's here, a section's in that section.
	const done = o.done && !o.errors?.length ? o.done : undefined
	const [stages, sections, ownResume] = await Promise.all([
		stagesOf(deps, session.actor.workspaceId),
		pageSections(deps, 'application', session, a.id, { ...o.context, done }),
		applicationResumeAddress(deps, session.actor, a.candidate.id, a.id),
	])
	const canMove = deps.permissions.can(session.actor, MOVE_PERMISSION)
	const own = done && Object.hasOwn(NOTICES, done) ? actionNotice(NOTICES[done]!(a)) : ''
	const body = html`${errorSummary(o.errors)}${own && !canMove ? own : ''}
${pageHeader({
	crumbs: [
		['/candidates', 'Candidates'],
		[`/candidates/${a.candidate.id}`, textOf(a.candidate.name)],
	],
	title: a.candidate.name,
	meta: html`Application for ${a.job.title} · ${a.kind === 'lead' ? 'lead' : 'applicant'}${a.archived ? ' · archived' : ''}`,
	actions: canMove ? moveForm(session, a, stages, o.context, own) : null,
})}
${card('summary', 'Application', summaryFacts(a))}
${resumeCheckSection(a.resumeCheck, ownResume)}
${sections}
${answersSection(a.answers)}
<div class="grid-2">${ratingsSection(a.ratings, a.averageRating)}${notesSection(a.notes, a.candidate.id)}</div>`
	return portalPage(
		deps,
		session,
		{ title: `${a.candidate.name}, ${a.job.title}`, current: '/candidates', hasErrors: Boolean(o.errors?.length), status: o.status },
		body,
	)
}
