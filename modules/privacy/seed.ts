/**
 * The demo's privacy requests: an access request from one of its candidates, an erasure request
 * for an address no candidate has, overdue, and one already declined. Fixed ids per workspace, so
 * seeding again adds nothing.
 */
import { sql } from 'drizzle-orm'
import { hashSecret, newCredential } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { DUE_DAYS } from './requests.ts'
import { privacyRequests } from './table.ts'

const DAY = 86_400_000

export async function seedPrivacyRequests(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const [candidate] = await deps.database.rows<{ email: string }>(
		sql`select email from candidates where workspace_id = ${ws.id} order by created_at, id limit 1`,
	)
	if (!candidate) return
	const now = deps.now().getTime()
	const request = (n: number, kind: string, email: string, daysAgo: number, more: Partial<typeof privacyRequests.$inferInsert> = {}) => {
		const confirmedAt = new Date(now - daysAgo * DAY)
		return {
			id: `prq_demo${n}_${ws.id}`,
			workspaceId: ws.id,
			kind,
			email,
			note: null,
			// A used link nobody holds: the demo's requests are confirmed.
			tokenHash: hashSecret(newCredential('prq')),
			expiresAt: new Date(confirmedAt.getTime() + 3_600_000),
			createdAt: new Date(confirmedAt.getTime() - 600_000),
			confirmedAt,
			dueAt: new Date(confirmedAt.getTime() + DUE_DAYS * DAY),
			status: 'open',
			...more,
		}
	}
	await deps.db
		.insert(privacyRequests)
		.values([
			request(1, 'access', candidate.email, 3, { note: 'Please include the notes from my interviews.' }),
			request(2, 'erasure', `former.applicant@${ws.slug}.example`, 50),
			request(3, 'access', `someone.else@${ws.slug}.example`, 20, {
				status: 'declined',
				resolvedAt: new Date(now - 18 * DAY),
				resolvedBy: 'Demo owner',
				declineReason: 'We hold no record with this e-mail address.',
			}),
		])
		.onConflictDoNothing()
}
