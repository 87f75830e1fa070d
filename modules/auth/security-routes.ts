/**
 * Security settings: the person's sessions, **Sign out** per session and **Sign out everywhere
 * else** (session-list.ts). Every change answers with a redirect (Post/Redirect/Get); signing out
 * this browser clears its cookie and goes to the sign-in page.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { formBody } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { securityPage } from './security-pages.ts'
import { clearSessionCookie } from './sessions.ts'
import { endOtherSessions, endSession, listSessions } from './session-list.ts'

const NOTICES: Record<string, string> = {
	'signed-out': 'That session was signed out: it must sign in again.',
	'signed-out-others': 'Every other session was signed out. This browser stays signed in.',
}

export function securityRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'auth.security' })
		.use(auth)
		.get(
			'/settings/security',
			async ({ session, query }) => securityPage(deps, session, { sessions: await listSessions(deps, session), notice: NOTICES[query.done ?? ''] }),
			{ session: 'signed-in', query: t.Object({ done: t.Optional(t.String({ maxLength: 40 })) }) },
		)
		.post(
			'/settings/security/sessions/:ref/sign-out',
			async ({ session, params, cookie, redirect }) => {
				try {
					const { current } = await endSession(deps, session, params.ref)
					if (!current) return redirect('/settings/security?done=signed-out', 303)
					clearSessionCookie(deps, cookie)
					return redirect('/sign-in', 303)
				} catch (error) {
					if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error
					// Signed out meanwhile (from another browser), or never theirs: the list as it is now.
					return securityPage(deps, session, { sessions: await listSessions(deps, session), error: 'That session is no longer signed in.' })
				}
			},
			{ session: 'signed-in', body: formBody, params: t.Object({ ref: t.String({ maxLength: 64 }) }) },
		)
		.post(
			'/settings/security/sign-out-others',
			async ({ session, redirect }) => {
				await endOtherSessions(deps, session)
				return redirect('/settings/security?done=signed-out-others', 303)
			},
			{ session: 'signed-in', body: formBody },
		)
}
