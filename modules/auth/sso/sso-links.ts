/**
 * Which account at the identity provider a person is (`sso_links`): the provider's `sub` for them,
 * kept at their first sign-in with single sign-on in a workspace.
 *
 * Rules:
 * - A later sign-in for the same address whose `sub` differs at the same issuer is refused: the
 *   provider gave the address to another account (a leaver's address reused), and that account must
 *   not open the first one's Benchline account, its history and its access.
 * - One provider account is one person in a workspace: linked to someone, it opens no one else's
 *   account, whatever address it sends (an address changed at the provider, or a provider that lets
 *   people edit theirs, must not open a colleague's account who has not signed in with SSO yet).
 * - Two first sign-ins at once (two provider accounts with one address, or one account with two
 *   addresses) link one of them; the other is judged by that link, as if it came second.
 * - A linked provider account sending an address no account has is the same person with a new
 *   address at the provider (`sub` with the issuer is what OpenID Connect keeps stable, never the
 *   e-mail): it signs that person in (`linkedAccount`, sso-sign-in.ts).
 * - A sign-in through another issuer (the owner changed provider) links anew: the owner chose it.
 * - People signed in before links were kept are linked at their next sign-in.
 * - An owner may forget a person's link (the provider re-created their account on purpose): their
 *   next sign-in links the account it comes with.
 */
import { and, eq, ne } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError } from '../../../core/errors.ts'
import type { Db } from '../../../db/client.ts'
import { recordActivity } from '../../activity/index.ts'
import { ssoLinks, users } from '../table.ts'
import { SsoProblem } from './oidc.ts'
import { requireManageSso } from './scim-tokens.ts'
import { normalEmail } from '../../../core/email.ts'

export interface ProviderAccount {
	workspaceId: string
	userId: string
	email: string
	issuer: string
	subject: string
	now: Date
}

/** Links the person to the provider's account on first use; refuses another account at the same issuer, or an account linked to someone else. */
export async function requireSameProviderAccount(tx: Db, a: ProviderAccount, again = false): Promise<void> {
	const [someoneElse] = await tx
		.select({ userId: ssoLinks.userId })
		.from(ssoLinks)
		.where(and(eq(ssoLinks.workspaceId, a.workspaceId), eq(ssoLinks.issuer, a.issuer), eq(ssoLinks.subject, a.subject), ne(ssoLinks.userId, a.userId)))
	if (someoneElse)
		throw new SsoProblem(
			`Your account at your identity provider is linked to another Benchline account here, not to ${a.email}, so you were not signed in. If your address changed at the provider, ask an owner of this workspace to forget the provider account of your previous address (Single sign-on settings)`,
		)
	const [link] = await tx
		.select({ issuer: ssoLinks.issuer, subject: ssoLinks.subject })
		.from(ssoLinks)
		.where(and(eq(ssoLinks.workspaceId, a.workspaceId), eq(ssoLinks.userId, a.userId)))
	if (link?.issuer === a.issuer && link.subject === a.subject) return
	if (link?.issuer === a.issuer)
		throw new SsoProblem(
			`${a.email} signed in here before with another account at your identity provider, so you were not signed in. If your provider re-created your account, ask an owner of this workspace to forget the old one (Single sign-on settings)`,
		)
	const values = { issuer: a.issuer, subject: a.subject, linkedAt: a.now }
	// Written only over what was read: a link another sign-in wrote meanwhile is never overwritten.
	const written = link
		? await tx
				.update(ssoLinks)
				.set(values)
				.where(
					and(eq(ssoLinks.workspaceId, a.workspaceId), eq(ssoLinks.userId, a.userId), eq(ssoLinks.issuer, link.issuer), eq(ssoLinks.subject, link.subject)),
				)
				.returning({ userId: ssoLinks.userId })
		: await tx
				.insert(ssoLinks)
				.values({ workspaceId: a.workspaceId, userId: a.userId, ...values })
				.onConflictDoNothing()
				.returning({ userId: ssoLinks.userId })
	if (written.length) return
	// Another sign-in linked this person, or this provider account, first: judged by its link.
	if (again) throw new SsoProblem('Another sign-in with single sign-on for this account happened at the same moment: try again')
	return requireSameProviderAccount(tx, a, true)
}

/** The account a provider account is linked to in the workspace, if any. */
export async function linkedAccount(
	tx: Db,
	a: Pick<ProviderAccount, 'workspaceId' | 'issuer' | 'subject'>,
): Promise<{ userId: string; name: string; email: string } | undefined> {
	const [linked] = await tx
		.select({ userId: users.id, name: users.name, email: users.email })
		.from(ssoLinks)
		.innerJoin(users, eq(users.id, ssoLinks.userId))
		.where(and(eq(ssoLinks.workspaceId, a.workspaceId), eq(ssoLinks.issuer, a.issuer), eq(ssoLinks.subject, a.subject)))
	return linked
}

/** An owner forgets the provider account a person is linked to: their next sign-in links anew. */
export async function forgetProviderAccount(deps: AppDeps, actor: Actor, input: { email: string }): Promise<void> {
	requireManageSso(deps, actor)
	const email = normalEmail(input.email)
	await deps.db.transaction(async (tx) => {
		const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
		const removed = user
			? await tx
					.delete(ssoLinks)
					.where(and(eq(ssoLinks.workspaceId, actor.workspaceId), eq(ssoLinks.userId, user.id)))
					.returning({ userId: ssoLinks.userId })
			: []
		if (!removed.length) throw new AppError('NOT_FOUND', `No one with the address ${email || '(none)'} signed in here with single sign-on`)
		await recordActivity(tx, actor, { action: 'sso.provider_account_forgotten', targetType: 'user', targetId: user!.id, detail: { email } })
	})
}
