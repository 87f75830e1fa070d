/**
 * Routes without a credential: `auth: 'public'` (careers pages, health, OAuth endpoints) and
 * `auth: 'form'` (anyone, but a form post must carry the double-submit CSRF token: sign-in,
 * sign-up, forgot password). The handler gets nothing from here.
 */
import type { AppDeps } from '../../deps.ts'
import { anonymousCsrf, CSRF_COOKIE, verifyCsrf } from '../csrf.ts'
import { readsOnly } from '../request-path.ts'
import { declare, type ResolveContext } from './declared.ts'

export function anonymousAuth(deps: AppDeps) {
	return (spec: 'public' | 'form') => ({
		resolve: declare(spec, async ({ request, cookie, body }: ResolveContext): Promise<void> => {
			if (spec === 'public') return
			// HEAD is GET without the body: the same headers (the double-submit cookie), no form to check.
			if (readsOnly(request)) anonymousCsrf(deps, cookie)
			else verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, cookie[CSRF_COOKIE]?.value ?? '')
		}),
	})
}
