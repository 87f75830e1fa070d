/**
 * Document requests and documents written in the same millisecond keep the order they were written
 * in: `seq` (insertion order), not the random id, breaks a tie of `created_at` / `uploaded_at`. Each
 * pair is written in one transaction, where `now()` — their time — is the same, first `…_z…` then
 * `…_a…`, so that their ids sort the other way round.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { hashSecret, newCredential } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newCandidate, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { sentRequests } from './request-history.ts'
import { listCandidateDocuments } from './service.ts'
import { candidateDocuments, documentRequests } from './table.ts'
import { openUploadLink } from './uploads.ts'

setDefaultTimeout(30_000)

let deps: AppDeps
let ws: TestWorkspace
let owner: Actor

beforeAll(async () => {
	deps = await testDeps()
	;({ ws, owner } = await workspaceWithOwner(deps))
}, 60_000)

const request = (id: string, candidateId: string, token = newCredential('ul')) => ({
	id,
	workspaceId: ws.id,
	candidateId,
	items: ['dl'],
	tokenHash: hashSecret(token),
	expiresAt: new Date(Date.now() + 86_400_000),
	requestedByUserId: owner.userId,
	requestedByName: owner.name,
})

const document = (id: string, candidateId: string, fileName: string, requestId: string | null = null) => ({
	id,
	workspaceId: ws.id,
	candidateId,
	kind: 'dl',
	fileName,
	contentType: 'application/pdf',
	sizeBytes: 100,
	storageKey: `documents/${ws.id}/${id}.pdf`,
	requestId,
})

describe('written in the same millisecond', () => {
	test('requests sent to a candidate: newest first, the one sent last on top', async () => {
		const candidateId = await newCandidate(ws, { resume: false }, deps)
		const [first, second] = [`dreq_z${candidateId}`, `dreq_a${candidateId}`]
		await deps.db.transaction(async (tx) => {
			await tx.insert(documentRequests).values(request(first, candidateId))
			await tx.insert(documentRequests).values(request(second, candidateId))
		})
		// One transaction, one `now()`: the same created_at.
		const written = await deps.db.select({ createdAt: documentRequests.createdAt }).from(documentRequests).where(eq(documentRequests.candidateId, candidateId))
		expect(new Set(written.map((r) => r.createdAt.getTime())).size).toBe(1)
		expect((await sentRequests(deps, owner, candidateId)).map((r) => r.id)).toEqual([second, first])
	})

	test('documents on file: newest first, and the one stored last is the current one of its kind', async () => {
		const candidateId = await newCandidate(ws, { resume: false }, deps)
		await deps.db.transaction(async (tx) => {
			await tx.insert(candidateDocuments).values(document(`doc_z${candidateId}`, candidateId, 'stored first.pdf'))
			await tx.insert(candidateDocuments).values(document(`doc_a${candidateId}`, candidateId, 'stored second.pdf'))
		})
		const written = await deps.db.select({ at: candidateDocuments.uploadedAt }).from(candidateDocuments).where(eq(candidateDocuments.candidateId, candidateId))
		expect(new Set(written.map((d) => d.at.getTime())).size).toBe(1)
		const { documents } = await listCandidateDocuments(deps, owner, candidateId)
		expect(documents.map((d) => [d.fileName.text, d.current])).toEqual([
			['stored second.pdf', true],
			['stored first.pdf', false],
		])
	})

	test('files received through an upload link: newest first on the upload page', async () => {
		const candidateId = await newCandidate(ws, { resume: false }, deps)
		const token = newCredential('ul')
		const requestId = `dreq_${candidateId}`
		await deps.db.insert(documentRequests).values(request(requestId, candidateId, token))
		await deps.db.transaction(async (tx) => {
			await tx.insert(candidateDocuments).values(document(`doc_z${candidateId}`, candidateId, 'uploaded first.pdf', requestId))
			await tx.insert(candidateDocuments).values(document(`doc_a${candidateId}`, candidateId, 'uploaded second.pdf', requestId))
		})
		expect((await openUploadLink(deps, token)).received.map((r) => r.fileName)).toEqual(['uploaded second.pdf', 'uploaded first.pdf'])
	})
})
