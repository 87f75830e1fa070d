/**
 * Candidate documents on file. Tools only ever describe them (kind, file name, type, size, date);
 * the files themselves leave the file store only as attachments of a vendor submission, and to
 * people who may see documents when they open one on the candidate page (`files.ts`).
 *
 * Rules: several files of one kind may be on file; the newest of each kind is the one used.
 * Only owners, admins and recruiters reach documents (permission `documents:read`).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import type { AppDeps } from '../../core/deps.ts'
import { DOCUMENT_KINDS, type DocumentKind } from '../vendors/index.ts'
import { loadCandidate } from './subjects.ts'
import { candidateDocuments } from './table.ts'

export interface DocumentView {
	id: string
	kind: DocumentKind
	/** As the candidate's file was named: their words. */
	fileName: UntrustedText
	contentType: string
	sizeBytes: number
	uploadedAt: string
	/** True for the newest file of its kind (the one a submission attaches). */
	current: boolean
}

export interface StoredDocument {
	id: string
	kind: DocumentKind
	fileName: string
	contentType: string
	sizeBytes: number
	storageKey: string
	uploadedAt: Date
}

/** Every document of the candidate, newest first; of the same millisecond, the one stored last first (`seq`). */
export async function documentsOf(deps: AppDeps, workspaceId: string, candidateId: string): Promise<StoredDocument[]> {
	const rows =
		await deps.database.rows<StoredDocument>(sql`select d.id, d.kind, d.file_name as "fileName", d.content_type as "contentType", d.size_bytes as "sizeBytes", d.storage_key as "storageKey", d.uploaded_at as "uploadedAt"
		from ${candidateDocuments} d where d.workspace_id = ${workspaceId} and d.candidate_id = ${candidateId} order by d.uploaded_at desc nulls last, d.seq desc nulls last`)
	return rows.map((r) => ({ ...r, sizeBytes: Number(r.sizeBytes), uploadedAt: new Date(r.uploadedAt) }))
}

/** The newest document of each kind. */
export function currentByKind(docs: StoredDocument[]): Map<DocumentKind, StoredDocument> {
	const out = new Map<DocumentKind, StoredDocument>()
	for (const d of docs) if (!out.has(d.kind)) out.set(d.kind, d)
	return out
}

export interface CandidateDocuments {
	candidateId: string
	candidateName: UntrustedText
	onFile: DocumentKind[]
	notOnFile: DocumentKind[]
	documents: DocumentView[]
}

export async function listCandidateDocuments(deps: AppDeps, actor: Actor, candidateId: string): Promise<CandidateDocuments> {
	const candidate = await loadCandidate(deps, actor, candidateId)
	const docs = await documentsOf(deps, actor.workspaceId, candidate.id)
	const current = currentByKind(docs)
	return {
		candidateId: candidate.id,
		candidateName: untrustedLine(candidate.name, 'candidate', 120),
		onFile: DOCUMENT_KINDS.filter((k) => current.has(k)),
		notOnFile: DOCUMENT_KINDS.filter((k) => !current.has(k)),
		documents: docs.map((d) => ({
			id: d.id,
			kind: d.kind,
			fileName: untrustedLine(d.fileName, 'candidate', 200),
			contentType: d.contentType,
			sizeBytes: d.sizeBytes,
			uploadedAt: d.uploadedAt.toISOString(),
			current: current.get(d.kind)?.id === d.id,
		})),
	}
}
