/**
 * Opening a candidate's document from the candidate page.
 *
 * Rules:
 * - Only people who may see documents (`documents:read`: owners, admins, recruiters) get a file;
 *   for everyone else — hiring managers included — the address answers 404, like a file that does
 *   not exist, and the candidate page shows no document link.
 * - The address names the candidate, the document and the file's signed reference
 *   (`fileReference`): it cannot be guessed from ids, and a document of another candidate or
 *   workspace, or a wrong reference, is a 404.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { fileStore } from '../../core/files.ts'
import { fileReference, isFileReference, type StoredFile } from '../../core/http/file-response.ts'
import { requireCandidate } from '../candidates/index.ts'
import { candidateDocuments } from './table.ts'

const noFile = () => new AppError('NOT_FOUND', 'No document here')

export const maySeeDocuments = (deps: AppDeps, actor: Actor) => deps.permissions.can(actor, 'documents:read')

/** The address a document is opened at (for people who may see documents). */
export const documentAddress = (deps: Pick<AppDeps, 'secret'>, candidateId: string, doc: { id: string; storageKey: string }) =>
	`/candidates/${encodeURIComponent(candidateId)}/documents/${encodeURIComponent(doc.id)}/${fileReference(deps.secret, doc.storageKey)}`

export async function documentDownload(deps: AppDeps, actor: Actor, candidateId: string, documentId: string, reference: string): Promise<StoredFile> {
	if (!maySeeDocuments(deps, actor)) throw noFile()
	await requireCandidate(deps, actor, candidateId)
	const [doc] = await deps.database.rows<{ fileName: string; contentType: string; storageKey: string }>(
		sql`select d.file_name as "fileName", d.content_type as "contentType", d.storage_key as "storageKey" from ${candidateDocuments} d where d.id = ${documentId} and d.candidate_id = ${candidateId} and d.workspace_id = ${actor.workspaceId}`,
	)
	if (!doc || !isFileReference(deps.secret, doc.storageKey, reference)) throw noFile()
	const bytes = await fileStore(deps.config).get(doc.storageKey)
	if (!bytes) throw noFile()
	return { bytes, contentType: doc.contentType, fileName: doc.fileName }
}
