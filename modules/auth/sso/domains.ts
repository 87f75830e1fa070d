/**
 * Which workspace's single sign-on an e-mail address belongs to: by its domain, among the domains a
 * workspace verified (`sso_domains`, one workspace per domain; domain-verification.ts). The one rule
 * for sign-in and provisioning: an address whose domain another workspace's single sign-on covers
 * is never sent to, created in or attached to this one; a domain only claimed (not verified) covers
 * no one, so it neither attaches a firm's people nor keeps them from their own workspace.
 */
import { eq } from 'drizzle-orm'
import { AppError } from '../../../core/errors.ts'
import type { Db } from '../../../db/client.ts'
import { domainOf } from '../../../core/email.ts'
import { ssoDomains } from '../table.ts'

/** The workspace whose single sign-on covers the address's domain, or null. */
export async function ssoWorkspaceOf(db: Db, email: string): Promise<string | null> {
	const domain = domainOf(email)
	if (!domain) return null
	const [row] = await db.select({ workspaceId: ssoDomains.workspaceId }).from(ssoDomains).where(eq(ssoDomains.domain, domain))
	return row?.workspaceId ?? null
}

/** Why an address cannot join `workspaceId`: its domain is another workspace's single sign-on's; null when it may. */
export async function coveredElsewhere(db: Db, workspaceId: string, email: string): Promise<string | null> {
	const claimedBy = await ssoWorkspaceOf(db, email)
	return claimedBy && claimedBy !== workspaceId
		? `${domainOf(email)} belongs to another workspace’s single sign-on: its people join through that workspace’s identity provider, not here`
		: null
}

/**
 * Refuses (409) an address another workspace's single sign-on covers, wherever an account is made
 * or joined to a workspace: SCIM, an invitation, the operator's CLI. An invitation once made the
 * account with the inviter's password, which that firm's provisioning then attached as it was: the
 * inviter of another workspace signed in as the firm's person. Answers the workspace whose single
 * sign-on covers the address (this one or none).
 */
export async function requireNotClaimedElsewhere(db: Db, workspaceId: string, email: string): Promise<string | null> {
	const why = await coveredElsewhere(db, workspaceId, email)
	if (why) throw new AppError('CONFLICT', why)
	return ssoWorkspaceOf(db, email)
}
