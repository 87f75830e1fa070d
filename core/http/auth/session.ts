/**
 * Portal pages: `session: 'signed-in'` (a person with a portal session) and
 * `session: { permission: 'x:y' }` (one whose role or grants include the permission). The handler
 * gets `session` and its `actor`, never null; a post must carry the session's CSRF token.
 *
 * Every answer of such a route says `Cache-Control: no-store`, whatever its status: signed-in pages
 * hold personal data and secrets shown once, and a page a browser kept would come back with Back
 * after Sign out (issue 26). Set here, before anything can refuse, because every signed-in route
 * passes through this one resolver (tests/reliability/headers.test.ts sweeps every such route).
 */
import type { AppDeps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import type { PageSession, PermissionKey, SessionResolver } from '../../module.ts'
import { setRequestTimeZone } from '../../time.ts'
import { navCountsFor } from '../../html.ts'
import { verifyCsrf } from '../csrf.ts'
import { readsOnly } from '../request-path.ts'
import { declare, type ResolveContext } from './declared.ts'

// Declared with the module contract: the module that signs people in provides the resolver.
export type { PageSession, SessionResolver }

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
		resolve: declare(spec, async ({ request, set, cookie, body }: ResolveContext) => {
			set.headers['Cache-Control'] = 'no-store'
			const signedIn = await pageSession(request, cookie)
			setRequestTimeZone(signedIn.timeZone)
			if (!readsOnly(request)) verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, signedIn.csrf)
			// A form post or a script's request is an action, not a page: the refusal says so (the pipeline
			// board's script shows these words when a dragged card goes back, tests/browser/quick-actions.test.ts).
			if (spec !== 'signed-in' && !deps.permissions.can(signedIn.actor, spec.permission))
				throw new AppError('FORBIDDEN', readsOnly(request) ? 'Your role does not allow this page.' : 'Your role does not allow this action.')
			// A page shows the counts beside its navigation; a form post answers with a redirect (or its page again, counts left out),
			// and a script's request for JSON (the header search's dropdown) has no navigation to show them in.
			const page = readsOnly(request) && !(request.headers.get('accept') ?? '').startsWith('application/json')
			const session = page ? { ...signedIn, navCounts: await navCountsFor(deps, signedIn) } : signedIn
			return { session, actor: session.actor }
		}),
	})
}
