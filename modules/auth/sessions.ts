/**
 * Portal sign-in and sessions, following Lucia's documented pattern (without the package):
 * a random token in an HttpOnly, SameSite=Lax cookie (Secure except on plain-http localhost),
 * only its SHA-256 stored, sliding expiry.
 *
 * Rules: wrong credentials get one generic message; repeated failures slow down the address they
 * come from, for that account and for every account (refused for a while), never the account
 * itself, so nobody can lock a person out; a person who left the workspace cannot sign in to it and
 * their sessions end at once (membership is checked on every request). A session is bound to one
 * workspace: a person in several chooses it after the password (sign-in-choice.ts) and may switch
 * (workspace-switch.ts), which replaces the session.
 */
import { pathOf } from '../../core/http/request-path.ts'
import { and, asc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm'
import { hashSecret, newId, randomToken } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { AppError } from '../../core/errors.ts'
import { sessionCsrf } from '../../core/http/csrf.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { UTC } from '../../core/time.ts'
import { memberships, sessions, signInFailures, users, workspaces } from './table.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { membershipColumns, noteUse, personActorFrom } from './credential-use.ts'
import { openChoice, passwordMayOpen, signInDestination } from './sign-in-choice.ts'
import { proposeTimeZone } from './profile.ts'
import { verifyAgainstNothing } from './password-hash.ts'
import type { SignedInBy } from './session-reach.ts'
import { normalEmail } from '../../core/email.ts'

const DAY = 86_400_000
export const SESSION_DAYS = 30
/** Failures within this window count towards slowing down. */
const FAILURE_WINDOW_MS = 15 * 60_000
/** Wrong passwords for one account from one address. */
const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5
/** Wrong passwords from one address, whatever the accounts. */
const MAX_FAILURES_PER_ADDRESS = 20

export const sessionCookieName = (deps: Pick<AppDeps, 'config'>) => (deps.config.https ? '__Host-bl_session' : 'bl_session')

export interface SignInResult {
	token: string
	expiresAt: Date
	workspaceSlug: string
}

/** The password was right; the person chooses a workspace (or answers an invitation) next (sign-in-choice.ts). */
export interface SignInChoice {
	choice: string
	expiresAt: Date
}

export const GENERIC_FAILURE = 'The e-mail address or password is not right.'

/**
 * Checks credentials and opens a session in the person's one workspace (or the one named), or a
 * choice when they have several; throws one generic message for any wrong input.
 */
export async function signIn(
	deps: AppDeps,
	input: { email: string; password: string; address: string; workspace?: string; timeZone?: string },
): Promise<SignInResult | SignInChoice> {
	const email = normalEmail(input.email).slice(0, 254)
	await recordAttempt(deps, email, input.address)
	const [user] = await deps.db.select({ id: users.id, hash: users.passwordHash }).from(users).where(eq(users.email, email))
	const ok = user ? await Bun.password.verify(input.password, user.hash) : await verifyAgainstNothing(deps.config, input.password)
	const destination = ok && user ? (input.workspace ? await firstMembership(deps, user.id, input.workspace) : await signInDestination(deps, user.id)) : null
	// The attempt recorded above stays as a failure.
	if (!ok || !user || !destination) {
		deps.metrics.signInFailure()
		throw new AppError('UNAUTHORIZED', GENERIC_FAILURE)
	}
	await forgetFailures(deps, email, input.address)
	// The browser's zone, the first time (the sign-in form sends it): the person can change it on their profile.
	await proposeTimeZone(deps.db, user.id, input.timeZone)
	if (destination === 'choose') return openChoice(deps, user.id)
	return startSession(deps, user.id, destination)
}

async function firstMembership(deps: AppDeps, userId: string, workspaceSlug?: string) {
	const rows = await deps.db
		.select({ workspaceId: memberships.workspaceId, slug: workspaces.slug })
		.from(memberships)
		.innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
		.where(
			and(eq(memberships.userId, userId), isNull(memberships.removedAt), passwordMayOpen(), workspaceSlug ? eq(workspaces.slug, workspaceSlug) : undefined),
		)
		.orderBy(asc(workspaces.slug))
		.limit(1)
	return rows[0] ?? null
}

/**
 * Records the attempt as a failure *before* the password is checked (a success deletes it), then
 * counts it with the earlier ones: guesses sent at the same time see each other, so a burst cannot
 * pass the check before any of them is recorded. A refused attempt is not counted.
 *
 * Counted per (account, address) and per address, never per account alone: a count per account
 * let anyone lock a person out with a few wrong passwords (issue 16). An attacker slows down only
 * the addresses it guesses from.
 */
async function recordAttempt(deps: AppDeps, email: string, address: string) {
	const now = deps.now()
	const id = newId('sif')
	await deps.db.insert(signInFailures).values({ id, email, address, at: now })
	// An ISO string, not a Date: postgres.js cannot bind a Date inside raw SQL.
	const since = new Date(now.getTime() - FAILURE_WINDOW_MS).toISOString()
	const [counts] = await deps.database.rows<{ account: number; address: number }>(sql`select
		(select count(*)::int from ${signInFailures} where email = ${email} and address = ${address} and at > ${since}::timestamptz) as account,
		(select count(*)::int from ${signInFailures} where address = ${address} and at > ${since}::timestamptz) as address`)
	if ((counts?.account ?? 0) > MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS || (counts?.address ?? 0) > MAX_FAILURES_PER_ADDRESS) {
		await deps.db.delete(signInFailures).where(eq(signInFailures.id, id))
		const seconds = await secondsUntilAttempt(deps, email, address, since)
		throw new AppError('RATE_LIMITED', `Too many failed attempts. Wait ${inWords(seconds)}, then try again.`, { retryAfter: seconds })
	}
}

/**
 * How long until an attempt is counted again: until the failure that keeps each limit reached (the
 * limit's n-th newest in the window; a refused attempt is not recorded) is older than the window.
 */
async function secondsUntilAttempt(deps: AppDeps, email: string, address: string, since: string): Promise<number> {
	const [row] = await deps.database.rows<{ at: string | Date | null }>(sql`select greatest(
		(select at from ${signInFailures} where email = ${email} and address = ${address} and at > ${since}::timestamptz
			order by at desc offset ${MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS - 1} limit 1),
		(select at from ${signInFailures} where address = ${address} and at > ${since}::timestamptz
			order by at desc offset ${MAX_FAILURES_PER_ADDRESS - 1} limit 1)) as at`)
	const until = row?.at ? new Date(row.at).getTime() + FAILURE_WINDOW_MS : deps.now().getTime()
	return Math.max(1, Math.ceil((until - deps.now().getTime()) / 1000))
}

/** A wait in words: seconds under a minute, else whole minutes (rounded up). */
export function inWords(seconds: number): string {
	if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`
	const minutes = Math.ceil(seconds / 60)
	return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** A successful sign-in clears the failures of that account from that address only (not an attacker's). */
async function forgetFailures(deps: AppDeps, email: string, address: string) {
	await deps.db.delete(signInFailures).where(and(eq(signInFailures.email, email), eq(signInFailures.address, address)))
}

export async function signOut(deps: AppDeps, token: string): Promise<void> {
	await deps.db.delete(sessions).where(eq(sessions.id, hashSecret(token)))
}

/** The session behind a cookie token, with its person and role; slides the expiry when half is used. */
export async function validateSession(
	deps: AppDeps,
	token: string,
): Promise<(PageSession & { expiresAt: Date; refreshed: boolean; passwordTemporary: boolean; lastUsedAt: Date | null }) | null> {
	if (!/^[a-z2-7]{32}$/.test(token)) return null
	const id = hashSecret(token)
	const now = deps.now()
	const [row] = await deps.db
		.select({
			expiresAt: sessions.expiresAt,
			lastUsedAt: sessions.lastUsedAt,
			passwordTemporary: users.passwordTemporary,
			timeZone: users.timeZone,
			...membershipColumns,
		})
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
		.innerJoin(memberships, and(eq(memberships.userId, sessions.userId), eq(memberships.workspaceId, sessions.workspaceId), isNull(memberships.removedAt)))
		// A password session lasts only while a password may open the workspace: once it requires single
		// sign-on, a session opened with a password before is over for all but its owners, as a new one would be.
		.where(and(eq(sessions.id, id), gt(sessions.expiresAt, now), or(ne(sessions.signedInBy, 'password'), passwordMayOpen())))
	if (!row) return null
	let expiresAt = row.expiresAt
	let refreshed = false
	if (expiresAt.getTime() - now.getTime() < (SESSION_DAYS / 2) * DAY) {
		expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY)
		refreshed = true
		await deps.db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id))
	}
	const actor = personActorFrom(row, { kind: 'session', id: id.slice(0, 16), name: 'portal session' }, false)
	return {
		actor,
		csrf: sessionCsrf(deps, id),
		sessionId: id,
		timeZone: row.timeZone ?? UTC,
		timeZoneChosen: row.timeZone !== null,
		expiresAt,
		refreshed,
		passwordTemporary: row.passwordTemporary,
		lastUsedAt: row.lastUsedAt,
	}
}

/** The `User-Agent` a session's list shows: as sent, without control characters, cut to 400 characters. */
const userAgentOf = (request: Request) =>
	(request.headers.get('user-agent') ?? '')
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
		.slice(0, 400)
		.trim() || null

/** Notes when, from where and with which browser the session was last used (to the minute, off the request's path). */
function noteSessionUse(deps: AppDeps, session: { sessionId: string; lastUsedAt: Date | null }, request: Request) {
	noteUse(deps, session.lastUsedAt, (now) =>
		deps.db
			.update(sessions)
			.set({ lastUsedAt: now, address: clientAddress(deps.config, request), userAgent: userAgentOf(request) })
			.where(eq(sessions.id, session.sessionId)),
	)
}

/** Sets the session cookie (also used to slide its expiry). */
export function setSessionCookie(deps: AppDeps, cookie: Record<string, any>, token: string, expiresAt: Date) {
	cookie[sessionCookieName(deps)]!.set({ value: token, httpOnly: true, secure: deps.config.https, sameSite: 'lax', path: '/', expires: expiresAt })
}

export function clearSessionCookie(deps: AppDeps, cookie: Record<string, any>) {
	cookie[sessionCookieName(deps)]!.set({ value: '', httpOnly: true, secure: deps.config.https, sameSite: 'lax', path: '/', maxAge: 0 })
}

/** Where a person with a temporary password chooses their own (`password-routes.ts`). */
export const CHOOSE_PASSWORD_PATH = '/settings/password'
/** What a person with a temporary password may reach before choosing their own: that page, and signing out (as the router reads a path: `/sign-out/` too). */
const OPEN_WITH_TEMPORARY_PASSWORD = new Set([CHOOSE_PASSWORD_PATH, '/sign-out'])
const TEMPORARY_PASSWORD = 'You signed in with a temporary password someone else set: choose your own password first.'

/**
 * The session resolver the portal pages use (registered by the auth module). A person whose
 * password is still the temporary one someone else set is sent to choose their own before any
 * other page (`mustVisit`; the OAuth consent page follows it too): until then the inviter, who
 * knows that password, could be them.
 */
export async function resolvePageSession(deps: AppDeps, request: Request, cookie: Record<string, any>): Promise<PageSession | null> {
	const token = cookie[sessionCookieName(deps)]?.value
	if (typeof token !== 'string' || !token) return null
	const session = await validateSession(deps, token)
	if (!session) return null
	if (session.refreshed) setSessionCookie(deps, cookie, token, session.expiresAt)
	noteSessionUse(deps, session, request)
	const { actor, csrf, sessionId, timeZone, timeZoneChosen } = session
	if (session.passwordTemporary && !OPEN_WITH_TEMPORARY_PASSWORD.has(pathOf(request)))
		return { actor, csrf, sessionId, timeZone, timeZoneChosen, mustVisit: { path: CHOOSE_PASSWORD_PATH, reason: TEMPORARY_PASSWORD } }
	return { actor, csrf, sessionId, timeZone, timeZoneChosen }
}

/**
 * Opens a session bound to one workspace. The caller has checked that the person is in it (the
 * session is checked against the membership on every request anyway).
 */
export async function startSession(
	deps: AppDeps,
	userId: string,
	workspace: { workspaceId: string; slug: string },
	db: Db = deps.db,
	signedInBy: SignedInBy = 'password',
): Promise<SignInResult> {
	const token = randomToken()
	const expiresAt = new Date(deps.now().getTime() + SESSION_DAYS * DAY)
	await db.insert(sessions).values({ id: hashSecret(token), userId, workspaceId: workspace.workspaceId, expiresAt, signedInBy })
	return { token, expiresAt, workspaceSlug: workspace.slug }
}
