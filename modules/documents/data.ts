/** This module's part of a candidate's data: documents on file (with their files), upload links asked, submissions to vendors. */
import { sql } from 'drizzle-orm'
import { anyId, type CandidateDataSource } from '../candidates/index.ts'

export const documentsData: CandidateDataSource = {
	key: 'documents',
	tables: ['candidate_documents', 'document_requests', 'vendor_submissions'],
	async export(deps, db, s) {
		const [documents, requests, submissions] = await Promise.all([
			deps.database.rows<{ id: string; kind: string; fileName: string; storageKey: string }>(
				sql`select id, kind, file_name as "fileName", content_type as "contentType", size_bytes as "sizeBytes", storage_key as "storageKey", uploaded_at as "uploadedAt"
				from candidate_documents where candidate_id = ${s.candidateId} order by uploaded_at, seq`,
				db,
			),
			deps.database.rows(
				sql`select id, application_id as "applicationId", items, message, requested_by_name as "requestedBy", created_at as "createdAt", expires_at as "expiresAt",
					revoked_at as "revokedAt", upload_count as "uploadCount", last_upload_at as "lastUploadAt"
				from document_requests where candidate_id = ${s.candidateId} order by created_at, seq`,
				db,
			),
			deps.database.rows(
				sql`select s.id, s.application_id as "applicationId", s.job_id as "jobId", v.name as vendor, s.documents, s.note, s.submitted_by_name as "submittedBy", s.submitted_at as "submittedAt"
				from vendor_submissions s join vendors v on v.id = s.vendor_id where s.candidate_id = ${s.candidateId} order by s.submitted_at`,
				db,
			),
		])
		return {
			data: { documents: documents.map(({ storageKey: _, ...d }) => ({ ...d, file: `documents/${d.id}-${d.fileName}` })), requests, submissions },
			files: documents.map((d) => ({ key: d.storageKey, name: `documents/${d.id}-${d.fileName}` })),
		}
	},
	async erase(deps, tx, s) {
		const files = await deps.database.rows<{ key: string }>(
			sql`delete from candidate_documents where candidate_id = ${s.candidateId} returning storage_key as key`,
			tx,
		)
		await deps.database.rows(sql`delete from vendor_submissions where candidate_id = ${s.candidateId} or application_id = ${anyId(s.applicationIds)}`, tx)
		await deps.database.rows(sql`delete from document_requests where candidate_id = ${s.candidateId} or application_id = ${anyId(s.applicationIds)}`, tx)
		return { files: files.map((f) => f.key) }
	},
}
