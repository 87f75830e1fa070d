/**
 * Which workspace a sign-in opens. A person in one workspace goes straight in; a person in several
 * (or in none, with invitations waiting) chooses after the password: a short-lived, single-use
 * choice (its token in a cookie limited to /sign-in, only its SHA-256 stored) stands between the
 * password and a session, so the password is asked once and the session is bound to the workspace
 * chosen, which must be one of theirs.
 */
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import { hashSecret, randomToken } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { invitationsFor } from './invitations.ts'
import { memberships, signInChoices, ssoConfigs, workspaces } from './table.ts'

export const CHOICE_COOKIE = 'bl_sign_in_choice'
/** Long enough to read the choices; the password is asked again after it. */
export const CHOICE_MINUTES = 10

export interface Membership {
	workspaceId: string
	slug: string
	name: string
	role: string
}

/**
 * Where a password (or a session opened with one) may lead: a workspace that requires single
 * sign-on is open to its owners only (their way back in if the provider fails).
 */
export const passwordMayOpen = () =>
	or(eq(memberships.role, 'owner'), sql`not exists (select 1 from ${ssoConfigs} c where c.workspace_id = ${memberships.workspaceId} and c.require_sso)`)

/** The workspaces the person is in now, by name; with `password`, those a password may open (`passwordMayOpen`). */
export async function workspacesOf(db: Db, userId: string, o: { password?: boolean } = {}): Promise<Membership[]> {
	return db
		.select({ workspaceId: workspaces.id, slug: workspaces.slug, name: workspaces.name, role: memberships.role })
		.from(memberships)
		.innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
		.where(and(eq(memberships.userId, userId), isNull(memberships.removedAt), o.password ? passwordMayOpen() : undefined))
		.orderBy(workspaces.name, workspaces.slug)
}

/** Where a right password leads: the one workspace, a choice, or nowhere (no workspace, no invitation). */
export async function signInDestination(deps: AppDeps, userId: string): Promise<Membership | 'choose' | null> {
	const places = await workspacesOf(deps.db, userId, { password: true })
	if (places.length === 1) return places[0]!
	if (places.length > 1) return 'choose'
	return (await invitationsFor(deps, userId)).length ? 'choose' : null
}

export async function openChoice(deps: AppDeps, userId: string): Promise<{ choice: string; expiresAt: Date }> {
	const choice = randomToken()
	const expiresAt = new Date(deps.now().getTime() + CHOICE_MINUTES * 60_000)
	await deps.db.insert(signInChoices).values({ id: hashSecret(choice), userId, expiresAt })
	return { choice, expiresAt }
}

/** The person whose password opened this choice, while it lasts; null for anything else. */
export async function choiceUser(deps: AppDeps, choice: unknown): Promise<string | null> {
	if (typeof choice !== 'string' || !/^[a-z2-7]{32}$/.test(choice)) return null
	const [row] = await deps.db
		.select({ userId: signInChoices.userId })
		.from(signInChoices)
		.where(and(eq(signInChoices.id, hashSecret(choice)), gt(signInChoices.expiresAt, deps.now())))
	return row?.userId ?? null
}

/** Uses the choice up (it opened a session). */
export async function endChoice(db: Db, choice: string): Promise<void> {
	await db.delete(signInChoices).where(eq(signInChoices.id, hashSecret(choice)))
}
