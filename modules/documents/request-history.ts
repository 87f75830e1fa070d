/**
 * The document requests sent to a candidate, newest first (requests of the same millisecond: the one
 * written last first, by `seq`), with the state of each upload link
 * (for the candidate page; the links themselves are never shown: they are the candidate's).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { DocumentKind } from '../vendors/index.ts'
import { documentRequests } from './table.ts'

export type LinkState = 'active' | 'expired' | 'replaced' | 'revoked'

export interface SentRequest {
	id: string
	items: DocumentKind[]
	requestedByName: string
	createdAt: Date
	expiresAt: Date
	uploadCount: number
	state: LinkState
}

/** The candidate's latest requests (callers have checked the candidate is within reach). */
export async function sentRequests(deps: AppDeps, actor: Actor, candidateId: string, limit = 5): Promise<SentRequest[]> {
	const rows = await deps.database.rows<{
		id: string
		items: DocumentKind[]
		requestedByName: string
		createdAt: Date | string
		expiresAt: Date | string
		uploadCount: number
		revokedAt: Date | string | null
		replacedBy: string | null
	}>(
		sql`select r.id, r.items, r.requested_by_name as "requestedByName", r.created_at as "createdAt", r.expires_at as "expiresAt", r.upload_count as "uploadCount", r.revoked_at as "revokedAt", r.replaced_by as "replacedBy"
from ${documentRequests} r where r.candidate_id = ${candidateId} and r.workspace_id = ${actor.workspaceId} order by r.created_at desc nulls last, r.seq desc nulls last limit ${limit}`,
	)
	const now = deps.now().getTime()
	return rows.map((r) => ({
		id: r.id,
		items: r.items,
		requestedByName: r.requestedByName,
		createdAt: new Date(r.createdAt),
		expiresAt: new Date(r.expiresAt),
		uploadCount: Number(r.uploadCount),
		state: r.revokedAt ? (r.replacedBy ? 'replaced' : 'revoked') : new Date(r.expiresAt).getTime() <= now ? 'expired' : 'active',
	}))
}
