/**
 * A person's password: Change password (`/settings/password`, also where a person with a
 * temporary password chooses their own) and the operator's `user set-password`. Reset links:
 * password-reset.ts.
 *
 * Rules: a password is 10-200 characters (`passwordProblem`); the new one is typed twice and
 * differs from the current one; the current one is asked for, and wrong guesses are limited per
 * person (5 a minute), so a session left open is not a way to take over the account. Any new
 * password ends every other way in that was opened with the old one: the person's other sessions
 * (in every workspace), their pending sign-in choices and reset links; the session it was changed
 * in stays. It is never temporary any more. Personal tokens and connected apps stay: they were
 * made by the person and are revoked on the API access page.
 */
import { and, eq, isNull, ne } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { operatorActor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { passwordProblem } from './people.ts'
import { workspacesOf } from './sign-in-choice.ts'
import { memberships, passwordResets, sessions, signInChoices, users } from './table.ts'
import { hashPassword } from './password-hash.ts'
import { normalEmail } from '../../core/email.ts'

/** Wrong current passwords one person may type in a minute on Change password. */
const WRONG_CURRENT_PER_MINUTE = 5

/** The two fields of a new password, as typed; field ids are those of the forms. */
export interface NewPassword {
	password: string
	confirm: string
}

/** What is wrong with a new password typed twice (field errors keyed by the form's input ids). */
export function newPasswordProblems(input: NewPassword): FieldError[] {
	const problems: FieldError[] = []
	const weak = passwordProblem(input.password)
	if (weak) problems.push({ field: 'new-password', message: `The new password ${weak}` })
	else if (input.password !== input.confirm) problems.push({ field: 'confirm-password', message: 'The two new passwords are not the same' })
	return problems
}

/** Whether the person must still choose their own password (their current one was set by someone else). */
export async function hasTemporaryPassword(db: Db, userId: string): Promise<boolean> {
	const [row] = await db.select({ temporary: users.passwordTemporary }).from(users).where(eq(users.id, userId))
	return row?.temporary ?? false
}

/**
 * Stores the new password (never temporary) and ends every other way in opened with the old one:
 * sessions (all but `keepSessionId`), sign-in choices, reset links not yet used. `vouched`: a reset
 * link (the account's own mail) or the operator set it, so it no longer descends from an invitation;
 * a password changed by knowing the current one keeps the current one's descent.
 */
export async function storePassword(tx: Db, userId: string, passwordHash: string, o: { now: Date; keepSessionId?: string; vouched?: true }): Promise<void> {
	await tx
		.update(users)
		.set({ passwordHash, passwordTemporary: false, ...(o.vouched ? { passwordFromInvitation: false, addressFromWorkspace: null } : {}) })
		.where(eq(users.id, userId))
	await tx.delete(sessions).where(and(eq(sessions.userId, userId), o.keepSessionId ? ne(sessions.id, o.keepSessionId) : undefined))
	await tx.delete(signInChoices).where(eq(signInChoices.userId, userId))
	await tx
		.update(passwordResets)
		.set({ usedAt: o.now })
		.where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
}

/**
 * Logs a password change in every workspace the person is in (their sessions there ended), as the
 * person, with the credential they used.
 */
export async function logInEveryWorkspace(tx: Db, person: Pick<Actor, 'userId' | 'name' | 'credential'>, action: string): Promise<void> {
	for (const w of await workspacesOf(tx, person.userId!))
		await recordActivity(
			tx,
			{ ...person, workspaceId: w.workspaceId, workspaceSlug: w.slug, role: w.role as Actor['role'], vendorId: null, grants: [], readOnly: false },
			{ action, targetType: 'user', targetId: person.userId! },
		)
}

/** Change password, by the signed-in person: their other sessions end, this one stays. */
export async function changePassword(deps: AppDeps, session: PageSession, input: NewPassword & { current: string }): Promise<void> {
	const userId = session.actor.userId
	if (!userId) throw new AppError('FORBIDDEN', 'Only a person has a password')
	const problems = newPasswordProblems(input)
	if (!input.current) problems.unshift({ field: 'current-password', message: 'Enter your current password' })
	else if (input.current === input.password && !problems.length)
		problems.push({ field: 'new-password', message: 'The new password must be different from the current one' })
	if (problems.length) throw invalid(problems)
	const bucket = `password-change:${userId}`
	// Refused once the minute's wrong guesses are used up (`remaining` counts them), the right password included.
	const wait = await deps.limiter.peek(bucket, WRONG_CURRENT_PER_MINUTE)
	if (!wait.allowed || wait.remaining === 0)
		throw new AppError('RATE_LIMITED', `Too many wrong current passwords. Wait ${wait.resetSeconds} seconds, then try again.`, {
			retryAfter: wait.resetSeconds,
		})
	const [user] = await deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId))
	if (!user || !(await Bun.password.verify(input.current, user.hash))) {
		await deps.limiter.hit(bucket, WRONG_CURRENT_PER_MINUTE)
		throw invalid([{ field: 'current-password', message: 'Your current password is not right' }])
	}
	const passwordHash = await hashPassword(deps.config, input.password)
	await deps.db.transaction(async (tx) => {
		await storePassword(tx, userId, passwordHash, { now: deps.now(), keepSessionId: session.sessionId })
		await logInEveryWorkspace(tx, session.actor, 'person.password_changed')
	})
}

/**
 * The operator sets a member's password (`user set-password`): not temporary (the operator's word),
 * and every session of the person ends, since whoever used the old one is signed out.
 */
export async function setPasswordByOperator(deps: AppDeps, ws: WorkspaceRef, input: { email: string; password: string }): Promise<{ userId: string }> {
	const weak = passwordProblem(input.password)
	if (weak) throw invalid([{ field: 'password', message: weak }])
	const email = normalEmail(input.email)
	const passwordHash = await hashPassword(deps.config, input.password)
	return deps.db.transaction(async (tx) => {
		const [member] = await tx
			.select({ userId: users.id })
			.from(memberships)
			.innerJoin(users, eq(users.id, memberships.userId))
			.where(and(eq(memberships.workspaceId, ws.id), eq(users.email, email), isNull(memberships.removedAt)))
		if (!member) throw new AppError('NOT_FOUND', `${email} is not in this workspace`)
		await storePassword(tx, member.userId, passwordHash, { now: deps.now(), vouched: true })
		await recordActivity(tx, operatorActor(ws), { action: 'person.password_set', targetType: 'user', targetId: member.userId })
		return { userId: member.userId }
	})
}
