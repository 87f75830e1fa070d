/**
 * Withdrawing an upload link before it expires, for when a link went to the wrong person or was
 * forwarded. Staff replace a link by sending a new request (see `requests.ts`); an operator can
 * withdraw one outright from the CLI, by the link itself or by its request id.
 */
import { and, eq, isNull } from 'drizzle-orm'
import { hashSecret } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import { operatorActor } from '../auth/index.ts'
import { uploadPageNames } from './subjects.ts'
import { documentRequests } from './table.ts'

export interface RevokedLink {
	requestId: string
	candidateId: string
	/** True when this call withdrew the link; false when it had already stopped working. */
	revoked: boolean
	/** What the link's holder now sees. */
	state: 'revoked' | 'replaced' | 'expired'
}

/** The request behind an upload link given as the whole address, the `bl_ul_…` token, or the request id. */
async function findRequest(deps: AppDeps, which: { link?: string; requestId?: string }) {
	const token = which.link?.match(/bl_ul_[0-9A-Za-z]+/)?.[0]
	if (which.link !== undefined && !token) throw new AppError('VALIDATION', 'The link must be an upload address (…/upload/bl_ul_…) or its bl_ul_… token')
	const [row] = await deps.db
		.select({
			id: documentRequests.id,
			workspaceId: documentRequests.workspaceId,
			candidateId: documentRequests.candidateId,
			expiresAt: documentRequests.expiresAt,
			revokedAt: documentRequests.revokedAt,
			replacedBy: documentRequests.replacedBy,
		})
		.from(documentRequests)
		.where(token ? eq(documentRequests.tokenHash, hashSecret(token)) : eq(documentRequests.id, which.requestId ?? ''))
	if (!row) throw new AppError('NOT_FOUND', 'No document request with this link or id')
	return row
}

export async function revokeUploadLink(deps: AppDeps, which: { link?: string; requestId?: string }): Promise<RevokedLink> {
	const row = await findRequest(deps, which)
	const now = deps.now()
	const result = { requestId: row.id, candidateId: row.candidateId }
	if (row.revokedAt) return { ...result, revoked: false, state: row.replacedBy ? 'replaced' : 'revoked' }
	if (row.expiresAt.getTime() <= now.getTime()) return { ...result, revoked: false, state: 'expired' }
	const names = await uploadPageNames(deps, row.workspaceId, row.candidateId)
	const revoked = await deps.db.transaction(async (tx) => {
		const [done] = await tx
			.update(documentRequests)
			.set({ revokedAt: now })
			.where(and(eq(documentRequests.id, row.id), isNull(documentRequests.revokedAt)))
			.returning({ id: documentRequests.id })
		if (done && names)
			await recordActivity(tx, operatorActor({ id: row.workspaceId, slug: names.workspaceSlug }), {
				action: 'documents.link_revoked',
				targetType: 'candidate',
				targetId: row.candidateId,
				detail: { requestId: row.id },
			})
		return Boolean(done)
	})
	return { ...result, revoked, state: 'revoked' }
}
