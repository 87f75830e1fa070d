/** The document and vendor-submission tools: thin adapters over the services. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { id, freeText, nullable, oneOf, params } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine } from '../../core/untrusted.ts'
import { DocumentKindSchema } from '../vendors/index.ts'
import { documentRequestSummary, MAX_REQUEST_MESSAGE, requestCandidateDocuments } from './requests.ts'
import { listCandidateDocuments } from './service.ts'
import { checkVendorSubmission, submissionSummary, submitToVendor } from './submissions.ts'

const kinds = (description: string) => t.Array(DocumentKindSchema, { description })
const date = () => t.String({ format: 'date-time' })

const DocumentsOnFile = t.Object({
	candidateId: t.String(),
	candidateName: UntrustedLine,
	onFile: kinds('Kinds with at least one file on record'),
	notOnFile: kinds('Kinds with nothing on record'),
	documents: t.Array(
		t.Object({
			id: t.String(),
			kind: DocumentKindSchema,
			fileName: lineAbout('The file’s name as the candidate uploaded it'),
			contentType: t.String(),
			sizeBytes: t.Integer(),
			uploadedAt: date(),
			current: t.Boolean({ description: 'The newest file of its kind: the one a submission attaches' }),
		}),
		{ description: 'Newest first; descriptions only, never the files' },
	),
})

const RequestResult = t.Object({
	request: t.Object({
		id: t.String(),
		candidateId: t.String(),
		applicationId: nullable(t.String()),
		items: kinds('Kinds asked for'),
		expiresAt: t.String({ format: 'date-time', description: 'When the upload link stops working (7 days)' }),
		jobLink: nullable(t.String({ description: 'Careers address included in the e-mail, when the job is open' })),
		email: t.Object({ to: lineAbout('The candidate’s e-mail address'), status: t.Literal('queued') }),
		message: t.Object({
			to: nullable(lineAbout('The candidate’s phone number')),
			status: oneOf(['queued', 'not_sent'] as const),
			reason: nullable(t.String({ description: 'Why the message was not sent, in our words' })),
		}),
		repeated: t.Boolean({ description: 'True when the same request was made moments ago: nothing was sent again' }),
		replaced: t.Array(t.String(), { description: 'Earlier requests for the same documents whose links this one replaced: those links no longer work' }),
	}),
})

const Check = t.Object({
	applicationId: t.String(),
	candidate: t.Object({ id: t.String(), name: UntrustedLine, workAuthorization: nullable(UntrustedLine) }),
	job: t.Object({ id: t.String(), title: UntrustedLine }),
	vendor: t.Object({
		id: t.String(),
		name: UntrustedLine,
		submissionMethod: nullable(oneOf(['email', 'portal'] as const)),
		portalUrl: nullable(lineAbout('The vendor’s own portal')),
	}),
	required: kinds('Kinds this vendor needs for this candidate (partner rules and work authorization)'),
	onFile: kinds('Kinds the candidate has on file'),
	missing: kinds('Required kinds not on file'),
	resumeOnFile: t.Boolean(),
	alreadySubmitted: nullable(t.Object({ submissionId: t.String(), submittedAt: date(), documents: kinds('Kinds sent') })),
	ready: t.Boolean({ description: 'True when submit_to_vendor would go through' }),
	problems: t.Array(t.String(), { description: 'What stands in the way, in plain sentences of ours' }),
})

const Submission = t.Object({
	submission: t.Object({
		id: t.String(),
		applicationId: t.String(),
		vendor: t.Object({ id: t.String(), name: UntrustedLine }),
		to: lineAbout('The vendor’s submission address'),
		documents: kinds('Kinds attached'),
		attachments: t.Array(UntrustedLine, { description: 'File names attached (résumé first), made from the candidate’s name' }),
		note: nullable(t.String({ description: 'Your note, as you wrote it' })),
		submittedAt: date(),
		delivery: t.Literal('queued'),
	}),
})

export const documentTools = [
	defineTool({
		name: 'list_candidate_documents',
		title: 'List a candidate’s documents',
		description:
			'Which verification documents (dl = driver’s license, visa, i94, workAuth = work authorization) a candidate has on file, by kind, file name and date. Never returns the files themselves.',
		params: params({ candidateId: id('candidate') }),
		output: DocumentsOnFile,
		readOnly: true,
		permission: 'documents:read',
		spec: 'R candidateId*(string minLength=1 maxLength=160)',
		testCalls: (r) => r.seen('candidate').map((candidateId) => ({ candidateId })),
		run: ({ deps, actor }, a) => listCandidateDocuments(deps, actor, a.candidateId),
	}),
	defineTool({
		name: 'check_vendor_submission',
		title: 'Check a vendor submission',
		description:
			'Whether an application’s candidate can be submitted to the job’s vendor: the documents that vendor needs for this candidate’s work authorization, which are on file, which are missing, and anything else in the way (already submitted, no résumé, portal-only vendor).',
		params: params({ applicationId: id('application') }),
		output: Check,
		readOnly: true,
		permission: 'documents:read',
		spec: 'R applicationId*(string minLength=1 maxLength=160)',
		testCalls: (r) => r.seen('application').map((applicationId) => ({ applicationId })),
		run: ({ deps, actor }, a) => checkVendorSubmission(deps, actor, a.applicationId),
	}),
	defineTool({
		name: 'request_candidate_documents',
		title: 'Request documents from a candidate',
		description:
			'Asks a candidate for verification documents by e-mail and by messaging app, with a secure upload link valid 7 days (PDF, JPEG or PNG up to 10 MB each). applicationId defaults to the candidate’s newest application; includeJobLink (default true) adds the job’s careers address when the job is open. message is plain text added to the e-mail. The new link replaces earlier links for the same documents. The same call repeated within 2 minutes sends nothing again; at most 3 requests per candidate per hour from one person.',
		params: params({
			candidateId: id('candidate'),
			items: t.Array(DocumentKindSchema, { minItems: 1, maxItems: 4, description: 'Kinds to ask for: dl, visa, i94, workAuth' }),
			applicationId: t.Optional(id('application')),
			message: t.Optional(freeText({ maxLength: MAX_REQUEST_MESSAGE, description: 'Plain text for the candidate' })),
			includeJobLink: t.Optional(t.Boolean({ default: true, description: 'Add the job’s careers address (default true)' })),
		}),
		output: RequestResult,
		readOnly: false,
		destructive: false,
		idempotent: false,
		openWorld: true,
		permission: 'documents:request',
		spec: 'W candidateId*(string minLength=1 maxLength=160), items*(array minItems=1 maxItems=4 items:dl|visa|i94|workAuth), applicationId(string minLength=1 maxLength=160), message(string maxLength=2000), includeJobLink(boolean default=true)',
		testCalls: (r) => [{ candidateId: r.made('candidate'), applicationId: r.made('application'), items: ['dl' as const] }],
		run: async ({ deps, actor }, a) => ({ request: await requestCandidateDocuments(deps, actor, { ...a, items: a.items as never }) }),
		confirm: ({ deps, actor }, a) => documentRequestSummary(deps, actor, { ...a, items: a.items as never }),
	}),
	defineTool({
		name: 'submit_to_vendor',
		title: 'Submit a candidate to the vendor',
		description:
			'E-mails the job’s vendor the candidate’s résumé and the chosen documents, with your note, and records the submission (shown in get_application and get_job_applicants). Refuses, listing what is missing, when the vendor’s document rules are not met; refuses a second submission of the same application. Run check_vendor_submission first.',
		params: params({
			applicationId: id('application'),
			documents: t.Array(DocumentKindSchema, { maxItems: 4, description: 'Kinds to attach; must include every kind the vendor needs' }),
			note: t.Optional(freeText({ maxLength: 1000, description: 'Plain text for the vendor' })),
		}),
		output: Submission,
		readOnly: false,
		destructive: false,
		idempotent: false,
		openWorld: true,
		permission: 'documents:submit',
		spec: 'W applicationId*(string minLength=1 maxLength=160), documents*(array maxItems=4 items:dl|visa|i94|workAuth), note(string maxLength=1000)',
		testCalls: (r) => [{ applicationId: r.made('application'), documents: ['dl' as const], note: 'Again.' }],
		run: async ({ deps, actor }, a) => ({
			submission: await submitToVendor(deps, actor, { applicationId: a.applicationId, documents: a.documents as never, note: a.note }),
		}),
		confirm: ({ deps, actor }, a) => submissionSummary(deps, actor, { applicationId: a.applicationId, documents: a.documents as never, note: a.note }),
	}),
]
