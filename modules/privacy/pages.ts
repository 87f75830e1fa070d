/**
 * The privacy pages: the Personal data section of a candidate's page (Export data for owners and
 * admins, Erase candidate for owners), the erasure's confirmation and its result, and the
 * workspace's privacy rules (/settings/privacy).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { FieldError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { checkboxes, csrfField, errorSummary, facts, notice, pageHeader, plural, selectField, textField, when } from '../../core/ui.ts'
import { MAX_INACTIVE_MONTHS, MIN_INACTIVE_MONTHS, type PrivacyRules, type RulesInput } from './rules.ts'

const holdLabel = (years: number) => `${plural(years, 'year')} (OFCCP, 41 CFR 60-1.12)`

export const personalDataSection: PageSection = {
	page: 'candidate',
	order: 90,
	permission: 'privacy:export',
	async render(deps, session, candidateId) {
		const erase = deps.permissions.can(session.actor, 'privacy:erase')
		const id = encodeURIComponent(candidateId)
		return html`<section class="card" aria-labelledby="personal-data-h"><h2 id="personal-data-h">Personal data</h2>
<p class="meta">Everything held about this person, as one ZIP file (profile, applications, answers, ratings, scorecards, notes, messages, documents and their files, interviews, bench). Downloads are recorded in the audit trail.</p>
<div class="actions"><a class="button secondary" href="/candidates/${id}/export.zip" download>Export data</a>${erase ? html`<a class="button danger" href="/candidates/${id}/erase">Erase candidate</a>` : ''}</div>
</section>`
	},
}

/** What erasing deletes, as the confirmation says it. */
const ERASED_PARTS = [
	'their name, e-mail address, phone number and profile, and their résumé file',
	'their applications with the answers, ratings and scorecards, and the notes about them',
	'their documents and files, the upload links sent to them and their submissions to vendors',
	'their messages and conversations; messages still waiting to be sent to them are not sent',
	'their AI interview transcripts and scores, scheduled interviews, bench entries and to-dos about them',
]

export function erasePage(deps: AppDeps, session: PageSession, v: { candidateId: string; name: string; applications: number; rules: PrivacyRules }): Response {
	const id = encodeURIComponent(v.candidateId)
	const hold = v.rules.federalContractor && v.applications > 0
	return portalPage(
		deps,
		session,
		{ title: `Erase ${v.name}?`, current: '/candidates' },
		html`${pageHeader({
			crumbs: [
				['/candidates', 'Candidates'],
				[`/candidates/${id}`, v.name],
			],
			title: html`Erase ${v.name}?`,
		})}
<section class="card" aria-labelledby="erase-h"><h2 id="erase-h">What will happen</h2>
<p>Erasing cannot be undone. These are deleted, and wherever this person stays mentioned (mail sent about them, the activity log, searches in the audit trail) their name, e-mail address and phone number become “Erased candidate”:</p>
<ul>${ERASED_PARTS.map((p) => html`<li>${p}</li>`)}</ul>
<p>They disappear from candidate lists, search, the pipeline, calendars and assistant apps; webhooks receive <code>candidate.erased</code>. Before erasing, you can <a href="/candidates/${id}/export.zip" download>export their data</a>.</p>
${
	hold
		? html`<p><strong>Legal hold:</strong> this workspace is a federal contractor, so an anonymous applicant-flow record of each of their ${plural(v.applications, 'application')} (job, dates, stages and outcome; no name or contact) is kept for ${holdLabel(v.rules.holdYears)}, then deleted.</p>`
		: html`<p>${v.applications ? plural(v.applications, 'application') : 'No application'} will be deleted with them${v.rules.federalContractor ? '' : ' (no legal hold: this workspace is not set as a federal contractor)'}.</p>`
}
<form method="post" action="/candidates/${id}/erase">${csrfField(session)}
<div class="actions"><button type="submit" class="danger">Erase candidate</button><a class="button secondary" href="/candidates/${id}">Cancel</a></div></form>
</section>`,
	)
}

export function erasedPage(
	deps: AppDeps,
	session: PageSession,
	v: { candidateId: string; at: Date; applications: number; heldUntil: string | null },
): Response {
	return portalPage(
		deps,
		session,
		{ title: 'Candidate erased', current: '/candidates' },
		html`${notice('The candidate was erased.')}
${pageHeader({ crumbs: [['/candidates', 'Candidates']], title: 'Candidate erased' })}
<section class="card" aria-labelledby="erased-h"><h2 id="erased-h" class="visually-hidden">Erasure</h2>
${facts([
	['Candidate', html`<code>${v.candidateId}</code>`],
	['Erased', when(v.at)],
	['Applications', v.applications.toLocaleString('en-US')],
	['Applicant-flow record', v.heldUntil ? html`Kept without name or contact until ${when(v.heldUntil, { time: false })}` : 'None kept'],
])}
<p><a href="/candidates">Back to candidates</a></p></section>`,
	)
}

export function rulesPage(
	deps: AppDeps,
	session: PageSession,
	v: { values: RulesInput; errors?: readonly FieldError[]; done?: boolean; held: number; status?: number },
): Response {
	const errors = v.errors ?? []
	return portalPage(
		deps,
		session,
		{ title: 'Privacy', current: '/settings/privacy', hasErrors: errors.length > 0, status: v.status ?? (errors.length ? 422 : 200) },
		html`${errorSummary(errors)}${v.done ? notice('The privacy rules were saved.') : ''}
${pageHeader({ title: 'Privacy', meta: 'What erasing a candidate keeps for a federal contractor, and how long candidates with no activity are kept.' })}
<form method="post" action="/settings/privacy" class="card stack">${csrfField(session)}
<h2>Legal hold</h2>
${checkboxes({
	id: 'federalContractor',
	name: 'federalContractor',
	legend: 'Federal contractor',
	options: [['on', 'This workspace is a federal contractor (OFCCP)']],
	checked: v.values.federalContractor ? ['on'] : [],
})}
<p class="hint">When on, erasing a candidate keeps an anonymous applicant-flow record of each application (job, dates, stages, outcome; no name or contact) until the hold period ends, then deletes it. ${plural(v.held, 'record')} kept now.</p>
${selectField({
	id: 'holdYears',
	label: 'Hold period',
	hint: '2 years for 150 employees or more and a contract of $150,000 or more; otherwise 1 year (41 CFR 60-1.12).',
	value: v.values.holdYears,
	options: [
		['1', '1 year'],
		['2', '2 years'],
	],
	errors,
})}
<h2>Retention</h2>
${textField({
	id: 'inactiveMonths',
	label: 'Erase candidates with no activity for (months)',
	hint: `Off when empty. From ${MIN_INACTIVE_MONTHS} to ${MAX_INACTIVE_MONTHS}: candidates with no change to their profile or an application, no note, message or interview for that long are erased by a daily check, and the owners get a summary by e-mail.`,
	value: v.values.inactiveMonths,
	errors,
})}
<div class="actions"><button type="submit">Save</button></div></form>`,
	)
}
