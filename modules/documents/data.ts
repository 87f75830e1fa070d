/**
 * This module's part of a candidate's data: documents on file (with their files), upload links
 * asked, submissions to vendors (with the résumé copied for each, erased with them).
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { eraseMentions, withoutMentionsIn } from '../../core/erased-text.ts'
import { cleanFileName } from '../../core/file-name.ts'
import type { Db } from '../../db/client.ts'
import { anyId, type CandidateDataSource, type CandidateSubject } from '../candidates/index.ts'

/**
 * The files a submission copied into its own folder (`submissions/<workspace>/<id>/`, the résumé as
 * it was when submitted): named by the attachments of the submission's mail, read before the
 * outbox's erasure clears them; the résumé's usual names when that mail names none.
 */
async function submissionCopies(deps: AppDeps, tx: Db, s: CandidateSubject, submissions: { id: string; workspaceId: string; outboxId: string | null }[]) {
	if (!submissions.length) return []
	const attached = await deps.database.rows<{ path: string }>(
		sql`select a->>'path' as path from outbox o cross join jsonb_array_elements(o.attachments) a
		where o.id = any(${sql.param(submissions.flatMap((x) => (x.outboxId ? [x.outboxId] : [])))}::text[])`,
		tx,
	)
	const [c] = await deps.database.rows<{ resumeFileName: string | null }>(
		sql`select resume_file_name as "resumeFileName" from candidates where id = ${s.candidateId}`,
		tx,
	)
	const ext = (c?.resumeFileName?.match(/\.([A-Za-z0-9]{1,5})$/)?.[1] ?? 'pdf').toLowerCase()
	return submissions.flatMap((x) => {
		const folder = `submissions/${x.workspaceId}/${x.id}/`
		const named = attached.map((a) => a.path).filter((p) => p?.startsWith(folder))
		return named.length ? named : [`${folder}resume.${ext}`, `${folder}resume.txt`]
	})
}

/**
 * A document's name in the export's ZIP, the one `candidate.json` gives too: its file name cleaned
 * again (`cleanFileName`), since an imported or older row may hold one no upload would keep (a
 * direction override hiding the extension, a path).
 */
const inZip = (d: { id: string; kind: string; fileName: string }) => `documents/${d.id}-${cleanFileName(d.fileName, d.kind)}`

export const documentsData: CandidateDataSource = {
	key: 'documents',
	tables: ['candidate_documents', 'document_requests', 'vendor_submissions'],
	freeText: ['document_requests.message', 'vendor_submissions.note'],
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
			data: { documents: documents.map(({ storageKey: _, ...d }) => ({ ...d, file: inZip(d) })), requests, submissions },
			files: documents.map((d) => ({ key: d.storageKey, name: inZip(d) })),
		}
	},
	async erase(deps, tx, s) {
		const files = await deps.database.rows<{ key: string }>(
			sql`delete from candidate_documents where candidate_id = ${s.candidateId} returning storage_key as key`,
			tx,
		)
		const submissions = await deps.database.rows<{ id: string; workspaceId: string; outboxId: string | null }>(
			sql`delete from vendor_submissions where candidate_id = ${s.candidateId} or application_id = ${anyId(s.applicationIds)}
			returning id, workspace_id as "workspaceId", outbox_id as "outboxId"`,
			tx,
		)
		await deps.database.rows(sql`delete from document_requests where candidate_id = ${s.candidateId} or application_id = ${anyId(s.applicationIds)}`, tx)
		// Other people's requests and submissions whose words name them.
		await eraseMentions(deps.database, tx, [
			withoutMentionsIn('document_requests', ['message'], sql`workspace_id = ${s.workspaceId}`, s.needles),
			withoutMentionsIn('vendor_submissions', ['note'], sql`workspace_id = ${s.workspaceId}`, s.needles),
		])
		return { files: [...files.map((f) => f.key), ...(await submissionCopies(deps, tx, s, submissions))] }
	},
}
