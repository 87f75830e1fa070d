/**
 * The documents part of the candidate page: Request documents (the service behind
 * `request_candidate_documents`, with its limits) and opening a document on file.
 */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { fileResponse } from '../../core/http/file-response.ts'
import { viewed } from '../audit/index.ts'
import { formBody, formList, formText, isRefusal, refusedForm } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { candidateApplicationChoices, candidatePage } from '../candidates/index.ts'
import type { DocumentKind } from '../vendors/index.ts'
import { REQUEST_FORM } from './candidate-section.ts'
import { documentDownload } from './files.ts'
import { requestCandidateDocuments } from './requests.ts'

const LABELS = {
	items: ['docs-items', 'Documents to ask for'],
	message: ['docs-message', 'Message'],
	applicationId: ['docs-application', 'About the job'],
} as const

export function candidateDocumentRoutes(deps: AppDeps, { auth }: HttpKit) {
	return (
		new Elysia({ name: 'documents.candidate-pages' })
			.use(auth)
			.post(
				'/candidates/:id/document-requests',
				async ({ session, params, body, redirect }) => {
					const actor = session.actor
					const values = {
						items: formList(body, 'items'),
						message: formText(body, 'message'),
						applicationId: formText(body, 'applicationId'),
						includeJobLink: formList(body, 'includeJobLink'),
					}
					try {
						// The form offers the candidate's applications; anything else is not a choice it made.
						if (values.applicationId && !(await candidateApplicationChoices(deps, actor, params.id)).some((c) => c.id === values.applicationId))
							throw new AppError('VALIDATION', 'Choose a job from the list', {
								fields: [{ field: 'applicationId', message: 'must be one of the candidate’s applications listed' }],
							})
						const sent = await requestCandidateDocuments(deps, actor, {
							candidateId: params.id,
							items: values.items as DocumentKind[],
							message: values.message || undefined,
							applicationId: values.applicationId || undefined,
							includeJobLink: values.includeJobLink.includes('yes'),
						})
						const done = sent.repeated ? 'documents-repeated' : sent.message.status === 'queued' ? 'documents-requested' : 'documents-requested-email'
						return redirect(`/candidates/${encodeURIComponent(params.id)}?done=${done}#done`, 303)
					} catch (error) {
						if (!isRefusal(error)) throw error
						const page = await candidatePage(deps, session, params.id, { refused: refusedForm(REQUEST_FORM, values, error, LABELS), status: error.status })
						// Over the hourly limit: say when another request can go (the message says it in words).
						if (error.retryAfter !== undefined) page.headers.set('Retry-After', String(error.retryAfter))
						return page
					}
				},
				{ session: { permission: 'documents:request' }, body: formBody },
			)
			// Signed in is enough to ask: the service answers 404 to everyone who may not see documents.
			.get(
				'/candidates/:id/documents/:documentId/:ref',
				async ({ session, params, request }) =>
					fileResponse(
						await viewed(deps, request, session.actor, 'document', params.documentId, () =>
							documentDownload(deps, session.actor, params.id, params.documentId, params.ref),
						),
					),
				{ session: 'signed-in' },
			)
	)
}
