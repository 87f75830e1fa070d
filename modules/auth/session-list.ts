/**
 * A person's own signed-in sessions (Security settings): listed with the browser, address and last
 * use the server noted, this one marked; each can be signed out, or all but this one.
 *
 * Rules: a person sees and ends only their own sessions, in every workspace they are in (a session
 * is theirs whatever workspace it was opened in), or only in this one when single sign-on opened
 * this session (`session-reach.ts`); a session is named on the page by the first 16
 * characters of its id (itself the SHA-256 of the cookie token: neither opens the session); ending
 * one deletes it, so its next request is signed out; each change is logged in the workspace of the
 * session it was made from.
 */
import { and, asc, desc, eq, gt, ne, type SQL, sql } from 'drizzle-orm'
import Bowser from 'bowser'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { confinedTo } from './session-reach.ts'
import { sessions, workspaces } from './table.ts'

export interface SessionView {
	/** The first 16 characters of the session's id: how the page names it. */
	ref: string
	/** "Chrome 156 on Linux", or null when the browser said nothing. */
	browser: string | null
	address: string | null
	workspace: string
	signedInAt: Date
	lastUsedAt: Date | null
	current: boolean
}

/** The length of a session's reference on the page. */
export const SESSION_REF_LENGTH = 16

/** What a `User-Agent` says in a few words ("Firefox 131 on macOS"), read with bowser; null when nothing is known. */
export function describeBrowser(userAgent: string | null): string | null {
	if (!userAgent) return null
	const parsed = Bowser.parse(userAgent)
	const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ')
	const os = parsed.os.name
	if (!browser && !os) return userAgent.slice(0, 80)
	return [browser || 'A browser', os ? `on ${os}` : ''].filter(Boolean).join(' ')
}

/** The person's sessions this session reaches: all of them, or those in its own workspace when single sign-on opened it. */
async function reachable(db: Db, session: PageSession): Promise<SQL> {
	const confined = await confinedTo(db, session)
	return and(eq(sessions.userId, session.actor.userId!), confined ? eq(sessions.workspaceId, confined) : undefined)!
}

/** The person's live sessions, most recently used first (this one marked). */
export async function listSessions(deps: AppDeps, session: PageSession): Promise<SessionView[]> {
	const rows = await deps.db
		.select({
			id: sessions.id,
			userAgent: sessions.userAgent,
			address: sessions.address,
			workspace: workspaces.slug,
			createdAt: sessions.createdAt,
			lastUsedAt: sessions.lastUsedAt,
		})
		.from(sessions)
		.innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
		.where(and(await reachable(deps.db, session), gt(sessions.expiresAt, deps.now())))
		.orderBy(sql`${sessions.lastUsedAt} desc nulls last`, desc(sessions.createdAt), asc(sessions.id))
	return rows.map((r) => ({
		ref: r.id.slice(0, SESSION_REF_LENGTH),
		browser: describeBrowser(r.userAgent),
		address: r.address,
		workspace: r.workspace,
		signedInAt: r.createdAt,
		lastUsedAt: r.lastUsedAt,
		current: r.id === session.sessionId,
	}))
}

/** **Sign out** one of the person's sessions (this one too); NOT_FOUND for anything not theirs. */
export async function endSession(deps: AppDeps, session: PageSession, ref: string): Promise<{ current: boolean }> {
	if (!/^[0-9a-f]{16}$/.test(ref)) throw new AppError('NOT_FOUND', 'No such session')
	return deps.db.transaction(async (tx) => {
		const ended = await tx
			.delete(sessions)
			.where(and(await reachable(tx, session), sql`left(${sessions.id}, ${SESSION_REF_LENGTH}) = ${ref}`))
			.returning({ id: sessions.id })
		if (!ended.length) throw new AppError('NOT_FOUND', 'No such session')
		await recordActivity(tx, session.actor, { action: 'person.session_ended', targetType: 'user', targetId: session.actor.userId!, detail: { sessions: 1 } })
		return { current: ended.some((e) => e.id === session.sessionId) }
	})
}

/** **Sign out everywhere else**: every session of the person this one reaches, but this one. */
export async function endOtherSessions(deps: AppDeps, session: PageSession): Promise<number> {
	return deps.db.transaction(async (tx) => {
		const ended = await tx
			.delete(sessions)
			.where(and(await reachable(tx, session), ne(sessions.id, session.sessionId)))
			.returning({ id: sessions.id })
		await recordActivity(tx, session.actor, {
			action: 'person.sessions_ended_elsewhere',
			targetType: 'user',
			targetId: session.actor.userId!,
			detail: { sessions: ended.length },
		})
		return ended.length
	})
}
