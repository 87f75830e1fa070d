/**
 * Entering a workspace: the sign-in choice (after the password) and switching in the portal. Both
 * end with a new session bound to the workspace chosen, which must be one of the person's; a
 * switch replaces the old session (its consent pages and form tokens die with it), so a page of
 * one workspace can never act in the other.
 */
import { eq } from 'drizzle-orm'
import type { Actor, PersonRole } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { recordActivity } from '../activity/index.ts'
import type { Db } from '../../db/client.ts'
import { acceptInvitation, declineInvitation, invitationsFor, type MyInvitation } from './invitations.ts'
import { confinedMessage, confinedTo } from './session-reach.ts'
import { choiceUser, endChoice, workspacesOf, type Membership } from './sign-in-choice.ts'
import { startSession, type SignInResult } from './sessions.ts'
import { sessions, users } from './table.ts'

export const CHOICE_EXPIRED = 'Your sign-in has expired. Sign in again.'
const NOT_YOURS = 'Choose one of your workspaces.'

async function choosingUser(deps: AppDeps, choice: unknown): Promise<string> {
	const userId = await choiceUser(deps, choice)
	if (!userId) throw new AppError('UNAUTHORIZED', CHOICE_EXPIRED)
	return userId
}

/** The sign-in choice: opens the chosen workspace, one the person is in now. */
export async function chooseWorkspace(deps: AppDeps, choice: string, slug: string): Promise<SignInResult> {
	const userId = await choosingUser(deps, choice)
	const place = (await workspacesOf(deps.db, userId, { password: true })).find((w) => w.slug === slug)
	if (!place) throw new AppError('NOT_FOUND', NOT_YOURS)
	await endChoice(deps.db, choice)
	return startSession(deps, userId, place)
}

/** The sign-in choice: accepts an invitation and opens that workspace. */
export async function acceptAtSignIn(deps: AppDeps, choice: string, invitationId: string): Promise<SignInResult> {
	const userId = await choosingUser(deps, choice)
	const ws = await acceptInvitation(deps, userId, invitationId, { kind: 'session', id: '', name: 'sign-in' })
	await endChoice(deps.db, choice)
	return startSession(deps, userId, { workspaceId: ws.id, slug: ws.slug })
}

/** The sign-in choice: declines an invitation (the choice stays open for the rest). */
export async function declineAtSignIn(deps: AppDeps, choice: string, invitationId: string): Promise<void> {
	await declineInvitation(deps, await choosingUser(deps, choice), invitationId)
}

/**
 * The workspaces a portal session may switch to (its own included): those a password opens, or
 * only its own when single sign-on opened it (`session-reach.ts`).
 */
export async function switchableWorkspaces(deps: AppDeps, session: PageSession, db: Db = deps.db): Promise<Membership[]> {
	const all = await workspacesOf(db, session.actor.userId!, { password: true })
	const confined = await confinedTo(db, session)
	return confined ? all.filter((w) => w.workspaceId === confined) : all
}

/** The invitations a portal session may answer: all of the person's, or only its own workspace's when single sign-on opened it. */
export async function invitationsOpenTo(deps: AppDeps, session: PageSession): Promise<MyInvitation[]> {
	const all = await invitationsFor(deps, session.actor.userId!)
	const confined = await confinedTo(deps.db, session)
	return confined ? all.filter((i) => i.workspace.id === confined) : all
}

/** Accepts or declines one of the person's invitations from the portal (within the session's reach). */
export async function answerInvitation(deps: AppDeps, session: PageSession, invitationId: string, answer: 'accept' | 'decline'): Promise<void> {
	const userId = session.actor.userId
	if (!userId) throw new AppError('FORBIDDEN', 'Only a person answers an invitation')
	// A single sign-on session answers only its own workspace's invitations (asked once: invitationsOpenTo would ask again).
	const confined = await confinedTo(deps.db, session)
	if (confined && !(await invitationsFor(deps, userId)).some((i) => i.id === invitationId && i.workspace.id === confined))
		throw new AppError('FORBIDDEN', confinedMessage(session))
	if (answer === 'accept') await acceptInvitation(deps, userId, invitationId, session.actor.credential)
	else await declineInvitation(deps, userId, invitationId)
}

/** Replaces the portal session with one in another of the person's workspaces (within its reach); logged there. */
export async function switchWorkspace(deps: AppDeps, session: PageSession, slug: string): Promise<SignInResult> {
	const userId = session.actor.userId
	if (!userId) throw new AppError('FORBIDDEN', 'Only a person switches workspace')
	return deps.db.transaction(async (tx) => {
		const place = (await switchableWorkspaces(deps, session, tx)).find((w) => w.slug === slug)
		if (!place) {
			const elsewhere = (await workspacesOf(tx, userId, { password: true })).some((w) => w.slug === slug)
			throw elsewhere ? new AppError('FORBIDDEN', confinedMessage(session)) : new AppError('NOT_FOUND', NOT_YOURS)
		}
		const [person] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId))
		await tx.delete(sessions).where(eq(sessions.id, session.sessionId))
		const started = await startSession(deps, userId, place, tx)
		const actor: Actor = {
			workspaceId: place.workspaceId,
			workspaceSlug: place.slug,
			role: place.role as PersonRole,
			userId,
			vendorId: null,
			name: person!.name,
			credential: { kind: 'session', id: '', name: 'portal session' },
			grants: [],
			readOnly: false,
		}
		await recordActivity(tx, actor, {
			action: 'workspace.switched',
			targetType: 'workspace',
			targetId: place.workspaceId,
			detail: { from: session.actor.workspaceSlug },
		})
		return started
	})
}
