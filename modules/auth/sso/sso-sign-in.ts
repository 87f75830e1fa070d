/**
 * **Sign in with SSO**: the person types their work e-mail, is sent to the identity provider of the
 * workspace whose single sign-on covers its domain, and comes back signed in there.
 *
 * Rules:
 * - Authorization code flow with PKCE (S256), `state` and `nonce` (oidc.ts). The state is kept as
 *   its SHA-256 for ten minutes and used once (the callback deletes it: a replayed state is
 *   refused), and it must be one the short cookie of the browser that started holds (no sign-in
 *   forced on someone else's browser). The cookie holds the newest few (`browserStates`): a
 *   sign-in started in a second tab no longer made the first tab's fail as "not started in this
 *   browser", nor did finishing one tab end the other's.
 * - The ID token's signature, issuer, audience, expiry and nonce are checked by openid-client; its
 *   `email` must be verified (when the provider says) and in a domain this workspace's single
 *   sign-on covers: an address of another workspace's domain is never attached here.
 *   Only a verified domain counts (domain-verification.ts): a domain merely listed sends no one here.
 * - First sign-in: the account (if new, without a usable password) joins the workspace with the
 *   role single sign-on gives new people (just in time). A person whose membership was removed
 *   (deactivated by SCIM, or removed on the people page) is refused.
 * - The provider's `sub` is kept with the person at their first sign-in; another `sub` for the same
 *   address at the same issuer is refused (sso-links.ts).
 * - A linked provider account sending an address no account has (the person's address changed at
 *   the provider) signs that person in, and their account takes the new address while no other
 *   workspace holds it (account-address.ts), rather than being refused until an owner forgot the link
 *   and then making a second, empty account.
 * - Two first sign-ins of a new address at once (two tabs) end as one person, both signed in: the
 *   account and the membership are written with ON CONFLICT DO NOTHING and read back (`accountFor`).
 * - The address typed and the one the provider sends are compared with their domain in its one form
 *   (core/email.ts): `dana@Bücher.example` and `dana@xn--bcher-kva.example` are one address.
 * - Anyone may start, and a start fetches the provider's discovery document (kept a few minutes,
 *   discovery-cache.ts) and stores a row: 60 starts a minute per client address (an office shares
 *   one) and 10 per e-mail address, counted before anything else, so a refused start fetches and stores nothing.
 */
import { and, eq, gt, lt } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../../core/actor.ts'
import { hashSecret, newId, randomToken, safeEqual } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError } from '../../../core/errors.ts'
import type { Db } from '../../../db/client.ts'
import { recordActivity } from '../../activity/index.ts'
import { endInvitationPassword, settleInvitations } from '../access.ts'
import { inWords, startSession, type SignInResult } from '../sessions.ts'
import { memberships, ssoSignIns, users } from '../table.ts'
import { domainOf, emailProblem, isEmailAddress, normalEmail, readableDomain } from '../../../core/email.ts'
import { ssoWorkspaceOf } from './domains.ts'
import { authorizationStart, discover, finishAuthorization, SsoProblem } from './oidc.ts'
import { providerOf } from './sso-config.ts'
import { linkedAccount, requireSameProviderAccount } from './sso-links.ts'
import { addressTaken, heldElsewhere, moveAccountAddress } from './account-address.ts'
import { hashPassword } from '../password-hash.ts'
import { cleanLine } from '../../../core/untrusted.ts'

const MINUTES = 10
/**
 * Starts a minute from one client address: a bound on what one address can make us fetch and store,
 * not a person's limit (an office signs in through one address, many people at nine o'clock).
 */
export const STARTS_PER_ADDRESS_PER_MINUTE = 60
/** Starts a minute for one e-mail address, from anywhere: a person needs a few. */
export const STARTS_PER_EMAIL_PER_MINUTE = 10
export const callbackPath = '/sign-in/sso/callback'
const redirectUri = (deps: AppDeps) => `${deps.config.baseUrl}${callbackPath}`

const tooManyStarts = (whose: string, seconds: number) =>
	new AppError('RATE_LIMITED', `Too many sign-ins with SSO ${whose}. Wait ${inWords(seconds)}, then try again.`, { retryAfter: seconds })

/** Where to send the browser for this work e-mail, and the state its cookie keeps. Throws RATE_LIMITED (with `retryAfter`) past the limit. */
export async function startSsoSignIn(deps: AppDeps, input: { email: string; next: string; address: string }): Promise<{ url: string; state: string }> {
	const email = normalEmail(input.email)
	const byAddress = await deps.limiter.hit(`sso-start:address:${input.address}`, STARTS_PER_ADDRESS_PER_MINUTE)
	if (!byAddress.allowed) throw tooManyStarts('from your address', byAddress.resetSeconds)
	const byEmail = await deps.limiter.hit(`sso-start:email:${hashSecret(email)}`, STARTS_PER_EMAIL_PER_MINUTE)
	if (!byEmail.allowed) throw tooManyStarts('for this e-mail address', byEmail.resetSeconds)
	const problem = emailProblem(email, 'Enter your work e-mail address')
	if (problem) throw new SsoProblem(problem)
	const workspaceId = await ssoWorkspaceOf(deps.db, email)
	const provider = workspaceId ? await providerOf(deps, workspaceId) : null
	if (!provider) throw new SsoProblem(`No single sign-on is set up for ${readableDomain(domainOf(email))}: sign in with your password`)
	const config = await discover(deps, provider)
	const start = await authorizationStart(config, redirectUri(deps), email)
	const now = deps.now()
	await deps.db.delete(ssoSignIns).where(lt(ssoSignIns.expiresAt, now))
	await deps.db.insert(ssoSignIns).values({
		stateHash: hashSecret(start.state),
		workspaceId: provider.workspaceId,
		nonce: start.nonce,
		codeVerifier: start.codeVerifier,
		next: input.next,
		expiresAt: new Date(now.getTime() + MINUTES * 60_000),
	})
	return { url: start.url, state: start.state }
}

/**
 * What the person reads when the provider sends them back with an `error` (RFC 6749 §4.1.2.1) instead
 * of a code: what it means for them and what to do, with the code for their administrator. A code
 * no provider writes (anything but a short word) is not repeated.
 */
function providerRefusal(error: string): string {
	const code = /^[\w.-]{1,64}$/.test(error) ? error : 'an error'
	if (error === 'access_denied')
		return `Your identity provider did not let you into Benchline (${code}): you cancelled, or you are not assigned to the Benchline app there. Ask your administrator to assign you, then start again`
	if (/^(login|interaction|consent|account_selection)_required$/.test(error))
		return `Your identity provider needs you to sign in there first (${code}): start again`
	if (error === 'temporarily_unavailable' || error === 'server_error')
		return `Your identity provider could not sign you in just now (${code}): try again in a moment`
	return `Your identity provider refused the sign-in (${code}). Start again, or ask your administrator`
}

/** The sign-ins one browser may have under way at once (tabs): its cookie keeps the states of the newest. */
export const STATES_PER_BROWSER = 5
const STATE_SEPARATOR = '.'

/**
 * The states a browser's cookie holds (`randomState`'s base64url text, joined by dots), newest last;
 * with `added` (a start) at the end, or without `used` (a callback). Text that is no state is dropped.
 */
export function browserStates(cookie: string, change: { added?: string; used?: string } = {}): string[] {
	const held = cookie.split(STATE_SEPARATOR).filter((s) => /^[\w-]{16,128}$/.test(s) && s !== change.added && s !== change.used)
	return [...held, ...(change.added ? [change.added] : [])].slice(-STATES_PER_BROWSER)
}
export const browserStatesCookie = (states: string[]) => states.join(STATE_SEPARATOR)

/** The provider sent the browser back: checks everything and opens a session. */
export async function finishSsoSignIn(deps: AppDeps, input: { url: URL; browserStates: string[] }): Promise<SignInResult & { next: string }> {
	const state = input.url.searchParams.get('state') ?? ''
	if (!state || !input.browserStates.some((held) => safeEqual(state, held)))
		throw new SsoProblem('This sign-in was not started in this browser, or it has expired: start again')
	// Used once: a second use of the same state (a replay) finds no row.
	const [started] = await deps.db
		.delete(ssoSignIns)
		.where(and(eq(ssoSignIns.stateHash, hashSecret(state)), gt(ssoSignIns.expiresAt, deps.now())))
		.returning()
	if (!started) throw new SsoProblem('This sign-in was already used or has expired: start again')
	const refusal = input.url.searchParams.get('error')
	if (refusal) {
		// The description is the provider's own words, for whoever reads the log (Entra's AADSTS code, Okta's reason).
		deps.log.info('the identity provider refused a sign-in', {
			workspaceId: started.workspaceId,
			error: refusal.slice(0, 100),
			description: input.url.searchParams.get('error_description')?.slice(0, 300),
		})
		throw new SsoProblem(providerRefusal(refusal))
	}
	const provider = await providerOf(deps, started.workspaceId)
	if (!provider) throw new SsoProblem('Single sign-on is no longer set up for this workspace')
	const config = await discover(deps, provider)
	let claims: Claims
	try {
		claims = await finishAuthorization(config, input.url, { state, nonce: started.nonce, codeVerifier: started.codeVerifier })
	} catch (error) {
		if (error instanceof SsoProblem) throw error
		// The cause (wrong audience, expired, bad signature…) goes to the log; the person gets one sentence.
		deps.log.warn('single sign-on refused', { workspaceId: started.workspaceId, error })
		throw new SsoProblem('The identity provider’s answer could not be verified, so you were not signed in. Try again, or ask your administrator', {
			cause: error,
		})
	}
	if (!isEmailAddress(claims.email)) throw new SsoProblem('The identity provider did not send your e-mail address (scope email)')
	if (claims.emailVerified === false) throw new SsoProblem('The identity provider says your e-mail address is not verified')
	if ((await ssoWorkspaceOf(deps.db, claims.email)) !== started.workspaceId)
		throw new SsoProblem(`${claims.email} is not in a domain this workspace’s single sign-on covers`)
	const result = await deps.db.transaction((tx) => signInHere(deps, tx, provider, claims))
	return { ...result, next: started.next }
}

type Provider = NonNullable<Awaited<ReturnType<typeof providerOf>>>
type Claims = Awaited<ReturnType<typeof finishAuthorization>>

/** The person the provider vouched for, in its workspace: found or created, joined if new, linked to the provider's account; a session. */
async function signInHere(deps: AppDeps, tx: Db, provider: Provider, claims: Claims): Promise<SignInResult> {
	const workspaceId = provider.workspaceId
	const account = await accountFor(deps, tx, provider, claims)
	const { userId, name } = account
	const [membership] = await tx
		.select({ removedAt: memberships.removedAt, role: memberships.role })
		.from(memberships)
		.where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
	if (membership?.removedAt) throw new SsoProblem('Your access to this workspace was removed: ask one of its owners')
	await requireSameProviderAccount(tx, { workspaceId, userId, email: claims.email, issuer: provider.issuer, subject: claims.subject, now: deps.now() })
	if (!membership) await joinBySso(deps, tx, provider, { userId, name, email: claims.email })
	else if (account.email !== claims.email) await followNewAddress(deps, tx, provider, { ...account, role: membership.role as PersonRole }, claims.email)
	// The address is in this workspace's domain (checked above): its provider now vouches for the person.
	await endInvitationPassword(deps, tx, userId)
	// The provider vouches for the person in this workspace only: the session opens no other (session-reach.ts).
	return startSession(deps, userId, { workspaceId, slug: provider.slug }, tx, 'sso')
}

/**
 * The account the provider vouched for: the one with the address; else, when no account has it, the
 * one its provider account is linked to here (the person's address changed at the provider: a new
 * name, a renamed domain; `sub` is what stays); else a new one, made without a usable password. Two
 * first sign-ins of a new address at once (two tabs) both find none: the account is inserted with ON
 * CONFLICT DO NOTHING, so the second waits for the first's transaction and then reads the account
 * it made (each statement sees what was committed before it), instead of failing on the unique address.
 */
async function accountFor(deps: AppDeps, tx: Db, provider: Provider, claims: Claims): Promise<{ userId: string; name: string; email: string }> {
	const find = async () => (await tx.select({ userId: users.id, name: users.name, email: users.email }).from(users).where(eq(users.email, claims.email)))[0]
	const existing = await find()
	if (existing) return existing
	const linked = await linkedAccount(tx, { workspaceId: provider.workspaceId, issuer: provider.issuer, subject: claims.subject })
	if (linked) return linked
	// The provider's name claim is outside text: cleaned like any stored name (no control characters, cut by characters).
	const name = cleanLine(claims.name ?? '', 120) || claims.email.slice(0, claims.email.indexOf('@'))
	const passwordHash = await hashPassword(deps.config, randomToken(32))
	const [made] = await tx
		.insert(users)
		.values({ id: newId('usr'), email: claims.email, name, passwordHash })
		.onConflictDoNothing({ target: users.email })
		.returning({ userId: users.id, name: users.name, email: users.email })
	const account = made ?? (await find())
	if (!account) throw new SsoProblem('Another sign-in for this address happened at the same moment: try again')
	return account
}

/** The person acting on their own account (a join, their address following the provider's). */
function selfActor(provider: Provider, person: { userId: string; name: string }, role: PersonRole): Actor {
	return {
		workspaceId: provider.workspaceId,
		workspaceSlug: provider.slug,
		role,
		userId: person.userId,
		vendorId: null,
		name: person.name,
		credential: { kind: 'session', id: '', name: 'single sign-on' },
		grants: [],
		readOnly: false,
	}
}

/**
 * A linked person signing in with a new address (one no account has, in this workspace's domains):
 * the account takes it while no other workspace holds it (account-address.ts, the rule SCIM follows),
 * so their next sign-in, mail and SCIM find them by it; held elsewhere, the address stays as it is
 * (it is their sign-in there too), and they are signed in all the same.
 */
async function followNewAddress(
	deps: AppDeps,
	tx: Db,
	provider: Provider,
	person: { userId: string; name: string; email: string; role: PersonRole },
	email: string,
): Promise<void> {
	if ((await heldElsewhere(tx, provider.workspaceId, person.userId)) || (await addressTaken(tx, email))) {
		deps.log.info('single sign-on kept an account’s address: another workspace holds the account, or another account has the new one', {
			workspaceId: provider.workspaceId,
			userId: person.userId,
		})
		return
	}
	await moveAccountAddress(tx, person.userId, email, deps.now())
	await recordActivity(tx, selfActor(provider, person, person.role), {
		action: 'person.details_changed',
		targetType: 'user',
		targetId: person.userId,
		detail: { email, previousEmail: person.email },
	})
}

/**
 * First sign-in: the person joins with the role single sign-on gives new people (just in time).
 * A sign-in of the same person at the same moment that joined first (its membership committed
 * meanwhile) leaves nothing to do: its join, invitations and activity line stand, none twice.
 */
async function joinBySso(deps: AppDeps, tx: Db, provider: Provider, person: { userId: string; name: string; email: string }): Promise<void> {
	const role = provider.newPersonRole as PersonRole
	const joined = await tx
		.insert(memberships)
		.values({ workspaceId: provider.workspaceId, userId: person.userId, role })
		.onConflictDoNothing()
		.returning({ userId: memberships.userId })
	if (!joined.length) return
	await settleInvitations(tx, { workspaceId: provider.workspaceId, userId: person.userId, now: deps.now() })
	await recordActivity(tx, selfActor(provider, person, role), {
		action: 'person.joined_by_sso',
		targetType: 'user',
		targetId: person.userId,
		detail: { email: person.email, role },
	})
}
