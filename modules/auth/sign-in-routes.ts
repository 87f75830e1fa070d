/**
 * The sign-in choice step (after the password, for people in several workspaces or with
 * invitations only) and the portal's Switch workspace. Every answer to a post is a redirect
 * (Post/Redirect/Get); the choice's token travels only in its own HttpOnly cookie.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { HttpKit } from '../../core/module.ts'
import { invitationsFor } from './invitations.ts'
import { signInPage } from './pages.ts'
import { safeNext } from '../../core/http/return-address.ts'
import { setSessionCookie, type SignInResult } from './sessions.ts'
import { choiceUser, CHOICE_COOKIE, workspacesOf } from './sign-in-choice.ts'
import { choicePage } from './workspace-pages.ts'
import { acceptAtSignIn, chooseWorkspace, declineAtSignIn, switchWorkspace } from './workspace-switch.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const PATH = '/sign-in'

const choiceCookieName = (deps: Pick<AppDeps, 'config'>) => (deps.config.https ? `__Secure-${CHOICE_COOKIE}` : CHOICE_COOKIE)
const choiceCookieOptions = (deps: Pick<AppDeps, 'config'>) => ({ httpOnly: true, secure: deps.config.https, sameSite: 'lax' as const, path: PATH })

export function setChoiceCookie(deps: AppDeps, cookie: Record<string, any>, choice: string, expiresAt: Date) {
	cookie[choiceCookieName(deps)]!.set({ value: choice, expires: expiresAt, ...choiceCookieOptions(deps) })
}

function clearChoiceCookie(deps: AppDeps, cookie: Record<string, any>) {
	cookie[choiceCookieName(deps)]!.set({ value: '', maxAge: 0, ...choiceCookieOptions(deps) })
}

const choiceOf = (deps: AppDeps, cookie: Record<string, any>) => String(cookie[choiceCookieName(deps)]?.value ?? '')

const back = (next: string, done?: string) => `/sign-in/workspace?next=${encodeURIComponent(next)}${done ? `&done=${done}` : ''}`

/** The choice page again, with what went wrong; an expired choice goes back to the password. */
async function refusedChoice(deps: AppDeps, cookie: Record<string, any>, next: string, error: unknown) {
	if (!(error instanceof AppError) || error.status >= 500) throw error
	const userId = await choiceUser(deps, choiceOf(deps, cookie))
	if (!userId) {
		clearChoiceCookie(deps, cookie)
		return signInPage({ csrf: anonymousCsrf(deps, cookie), next, error: error.message, status: 401 })
	}
	return choicePage({
		csrf: anonymousCsrf(deps, cookie),
		next,
		workspaces: await workspacesOf(deps.db, userId, { password: true }),
		invitations: await invitationsFor(deps, userId),
		error: error.message,
		status: 422,
	})
}

/** Into the chosen workspace: the choice is used up, the session begins. */
function enterWorkspace(deps: AppDeps, cookie: Record<string, any>, result: SignInResult) {
	clearChoiceCookie(deps, cookie)
	setSessionCookie(deps, cookie, result.token, result.expiresAt)
}

export function signInChoiceRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'auth.sign-in-choice' })
		.use(auth)
		.get(
			'/sign-in/workspace',
			async ({ cookie, query, redirect }) => {
				const next = safeNext(query.next)
				const userId = await choiceUser(deps, choiceOf(deps, cookie))
				if (!userId) return redirect(`/sign-in?next=${encodeURIComponent(next)}`, 303)
				const notice = query.done === 'declined' ? 'The invitation was declined.' : undefined
				return choicePage({
					csrf: anonymousCsrf(deps, cookie),
					next,
					workspaces: await workspacesOf(deps.db, userId, { password: true }),
					invitations: await invitationsFor(deps, userId),
					notice,
				})
			},
			{ auth: 'form', query: t.Object({ next: t.Optional(t.String({ maxLength: 8000 })), done: t.Optional(t.String()) }) },
		)
		.post(
			'/sign-in/workspace',
			async ({ body, cookie, redirect }) => {
				const fields = body as Record<string, string>
				const next = safeNext(fields.next)
				try {
					enterWorkspace(deps, cookie, await chooseWorkspace(deps, choiceOf(deps, cookie), String(fields.workspace ?? '')))
					return redirect(next, 303)
				} catch (error) {
					return refusedChoice(deps, cookie, next, error)
				}
			},
			{ auth: 'form', body: form },
		)
		.post(
			'/sign-in/invitations/:id/accept',
			async ({ body, cookie, params, redirect }) => {
				const next = safeNext((body as Record<string, string>).next)
				try {
					enterWorkspace(deps, cookie, await acceptAtSignIn(deps, choiceOf(deps, cookie), params.id))
					return redirect(next, 303)
				} catch (error) {
					return refusedChoice(deps, cookie, next, error)
				}
			},
			{ auth: 'form', body: form },
		)
		.post(
			'/sign-in/invitations/:id/decline',
			async ({ body, cookie, params, redirect }) => {
				const next = safeNext((body as Record<string, string>).next)
				try {
					await declineAtSignIn(deps, choiceOf(deps, cookie), params.id)
					return redirect(back(next, 'declined'), 303)
				} catch (error) {
					return refusedChoice(deps, cookie, next, error)
				}
			},
			{ auth: 'form', body: form },
		)
		.post(
			'/portal/switch-workspace',
			async ({ body, cookie, session, redirect }) => {
				const fields = body as Record<string, string>
				const result = await switchWorkspace(deps, session, String(fields.workspace ?? ''))
				setSessionCookie(deps, cookie, result.token, result.expiresAt)
				const next = safeNext(fields.next)
				return redirect(next === '/portal' ? '/portal?done=switched' : next, 303)
			},
			{ session: 'signed-in', body: form },
		)
}
