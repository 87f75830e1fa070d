import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { applications, candidates } from '../candidates/table.ts'
import { jobs } from '../jobs/table.ts'
import { outbox } from '../outbox/table.ts'
import { vendors } from '../vendors/table.ts'

/**
 * A secure upload link sent to a candidate: valid 7 days, usable several times until then, unless
 * revoked first. Only the SHA-256 of the `bl_ul_…` credential is stored.
 */
export const documentRequests = pgTable(
	'document_requests',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		candidateId: text('candidate_id')
			.notNull()
			.references(() => candidates.id),
		applicationId: text('application_id').references(() => applications.id),
		/** Document kinds asked for. */
		items: text('items').array().notNull(),
		/** The recruiter's plain-text message, shown on the upload page too. */
		message: text('message'),
		tokenHash: text('token_hash').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
		requestedByUserId: text('requested_by_user_id').references(() => users.id),
		requestedByName: text('requested_by_name').notNull(),
		uploadCount: integer('upload_count').notNull().default(0),
		lastUploadAt: timestamp('last_upload_at', { withTimezone: true, precision: 3 }),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		/** Insertion order, the tie-break of `created_at` (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
		/** When the link stopped working before its expiry: replaced by a newer request, or revoked by an operator. */
		revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
		/** The newer request that replaced this one (null when an operator revoked the link). */
		replacedBy: text('replaced_by'),
	},
	(t) => [uniqueIndex('document_requests_token').on(t.tokenHash), index('document_requests_candidate').on(t.candidateId, t.createdAt.desc(), t.seq.desc())],
)

/** A verification document on file for a candidate. The file itself is in the file store (`storageKey`). */
export const candidateDocuments = pgTable(
	'candidate_documents',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		candidateId: text('candidate_id')
			.notNull()
			.references(() => candidates.id),
		/** dl, visa, i94 or workAuth. */
		kind: text('kind').notNull(),
		/** File name as the candidate uploaded it (cleaned). */
		fileName: text('file_name').notNull(),
		/** Detected from the content: application/pdf, image/jpeg or image/png. */
		contentType: text('content_type').notNull(),
		sizeBytes: integer('size_bytes').notNull(),
		storageKey: text('storage_key').notNull(),
		/** The upload link it came through (null for seeded or imported documents). */
		requestId: text('request_id').references(() => documentRequests.id),
		uploadedAt: timestamp('uploaded_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		/** Insertion order, the tie-break of `uploaded_at` (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [
		index('candidate_documents_candidate').on(t.candidateId, t.uploadedAt.desc(), t.seq.desc()),
		// What came through one upload link (a handful of rows): read by the public upload page on every view.
		index('candidate_documents_request').on(t.requestId).where(sql`${t.requestId} is not null`),
		check('candidate_documents_kind_valid', sql`${t.kind} in ('dl', 'visa', 'i94', 'workAuth')`),
	],
)

/**
 * A candidate submitted to a job's vendor: at most one per application (the unique index refuses a
 * second one even when two requests race). Delivery state is the outbox row's.
 */
export const vendorSubmissions = pgTable(
	'vendor_submissions',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		applicationId: text('application_id')
			.notNull()
			.references(() => applications.id),
		candidateId: text('candidate_id')
			.notNull()
			.references(() => candidates.id),
		jobId: text('job_id')
			.notNull()
			.references(() => jobs.id),
		vendorId: text('vendor_id')
			.notNull()
			.references(() => vendors.id),
		/** Kinds sent, and the exact documents attached. */
		documents: text('documents').array().notNull(),
		documentIds: text('document_ids').array().notNull(),
		note: text('note'),
		toAddress: text('to_address').notNull(),
		outboxId: text('outbox_id').references(() => outbox.id),
		submittedByUserId: text('submitted_by_user_id').references(() => users.id),
		submittedByName: text('submitted_by_name').notNull(),
		submittedAt: timestamp('submitted_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('vendor_submissions_application').on(t.applicationId),
		index('vendor_submissions_vendor').on(t.vendorId, t.submittedAt.desc()),
		index('vendor_submissions_workspace').on(t.workspaceId, t.submittedAt.desc()),
	],
)
