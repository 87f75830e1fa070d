/**
 * The vendor submission on the application page (`pageSections`, page `application`), for people
 * who may see documents: whether the candidate was submitted to the job's vendor, **Check vendor
 * submission** (a GET: the page again with `?check=vendor`) showing what the vendor's rules need for
 * this candidate, what is on file and what is missing — `check_vendor_submission`'s answer — and
 * the **Submit to vendor** form (the documents to attach, a note), posted to `submission-routes.ts`.
 * After a refused submission the page shows the check and the form with what was entered.
 */
import { breakable, html, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { AppError } from '../../core/errors.ts'
import type { PageSection, RefusedForm } from '../../core/module.ts'
import { checkboxes, csrfField, tag, textArea, when } from '../../core/ui.ts'
import { DOCUMENT_KINDS, DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import type { VendorSubmissionStatus } from '../candidates/index.ts'
import { checkVendorSubmission, NOTE_MAX, submissionDetails, type SubmissionCheck } from './submissions.ts'

/** The form's name (`SectionContext.refused.form`) and its fields' ids. */
export const SUBMIT_FORM = 'submit-to-vendor'
export const DOCUMENTS_FIELD = 'submit-documents'
export const NOTE_FIELD = 'submit-note'

const labels = (kinds: readonly DocumentKind[]) => kinds.map((k) => DOCUMENT_LABELS[k]).join(', ')

const section = (body: unknown) =>
	html`<section class="card" id="vendor-submission" aria-labelledby="vendor-submission-h"><h2 id="vendor-submission-h">Vendor submission</h2>${body}</section>`

function method(c: SubmissionCheck): SafeHtml {
	const v = c.vendor
	if (v.submissionMethod === 'email') return html`${v.name} takes submissions by e-mail.`
	if (v.submissionMethod === 'portal')
		return html`${v.name} takes submissions on its own portal${v.portalUrl ? html`: <span class="break">${breakable(v.portalUrl)}</span>` : ''}.`
	return html`${v.name} has no submission address yet.`
}

function status(c: SubmissionCheck, s: VendorSubmissionStatus | null): SafeHtml {
	if (!c.alreadySubmitted) return html`<p>${tag('Not submitted')} ${method(c)}</p>`
	const delivery =
		s?.delivery === 'sent' ? tag('E-mail sent', 'good') : s?.delivery === 'failed' ? tag('E-mail not delivered', 'bad') : tag('E-mail queued', 'info')
	const sent = c.alreadySubmitted.documents.filter((d): d is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(d))
	return html`<p>${tag('Submitted', 'good')} ${delivery} to ${c.vendor.name} on ${when(c.alreadySubmitted.submittedAt)}${s ? ` by ${s.submittedBy}` : ''}, with the résumé${sent.length ? `, ${labels(sent)}` : ''}.</p>`
}

/**
 * What the vendor needs for this candidate, each on file or missing, and anything else in the way —
 * the check's own fields in words for people (its `problems` sentences are written for assistants,
 * naming tools; they are shown only if the check is not ready for a reason these fields do not say).
 */
function checklist(c: SubmissionCheck): SafeHtml {
	const row = (label: string, onFile: boolean) => html`<li>${label} ${onFile ? tag('on file', 'good') : tag('missing', 'bad')}</li>`
	const problems = [
		c.alreadySubmitted ? html`Already submitted on ${when(c.alreadySubmitted.submittedAt)}: a second submission is not sent.` : null,
		c.missing.length
			? html`<strong>Missing:</strong> ${labels(c.missing)}. Ask the candidate for them with Request documents on the <a href="/candidates/${c.candidate.id}">candidate’s page</a>.`
			: null,
		c.resumeOnFile ? null : html`No résumé on file: add one before submitting.`,
		c.vendor.submissionMethod === 'email' ? null : method(c),
	].filter((p) => p !== null)
	const shown = problems.length || c.ready ? problems : c.problems
	return html`<div class="check" id="vendor-check"><h3>What ${c.vendor.name} needs for this candidate${c.candidate.workAuthorization ? ` (${c.candidate.workAuthorization})` : ''}</h3>
<ul class="entries">${row('Résumé', c.resumeOnFile)}${c.required.map((k) => row(DOCUMENT_LABELS[k], c.onFile.includes(k)))}</ul>
${c.ready ? html`<p>${tag('Ready', 'good')} Everything ${c.vendor.name} needs is on file.</p>` : html`<p>${tag('Not ready', 'warn')}</p><ul>${shown.map((p) => html`<li>${p}</li>`)}</ul>`}</div>`
}

function submitForm(session: PageSession, c: SubmissionCheck, refused: RefusedForm | undefined): SafeHtml {
	const chosen = refused ? [refused.values.documents ?? []].flat() : c.required.filter((k) => c.onFile.includes(k))
	const note = refused ? [refused.values.note ?? ''].flat()[0] : ''
	return html`<h3>Submit ${c.candidate.name} to ${c.vendor.name}</h3>
<p class="meta">The résumé is always attached.${c.required.length ? ` ${c.vendor.name} needs: ${labels(c.required)}.` : ''}</p>
<form method="post" action="/applications/${c.applicationId}/submit-to-vendor" class="stack" novalidate>${csrfField(session)}
${checkboxes({
	id: DOCUMENTS_FIELD,
	name: 'documents',
	legend: 'Documents to attach',
	options: DOCUMENT_KINDS.map((k) => [k, `${DOCUMENT_LABELS[k]}${c.onFile.includes(k) ? '' : ' (not on file)'}`] as const),
	checked: chosen,
	errors: refused?.errors,
})}
${textArea({ id: NOTE_FIELD, name: 'note', label: 'Note for the vendor (optional)', hint: `Plain text, at most ${NOTE_MAX.toLocaleString('en-US')} characters.`, value: note, errors: refused?.errors, rows: 3 })}
<div><button type="submit">Submit to vendor</button></div></form>`
}

export const vendorSubmissionSection: PageSection = {
	page: 'application',
	order: 20,
	permission: 'documents:read',
	notices: { submitted: 'Submitted to the vendor: the e-mail with the résumé and the documents is on its way.' },
	async render(deps, session, applicationId, context) {
		let check: SubmissionCheck
		try {
			check = await checkVendorSubmission(deps, session.actor, applicationId)
		} catch (error) {
			// A job no vendor published: nothing to submit, and the page says why.
			if (error instanceof AppError && error.code === 'CONFLICT') return section(html`<p class="empty">${error.message}.</p>`)
			throw error
		}
		const submitted = (await submissionDetails(deps, session.actor, [applicationId])).get(applicationId)?.vendorSubmission as VendorSubmissionStatus | null
		const refused = context?.refused?.form === SUBMIT_FORM ? context.refused : undefined
		const showCheck = context?.query?.check === 'vendor' || Boolean(refused)
		// A vendor that takes submissions on its own portal (or has no address yet) gets no form here: the status line says where.
		const canSubmit = !check.alreadySubmitted && check.vendor.submissionMethod === 'email' && deps.permissions.can(session.actor, 'documents:submit')
		return section(html`${status(check, submitted ?? null)}${context?.notice ?? ''}
<form method="get" action="/applications/${applicationId}#vendor-check"><input type="hidden" name="check" value="vendor"><button type="submit" class="secondary">Check vendor submission</button></form>
${showCheck ? checklist(check) : ''}
${canSubmit ? submitForm(session, check, refused) : ''}`)
	},
}
