import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { contribute, defineModule } from '../../core/module.ts'
import { applicationDetails, candidateData, type CandidateDataSource } from '../candidates/index.ts'
import { vendorFacts } from '../vendors/index.ts'
import { eventTypes } from '../events/index.ts'
import { DOCUMENT_EVENTS } from './events.ts'
import { vendorSubmissionSection } from './application-section.ts'
import { candidateDocumentRoutes } from './candidate-routes.ts'
import { documentsSection } from './candidate-section.ts'
import { documentCommands } from './commands.ts'
import { seedDocuments } from './seed.ts'
import { submissionRoutes } from './submission-routes.ts'
import { submissionDetails } from './submissions.ts'
import { prepareVendorSubmissionPrompt } from './prompts.ts'
import { documentTools } from './tools.ts'
import { documentViews } from './views.ts'
import { uploadRoutes } from './upload-routes.ts'
import { vendorSubmissionRoutes, vendorSubmissionsSection } from './vendor-submission-pages.ts'
import { vendorSubmissionFacts } from './vendor-submissions.ts'
import * as tables from './table.ts'
import { documentsData } from './data.ts'

export { listCandidateDocuments } from './service.ts'
export { checkVendorSubmission, submitToVendor, submissionDetails } from './submissions.ts'
export { requestCandidateDocuments, LINK_VALID_DAYS } from './requests.ts'
export { revokeUploadLink } from './revocation.ts'
export { documentUploaded, submissionCreated, DOCUMENT_EVENTS } from './events.ts'
export { DOCUMENT_KINDS, type DocumentKind } from '../vendors/index.ts'

/** For the retention rule: a document uploaded or asked for, a link used, a submission to a vendor since `since`. */
const documentsActiveSince: CandidateDataSource['activeSince'] = async (deps: AppDeps, workspaceId, ids, since) => {
	const list = sql`any(${sql.param([...ids])}::text[])`
	const cutoff = sql`${since.toISOString()}::timestamptz`
	const rows = await deps.database.rows<{ id: string }>(
		sql`select candidate_id as id from candidate_documents where workspace_id = ${workspaceId} and candidate_id = ${list} and uploaded_at >= ${cutoff}
		union select candidate_id from vendor_submissions where workspace_id = ${workspaceId} and candidate_id = ${list} and submitted_at >= ${cutoff}
		union select candidate_id from document_requests where workspace_id = ${workspaceId} and candidate_id = ${list}
			and greatest(created_at, last_upload_at) >= ${cutoff}`,
	)
	return new Set(rows.map((r) => r.id))
}

export default defineModule({
	name: 'documents',
	description: 'Candidate verification documents (uploaded only through a secure link) and submissions to vendors.',
	requires: ['auth', 'audit', 'activity', 'outbox', 'vendors', 'jobs', 'candidates', 'todos', 'events'],
	checks: ['documents:read', 'documents:request', 'documents:submit'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'documents:read',
			description: 'See which documents candidates have on file and check vendor submissions',
			grantedTo: ['owner', 'admin', 'recruiter'],
		},
		{ key: 'documents:request', description: 'Ask candidates for documents (e-mail and messaging app)', grantedTo: ['owner', 'admin', 'recruiter'] },
		{ key: 'documents:submit', description: 'Submit candidates to vendors with their documents', grantedTo: ['owner', 'admin', 'recruiter'] },
	],
	tools: documentTools,
	prompts: [prepareVendorSubmissionPrompt],
	views: documentViews,
	commands: documentCommands,
	routes: (deps, kit) =>
		new Elysia({ name: 'documents.all-routes' })
			.use(uploadRoutes(deps, kit))
			.use(submissionRoutes(deps, kit))
			.use(candidateDocumentRoutes(deps, kit))
			.use(vendorSubmissionRoutes(deps, kit)),
	paths: ['/upload', '/applications', '/candidates', '/vendors'],
	pageSections: [vendorSubmissionSection, documentsSection, vendorSubmissionsSection],
	contributes: [
		contribute(candidateData, { ...documentsData, activeSince: documentsActiveSince }),
		contribute(applicationDetails, submissionDetails),
		contribute(vendorFacts, vendorSubmissionFacts),
		...DOCUMENT_EVENTS.map((e) => contribute(eventTypes, e)),
	],
	seed: seedDocuments,
	activityLabels: {
		'documents.requested': 'asked for documents from',
		'documents.link_revoked': 'revoked the upload link of',
		'document.uploaded': 'uploaded a document for',
		'application.submitted_to_vendor': 'submitted to the vendor',
	},
})
