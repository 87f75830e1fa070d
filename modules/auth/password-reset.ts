/**
 * Forgot password: an e-mail with a link to choose a new password.
 *
 * Rules:
 * - The answer is the same whether or not the address has an account: the same page, the same
 *   status, and as far as cheap the same time, because the answer does not wait for the mail (the
 *   look-up, the link and the outbox row are made after it, `settled`). Malformed addresses and the
 *   limits below are judged on the address as typed, never on whether it has an account.
 * - Throttled per client address (5 requests a minute) and per account (3 a minute for the address
 *   typed, and at most 5 links made for one account in an hour, beyond which nothing is sent and
 *   the answer stays the same): nobody can flood a person's mailbox.
 * - The link (`bl_pwr_…`, core/credentials.ts) is random, carries its type and a checksum, is
 *   stored only as its SHA-256 (looked up by that hash through a unique index, so no comparison
 *   of the secret itself is made in code), works for 30 minutes and once. Using it ends every
 *   session of the person and uses up their other links (passwords.ts).
 * - The mail goes through the outbox like every mail, with the link sealed (only the recipient gets
 *   it: it is never revealable in the dev mailbox, where a workspace's admin would otherwise take
 *   over the person's account in every workspace). It belongs to a workspace the person is in (or
 *   invited to), and it is account mail: the inbox does not copy it (ACCOUNT_MAIL).
 */
import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm'
import { credentialType, hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { cleanLine } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { ACCOUNT_MAIL, enqueueMail } from '../outbox/index.ts'
import { disconnectAppsAndTokens } from './access.ts'
import { logInEveryWorkspace, newPasswordProblems, storePassword, type NewPassword } from './passwords.ts'
import { invitations, memberships, passwordResets, users } from './table.ts'
import { hashPassword } from './password-hash.ts'
import { mayBeEmailOnFile, normalEmail } from '../../core/email.ts'

export const RESET_LINK_MINUTES = 30
const REQUESTS_PER_ADDRESS_PER_MINUTE = 5
const REQUESTS_PER_ACCOUNT_PER_MINUTE = 3
const LINKS_PER_ACCOUNT_PER_HOUR = 5
const HOUR_MS = 3_600_000

export const LINK_DEAD = 'This link to choose a new password has expired or has already been used. Ask for a new one: links work for 30 minutes, once.'

/** Where a link points: `<BASE_URL>/sign-in/reset-password/bl_pwr_…` (under /sign-in, with the other pages of signing in). */
export const resetLinkPath = (token: string) => `/sign-in/reset-password/${token}`

/**
 * Takes a request for a reset link. Throws only for what depends on the input as typed (a malformed
 * address, a limit); the work that depends on the account is `settled`, which the answer does not
 * wait for (never rejects: failures are logged).
 */
export async function requestPasswordReset(deps: AppDeps, input: { email: string; address: string }): Promise<{ settled: Promise<void> }> {
	const email = normalEmail(input.email)
	// Looked up, not stored: an account kept from before the dot-atom rule (`ann..lee@`) can ask too (core/email.ts).
	if (!mayBeEmailOnFile(email)) throw invalid([{ field: 'email', message: 'Enter your e-mail address, like name@example.com' }])
	const byAddress = await deps.limiter.hit(`password-reset:address:${input.address}`, REQUESTS_PER_ADDRESS_PER_MINUTE)
	if (!byAddress.allowed) throw tooMany(byAddress.resetSeconds)
	// Keyed by the address typed (hashed: no e-mail address in the limiter's keys), account or not.
	const byAccount = await deps.limiter.hit(`password-reset:account:${hashSecret(email)}`, REQUESTS_PER_ACCOUNT_PER_MINUTE)
	if (!byAccount.allowed) throw tooMany(byAccount.resetSeconds)
	const settled = sendResetLink(deps, email).catch((error) => deps.log.warn('password reset link could not be queued', { error }))
	return { settled }
}

const tooMany = (seconds: number) =>
	new AppError('RATE_LIMITED', `Too many requests for a link. Wait ${seconds} seconds, then try again.`, { retryAfter: seconds })

/** The workspace whose outbox carries the person's mail: their first workspace, else one inviting them. */
async function mailWorkspace(db: Db, userId: string, email: string, now: Date): Promise<string | null> {
	const [member] = await db
		.select({ workspaceId: memberships.workspaceId })
		.from(memberships)
		.where(and(eq(memberships.userId, userId), isNull(memberships.removedAt)))
		.orderBy(asc(memberships.createdAt), asc(memberships.workspaceId))
		.limit(1)
	if (member) return member.workspaceId
	const [invited] = await db
		.select({ workspaceId: invitations.workspaceId })
		.from(invitations)
		.where(and(eq(invitations.email, email), eq(invitations.status, 'pending'), gt(invitations.expiresAt, now)))
		.orderBy(desc(invitations.createdAt))
		.limit(1)
	return invited?.workspaceId ?? null
}

async function sendResetLink(deps: AppDeps, email: string): Promise<void> {
	const [user] = await deps.db.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email))
	if (!user) return
	const now = deps.now()
	// An account in no workspace and invited nowhere cannot sign in: there is nothing to reset for.
	const workspaceId = await mailWorkspace(deps.db, user.id, email, now)
	if (!workspaceId) return
	const [recent] = await deps.db
		.select({ n: count() })
		.from(passwordResets)
		.where(and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(now.getTime() - HOUR_MS))))
	if ((recent?.n ?? 0) >= LINKS_PER_ACCOUNT_PER_HOUR) {
		deps.log.info('password reset link not sent: the hourly limit for the account is reached', { userId: user.id })
		return
	}
	const token = newCredential('pwr')
	const link = `${deps.config.baseUrl}${resetLinkPath(token)}`
	const id = newId('pwr')
	const text = [
		`Hello ${cleanLine(user.name, 120)},`,
		'',
		`Someone, probably you, asked to choose a new password for the Benchline account ${email}. Choose it here (the link works for ${RESET_LINK_MINUTES} minutes, once):`,
		'',
		link,
		'',
		'Choosing a new password signs you out everywhere else. If you did not ask, ignore this e-mail: your password stays as it is.',
	].join('\n')
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(passwordResets)
			.values({ id, tokenHash: hashSecret(token), userId: user.id, createdAt: now, expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000) })
		// Sealed for the recipient alone, and never revealable (see above).
		await enqueueMail(
			tx,
			{
				workspaceId,
				to: email,
				subject: 'Choose a new Benchline password',
				text,
				related: { type: ACCOUNT_MAIL, id },
				recipientOnly: { value: link, serverSecret: deps.secret },
			},
			deps,
		)
	})
}

/** The live link row for a token (not used, not expired), or null; no database query for a malformed token. */
async function liveLink(db: Db, token: string, now: Date) {
	if (credentialType(token) !== 'pwr') return null
	const [row] = await db
		.select({ id: passwordResets.id, userId: users.id, email: users.email, name: users.name })
		.from(passwordResets)
		.innerJoin(users, eq(users.id, passwordResets.userId))
		.where(and(eq(passwordResets.tokenHash, hashSecret(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
	return row ?? null
}

/** The account a link is for, while it works (the page shows the address for password managers). */
export async function resetLinkAccount(deps: AppDeps, token: string): Promise<{ email: string } | null> {
	const row = await liveLink(deps.db, token, deps.now())
	return row ? { email: row.email } : null
}

/**
 * Sets the new password with a link: used up at once (two posts at the same time: one wins), every
 * session of the person ends, their other links are used up. With `disconnect` (the form's "also
 * disconnect apps and personal tokens", ticked unless the person unticks it) every personal token
 * and app connection of the person ends too, in every workspace: whoever knew the old password may
 * have made some. A dead link is NOT_FOUND (`LINK_DEAD`); a bad password is a validation error and
 * leaves the link working.
 */
export async function resetPassword(deps: AppDeps, token: string, input: NewPassword & { disconnect?: boolean }): Promise<{ email: string }> {
	if (!(await liveLink(deps.db, token, deps.now()))) throw new AppError('NOT_FOUND', LINK_DEAD)
	const problems = newPasswordProblems(input)
	if (problems.length) throw invalid(problems)
	const passwordHash = await hashPassword(deps.config, input.password)
	return deps.db.transaction(async (tx) => {
		const now = deps.now()
		const [used] = await tx
			.update(passwordResets)
			.set({ usedAt: now })
			.where(and(eq(passwordResets.tokenHash, hashSecret(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
			.returning({ id: passwordResets.id, userId: passwordResets.userId })
		if (!used) throw new AppError('NOT_FOUND', LINK_DEAD)
		const [person] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, used.userId))
		await storePassword(tx, used.userId, passwordHash, { now, vouched: true })
		const who = { userId: used.userId, name: person!.name, credential: { kind: 'reset_link' as const, id: used.id, name: 'password reset link' } }
		await logInEveryWorkspace(tx, who, 'person.password_reset')
		if (input.disconnect) {
			await disconnectAppsAndTokens(tx, { userId: used.userId, now, reason: 'password_reset' })
			await logInEveryWorkspace(tx, who, 'person.disconnected_everywhere')
		}
		return { email: person!.email }
	})
}
