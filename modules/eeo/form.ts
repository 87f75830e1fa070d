/** The self-identification part of the careers apply form (modules/careers puts it under the questions). */
import { html, type SafeHtml } from '../../core/html.ts'
import type { FieldError } from '../../core/errors.ts'
import { DECLINED, EEO_QUESTIONS } from './questions.ts'
import { fieldOf } from './service.ts'

export function selfIdentificationFields(values: Record<string, string>, errors: readonly FieldError[]): SafeHtml {
	return html`<fieldset class="stack eeo" aria-describedby="eeo-why"><legend>Voluntary self-identification</legend>
<p class="hint" id="eeo-why">Answering is up to you and does not affect your application. Your answers are kept apart from it: recruiters, hiring managers and clients never see them; the firm reports only totals, as US equal employment opportunity rules ask of employers.</p>
${EEO_QUESTIONS.map((q) => {
	const field = fieldOf(q.key)
	const error = errors.find((e) => e.field === field)?.message
	const chosen = values[field] ?? DECLINED
	return html`<label for="apply-${field}">${q.label} <select id="apply-${field}" name="${field}"${error ? html` aria-invalid="true" aria-describedby="${field}-error"` : ''}>${q.options.map(
		([code, label]) => html`<option value="${code}"${code === chosen ? ' selected' : ''}>${label}</option>`,
	)}</select></label>${error ? html`<span class="field-error" id="${field}-error">${error}</span>` : ''}`
})}</fieldset>`
}
