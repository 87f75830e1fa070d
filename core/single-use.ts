/**
 * Single-use tickets: an id that can be used once, until it expires, on any instance (a row in
 * `pending_reveals`, deleted by the one use that counts; the row holds nothing else). A secret
 * shown once (`http/reveal-cookie.ts`) and a confirmation a person gave (`mcp/confirm.ts`) are
 * each bound to one: replaying the sealed value that carries the id finds no row.
 */
import { and, eq, gt, lt } from 'drizzle-orm'
import { pendingReveals } from '../db/core-tables.ts'
import { randomToken } from './credentials.ts'
import type { AppDeps } from './deps.ts'

type Deps = Pick<AppDeps, 'now' | 'db'>

/** A new ticket, usable once for `ms`. */
export async function issueTicket(deps: Deps, ms: number): Promise<string> {
	const now = deps.now()
	const ticket = randomToken()
	// Tickets never used (the person went elsewhere) go as later ones are issued.
	await deps.db.delete(pendingReveals).where(lt(pendingReveals.expiresAt, now))
	await deps.db.insert(pendingReveals).values({ id: ticket, expiresAt: new Date(now.getTime() + ms) })
	return ticket
}

/** Uses the ticket: true the first time while it lasts, false ever after (two uses at once: one wins). */
export async function useTicket(deps: Deps, ticket: string): Promise<boolean> {
	const used = await deps.db
		.delete(pendingReveals)
		.where(and(eq(pendingReveals.id, ticket), gt(pendingReveals.expiresAt, deps.now())))
		.returning({ id: pendingReveals.id })
	return used.length > 0
}
