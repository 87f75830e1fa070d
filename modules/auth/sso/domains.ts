/**
 * Which workspace's single sign-on an e-mail address belongs to: by its domain, among the domains a
 * workspace verified (`sso_domains`, one workspace per domain; domain-verification.ts). The one rule
 * for sign-in and provisioning: an address whose domain another workspace's single sign-on covers
 * is never sent to, created in or attached to this one; a domain only claimed (not verified) covers
 * no one, so it neither attaches a firm's people nor keeps them from their own workspace.
 */
import { eq } from 'drizzle-orm'
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
