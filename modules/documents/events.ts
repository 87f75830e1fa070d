/** The events about candidate documents and vendor submissions (read by webhooks). */
import { Type as T } from '@sinclair/typebox'
import { defineEvent } from '../events/index.ts'
import { DOCUMENT_KINDS } from '../vendors/index.ts'

const documentKind = T.Union(DOCUMENT_KINDS.map((k) => T.Literal(k)))

export const documentUploaded = defineEvent({
	type: 'document.uploaded',
	description: 'A candidate uploaded a verification document through their secure link',
	data: T.Object({
		documentId: T.String(),
		candidateId: T.String(),
		applicationId: T.Union([T.String(), T.Null()]),
		requestId: T.String(),
		kind: documentKind,
	}),
})

export const submissionCreated = defineEvent({
	type: 'submission.created',
	description: 'A candidate was submitted to a job’s vendor',
	data: T.Object({
		submissionId: T.String(),
		applicationId: T.String(),
		candidateId: T.String(),
		jobId: T.String(),
		/** The vendor it was submitted to: that vendor's endpoints hear of it, no other vendor's. */
		vendorId: T.String(),
		documents: T.Array(documentKind),
	}),
})

export const DOCUMENT_EVENTS = [documentUploaded, submissionCreated] as const
