/**
 * Portal pages: `session: 'signed-in'` (a person with a portal session) and
 * `session: { permission: 'x:y' }` (one whose role or grants include the permission). The handler
 * gets `session` and its `actor`, never null; a post must carry the session's CSRF token.
 */
import type { Actor } from '../../actor.ts'
import type { AppDeps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import type { PermissionKey } from '../../module.ts'
import { verifyCsrf } from '../csrf.ts'
import { declare, type ResolveContext } from './declared.ts'

/** A signed-in portal session, as pages see it. */
export interface PageSession {
	readonly actor: Actor
	/** Token every form of this session must carry. */
	readonly csrf: string
	readonly sessionId: string
	/**
	 * A page the person must go to before any other (a temporary password to replace): every other
	 * page redirects there (with `next`), every other signed-in request is refused with `reason`.
	 * The session resolver leaves it out on that page itself and on the few it needs (sign-out).
	 */
	readonly mustVisit?: { readonly path: string; readonly reason: string }
}

export type SessionResolver = (deps: AppDeps, request: Request, cookie: Record<string, any>) => Promise<PageSession | null>

/** The session of a request: 401 without one, 403 (to the page to visit first) while one is owed. */
export type PageSessionOf = (request: Request, cookie: Record<string, any>) => Promise<PageSession>

export function pageSessionOf(deps: AppDeps, resolver: SessionResolver | null): PageSessionOf {
	return async (request, cookie) => {
		const session = resolver ? await resolver(deps, request, cookie) : null
		if (!session) throw new AppError('UNAUTHORIZED', 'Sign in to continue')
		if (session.mustVisit) throw visitFirst(request, session.mustVisit)
		return session
	}
}

/** The refusal of a request made before the page the session must visit first. */
function visitFirst(request: Request, mustVisit: NonNullable<PageSession['mustVisit']>): AppError {
	const url = new URL(request.url)
	return new AppError('FORBIDDEN', mustVisit.reason, { location: `${mustVisit.path}?next=${encodeURIComponent(url.pathname + url.search)}` })
}

export function sessionAuth(deps: AppDeps, pageSession: PageSessionOf) {
	return (spec: 'signed-in' | { permission: PermissionKey }) => ({
		resolve: declare(spec, async ({ request, cookie, body }: ResolveContext) => {
			const session = await pageSession(request, cookie)
			if (request.method !== 'GET' && request.method !== 'HEAD') verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, session.csrf)
			if (spec !== 'signed-in' && !deps.permissions.can(session.actor, spec.permission)) throw new AppError('FORBIDDEN', 'Your role does not allow this page.')
			return { session, actor: session.actor }
		}),
	})
}
