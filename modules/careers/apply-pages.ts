/**
 * The apply form on a job page and the page after applying. Errors are shown at the top (linked to
 * their fields) and next to each field; what was typed is kept (a file input cannot be refilled, so
 * the résumé field says to choose the file again).
 */
import type { FieldError } from '../../core/errors.ts'
import { html, page, type SafeHtml } from '../../core/html.ts'
import type { Workspace } from '../auth/index.ts'
import { selfIdentificationFields } from '../eeo/index.ts'
import type { JobQuestion, PublicJob } from '../jobs/index.ts'
import { privacyPagePath } from '../privacy/index.ts'

export interface ApplyFormState {
	csrf: string
	source: string
	values?: Record<string, string>
	errors?: FieldError[]
	/** A message about the whole form (e.g. already applied). */
	notice?: string
	/** The form comes back unsent (try again later): the résumé field says to choose the file again. */
	chooseFileAgain?: boolean
	/** The résumé already chosen, kept on the server (kept-resume.ts): the form sends its token back. */
	kept?: { token: string; fileName: string }
}

const applyPath = (ws: Workspace, job: PublicJob) => `/careers/${ws.slug}/jobs/${job.slug}/apply`

export function applyForm(ws: Workspace, job: PublicJob, questions: JobQuestion[], state: ApplyFormState): SafeHtml {
	const values = state.values ?? {}
	const errors = state.errors ?? []
	const errorOf = (field: string) => errors.find((e) => e.field === field)?.message
	const invalid = (field: string) => (errorOf(field) ? html` aria-invalid="true" aria-describedby="${field}-error"` : '')
	const message = (field: string) => (errorOf(field) ? html`<span class="field-error" id="${field}-error">${errorOf(field)}</span>` : '')
	const input = (field: string, label: string, type: string, autocomplete: string, max: number) =>
		html`<label for="apply-${field}">${label} <input id="apply-${field}" name="${field}" type="${type}" required maxlength="${max}" autocomplete="${autocomplete}" value="${values[field] ?? ''}"${invalid(field)}></label>${message(field)}`
	const question = (q: JobQuestion) => {
		const field = `answer_${q.id}`
		const label = html`${q.prompt}${q.required ? '' : ' (optional)'}`
		if (q.kind === 'yes_no')
			return html`<fieldset class="choice" id="apply-${field}"${invalid(field)}><legend>${label}</legend>
<label><input type="radio" name="${field}" value="yes"${values[field] === 'yes' ? ' checked' : ''}${q.required ? ' required' : ''}> Yes</label>
<label><input type="radio" name="${field}" value="no"${values[field] === 'no' ? ' checked' : ''}> No</label></fieldset>${message(field)}`
		return html`<label for="apply-${field}">${label} <textarea id="apply-${field}" name="${field}" rows="3" maxlength="2000"${q.required ? ' required' : ''}${invalid(field)}>${values[field] ?? ''}</textarea></label>${message(field)}`
	}
	return html`<section class="apply" id="apply" aria-labelledby="apply-title">
<h2 id="apply-title">Apply for this job</h2>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
<form method="post" action="${applyPath(ws, job)}" enctype="multipart/form-data" class="stack" novalidate>
<input type="hidden" name="csrf" value="${state.csrf}">
<input type="hidden" name="source" value="${state.source}">
${input('name', 'Full name', 'text', 'name', 120)}
${input('email', 'E-mail', 'email', 'email', 254)}
${input('phone', 'Phone', 'tel', 'tel', 30)}
${state.kept ? html`<input type="hidden" name="resume_kept" value="${state.kept.token}">` : ''}
<label for="apply-resume">Résumé (PDF or Word .docx, at most 10 MB)${state.kept ? html`<span class="hint" id="apply-resume-kept">We kept “${state.kept.fileName}”: it is sent with the form. Choose a file only to send another one.</span>` : (errors.length || state.chooseFileAgain) && !errorOf('resume') ? ' — please choose the file again' : ''}
<input id="apply-resume" name="resume" type="file"${state.kept ? html` aria-describedby="apply-resume-kept"` : html` required`} accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"${invalid('resume')}></label>${message('resume')}
${questions.map(question)}
${selfIdentificationFields(values, errors)}
<button type="submit">Submit application</button>
</form>
<p class="hint">Your data: you can ask ${ws.name} for a copy of it or for its erasure at any time on <a href="${privacyPagePath(ws.slug)}">its privacy page</a>.</p></section>`
}

export function appliedPage(ws: Workspace, job: PublicJob, email: string): Response {
	return page(
		{ title: `Application received · ${ws.name}` },
		html`<section class="card"><h1>Thank you for applying</h1>
<p role="status">We received your application for <strong>${job.title}</strong>. A confirmation is on its way to ${email}.</p>
<p><a href="/careers/${ws.slug}">See the other open jobs at ${ws.name}</a></p></section>`,
	)
}
