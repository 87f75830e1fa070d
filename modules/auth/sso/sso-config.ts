/**
 * A workspace's single sign-on settings (owners, `/settings/sso`).
 *
 * Rules: saving checks the issuer's discovery document first and stores nothing when it fails,
 * saying what is wrong; the client secret is sealed (secret-box.ts) and never shown again (left
 * blank, the saved one stays); the e-mail domains listed are claims, which cover people once
 * verified (domain-verification.ts), and a domain another workspace verified cannot be listed; the
 * role new people get is any role but Owner (default Recruiter); **Require single sign-on** leaves
 * a password only to owners (the way back in if the provider fails).
 */
import { and, eq } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { invalid } from '../../../core/errors.ts'
import type { FieldError } from '../../../core/errors.ts'
import { recordActivity } from '../../activity/index.ts'
import { normalDomain, readableDomain } from '../../../core/email.ts'
import { ssoConfigs, workspaces } from '../table.ts'
import { MAX_DOMAIN_LENGTH, recordName } from './domain-dns.ts'
import { claimsOf, type DomainClaim, replaceClaims, verifiedElsewhere } from './domain-verification.ts'
import { checkedIssuer, issuerProblem, sameIssuer, SsoProblem } from './oidc.ts'
import { requireManageSso } from './scim-tokens.ts'
import { openClientSecret, sealClientSecret } from './secret-box.ts'

export const NEW_PERSON_ROLES: readonly PersonRole[] = ['admin', 'recruiter', 'hiring_manager', 'viewer']
/** A domain name in its normal form (core/email.ts): ASCII labels, a top-level label of letters or an `xn--` one. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

export interface SsoSettings {
	issuer: string
	clientId: string
	hasSecret: boolean
	/** Every domain listed, verified or not. */
	domains: string[]
	claims: DomainClaim[]
	newPersonRole: string
	requireSso: boolean
}

export interface SsoSettingsInput {
	issuer: string
	clientId: string
	/** Blank: keep the saved one. */
	clientSecret: string
	/** Domains separated by commas, spaces or lines. */
	domains: string
	newPersonRole: string
	requireSso: boolean
}

export async function ssoSettings(deps: AppDeps, actor: Actor): Promise<SsoSettings | null> {
	requireManageSso(deps, actor)
	const [row] = await deps.db.select().from(ssoConfigs).where(eq(ssoConfigs.workspaceId, actor.workspaceId))
	if (!row) return null
	const claims = await claimsOf(deps.db, actor.workspaceId)
	return {
		issuer: row.issuer,
		clientId: row.clientId,
		hasSecret: true,
		domains: claims.map((c) => c.domain),
		claims,
		newPersonRole: row.newPersonRole,
		requireSso: row.requireSso,
	}
}

/** What is wrong with the domains typed (as typed, those with no ASCII form, and the rest in their normal form). */
function domainProblems(typed: string[], unconvertible: string[], domains: string[]): FieldError[] {
	const problems: FieldError[] = []
	if (!typed.length) problems.push({ field: 'domains', message: 'Enter at least one e-mail domain, e.g. yourfirm.com' })
	if (unconvertible.length)
		problems.push({ field: 'domains', message: `Not a domain (it has no ASCII form, which DNS and e-mail use): ${unconvertible.join(', ')}` })
	const bad = domains.filter((d) => !DOMAIN.test(d))
	if (bad.length) problems.push({ field: 'domains', message: `Not a domain: ${bad.map(readableDomain).join(', ')}` })
	const long = domains.filter((d) => DOMAIN.test(d) && d.length > MAX_DOMAIN_LENGTH)
	if (long.length)
		problems.push({
			field: 'domains',
			message: `Too long to verify (its TXT record ${recordName('<domain>')} would be longer than DNS allows; at most ${MAX_DOMAIN_LENGTH} characters in ASCII form): ${long.map(readableDomain).join(', ')}`,
		})
	return problems
}

/** Checks and saves the settings; throws 422 with the fields' problems (the discovery's under `issuer`). */
export async function saveSsoSettings(deps: AppDeps, actor: Actor, input: SsoSettingsInput): Promise<void> {
	requireManageSso(deps, actor)
	const typedIssuer = input.issuer.trim()
	const clientId = input.clientId.trim()
	// Each in its one normal form (`Bücher.example.` is `xn--bcher-kva.example`), so two spellings are one domain.
	const typed = input.domains
		.split(/[\s,;]+/)
		.map((d) => d.trim().replace(/^@/, ''))
		.filter(Boolean)
	const unconvertible = typed.filter((d) => normalDomain(d) === null)
	const domains = [...new Set(typed.map((d) => normalDomain(d)).filter((d): d is string => d !== null))]
	const problems: FieldError[] = []
	const issuerWrong = issuerProblem(deps, typedIssuer)
	if (!typedIssuer || issuerWrong) problems.push({ field: 'issuer', message: `The issuer URL ${issuerWrong ?? 'is required'}` })
	if (!clientId || clientId.length > 255) problems.push({ field: 'clientId', message: 'The client ID is required (at most 255 characters)' })
	const [saved] = await deps.db.select().from(ssoConfigs).where(eq(ssoConfigs.workspaceId, actor.workspaceId))
	// The saved secret is kept only for the provider and client it was given for: sent to an issuer typed
	// since, it would reach whoever runs that issuer's token endpoint (an owner could read it out). The
	// issuer with or without a trailing slash is the same one: both read the same discovery document.
	const keepsSaved = saved !== undefined && sameIssuer(saved.issuer, typedIssuer) && saved.clientId === clientId
	if (!input.clientSecret && !saved) problems.push({ field: 'clientSecret', message: 'The client secret is required' })
	else if (!input.clientSecret && !keepsSaved)
		problems.push({
			field: 'clientSecret',
			message: 'Type the client secret again: the issuer or client ID changed, and the saved secret is only sent to the provider it was given for',
		})
	if (input.clientSecret.length > 1000) problems.push({ field: 'clientSecret', message: 'The client secret is at most 1,000 characters' })
	problems.push(...domainProblems(typed, unconvertible, domains))
	if (!(NEW_PERSON_ROLES as readonly string[]).includes(input.newPersonRole))
		problems.push({ field: 'newPersonRole', message: 'Choose the role new people get: Admin, Recruiter, Hiring manager or Viewer' })
	if (!problems.length) {
		const taken = await verifiedElsewhere(deps.db, actor.workspaceId, domains)
		if (taken.length) problems.push({ field: 'domains', message: `Another workspace’s single sign-on covers ${taken.map(readableDomain).join(', ')}` })
	}
	if (problems.length) throw invalid(problems)
	const clientSecret = input.clientSecret || (await openClientSecret(deps.secret, actor.workspaceId, saved!.clientSecretSealed))
	// From the provider now, not a copy kept for sign-ins: the owner checks it as it is, and sign-ins read it anew after the save.
	let checked: string
	try {
		checked = await checkedIssuer(deps, { issuer: typedIssuer, clientId, clientSecret })
	} catch (error) {
		if (error instanceof SsoProblem) throw invalid([{ field: 'issuer', message: error.message }])
		throw error
	}
	// The same issuer typed another way (a trailing slash) keeps its saved spelling: people's provider
	// accounts are linked under it (sso_links), and a new spelling would be "another issuer" that links
	// them anew, letting an address the provider gave someone new open the old owner's account once.
	const issuer = saved && sameIssuer(saved.issuer, checked) ? saved.issuer : checked
	const sealed = await sealClientSecret(deps.secret, actor.workspaceId, clientSecret)
	const values = {
		issuer,
		clientId,
		clientSecretSealed: sealed,
		newPersonRole: input.newPersonRole,
		requireSso: input.requireSso,
		updatedAt: deps.now(),
		updatedBy: actor.userId,
	}
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(ssoConfigs)
			.values({ workspaceId: actor.workspaceId, ...values })
			.onConflictDoUpdate({ target: ssoConfigs.workspaceId, set: values })
		// Claims only: a domain covers people once verified, which no save does.
		await replaceClaims(tx, actor.workspaceId, domains)
		await recordActivity(tx, actor, {
			action: 'sso.configured',
			targetType: 'workspace',
			targetId: actor.workspaceId,
			detail: { issuer, clientId, domains, newPersonRole: input.newPersonRole, requireSso: input.requireSso, secretChanged: Boolean(input.clientSecret) },
		})
	})
}

/** The single sign-on of the workspace that covers a domain (with the secret opened), or null. */
export async function providerOf(deps: AppDeps, workspaceId: string) {
	const [row] = await deps.db
		.select({ config: ssoConfigs, slug: workspaces.slug })
		.from(ssoConfigs)
		.innerJoin(workspaces, eq(workspaces.id, ssoConfigs.workspaceId))
		.where(and(eq(ssoConfigs.workspaceId, workspaceId)))
	if (!row) return null
	return {
		workspaceId,
		slug: row.slug,
		issuer: row.config.issuer,
		clientId: row.config.clientId,
		clientSecret: await openClientSecret(deps.secret, workspaceId, row.config.clientSecretSealed),
		newPersonRole: row.config.newPersonRole,
	}
}
