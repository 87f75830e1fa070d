/**
 * The candidate's side of a document request: opening the upload link and uploading files.
 *
 * Rules: a malformed or unknown link is "not valid"; a known link past its expiry is "expired";
 * a link replaced by a newer request or revoked by an operator says so (all answered before
 * anything is read or stored). A file must be one of the kinds asked for, non-empty, at most
 * 10 MB, and a PDF, JPEG or PNG judged by its content. The file is stored first and the record
 * written after, so a record never points at a missing file; the link is checked again in that
 * same transaction, so a link revoked while a file was on its way stores nothing.
 * Everything the upload touches (candidate, workspace, request) comes from the link itself, never
 * from the form or the address.
 *
 * Bounds (anyone holding the link can use it, and links get forwarded): at most
 * `FILES_PER_KIND_PER_LINK` files of each kind and `BYTES_PER_LINK` bytes in all come through one
 * link (`linkAllowanceRefusal`), decided again under the request row's lock so that uploads racing
 * each other cannot pass it together. A re-upload adds a file and the newest of a kind is the one
 * used; older files are kept, because a vendor submission or a to-do may already point at them.
 * The per-minute limits per address and per link are the upload route's (`upload-routes.ts`).
 */
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { credentialType, hashSecret, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { fileStore } from '../../core/files.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { documentUploaded } from './events.ts'
import { createTodo, flowAssignee } from '../todos/index.ts'
import { DOCUMENT_LABELS, isDocumentKind, type DocumentKind } from '../vendors/index.ts'
import { cleanFileName } from '../../core/file-name.ts'
import { detectType, MAX_DOCUMENT_BYTES } from './content.ts'
import { uploadPageNames } from './subjects.ts'
import { candidateDocuments, documentRequests } from './table.ts'

export type LinkProblem = 'invalid' | 'expired' | 'replaced' | 'revoked'

const PROBLEM_MESSAGES: Record<LinkProblem, string> = {
	invalid: 'This upload link is not valid',
	expired: 'This upload link has expired',
	replaced: 'This upload link was replaced by a newer one',
	revoked: 'This upload link was withdrawn',
}

/** Why a link cannot be used: the page says which, and what to do. */
export class UploadLinkError extends Error {
	constructor(readonly reason: LinkProblem) {
		super(PROBLEM_MESSAGES[reason])
	}
}

/** Why a known link no longer works, or null while it does. */
function problemOf(deps: AppDeps, row: { expiresAt: Date; revokedAt: Date | null; replacedBy: string | null }): LinkProblem | null {
	if (row.revokedAt) return row.replacedBy ? 'replaced' : 'revoked'
	if (row.expiresAt.getTime() <= deps.now().getTime()) return 'expired'
	return null
}

export interface UploadLink {
	requestId: string
	workspaceId: string
	workspaceSlug: string
	workspaceName: string
	candidateId: string
	candidateName: string
	items: DocumentKind[]
	message: string | null
	requestedByName: string
	requestedByUserId: string | null
	applicationId: string | null
	expiresAt: Date
	/** Files received through this link, newest first, in the reverse of upload order within a millisecond (names, sizes and dates only). */
	received: ReceivedFile[]
}

export interface ReceivedFile {
	kind: DocumentKind
	fileName: string
	sizeBytes: number
	uploadedAt: Date
}

/**
 * Files of one kind one link takes: the first and two better copies (a blurred scan, the wrong
 * side). The newest is the one used, so a candidate fixing a mistake never needs more; to send more,
 * they ask for a new link.
 */
export const FILES_PER_KIND_PER_LINK = 3
/** Bytes one link takes in all, whatever the kinds: five files of the largest size. */
export const BYTES_PER_LINK = 50 * 1024 * 1024

export interface LinkLimits {
	filesPerKind: number
	bytes: number
}
export const LINK_LIMITS: LinkLimits = { filesPerKind: FILES_PER_KIND_PER_LINK, bytes: BYTES_PER_LINK }

/** "9.8 MB", "512 KB": sizes as the upload page says them. */
export function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${(Math.floor((bytes / (1024 * 1024)) * 10) / 10).toString()} MB`
	return `${Math.max(1, Math.ceil(bytes / 1024))} KB`
}

/** What a link can still take: files of each kind, and bytes in all. */
export function linkAllowance(received: readonly Pick<ReceivedFile, 'kind' | 'sizeBytes'>[], limits: LinkLimits = LINK_LIMITS) {
	const used = received.reduce((sum, r) => sum + r.sizeBytes, 0)
	return {
		filesLeft: (kind: DocumentKind) => Math.max(0, limits.filesPerKind - received.filter((r) => r.kind === kind).length),
		bytesLeft: Math.max(0, limits.bytes - used),
		bytesUsed: used,
	}
}

/**
 * Whether one more file of `kind` and `size` bytes fits what the link already took; null when it does.
 * Refused with 409: the link is fine, but it has taken all it takes of that (the page says what to do).
 */
export function linkAllowanceRefusal(
	received: readonly Pick<ReceivedFile, 'kind' | 'sizeBytes'>[],
	kind: DocumentKind,
	size: number,
	limits: LinkLimits = LINK_LIMITS,
): AppError | null {
	const allowance = linkAllowance(received, limits)
	const label = DOCUMENT_LABELS[kind]
	if (allowance.filesLeft(kind) === 0)
		return new AppError(
			'CONFLICT',
			`This link has already taken ${limits.filesPerKind} files for the ${label}, the most it takes; the newest one is the one used. To send another, ask your recruiter for a new link.`,
			{ fields: [{ field: 'file', message: `at most ${limits.filesPerKind} files for the ${label} through one link` }] },
		)
	if (size > allowance.bytesLeft)
		return new AppError(
			'CONFLICT',
			allowance.bytesLeft === 0
				? `This link has already taken ${sizeText(limits.bytes)} of files, the most it takes in all. To send more, ask your recruiter for a new link.`
				: `This link takes ${sizeText(limits.bytes)} of files in all and ${sizeText(allowance.bytesUsed)} were sent, so this file (${sizeText(size)}) is too large: send a file of at most ${sizeText(allowance.bytesLeft)} (a lower-resolution scan), or ask your recruiter for a new link.`,
			{ fields: [{ field: 'file', message: `is more than this link still takes (${sizeText(allowance.bytesLeft)})` }] },
		)
	return null
}

export async function openUploadLink(deps: AppDeps, token: string): Promise<UploadLink> {
	// A forged or mistyped link fails its checksum: no database query for it.
	if (credentialType(token) !== 'ul') throw new UploadLinkError('invalid')
	const [row] = await deps.db
		.select({
			requestId: documentRequests.id,
			workspaceId: documentRequests.workspaceId,
			candidateId: documentRequests.candidateId,
			items: documentRequests.items,
			message: documentRequests.message,
			requestedByName: documentRequests.requestedByName,
			requestedByUserId: documentRequests.requestedByUserId,
			applicationId: documentRequests.applicationId,
			expiresAt: documentRequests.expiresAt,
			revokedAt: documentRequests.revokedAt,
			replacedBy: documentRequests.replacedBy,
		})
		.from(documentRequests)
		.where(eq(documentRequests.tokenHash, hashSecret(token)))
	if (!row) throw new UploadLinkError('invalid')
	const problem = problemOf(deps, row)
	if (problem) throw new UploadLinkError(problem)
	const names = await uploadPageNames(deps, row.workspaceId, row.candidateId)
	if (!names) throw new UploadLinkError('invalid')
	const received = await deps.db
		.select({
			kind: candidateDocuments.kind,
			fileName: candidateDocuments.fileName,
			sizeBytes: candidateDocuments.sizeBytes,
			uploadedAt: candidateDocuments.uploadedAt,
		})
		.from(candidateDocuments)
		.where(eq(candidateDocuments.requestId, row.requestId))
		.orderBy(desc(candidateDocuments.uploadedAt), desc(candidateDocuments.seq))
	const { revokedAt: _revoked, replacedBy: _replacedBy, ...link } = row
	return { ...link, ...names, items: row.items.filter(isDocumentKind), received: received.map((r) => ({ ...r, kind: r.kind as DocumentKind })) }
}

/** The candidate, acting through the link, as the activity log records it. */
function uploader(link: UploadLink): Actor {
	return {
		workspaceId: link.workspaceId,
		workspaceSlug: link.workspaceSlug,
		role: 'viewer',
		userId: null,
		vendorId: null,
		name: `${link.candidateName} (candidate)`,
		// Not a sign-in credential: recorded so the log says the change came through the upload link.
		credential: { kind: 'upload_link', id: link.requestId, name: 'document upload link' },
		grants: [],
		readOnly: true,
	}
}

export interface UploadedFile {
	name: string
	bytes: Uint8Array
}

/**
 * Counts one more upload through the link, or refuses it: the link stopped working, or it has taken
 * all it takes (`limits`). Counting locks the request row, so a revocation either committed before
 * (and nothing is stored) or waits for this upload to finish, and uploads through one link are
 * judged one after the other: every one that committed is counted here.
 */
async function takeFromLink(tx: Db, deps: AppDeps, link: UploadLink, upload: { kind: DocumentKind; size: number; limits: LinkLimits; now: Date }) {
	const [live] = await tx
		.update(documentRequests)
		.set({ uploadCount: sql`${documentRequests.uploadCount} + 1`, lastUploadAt: upload.now })
		.where(and(eq(documentRequests.id, link.requestId), isNull(documentRequests.revokedAt), gt(documentRequests.expiresAt, upload.now)))
		.returning({ id: documentRequests.id })
	if (!live) {
		const [row] = await tx
			.select({ expiresAt: documentRequests.expiresAt, revokedAt: documentRequests.revokedAt, replacedBy: documentRequests.replacedBy })
			.from(documentRequests)
			.where(eq(documentRequests.id, link.requestId))
		throw new UploadLinkError((row && problemOf(deps, row)) || 'expired')
	}
	const taken = await tx
		.select({ kind: candidateDocuments.kind, sizeBytes: candidateDocuments.sizeBytes })
		.from(candidateDocuments)
		.where(eq(candidateDocuments.requestId, link.requestId))
	const refusal = linkAllowanceRefusal(
		taken.map((t) => ({ kind: t.kind as DocumentKind, sizeBytes: t.sizeBytes })),
		upload.kind,
		upload.size,
		upload.limits,
	)
	if (refusal) throw refusal
}

/** The kind and file an upload names, checked against the link: what it asks for, size and real type. */
function checkedUpload(
	link: UploadLink,
	kind: string,
	file: UploadedFile | null,
): { kind: DocumentKind; file: UploadedFile; type: NonNullable<ReturnType<typeof detectType>> } {
	if (!isDocumentKind(kind) || !link.items.includes(kind))
		throw invalid([{ field: 'kind', message: 'This link does not ask for that document: choose one of the documents listed' }])
	if (!file || file.bytes.byteLength === 0) throw invalid([{ field: 'file', message: `choose a file for the ${DOCUMENT_LABELS[kind]}` }])
	if (file.bytes.byteLength > MAX_DOCUMENT_BYTES)
		throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 10 MB. Scan or photograph it at a lower resolution and try again.', {
			fields: [{ field: 'file', message: 'is larger than 10 MB' }],
		})
	const type = detectType(file.bytes)
	if (!type) throw invalid([{ field: 'file', message: 'must be a PDF, JPEG or PNG file (this file is something else, whatever its name says)' }])
	return { kind, file, type }
}

/** `limits` is the link's allowance (`LINK_LIMITS`; tests lower it). */
export async function storeUpload(
	deps: AppDeps,
	token: string,
	kindAsked: string,
	fileSent: UploadedFile | null,
	limits: LinkLimits = LINK_LIMITS,
): Promise<{ kind: DocumentKind; fileName: string }> {
	const link = await openUploadLink(deps, token)
	const { kind, file, type } = checkedUpload(link, kindAsked, fileSent)
	// Refused before anything is stored when what the link already took says so; decided again below, under the lock.
	const early = linkAllowanceRefusal(link.received, kind, file.bytes.byteLength, limits)
	if (early) throw early

	const id = newId('doc')
	const fileName = cleanFileName(file.name, `${kind}.${type.extension}`)
	const key = `documents/${link.workspaceId}/${link.candidateId}/${id}.${type.extension}`
	const store = fileStore(deps.config)
	const assignee = link.requestedByUserId
		? await flowAssignee(deps, {
				workspaceId: link.workspaceId,
				userId: link.requestedByUserId,
				source: 'document',
				candidateId: link.candidateId,
				applicationId: link.applicationId,
			})
		: null
	await store.put(key, file.bytes, type.contentType)
	try {
		await deps.db.transaction(async (tx) => {
			const now = deps.now()
			await takeFromLink(tx, deps, link, { kind, size: file.bytes.byteLength, limits, now })
			await tx.insert(candidateDocuments).values({
				id,
				workspaceId: link.workspaceId,
				candidateId: link.candidateId,
				kind,
				fileName,
				contentType: type.contentType,
				sizeBytes: file.bytes.byteLength,
				storageKey: key,
				requestId: link.requestId,
				uploadedAt: now,
			})
			await recordActivity(tx, uploader(link), {
				action: 'document.uploaded',
				targetType: 'candidate',
				targetId: link.candidateId,
				detail: { documentId: id, kind, fileName, contentType: type.contentType, sizeBytes: file.bytes.byteLength },
			})
			await recordEvent(tx, documentUploaded, uploader(link), {
				documentId: id,
				candidateId: link.candidateId,
				applicationId: link.applicationId ?? null,
				requestId: link.requestId,
				kind,
			})
			// The person who asked gets a to-do to look at it (one per kind and request, however often re-uploaded),
			// or an owner when they may no longer (flowAssignee). No names in it: the candidate is shown beside it.
			if (assignee)
				await createTodo(tx, {
					workspaceId: link.workspaceId,
					assigneeUserId: assignee,
					candidateId: link.candidateId,
					applicationId: link.applicationId ?? undefined,
					title: `Review the ${DOCUMENT_LABELS[kind]} uploaded`,
					source: 'document',
					sourceRef: `${link.requestId}:${kind}`,
				})
		})
	} catch (error) {
		await store.delete(key).catch(() => {})
		throw error
	}
	return { kind, fileName }
}
