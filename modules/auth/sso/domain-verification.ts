/**
 * Verifying the e-mail domains of a workspace's single sign-on: a domain an owner lists is only a
 * claim until the workspace proves it controls the domain's DNS.
 *
 * Rules:
 * - Each claim (`sso_domain_claims`) gets a random token of its own; the settings page shows the TXT
 *   record to add (domain-dns.ts). A claim covers no one and blocks no one: single sign-on and SCIM
 *   ask `ssoWorkspaceOf` (domains.ts), which knows verified domains only, and several workspaces may
 *   claim one domain.
 * - **Verify domain** reads the record; when it holds this claim's token the domain is verified for
 *   this workspace (`sso_domains`, one workspace per domain): then its addresses sign in with this
 *   workspace's provider, and SCIM attaches their existing accounts. A domain another workspace
 *   verified first stays that workspace's.
 * - An operator may verify a listed domain without DNS (`sso verify-domain`, commands.ts): an
 *   install upgraded from before verification, whose owners know their claims are genuine.
 * - Removing a domain from the list removes its claim and, if it was verified, frees it.
 */
import { and, eq, inArray, notInArray } from 'drizzle-orm'
import { type Actor, operatorActor } from '../../../core/actor.ts'
import { randomToken } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError } from '../../../core/errors.ts'
import type { Db } from '../../../db/client.ts'
import { recordActivity } from '../../activity/index.ts'
import { normalDomain } from '../../../core/email.ts'
import { ssoDomainClaims, ssoDomains } from '../table.ts'
import { RECORD_PREFIX, recordName, recordValue, txtRecords } from './domain-dns.ts'
import { requireManageSso } from './scim-tokens.ts'

/** `verified`: here; `elsewhere`: another workspace verified it first; `unverified`: no one has. */
export type ClaimStatus = 'verified' | 'unverified' | 'elsewhere'

export interface DomainClaim {
	domain: string
	status: ClaimStatus
	/** The TXT record that verifies it: its name and value. */
	recordName: string
	recordValue: string
	verifiedAt: Date | null
	verifiedBy: string | null
}

/** The workspace's claims, by domain, with their status and TXT record. */
export async function claimsOf(db: Db, workspaceId: string): Promise<DomainClaim[]> {
	const rows = await db
		.select({ claim: ssoDomainClaims, holder: ssoDomains.workspaceId, verifiedAt: ssoDomains.verifiedAt, verifiedBy: ssoDomains.verifiedBy })
		.from(ssoDomainClaims)
		.leftJoin(ssoDomains, eq(ssoDomains.domain, ssoDomainClaims.domain))
		.where(eq(ssoDomainClaims.workspaceId, workspaceId))
		.orderBy(ssoDomainClaims.domain)
	return rows.map(({ claim, holder, verifiedAt, verifiedBy }) => {
		const status: ClaimStatus = !holder ? 'unverified' : holder === workspaceId ? 'verified' : 'elsewhere'
		const mine = status === 'verified'
		return {
			domain: claim.domain,
			status,
			recordName: recordName(claim.domain),
			recordValue: recordValue(claim.token),
			verifiedAt: mine ? verifiedAt : null,
			verifiedBy: mine ? verifiedBy : null,
		}
	})
}

/**
 * The workspace's list of domains becomes `domains` (in the caller's transaction): a domain still
 * listed keeps its claim and token (the record the owner added stays right), a new one gets a claim
 * with a new token, and one no longer listed loses its claim and, if verified here, its verification.
 */
export async function replaceClaims(tx: Db, workspaceId: string, domains: string[]): Promise<void> {
	await tx.delete(ssoDomainClaims).where(and(eq(ssoDomainClaims.workspaceId, workspaceId), notInArray(ssoDomainClaims.domain, domains)))
	await tx.delete(ssoDomains).where(and(eq(ssoDomains.workspaceId, workspaceId), notInArray(ssoDomains.domain, domains)))
	if (domains.length)
		await tx
			.insert(ssoDomainClaims)
			.values(domains.map((domain) => ({ workspaceId, domain, token: randomToken() })))
			.onConflictDoNothing()
}

/** Domains of `domains` that a workspace other than this one verified. */
export async function verifiedElsewhere(db: Db, workspaceId: string, domains: string[]): Promise<string[]> {
	if (!domains.length) return []
	const rows = await db.select({ domain: ssoDomains.domain, holder: ssoDomains.workspaceId }).from(ssoDomains).where(inArray(ssoDomains.domain, domains))
	return rows.filter((r) => r.holder !== workspaceId).map((r) => r.domain)
}

/** **Verify domain**: reads the claim's TXT record and, when it holds the token, verifies the domain here. */
export async function verifyDomain(deps: AppDeps, actor: Actor, input: { domain: string }): Promise<'verified' | 'already'> {
	requireManageSso(deps, actor)
	const claim = await requireClaim(deps.db, actor.workspaceId, input.domain)
	if (claim.status === 'verified') return 'already'
	if (claim.status === 'elsewhere') throw elsewhere(claim.domain)
	const found = await txtRecords(deps.config, claim.recordName)
	if (!found.some((r) => r.trim() === claim.recordValue)) throw new AppError('VALIDATION', notFound(claim, found))
	return markVerified(deps, actor, claim.domain, 'dns')
}

/** `sso verify-domain`: the operator vouches for a domain the workspace listed; no DNS is read. */
export async function verifyDomainByOperator(
	deps: AppDeps,
	ws: { id: string; slug: string },
	input: { domain: string },
): Promise<{ domain: string; result: 'verified' | 'already' }> {
	const claim = await requireClaim(deps.db, ws.id, input.domain)
	if (claim.status === 'elsewhere') throw elsewhere(claim.domain)
	// The claim's own spelling: what was typed may be another (Unicode, a trailing dot) of the same domain.
	return { domain: claim.domain, result: await markVerified(deps, operatorActor(ws), claim.domain, 'operator') }
}

/** Every claim of every workspace (the operator's `sso list-domains`), by domain then workspace. */
export async function allClaims(db: Db): Promise<(DomainClaim & { workspaceId: string })[]> {
	const rows = await db.selectDistinct({ workspaceId: ssoDomainClaims.workspaceId }).from(ssoDomainClaims)
	const lists = await Promise.all(rows.map(async ({ workspaceId }) => (await claimsOf(db, workspaceId)).map((c) => ({ ...c, workspaceId }))))
	return lists.flat().sort((a, b) => a.domain.localeCompare(b.domain) || a.workspaceId.localeCompare(b.workspaceId))
}

async function requireClaim(db: Db, workspaceId: string, typed: string): Promise<DomainClaim> {
	const domain = normalDomain(typed) ?? typed.trim().toLowerCase()
	const claim = (await claimsOf(db, workspaceId)).find((c) => c.domain === domain)
	if (!claim) throw new AppError('NOT_FOUND', `${domain || 'That domain'} is not one of this workspace’s single sign-on domains: list it first`)
	return claim
}

const elsewhere = (domain: string) =>
	new AppError('CONFLICT', `Another workspace’s single sign-on covers ${domain}: it verified the domain first. Remove it from your list`)

/**
 * Why the record did not verify. Only verification values are repeated to the owner: the record's
 * name is theirs to point anywhere (a CNAME), and the resolver may reach names the internet cannot
 * (a company resolver in DNS_SERVERS, with internal zones), whose TXT records are not the owner's to read.
 */
function notFound(claim: DomainClaim, found: string[]): string {
	const expected = `Add the TXT record ${claim.recordName} with the value ${claim.recordValue}`
	if (!found.length)
		return `No TXT record was found at ${claim.recordName}. ${expected}, then press Verify domain again (a new record can take a few minutes to appear)`
	const ours = found.map((r) => r.trim()).filter((r) => r.startsWith(RECORD_PREFIX))
	const others = found.length - ours.length
	if (!ours.length)
		return `The TXT record${others > 1 ? 's' : ''} at ${claim.recordName} ${others > 1 ? `(${others}) are not Benchline verification values` : 'is not a Benchline verification value'} (their values are not shown). ${expected}`
	const seen = ours.map((r) => `“${r.slice(0, 120)}”`).join(', ')
	const besides = others ? ` (besides ${others} other record${others > 1 ? 's' : ''})` : ''
	return `The TXT record at ${claim.recordName} says ${seen}${besides}, not this workspace’s value. ${expected}`
}

/**
 * Verifies the domain for the actor's workspace. The claim is locked first, so a save that removes
 * it at the same moment waits and then frees the domain, instead of leaving it verified unlisted.
 */
async function markVerified(deps: AppDeps, actor: Actor, domain: string, by: 'dns' | 'operator'): Promise<'verified' | 'already'> {
	return deps.db.transaction(async (tx) => {
		const [claim] = await tx
			.select({ domain: ssoDomainClaims.domain })
			.from(ssoDomainClaims)
			.where(and(eq(ssoDomainClaims.workspaceId, actor.workspaceId), eq(ssoDomainClaims.domain, domain)))
			.for('update')
		if (!claim) throw new AppError('NOT_FOUND', `${domain} was removed from this workspace’s single sign-on domains meanwhile`)
		const inserted = await tx
			.insert(ssoDomains)
			.values({ domain, workspaceId: actor.workspaceId, verifiedAt: deps.now(), verifiedBy: by })
			.onConflictDoNothing()
			.returning({ domain: ssoDomains.domain })
		if (!inserted.length) {
			// Someone verified it between the check and now: this workspace (a second press) or another.
			const [holder] = await tx.select({ workspaceId: ssoDomains.workspaceId }).from(ssoDomains).where(eq(ssoDomains.domain, domain))
			if (holder?.workspaceId === actor.workspaceId) return 'already'
			throw elsewhere(domain)
		}
		await recordActivity(tx, actor, { action: 'sso.domain_verified', targetType: 'workspace', targetId: actor.workspaceId, detail: { domain, by } })
		return 'verified'
	})
}
