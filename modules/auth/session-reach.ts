/**
 * How far a portal session reaches beyond its own workspace. A password proves the person in every
 * workspace they are in. A workspace's identity provider vouches for them in that workspace only:
 * its owner chose the provider and the e-mail domains it covers, and could make it vouch for anyone
 * in those domains. So a session it opened reaches no other workspace: it switches nowhere, answers
 * no invitation to another workspace, and sees and ends only the person's sessions in its own.
 */
import { eq } from 'drizzle-orm'
import type { PageSession } from '../../core/http/auth.ts'
import type { Db } from '../../db/client.ts'
import { sessions } from './table.ts'

/** How a session was opened (`sessions.signed_in_by`). */
export type SignedInBy = 'password' | 'sso'

/** The workspace a session is confined to, or null when it reaches all of the person's workspaces. */
export async function confinedTo(db: Db, session: PageSession): Promise<string | null> {
	const [row] = await db.select({ by: sessions.signedInBy }).from(sessions).where(eq(sessions.id, session.sessionId))
	return row?.by === 'password' ? null : session.actor.workspaceId
}

/** Why a session opened by single sign-on was refused something in another workspace. */
export const confinedMessage = (session: PageSession) =>
	`You signed in with the single sign-on of ${session.actor.workspaceSlug}, which opens that workspace only. Sign out, then sign in with your password to reach your other workspaces.`
