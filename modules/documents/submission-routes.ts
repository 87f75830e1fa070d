/**
 * **Submit to vendor** from the application page: the form of `application-section.ts`, handed to
 * `submitToVendor` (the `submit_to_vendor` tool's service). Accepted: 303 back to the page with a
 * notice. Refused: the application page again, 422, with the problems at the top, the check shown
 * and everything entered kept; missing documents are listed as the check lists them — the same
 * list the tool's refusal names.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, type FieldError } from '../../core/errors.ts'
import type { HttpKit } from '../../core/module.ts'
import { applicationPage } from '../candidates/index.ts'
import { DOCUMENT_LABELS, isDocumentKind, type DocumentKind } from '../vendors/index.ts'
import { DOCUMENTS_FIELD, NOTE_FIELD, SUBMIT_FORM } from './application-section.ts'
import { checkVendorSubmission, submitToVendor } from './submissions.ts'

const params = t.Object({ id: t.String() })
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`)
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const listOf = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => String(v)).slice(0, 20)

/** The refusal as problems of the form's fields (ids of `application-section.ts`). */
async function problemsOf(deps: AppDeps, actor: Parameters<typeof submitToVendor>[1], applicationId: string, error: AppError): Promise<FieldError[]> {
	if (error.code === 'VALIDATION')
		return (error.fields?.length ? error.fields : [{ field: 'documents', message: error.message }]).map((f) =>
			f.field === 'note' ? { field: NOTE_FIELD, message: `The note ${f.message}` } : { field: DOCUMENTS_FIELD, message: sentence(capitalised(f.message)) },
		)
	const check = await checkVendorSubmission(deps, actor, applicationId)
	if (check.missing.length && !check.alreadySubmitted && check.vendor.submissionMethod === 'email')
		return [
			{
				field: DOCUMENTS_FIELD,
				message: `${check.vendor.name} needs documents that are not on file: ${check.missing.map((k) => DOCUMENT_LABELS[k]).join(', ')}. Ask the candidate for them with Request documents, then submit again.`,
			},
		]
	return [{ field: 'vendor-check', message: sentence(error.message) }]
}

export function submissionRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'documents.submission-routes' }).use(auth).post(
		'/applications/:id/submit-to-vendor',
		async ({ session, params, body, redirect }) => {
			const fields = body as Record<string, unknown>
			const documents = listOf(fields.documents)
			const note = typeof fields.note === 'string' ? fields.note : ''
			const actor = session.actor
			try {
				const unknown = documents.filter((d) => !isDocumentKind(d))
				if (unknown.length)
					throw new AppError('VALIDATION', 'Unknown document kinds', { fields: [{ field: 'documents', message: 'choose the documents from the list' }] })
				await submitToVendor(deps, actor, { applicationId: params.id, documents: documents as DocumentKind[], note: note || undefined })
				return redirect(`/applications/${encodeURIComponent(params.id)}?done=submitted#done`, 303)
			} catch (error) {
				if (!(error instanceof AppError) || !['VALIDATION', 'CONFLICT'].includes(error.code)) throw error
				const errors = await problemsOf(deps, actor, params.id, error)
				return applicationPage(deps, session, params.id, {
					status: 422,
					errors,
					context: { refused: { form: SUBMIT_FORM, values: { documents, note }, errors } },
				})
			}
		},
		{ session: { permission: 'documents:submit' }, params, body: form },
	)
}
